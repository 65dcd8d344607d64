package manifest

// schemaCheck validates against schema/manifest.schema.json once that package builds.
func schemaCheck(file string, doc map[string]any) []Diagnostic { return nil }

func mergeSchema(diags, fromSchema []Diagnostic) []Diagnostic { return append(diags, fromSchema...) }
