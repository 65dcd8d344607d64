package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// everythingCalls are the arguments each tool of the everything server is called with,
// and what its octet result must show. A tool the server lists that is missing here
// fails the test, so a new server version's tools are never skipped silently.
var everythingCalls = map[string]struct {
	args  string
	check func(t *testing.T, l callLine)
}{
	"echo": {`{"message":"hello octet"}`, wantText("Echo: hello octet")},
	"get-annotated-message": {`{"messageType":"success","includeImage":true}`, func(t *testing.T, l callLine) {
		wantText("success")(t, l)
		wantPart(t, l, "image")
	}},
	"get-env": {`{}`, func(t *testing.T, l callLine) {
		// The server sees the bridge's environment without the bridge's OCTET_* identity.
		if strings.Contains(l.text(), "OCTET_EXTENSION_NAME") {
			t.Errorf("get-env: the MCP server was given the bridge's OCTET_* variables: %.300s", l.text())
		}
	}},
	"get-resource-links": {`{"count":2}`, func(t *testing.T, l callLine) {
		wantText("resource link")(t, l)
		if !strings.Contains(string(l.Metadata), `"resource_link"`) {
			t.Errorf("get-resource-links: metadata.mcp.resources lists no resource_link: %s", l.Metadata)
		}
	}},
	"get-resource-reference": {`{"resourceType":"Text","resourceId":1}`, wantText("resource ")},
	"get-structured-content": {`{"location":"Chicago"}`, func(t *testing.T, l callLine) {
		if len(l.StructuredContent) == 0 || !strings.Contains(string(l.StructuredContent), "temperature") {
			t.Errorf("get-structured-content: structured_content missing or unlike the output schema: %s", l.raw)
		}
	}},
	"get-sum":                        {`{"a":2,"b":3}`, wantText("5")},
	"get-tiny-image":                 {`{}`, func(t *testing.T, l callLine) { wantPart(t, l, "image") }},
	"gzip-file-as-resource":          {`{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8gb2N0ZXQ="}`, wantText("hello.txt.gz")},
	"toggle-simulated-logging":       {`{}`, wantText("logging")},
	"toggle-subscriber-updates":      {`{}`, wantText("")},
	"trigger-long-running-operation": {`{"duration":1,"steps":2}`, wantText("completed")},
	"trigger-elicitation-request":    {`{}`, wantText("Ada Lovelace")},
	// Requires MCP task execution, which octet has no equivalent for: the call reaches the
	// server, whose refusal comes back as the call's tool error (is_error).
	"simulate-research-query": {`{"topic":"octet"}`, func(t *testing.T, l callLine) {
		if !l.IsError || !strings.Contains(l.text(), "task") {
			t.Errorf("simulate-research-query: want the server's task refusal as is_error, got %s", l.raw)
		}
	}},
}

func wantText(sub string) func(t *testing.T, l callLine) {
	return func(t *testing.T, l callLine) {
		t.Helper()
		if l.Error != nil || l.IsError {
			t.Errorf("%s: failed: %s", l.Tool, l.raw)
			return
		}
		if !strings.Contains(strings.ToLower(l.text()), strings.ToLower(sub)) {
			t.Errorf("want text containing %q, got %s", sub, l.raw)
		}
	}
}

func wantPart(t *testing.T, l callLine, typ string) {
	t.Helper()
	for _, c := range l.Content {
		var p struct {
			Type       string `json:"type"`
			ArtifactID string `json:"artifact_id"`
		}
		_ = json.Unmarshal(c, &p)
		if p.Type == typ && p.ArtifactID != "" {
			return
		}
	}
	t.Errorf("want a %s part backed by an artifact, got %s", typ, l.raw)
}

// elicitationScript answers the everything server's elicitation form field by field
// (the bridge asks one input request per field, naming it).
const elicitationScript = `
[[inputs]]
match = "\nname ("
value = "Ada Lovelace"

[[inputs]]
match = "\ncheck ("
value = "yes"

[[inputs]]
match = "\nemail ("
value = "ada@example.org"

[[inputs]]
match = ""
value = ""
`

// TestEverythingServerToolsThroughOctetHost: with the everything server behind
// octet-mcp, every tool it lists is published (prefixed) and callable through
// octet-host call, and each result maps as expected.
func TestEverythingServerToolsThroughOctetHost(t *testing.T) {
	needNPM(t)
	cmd, args := everythingCmd()
	dir := bridgeDir(t, map[string]any{"every": map[string]any{"command": cmd, "args": args}})
	lines, _, stderr := hostCall(t, dir, "mcp_status", `{"wait":true}`)
	if len(lines) != 1 {
		t.Fatalf("mcp_status: %d lines; stderr:\n%s", len(lines), stderr)
	}
	st := statusOf(t, lines[0])
	if len(st) != 1 || st[0].State != "ready" || len(st[0].Tools) < 10 {
		t.Fatalf("everything server not ready with its tools: %+v\n%s", st, stderr)
	}
	script := filepath.Join(t.TempDir(), "answers.toml")
	write(t, script, []byte(elicitationScript))
	callArgs := []string{"--script", script, "--timeout", "60s", dir, "mcp_status", `{"wait":true}`}
	var names []string
	for _, octetName := range st[0].Tools {
		mcpName := strings.TrimPrefix(octetName, "every_")
		c, ok := everythingCalls[mcpName]
		if !ok {
			t.Errorf("the everything server lists %q, which this test does not call: add it to everythingCalls", mcpName)
			continue
		}
		names = append(names, mcpName)
		callArgs = append(callArgs, octetName, c.args)
	}
	sort.Strings(names)
	lines, _, stderr = hostCall(t, callArgs...)
	if len(lines) != len(names)+1 {
		t.Fatalf("%d result lines for %d calls; stderr:\n%s", len(lines), len(names)+1, stderr)
	}
	for i, octetName := range st[0].Tools {
		mcpName := strings.TrimPrefix(octetName, "every_")
		if c, ok := everythingCalls[mcpName]; ok {
			l := lines[1+indexOf(names, mcpName, st[0].Tools, i)]
			if l.Tool == "" {
				l.Tool = octetName
			}
			t.Run(mcpName, func(t *testing.T) { c.check(t, l) })
		}
	}
	if t.Failed() {
		os.Stderr.WriteString(stderr)
	}
}

// indexOf is the position of the call of tools[i] among the calls made (tools minus
// the ones without arguments, in the same order).
func indexOf(names []string, name string, tools []string, i int) int {
	n := 0
	for _, o := range tools[:i] {
		if _, ok := everythingCalls[strings.TrimPrefix(o, "every_")]; ok {
			n++
		}
	}
	return n
}
