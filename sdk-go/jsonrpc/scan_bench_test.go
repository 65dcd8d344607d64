package jsonrpc

import "testing"

// A tool/call frame as a host sends it: what splitObject scans once per inbound frame.
var benchFrame = []byte(`{"jsonrpc":"2.0","id":"h:42","method":"tool/call","params":{"name":"echo","arguments":{"value":{"text":"a line with \"quotes\" and \\ slashes","n":[1,2,3,{"k":"}"}]}},"catalog_revision":3,"call_id":"c-42","resource_owner":{"session_id":"s-1","extension_instance_id":"i-1","process_generation":1}}}`)

// BenchmarkSplitObject: the envelope scan alone (strictjson's byte scanner underneath).
func BenchmarkSplitObject(b *testing.B) {
	b.SetBytes(int64(len(benchFrame)))
	for b.Loop() {
		fields, err := splitObject(benchFrame)
		if err != nil || len(fields) != 4 {
			b.Fatal(err, len(fields))
		}
	}
}
