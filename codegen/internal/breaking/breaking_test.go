package breaking_test

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/octet-kit/octet/codegen/internal/breaking"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

func schemaFS(t *testing.T) fstest.MapFS {
	t.Helper()
	fs := fstest.MapFS{}
	entries, err := os.ReadDir("../../../schema")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".schema.json") || e.Name() == "methods.json" {
			b, err := os.ReadFile("../../../schema/" + e.Name())
			if err != nil {
				t.Fatal(err)
			}
			fs[e.Name()] = &fstest.MapFile{Data: b}
		}
	}
	return fs
}

func edit(t *testing.T, fs fstest.MapFS, file, old, new string) fstest.MapFS {
	t.Helper()
	c := fstest.MapFS{}
	for k, v := range fs {
		c[k] = v
	}
	s := string(fs[file].Data)
	if !strings.Contains(s, old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	c[file] = &fstest.MapFile{Data: []byte(strings.Replace(s, old, new, 1))}
	return c
}

func TestBreakingEdits(t *testing.T) {
	base := schemaFS(t)
	old, err := ir.Load(base)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, file, old, new, want string }{
		{"field removed", "host-methods.schema.json", `"call_id": {
          "type": "string",
          "description": "Host call id, for correlation with lifecycle events."
        }`, `"call_idx": {"type": "string", "description": "x"}`, "ToolCallParams.call_id: field removed"},
		{"optional made required", "host-methods.schema.json", `"required": [
        "name",
        "arguments"
      ],`, `"required": ["name", "arguments", "call_id"],`, "ToolCallParams.call_id: optional field made required"},
		{"enum value removed", "extension-methods.schema.json", `"success",`, ``, `enum value "success" removed`},
		{"type narrowed", "envelope.schema.json", `"type": [
        "integer",
        "string"
      ]`, `"type": "string"`, "RequestID: type narrowed: integer no longer allowed"},
		{"maxLength tightened", "extension-methods.schema.json", `"maxLength": 4096`, `"maxLength": 100`, "NotificationParams.message: maxLength tightened"},
		{"limit tightened", "limits.schema.json", `"const": 1048576`, `"const": 1000`, "limit MAX_MESSAGE_BYTES tightened"},
		{"method removed", "methods.json", `"name": "kv.list"`, `"name": "kv.listing"`, "method kv.list removed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cur, err := ir.Load(edit(t, base, c.file, c.old, c.new))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(breaking.Compare(old, cur), "\n")
			if !strings.Contains(got, c.want) {
				t.Errorf("want %q among:\n%s", c.want, got)
			}
		})
	}
}

func TestAdditiveEditPasses(t *testing.T) {
	base := schemaFS(t)
	old, _ := ir.Load(base)
	cur, err := ir.Load(edit(t, base, "extension-methods.schema.json", `"success",`, `"success", "debug",`))
	if err != nil {
		t.Fatal(err)
	}
	cur2, err := ir.Load(edit(t, base, "host-methods.schema.json", `"call_id": {`, `"trace_id": {"type": "string", "description": "New optional field."}, "call_id": {`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*ir.Model{cur, cur2} {
		if bad := breaking.Compare(old, m); len(bad) > 0 {
			t.Errorf("additive change reported as breaking: %v", bad)
		}
	}
}

// The committed baseline is not broken by the current schema (what `mage breaking` runs).
func TestBaselineHolds(t *testing.T) {
	old, err := ir.Load(os.DirFS("../../../schema/baseline"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := ir.Load(os.DirFS("../../../schema"))
	if err != nil {
		t.Fatal(err)
	}
	if bad := breaking.Compare(old, cur); len(bad) > 0 {
		t.Errorf("breaking changes: %v", bad)
	}
}

// Moving an inline type into a named definition, unchanged, is not a break; narrowing it is.
func TestInlineToNamedComparesStructure(t *testing.T) {
	base := schemaFS(t)
	old, _ := ir.Load(base)
	same := edit(t, base, "host-methods.schema.json", `"call_id": {
          "type": "string",
          "description": "Host call id, for correlation with lifecycle events."
        }`, `"call_id": {"$ref": "#/$defs/CallID"}`)
	same = edit(t, same, "host-methods.schema.json", `"$defs": {`, `"$defs": {"CallID": {"type": "string", "description": "Host call id."},`)
	cur, err := ir.Load(same)
	if err != nil {
		t.Fatal(err)
	}
	if bad := breaking.Compare(old, cur); len(bad) > 0 {
		t.Errorf("unchanged type moved into $defs reported as breaking: %v", bad)
	}
	narrowed := edit(t, same, "host-methods.schema.json", `"CallID": {"type": "string",`, `"CallID": {"type": "string", "maxLength": 3,`)
	cur, err = ir.Load(narrowed)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(breaking.Compare(old, cur), "\n"); !strings.Contains(got, "ToolCallParams.call_id: maxLength tightened") {
		t.Errorf("narrowing through a new name not caught: %q", got)
	}
}
