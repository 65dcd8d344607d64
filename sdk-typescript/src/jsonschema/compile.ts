// The compiler: a schema becomes a tree of closures once, references are resolved (and an
// unresolvable one refused) at compile time, and validation is a boolean walk that allocates
// nothing for a valid instance. A failed instance is walked again collecting every fault, and
// leastFault picks the one the wire carries.
import { compileApplicators, compileUnevaluated, type ApplicatorContext } from "./applicators.js";
import { leastFault, type Fault } from "./fault.js";
import { compileAssertions, compileGates } from "./keywords.js";
import { builtinDocument } from "./metaschema.js";
import { escapeToken } from "./pointer.js";
import { reasons } from "./reasons.js";
import { DEFAULT_BASE, isSchema, placeLabel, Registry, resolveUri, SchemaError, type Resource } from "./refs.js";
import { Evaluated, report, type Check, type ExactProbe, type State } from "./state.js";

export interface CompileOptions {
  /** Documents a `$ref` may name besides the schema itself, by absolute URI; never fetched. */
  readonly remotes?: (uri: string) => unknown;
  /** Check `format` (draft 2020-12 makes it an annotation by default). */
  readonly assertFormat?: boolean;
  /** The schema's retrieval URI when it has no `$id`. */
  readonly baseUri?: string;
}

/** A compiled schema: judge instances as often as needed. */
export interface CompiledSchema {
  /**
   * Whether `value` is valid; allocates nothing on the way. `exact` gives the exact integers
   * of numbers JSON.parse rounded (beyond 2^53), so they are judged as written; a bigint in
   * `value` is such an integer too.
   */
  valid(value: unknown, exact?: ExactProbe): boolean;
  /** Every fault of `value` (empty when valid). */
  faults(value: unknown, exact?: ExactProbe): Fault[];
  /** The one fault reported for `value` (the least by the fault order), or null when valid. */
  check(value: unknown, exact?: ExactProbe): Fault | null;
}

interface Node {
  fn: Check;
  readonly resource: Resource;
  readonly isRoot: boolean;
  /** fn is final (false only while the node's own keywords compile, e.g. in a $ref cycle). */
  done: boolean;
}

const PASS: Check = () => true;
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

class Compiler {
  private readonly nodes = new Map<object, Node>();
  readonly dynamic = new Map<Resource, Map<string, Node>>();

  constructor(
    private readonly registry: Registry,
    private readonly assertFormat: boolean,
  ) {}

  node(raw: unknown, resource: Resource, ptr: string, doc: string): Node {
    if (!isSchema(raw)) throw new SchemaError(placeLabel(doc, ptr), "a schema must be an object or a boolean");
    if (raw === true) return { fn: PASS, resource, isRoot: false, done: true };
    if (raw === false) {
      const at = placeLabel(doc, ptr);
      const fn: Check = (_v, _p, _k, st) => {
        if (st.out !== null) report(st, "false", at, reasons.false());
        return false;
      };
      return { fn, resource, isRoot: false, done: true };
    }
    const known = this.nodes.get(raw);
    if (known !== undefined) return known;
    const place = this.registry.placeOf(raw);
    const node: Node = { fn: PASS, resource: place.resource, isRoot: place.resource.root === raw, done: false };
    this.nodes.set(raw, node); // before the keywords: a cycle of references finds it
    const base = placeLabel(place.doc, place.ptr);
    const ctx: ApplicatorContext = {
      raw,
      at: (kw) => `${base}/${escapeToken(kw)}`,
      assertFormat: this.assertFormat || place.resource.vocab.format,
      sub: (path, sub) => {
        if (sub === true) return PASS;
        const n = this.node(sub, place.resource, `${place.ptr}/${path}`, place.doc);
        // A node still compiling (a cycle) is called through its cell; a finished one directly.
        return n.done ? n.fn : (v, p, k, st, ev) => n.fn(v, p, k, st, ev);
      },
    };
    const vocab = place.resource.vocab;
    const gates = compileGates(ctx, vocab.validation);
    const applied = [...this.references(raw, place.resource, ctx), ...compileApplicators(ctx, vocab.applicator)];
    const checks = [...compileAssertions(ctx, vocab.validation), ...applied];
    const late = compileUnevaluated(ctx, vocab.unevaluated);
    if (raw["$defs"] !== undefined) {
      const defs = raw["$defs"];
      if (typeof defs !== "object" || defs === null || Array.isArray(defs)) throw new SchemaError(ctx.at("$defs"), "$defs must be an object of schemas");
      for (const [name, sub] of Object.entries(defs)) this.node(sub, place.resource, `${place.ptr}/$defs/${escapeToken(name)}`, place.doc);
    }
    node.fn = combine(gates, checks, late, applied.length > 0);
    // Only resources with a $dynamicAnchor can be what a $dynamicRef finds in the dynamic scope.
    if (node.isRoot && place.resource.dynamicAnchors.size > 0) {
      const inner = node.fn;
      const resource = place.resource;
      node.fn = (v, p, k, st, ev) => {
        st.dyn.push(resource);
        const ok = inner(v, p, k, st, ev);
        st.dyn.pop();
        return ok;
      };
    }
    node.done = true;
    return node;
  }

