package main

// Modes that break what the host checks in every result (results.checked_by_host) and how
// the host applies hook dispositions (hooks.dispositions_applied).
const (
	// modeResultUnknownField: echo's result carries a member no ToolResult has.
	modeResultUnknownField = "result-unknown-field"
)

// resultsMode rewrites a tool result for the modes above; every other mode returns it as is.
func resultsMode(tool string, res any) any {
	if mode == modeResultUnknownField && tool == "echo" {
		if m, ok := res.(map[string]any); ok {
			m["conformance_extra"] = true
		}
	}
	return res
}
