// What one validation run carries through the compiled closures. On the valid path nothing is
// allocated: `out` is null and checks answer booleans; only a failed instance is validated a
// second time with `out` set, collecting faults.
import type { Fault } from "./fault.js";
import { escapeToken, toPointer } from "./pointer.js";
import type { Resource } from "./refs.js";

/**
 * The exact integer a number at parent[key] was written as, when JSON.parse rounded it: an
 * integer beyond ±(2^53−1), kept from the source text by the SDK's parser (undefined for every
 * other number). The validated value itself comes as (null, "").
 */
export type ExactProbe = (parent: object | null, key: string | number) => bigint | undefined;

export interface State {
  /** Collected faults, or null on the boolean fast path. */
  out: Fault[] | null;
  /** Instance location tokens of the value being checked. */
  readonly path: (string | number)[];
  /** Schema resources entered, outermost first, for $dynamicRef. */
  readonly dyn: Resource[];
  exact: ExactProbe | null;
}

/**
 * Annotations of the instance being checked that unevaluatedProperties and unevaluatedItems
 * need: which properties and items some valid subschema already evaluated.
 */
export class Evaluated {
  props: Set<string> | null = null;
  allProps = false;
  items = 0; // items 0..items-1 evaluated (prefixItems)
  itemSet: Set<number> | null = null; // items evaluated by contains
  allItems = false;

  prop(name: string): void {
    (this.props ??= new Set()).add(name);
  }

  item(i: number): void {
    (this.itemSet ??= new Set()).add(i);
  }

  merge(from: Evaluated): void {
    if (from.allProps) this.allProps = true;
    else if (from.props !== null) for (const p of from.props) this.prop(p);
    if (from.allItems) this.allItems = true;
    if (from.items > this.items) this.items = from.items;
    if (from.itemSet !== null) for (const i of from.itemSet) this.item(i);
  }

  hasProp(name: string): boolean {
    return this.allProps || (this.props !== null && this.props.has(name));
  }

  hasItem(i: number): boolean {
    return this.allItems || i < this.items || (this.itemSet !== null && this.itemSet.has(i));
  }
}

/** A compiled check of one value: `parent`/`key` locate it (for the float probe), `ev` collects annotations. */
export type Check = (v: unknown, parent: object | null, key: string | number, st: State, ev: Evaluated | null) => boolean;

/** Record a fault at the current location (or at its child `token`). Only called when st.out is set. */
export function report(st: State, keyword: string, schemaPath: string, reason: string, token?: string | number): void {
  const here = toPointer(st.path);
  const pointer = token === undefined ? here : `${here}/${escapeToken(token)}`;
  st.out!.push({ pointer, keyword, schemaPath, reason });
}

/** Check v against `check` on the boolean path, whatever mode the run is in (branches of anyOf, oneOf, not, if). */
export function quietly(check: Check, v: unknown, parent: object | null, key: string | number, st: State, ev: Evaluated | null): boolean {
  const out = st.out;
  if (out === null) return check(v, parent, key, st, ev);
  st.out = null;
  try {
    return check(v, parent, key, st, ev);
  } finally {
    st.out = out;
  }
}

/**
 * Reads an own property of a JSON object fast: for a name Object.prototype lacks, a plain
 * lookup is undefined exactly when the object does not have it.
 */
export function getter(name: string): (o: Record<string, unknown>) => unknown {
  if (name in Object.prototype) return (o) => (Object.prototype.hasOwnProperty.call(o, name) ? o[name] : undefined);
  return (o) => o[name];
}