  private references(raw: Record<string, unknown>, resource: Resource, ctx: ApplicatorContext): Check[] {
    const out: Check[] = [];
    for (const kw of ["$ref", "$dynamicRef"] as const) {
      if (!own(raw, kw)) continue;
      const ref = raw[kw];
      const at = ctx.at(kw);
      if (typeof ref !== "string") throw new SchemaError(at, `${kw} must be a string`);
      const uri = resolveUri(ref, resource.uri, at);
      const target = this.registry.resolve(uri, at);
      const node = this.node(target.raw, target.resource, target.ptr, target.doc);
      const fragment = uri.includes("#") ? decodeURIComponent(uri.slice(uri.indexOf("#") + 1)) : "";
      // A $dynamicRef is dynamic only when its static target carries the same $dynamicAnchor.
      const name =
        kw === "$dynamicRef" && fragment !== "" && !fragment.startsWith("/") && typeof target.raw === "object" && target.raw["$dynamicAnchor"] === fragment ? fragment : null;
      const dynamic = this.dynamic;
      out.push((v, p, k, st, ev) => {
        let to = node;
        if (name !== null) {
          for (const r of st.dyn) {
            if (!r.dynamicAnchors.has(name)) continue;
            to = dynamic.get(r)?.get(name) ?? node;
            break;
          }
        }
        if (to.isRoot || to.resource.dynamicAnchors.size === 0) return to.fn(v, p, k, st, ev);
        st.dyn.push(to.resource);
        const ok = to.fn(v, p, k, st, ev);
        st.dyn.pop();
        return ok;
      });
    }
    return out;
  }

  /** Compile every $dynamicAnchor of every resource known, so $dynamicRef never compiles at run time. */
  compileDynamicAnchors(): void {
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of [...this.registry.all()]) {
        for (const name of r.dynamicAnchors) {
          let byName = this.dynamic.get(r);
          if (byName === undefined) this.dynamic.set(r, (byName = new Map()));
          if (byName.has(name)) continue;
          const raw = r.anchors.get(name)!;
          const place = typeof raw === "object" ? this.registry.placeOf(raw) : { resource: r, ptr: "", doc: r.uri };
          byName.set(name, this.node(raw, place.resource, place.ptr, place.doc));
          grew = true;
        }
      }
    }
  }
}

/**
 * One schema object's keywords as one closure. A failing gate (type, const, enum) ends the
 * object's evaluation, faults collected or not. With `track` (the object applies subschemas)
 * or unevaluated* keywords, annotations are gathered in the object's own set and reach the
 * parent only when the object holds: a failing schema evaluates nothing.
 */
function combine(gates: Check[], rest: Check[], late: Check[], track: boolean): Check {
  const g = gates.length;
  const all = [...gates, ...rest];
  const n = all.length;
  if (late.length === 0 && !track) {
    if (n === 0) return PASS;
    if (n === 1) return all[0]!;
    return (v, p, k, st, ev) => {
      for (let i = 0; i < g; i++) if (!all[i]!(v, p, k, st, ev)) return false;
      let ok = true;
      for (let i = g; i < n; i++) {
        if (all[i]!(v, p, k, st, ev)) continue;
        ok = false;
        if (st.out === null) return false;
      }
      return ok;
    };
  }
  const m = late.length;
  return (v, p, k, st, ev) => {
    const mine = m > 0 || ev !== null ? new Evaluated() : null;
    for (let i = 0; i < g; i++) if (!all[i]!(v, p, k, st, mine)) return false;
    let ok = true;
    for (let i = g; i < n; i++) {
      if (all[i]!(v, p, k, st, mine)) continue;
      ok = false;
      if (st.out === null) return false;
    }
    for (let i = 0; i < m; i++) {
      if (late[i]!(v, p, k, st, mine)) continue;
      ok = false;
      if (st.out === null) return false;
    }
    if (ok && ev !== null) ev.merge(mine!);
    return ok;
  };
}

/**
 * Compile a JSON Schema (draft 2020-12) once. Throws SchemaError (with the pointer of the bad
 * keyword) when the schema cannot be compiled: a wrong keyword type, an invalid pattern, or a
 * `$ref` to a document neither embedded nor given in `options.remotes`.
 */
export function compileSchema(schema: unknown, options: CompileOptions = {}): CompiledSchema {
  const remotes = options.remotes;
  const registry = new Registry((uri) => remotes?.(uri) ?? builtinDocument(uri));
  const base = options.baseUri ?? DEFAULT_BASE;
  const resource = registry.addDocument(schema, base, "");
  const compiler = new Compiler(registry, options.assertFormat === true);
  const root = compiler.node(schema, resource, "", "");
  compiler.compileDynamicAnchors();
  // One state per compiled schema: validation is synchronous, so runs never overlap.
  const st: State = { out: null, path: [], dyn: [], exact: null };
  const fn = root.fn;
  // The boolean walk leaves path and dyn as it found them (pushes and pops pair up), so only
  // a thrown exception (a stack overflow) could leave them dirty: both are reset per run.
  const valid = (value: unknown, exact: ExactProbe | undefined): boolean => {
    if (st.dyn.length !== 0) st.dyn.length = 0;
    st.exact = exact ?? null;
    return fn(value, null, "", st, null);
  };
  const collect = (value: unknown, exact: ExactProbe | undefined): Fault[] => {
    const out: Fault[] = [];
    if (st.path.length !== 0) st.path.length = 0;
    if (st.dyn.length !== 0) st.dyn.length = 0;
    st.exact = exact ?? null;
    st.out = out;
    try {
      fn(value, null, "", st, null);
    } finally {
      st.out = null;
    }
    return out;
  };
  return {
    valid,
    faults: (value, exact) => (valid(value, exact) ? [] : collect(value, exact)),
    check: (value, exact) => (valid(value, exact) ? null : leastFault(collect(value, exact))),
  };
}
