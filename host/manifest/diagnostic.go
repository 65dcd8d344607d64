// Package manifest reads and validates extension.toml files strictly and offline.
//
// A manifest is parsed from TOML into JSON-compatible values, checked field by
// field (the shapes of docs/design/wire.md §3, plus the rules a schema cannot
// express) and only then decoded into a Manifest. Every problem becomes a
// Diagnostic naming the file, the field path and the rule, so one bad manifest
// is reported precisely and never hides the others.
package manifest

import "fmt"

// Diagnostic is one problem found in a manifest or during discovery.
type Diagnostic struct {
	File    string `json:"file"`            // the manifest path (or directory) the problem is in
	Field   string `json:"field,omitempty"` // dotted field path, e.g. "contributes.tools[2]"
	Rule    string `json:"rule"`            // stable rule identifier, e.g. "pattern", "unknown_field"
	Message string `json:"message"`         // what is wrong and what to do
}

// String renders the diagnostic as "file: field: message [rule]".
func (d Diagnostic) String() string {
	if d.Field == "" {
		return fmt.Sprintf("%s: %s [%s]", d.File, d.Message, d.Rule)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", d.File, d.Field, d.Message, d.Rule)
}

// Rule identifiers used in diagnostics. They are part of the CLI's stable output.
const (
	RuleRead           = "read"            // the file could not be read safely
	RuleSyntax         = "toml_syntax"     // the file is not valid TOML
	RuleRequired       = "required"        // a required field is missing
	RuleType           = "type"            // a field has the wrong JSON type
	RulePattern        = "pattern"         // a string does not match its pattern
	RuleEnum           = "enum"            // a value is not one of the allowed values
	RuleLength         = "length"          // a string or list is too long or too short
	RuleUnique         = "unique"          // a list repeats an entry
	RuleUnknownField   = "unknown_field"   // a field this host does not know
	RuleAPIVersion     = "api_version"     // unsupported or refused API version
	RuleRequiresOctet  = "requires_octet"  // host version does not match the pin
	RuleAPI01          = "api_0_1"         // a field API 0.1 does not allow
	RuleRuntime        = "runtime"         // lifecycle/sharing combination
	RuleEntrypoint     = "entrypoint"      // entrypoint escapes the extension directory
	RuleRenderer       = "tool_renderers"  // renderer names a tool the manifest does not declare
	RuleDirectoryName  = "directory_name"  // directory name differs from the manifest name
	RuleShadowed       = "shadowed"        // a later root defines the same directory name
	RuleSchema         = "schema"          // reported by the JSON Schema
	RuleDuplicateTool  = "duplicate_tool"  // two extensions contribute the same tool name
	RuleDuplicateOwner = "duplicate_owner" // two extensions contribute the same command
	RuleCertify        = "certify"         // a [[certify.tools]] entry mixes skipping and calling
	RuleSession        = "session"         // [session] allowed_tools or private_tools without owner = true
)
