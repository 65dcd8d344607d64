// The draft 2020-12 meta-schemas, built in so that `$ref: "https://json-schema.org/draft/2020-12/schema"`
// resolves without a network. Written here from the rules of the specification (the dialect's
// vocabularies and the types of their keywords); annotations-only details (titles, comments,
// defaults) are left out since they change no verdict.
const BASE = "https://json-schema.org/draft/2020-12/";
const META = { $dynamicRef: "#meta" };
const schemaMap = { type: "object", additionalProperties: META };

type Doc = Record<string, unknown>;

function vocabulary(name: string, properties: Doc, defs: Doc = {}): Doc {
  return {
    $schema: `${BASE}schema`,
    $id: `${BASE}meta/${name}`,
    $dynamicAnchor: "meta",
    type: ["object", "boolean"],
    properties,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

const uriString = { type: "string", format: "uri" };
const uriReference = { type: "string", format: "uri-reference" };
const anchor = { type: "string", pattern: "^[A-Za-z_][-A-Za-z0-9._]*$" };

const core = vocabulary("core", {
  $id: { ...uriReference, pattern: "^[^#]*#?$" },
  $schema: uriString,
  $ref: uriReference,
  $anchor: anchor,
  $dynamicRef: uriReference,
  $dynamicAnchor: anchor,
  $vocabulary: { type: "object", propertyNames: uriString, additionalProperties: { type: "boolean" } },
  $comment: { type: "string" },
  $defs: schemaMap,
});

const schemaArray = { type: "array", minItems: 1, items: META };
const applicator = vocabulary("applicator", {
  prefixItems: schemaArray,
  items: META,
  contains: META,
  additionalProperties: META,
  properties: schemaMap,
  patternProperties: { ...schemaMap, propertyNames: { format: "regex" } },
  dependentSchemas: schemaMap,
  propertyNames: META,
  if: META,
  then: META,
  else: META,
  allOf: schemaArray,
  anyOf: schemaArray,
  oneOf: schemaArray,
  not: META,
});

const unevaluated = vocabulary("unevaluated", { unevaluatedItems: META, unevaluatedProperties: META });

const count = { type: "integer", minimum: 0 };
const simpleTypes = { enum: ["array", "boolean", "integer", "null", "number", "object", "string"] };
const stringArray = { type: "array", items: { type: "string" }, uniqueItems: true };
const validation = vocabulary("validation", {
  type: { anyOf: [simpleTypes, { type: "array", items: simpleTypes, minItems: 1, uniqueItems: true }] },
  const: true,
  enum: { type: "array" },
  multipleOf: { type: "number", exclusiveMinimum: 0 },
  maximum: { type: "number" },
  exclusiveMaximum: { type: "number" },
  minimum: { type: "number" },
  exclusiveMinimum: { type: "number" },
  maxLength: count,
  minLength: count,
  pattern: { type: "string", format: "regex" },
  maxItems: count,
  minItems: count,
  uniqueItems: { type: "boolean" },
  maxContains: count,
  minContains: count,
  maxProperties: count,
  minProperties: count,
  required: stringArray,
  dependentRequired: { type: "object", additionalProperties: stringArray },
});

const metaData = vocabulary("meta-data", {
  title: { type: "string" },
  description: { type: "string" },
  default: true,
  deprecated: { type: "boolean" },
  readOnly: { type: "boolean" },
  writeOnly: { type: "boolean" },
  examples: { type: "array" },
});

const formatAnnotation = vocabulary("format-annotation", { format: { type: "string" } });

const content = vocabulary("content", { contentEncoding: { type: "string" }, contentMediaType: { type: "string" }, contentSchema: META });

const parts = { core, applicator, unevaluated, validation, "meta-data": metaData, "format-annotation": formatAnnotation, content };

const dialect: Doc = {
  $schema: `${BASE}schema`,
  $id: `${BASE}schema`,
  $vocabulary: Object.fromEntries(Object.keys(parts).map((name) => [`${BASE}vocab/${name}`, true])),
  $dynamicAnchor: "meta",
  allOf: Object.keys(parts).map((name) => ({ $ref: `meta/${name}` })),
  type: ["object", "boolean"],
};

const documents = new Map<string, Doc>([[`${BASE}schema`, dialect], ...Object.entries(parts).map(([name, doc]) => [`${BASE}meta/${name}`, doc] as [string, Doc])]);

/** The built-in document with this URI (the 2020-12 meta-schemas), or undefined. */
export function builtinDocument(uri: string): unknown {
  return documents.get(uri);
}
