// Package hostile generates the nested documents of the hostile-input corpus
// (host/testdata/hostile): a document nested n levels deep in each shape a reader must
// bound, so tests can feed one at the bound, one just past it and one far past it (the
// 100,000-deep manifest of issue 19 fits the 256 KiB manifest cap) without committing
// megabytes. Levels count as MAX_JSON_DEPTH does: the outermost table or object is 1.
package hostile

import (
	"strconv"
	"strings"
)

// ManifestHead is a valid manifest's fields; generated manifests add one nested field after.
const ManifestHead = `name = "deep"
version = "0.1.0"
api_version = "0.4"

[entrypoint]
command = "true"
`

// TOMLArrays is a manifest whose field x is an array nested so the document has levels
// levels: x = [[...]] (root 1, x's outer array 2).
func TOMLArrays(levels int) []byte {
	n := levels - 1
	return []byte("x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" + ManifestHead)
}

// TOMLInlineTables nests inline tables: x = {a = {a = {}}} (x's table is level 2).
func TOMLInlineTables(levels int) []byte {
	n := levels - 1
	return []byte("x = " + strings.Repeat("{a = ", n-1) + "{}" + strings.Repeat("}", n-1) + "\n" + ManifestHead)
}

// TOMLDottedKeys makes every part of one dotted key a table: a.a.a = 1 (a is level 2).
func TOMLDottedKeys(levels int) []byte {
	return []byte(ManifestHead + "\n[capabilities]\n" + strings.TrimPrefix(strings.Repeat(".a", levels-1), ".") + " = 1\n")
}

// TOMLTableHeader nests table headers: [a.a.a] (a is level 2).
func TOMLTableHeader(levels int) []byte {
	return []byte(ManifestHead + "\n[" + strings.TrimPrefix(strings.Repeat(".a", levels-1), ".") + "]\n")
}

// JSONArrays is a JSON document of levels nested arrays inside an object's field:
// {"x":[[...]]}; the object is level 1.
func JSONArrays(levels int) []byte {
	n := levels - 1
	return []byte(`{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}")
}

// Frame is a tool/call request whose echo argument nests so the whole frame has levels
// levels (envelope 1, params 2, arguments 3, the value's outer array 4).
func Frame(id, levels int) []byte {
	n := levels - 3
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tool/call","params":{"name":"echo","arguments":{"value":` +
		strings.Repeat("[", n) + strings.Repeat("]", n) + `}}}`)
}

// ScriptArrays is a host script whose key x nests so the document has levels levels.
func ScriptArrays(levels int) []byte {
	n := levels - 1
	return []byte("x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
}

// Generated are the corpus files written by these generators, one level past
// MAX_JSON_DEPTH (depth), by path under host/testdata/hostile; TestHostileCorpus keeps the
// committed copies equal to them.
func Generated(depth int) map[string][]byte {
	out := map[string][]byte{
		"manifests/deep-arrays.toml":        TOMLArrays(depth + 1),
		"manifests/deep-inline-tables.toml": TOMLInlineTables(depth + 1),
		"manifests/deep-dotted-keys.toml":   TOMLDottedKeys(depth + 1),
		"manifests/deep-table-header.toml":  TOMLTableHeader(depth + 1),
		"scripts/deep-arrays.toml":          ScriptArrays(depth + 1),
		"installjson/deep-arrays.json":      JSONArrays(depth + 1),
		"frames/deep-arrays.json":           Frame(1, depth+1),
	}
	for name, data := range Archives(depth) {
		out["archives/"+name] = data
	}
	return out
}
