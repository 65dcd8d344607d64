// Schema resources and reference resolution: every `$id` starts a resource with its own base
// URI, `$anchor`/`$dynamicAnchor` name subschemas in it, and `$ref` URIs resolve against the
// base in effect to a resource plus an empty fragment, a JSON pointer or an anchor. Documents
// the schema does not embed come only from the caller's loader (no network): an unknown one
// is a compile error.
import { escapeToken, parsePointer } from "./pointer.js";

export type RawSchema = boolean | Record<string, unknown>;

/** Which vocabularies a resource's `$schema` enables (core is always on). */
export interface Vocab {
  readonly applicator: boolean;
  readonly unevaluated: boolean;
  readonly validation: boolean;
  readonly format: boolean; // format-assertion
}

export const ALL_VOCABS: Vocab = { applicator: true, unevaluated: true, validation: true, format: false };

/** A schema resource: a document root or a subschema with `$id`. */
export interface Resource {
  readonly uri: string; // absolute, without fragment
  readonly root: RawSchema;
  readonly anchors: Map<string, RawSchema>;
  readonly dynamicAnchors: Set<string>;
  vocab: Vocab;
}

/** Where a subschema object sits: its resource and its location for error messages. */
export interface Place {
  readonly resource: Resource;
  readonly ptr: string; // pointer from its document's root
  readonly doc: string; // "" for the schema being compiled, else the document's URI
}

/** A schema that cannot be compiled; `pointer` is the bad keyword's location. */
export class SchemaError extends Error {
  override name = "SchemaError";
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${pointer === "" ? "(root)" : pointer}: ${reason}`);
  }
}

/** Keywords whose value is one subschema, an array of them, or an object of them. */
export const SUBSCHEMA: ReadonlySet<string> = new Set([
  "additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else",
]);
export const SUBSCHEMA_ARRAY: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
export const SUBSCHEMA_MAP: ReadonlySet<string> = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);

export const DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/** The base URI of a schema without `$id`: opaque, so relative references fail loudly. */
export const DEFAULT_BASE = "urn:octet:schema";

export function isSchema(raw: unknown): raw is RawSchema {
  return typeof raw === "boolean" || (typeof raw === "object" && raw !== null && !Array.isArray(raw));
}

/** Resolve `ref` against `base`; throws SchemaError at `at` when it is no URI reference. */
export function resolveUri(ref: string, base: string, at: string): string {
  try {
    return new URL(ref, base).href;
  } catch {
    throw new SchemaError(at, `cannot resolve ${JSON.stringify(ref)} against the base URI ${base}`);
  }
}

function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf("#");
  return hash < 0 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

function label(doc: string, ptr: string): string {
  return doc === "" ? ptr : `${doc}#${ptr}`;
}

export class Registry {
  private readonly resources = new Map<string, Resource>();
  readonly places = new Map<object, Place>();

  constructor(private readonly load: (uri: string) => unknown) {}

  /** Every resource known so far (the compiler pre-compiles their dynamic anchors). */
  all(): Iterable<Resource> {
    return this.resources.values();
  }

  /** Index a document retrieved as `uri`; `doc` labels its errors. */
  addDocument(raw: unknown, uri: string, doc: string): Resource {
    if (!isSchema(raw)) throw new SchemaError(label(doc, ""), "a schema must be an object or a boolean");
    const resource = this.newResource(uri, raw, ALL_VOCABS, label(doc, ""));
    this.index(raw, resource, "", doc, true);
    return resource;
  }

  private newResource(uri: string, root: RawSchema, inherited: Vocab, at: string): Resource {
    const resource: Resource = { uri, root, anchors: new Map(), dynamicAnchors: new Set(), vocab: inherited };
    if (typeof root === "object" && root["$schema"] !== undefined) {
      if (typeof root["$schema"] !== "string") throw new SchemaError(`${at}/$schema`, "$schema must be a string");
      resource.vocab = this.vocabOf(root["$schema"], `${at}/$schema`);
    }
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    return resource;
  }

  // A meta-schema other than 2020-12's own is read for its $vocabulary (an unknown required
  // vocabulary is refused); a $schema that cannot be loaded validates with 2020-12 rules.
  private vocabOf(dialect: string, at: string): Vocab {
    const uri = splitFragment(dialect)[0];
    if (uri === DIALECT_2020_12) return ALL_VOCABS;
    const meta = this.load(uri);
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return ALL_VOCABS;
    const vocabs = (meta as Record<string, unknown>)["$vocabulary"];
    if (typeof vocabs !== "object" || vocabs === null) return ALL_VOCABS;
    const on = new Set<string>();
    for (const [name, required] of Object.entries(vocabs)) {
      if (name.startsWith(VOCAB)) on.add(name.slice(VOCAB.length));
      else if (required === true) throw new SchemaError(at, `meta-schema ${uri} requires the unknown vocabulary ${name}`);
    }
    return { applicator: on.has("applicator"), unevaluated: on.has("unevaluated"), validation: on.has("validation"), format: on.has("format-assertion") };
  }

