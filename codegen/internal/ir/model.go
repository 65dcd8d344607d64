// Package ir is the intermediate model every emitter reads: the schema files decoded in
// declaration order, references resolved to named types, inline objects hoisted into named
// types, and the registries (limits, errors, methods) as plain data. Load builds it; Lint
// refuses anything outside the subset the emitters support.
package ir

// Kind is a JSON value kind.
type Kind string

const (
	Object  Kind = "object"
	Array   Kind = "array"
	String  Kind = "string"
	Integer Kind = "integer"
	Number  Kind = "number"
	Boolean Kind = "boolean"
	Null    Kind = "null"
)

// Model is the whole schema.
type Model struct {
	Files   []*File // sorted by file name
	Types   []*Named
	Limits  []Limit
	Errors  []ErrorEntry
	Methods []Method
	// Negotiation is the x-octet-features table beside the Feature enum; nil when the
	// schema has none (the codegen fixture).
	Negotiation *Negotiation
	Hash        string // sha256 of every input file, in name order
	byName      map[string]*Named
}

// Lookup returns the named type called name, or nil.
func (m *Model) Lookup(name string) *Named { return m.byName[name] }

// File is one *.schema.json file; its types are the concern it documents.
type File struct {
	Path        string // e.g. "manifest.schema.json"
	Stem        string // e.g. "manifest"
	Title       string
	Description string
	Types       []*Named // declaration order (root first, then $defs, hoisted after their parent)
	Hash        string   // sha256 of the file's bytes
}

// Named is a type with a name: a $defs entry, a file root, or a hoisted inline object.
type Named struct {
	Name    string
	File    *File  `json:"-"`
	Pointer string // JSON pointer within File, e.g. "/$defs/ContentPart"
	Type    *Type
}

// Type is one schema node. A node with Ref set is a reference and has no other constraints.
type Type struct {
	Ref         string // name of a Named type
	Description string
	Kinds       []Kind // allowed kinds; empty with no OneOf means any JSON value
	Default     any

	Enum  []string
	Const any // string, bool or int64

	MinLength, MaxLength *int64 // code points
	MinBytes, MaxBytes   *int64 // UTF-8 bytes
	Pattern              string

	Minimum, Maximum *float64 // integer or number bounds (inclusive)

	Items              *Type
	MinItems, MaxItems *int64
	Unique             bool

	Fields []*Field
	Open   bool // additionalProperties: true (an open object: any members)

	OneOf []*Type // each a Ref to a closed object type
	Disc  *Discriminator

	Unit string // x-unit (limits)
}

// Has reports whether kind k is allowed.
func (t *Type) Has(k Kind) bool {
	for _, x := range t.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Nullable reports whether the kinds are exactly one kind plus null.
func (t *Type) Nullable() bool { return len(t.Kinds) == 2 && t.Has(Null) }

// NonNull returns the one non-null kind of a nullable or single-kind type.
func (t *Type) NonNull() Kind {
	for _, k := range t.Kinds {
		if k != Null {
			return k
		}
	}
	return ""
}

// Field is one property of a closed object.
type Field struct {
	Name     string
	Type     *Type
	Required bool
}

// Discriminator says how a oneOf picks its variant without trying each in turn.
type Discriminator struct {
	// Property is the member whose const value names the variant ("const" unions), or "" for
	// "presence" unions, where Keys[i] is a member only variant i declares ("" = fallback).
	Property string
	Values   []string
	Keys     []string
}

// Limit is one named constant of limits.schema.json.
type Limit struct {
	Name        string
	Value       int64
	Unit        string
	Description string
}

// ErrorEntry is one row of the error registry.
type ErrorEntry struct {
	Code      int64
	Name      string
	Meaning   string
	Category  string
	Retryable string // "no" | "maybe" | "yes"
	RetryHint string
	Data      string // named type of `data`, "" when data is absent
	// Messages are the registry's fixed message templates for this code: every SDK
	// builds the message of that situation from the template ({placeholder} filled in).
	Messages []ErrorMessage
}

// ErrorMessage is one message template of a registry code.
type ErrorMessage struct {
	Name     string // snake_case situation name, unique across the registry
	Template string // with {placeholder}s
	Meaning  string
	Data     string // named type of `data` in this situation
}

// Method is one row of methods.json.
type Method struct {
	Name         string
	Direction    string // "host_to_extension" | "extension_to_host" | "both"
	Kind         string // "request" | "notification"
	Versions     []string
	Feature      string // negotiated feature that enables it, "" if none
	Contribution string // manifest contribution that enables it, "" if none
	// Dispatch is how an SDK routes a method it receives (DispatchWork, ...); "" for a method
	// only the extension sends.
	Dispatch string
	// OwnerBound says the host binds the call to a resource owner: a host request's params
	// carry the caller's resource_owner; an extension request names the parent host request
	// whose owner the host applies (parent_request_id).
	OwnerBound  bool
	Cancellable []string
	Progress    []string
	Errors      []int64
	Params      []VersionedType
	Result      []VersionedType
	// SDK places a method the extension sends in the SDKs' service objects; nil for a method
	// the extension only receives.
	SDK         *SDKOperation
	Description string
}

// VersionedType maps API versions to a named type.
type VersionedType struct {
	Versions []string
	Type     string
}
