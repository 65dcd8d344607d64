package main

import (
	"encoding/json"
	"fmt"
)

// burst writes n $/progress status events for the call f (sequence 1..n), then its
// result, in one write: the host reads the result right behind the events, so a host that
// settled the call on reading its result, before handling what came first, would drop
// them. The manifest must negotiate request_progress (-feature request_progress).
func burst(f frame, n int) {
	var b []byte
	for i := 1; i <= n; i++ {
		b = fmt.Appendf(b, `{"jsonrpc":"2.0","method":"$/progress","params":{"parent_request_id":%s,"sequence":%d,"event":{"type":"status","message":"step %d"}}}`+"\n", f.ID, i, i)
	}
	res, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": text(fmt.Sprint(n), false)})
	b = append(append(b, res...), '\n')
	outMu.Lock()
	defer outMu.Unlock()
	out.Write(b)
	out.Flush()
}

// flood answers f at once, then writes n info notifications in one write (blocking while
// the host does not read), so the host can be closing while they are still coming.
func flood(f frame, n int) {
	send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": text("flooding", false)})
	var b []byte
	for i := 1; i <= n; i++ {
		b = fmt.Appendf(b, `{"jsonrpc":"2.0","method":"notification","params":{"message":"note %d","level":"info"}}`+"\n", i)
	}
	outMu.Lock()
	defer outMu.Unlock()
	out.Write(b)
	out.Flush()
}