  private index(raw: RawSchema, resource: Resource, ptr: string, doc: string, isRoot: boolean): void {
    if (typeof raw === "boolean") return;
    if (this.places.has(raw)) return;
    const id = raw["$id"];
    if (id !== undefined && !isRoot) {
      if (typeof id !== "string") throw new SchemaError(label(doc, `${ptr}/$id`), "$id must be a string");
      const uri = splitFragment(resolveUri(id, resource.uri, label(doc, `${ptr}/$id`)))[0];
      resource = this.newResource(uri, raw, resource.vocab, label(doc, ptr));
    } else if (id !== undefined && isRoot) {
      if (typeof id !== "string") throw new SchemaError(label(doc, `${ptr}/$id`), "$id must be a string");
      const uri = splitFragment(resolveUri(id, resource.uri, label(doc, `${ptr}/$id`)))[0];
      if (uri !== resource.uri) {
        const again: Resource = { uri, root: raw, anchors: resource.anchors, dynamicAnchors: resource.dynamicAnchors, vocab: resource.vocab };
        if (!this.resources.has(uri)) this.resources.set(uri, again);
        resource = again;
      }
    }
    this.places.set(raw, { resource, ptr, doc });
    for (const kw of ["$anchor", "$dynamicAnchor"]) {
      const name = raw[kw];
      if (name === undefined) continue;
      if (typeof name !== "string" || !ANCHOR.test(name)) throw new SchemaError(label(doc, `${ptr}/${kw}`), `${kw} must be a plain name (letters, digits, "-", "_", ".")`);
      resource.anchors.set(name, raw);
      if (kw === "$dynamicAnchor") resource.dynamicAnchors.add(name);
    }
    for (const [kw, value] of Object.entries(raw)) {
      const at = `${ptr}/${escapeToken(kw)}`;
      if (SUBSCHEMA.has(kw)) {
        if (isSchema(value)) this.index(value, resource, at, doc, false);
      } else if (SUBSCHEMA_ARRAY.has(kw)) {
        if (Array.isArray(value)) value.forEach((sub, i) => isSchema(sub) && this.index(sub, resource, `${at}/${i}`, doc, false));
      } else if (SUBSCHEMA_MAP.has(kw)) {
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          for (const [name, sub] of Object.entries(value)) if (isSchema(sub)) this.index(sub, resource, `${at}/${escapeToken(name)}`, doc, false);
        }
      }
    }
  }

  /** Where a subschema object sits (indexed by addDocument or resolve). */
  placeOf(raw: object): Place {
    return this.places.get(raw)!;
  }

  /** Resolve a reference URI (already absolute) found at `at` to its subschema. */
  resolve(uri: string, at: string): { raw: RawSchema; resource: Resource; ptr: string; doc: string } {
    const [docUri, fragment] = splitFragment(uri);
    let resource = this.resources.get(docUri);
    if (resource === undefined) {
      const loaded = this.load(docUri);
      if (loaded === undefined) throw new SchemaError(at, `cannot resolve $ref ${JSON.stringify(uri)}: no schema with that URI is known (remote schemas are never fetched)`);
      this.addDocument(loaded, docUri, docUri);
      resource = this.resources.get(docUri)!;
    }
    let name: string;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      throw new SchemaError(at, `cannot resolve $ref ${JSON.stringify(uri)}: bad percent-encoding in the fragment`);
    }
    const rootPlace = typeof resource.root === "object" ? this.places.get(resource.root) : undefined;
    const doc = rootPlace?.doc ?? docUri;
    if (name === "") return { raw: resource.root, resource, ptr: rootPlace?.ptr ?? "", doc };
    if (!name.startsWith("/")) {
      const raw = resource.anchors.get(name);
      if (raw === undefined) throw new SchemaError(at, `cannot resolve $ref ${JSON.stringify(uri)}: no $anchor ${JSON.stringify(name)} in ${docUri}`);
      const place = typeof raw === "object" ? this.places.get(raw) : undefined;
      return { raw, resource: place?.resource ?? resource, ptr: place?.ptr ?? "", doc: place?.doc ?? doc };
    }
    // A pointer walks the resource's JSON, also into places no keyword makes a schema.
    let node: unknown = resource.root;
    let ptr = rootPlace?.ptr ?? "";
    let current = resource;
    for (const token of parsePointer(name)) {
      if (typeof node !== "object" || node === null) node = undefined;
      else if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
      else node = Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
      if (node === undefined) throw new SchemaError(at, `cannot resolve $ref ${JSON.stringify(uri)}: nothing at that pointer`);
      ptr += `/${escapeToken(token)}`;
      if (typeof node === "object" && node !== null) {
        const p = this.places.get(node);
        if (p !== undefined) current = p.resource;
      }
    }
    if (!isSchema(node)) throw new SchemaError(at, `cannot resolve $ref ${JSON.stringify(uri)}: the value there is not a schema`);
    if (typeof node === "object" && !this.places.has(node)) this.index(node, current, ptr, doc, false);
    const place = typeof node === "object" ? this.places.get(node)! : { resource: current, ptr, doc };
    return { raw: node, resource: place.resource, ptr: place.ptr, doc: place.doc };
  }
}

export { label as placeLabel };
