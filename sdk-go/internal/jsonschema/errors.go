package jsonschema

// SchemaError is a schema that cannot be compiled: Pointer is the bad
// keyword's location in the schema ("" for the root), Reason what is wrong.
type SchemaError struct {
	Pointer string
	Reason  string
}

func (e *SchemaError) Error() string {
	if e.Pointer == "" {
		return "(root): " + e.Reason
	}
	return e.Pointer + ": " + e.Reason
}

// fail stops compiling with a SchemaError; Compile recovers it. Keyword
// compilers are deep and many, and a panic keeps each one a plain function of
// its value instead of threading an error through every return.
func fail(at, reason string) {
	panic(&SchemaError{Pointer: at, Reason: reason})
}
