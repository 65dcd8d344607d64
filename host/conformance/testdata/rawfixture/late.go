package main

import "encoding/json"

// modeEventsAfterResult answers present, progress_n and notify before running them, so
// their snapshot, progress events and notification follow the result on the wire: each
// frame is well formed, yet the host has settled the parent and delivers nothing
// (presentation.delivered).
const modeEventsAfterResult = "events-after-result"

// answerFirst is the result to send before handling f in modeEventsAfterResult.
func answerFirst(f frame) (any, bool) {
	if mode != modeEventsAfterResult || f.Method != "tool/call" {
		return nil, false
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(f.Params, &p)
	answer, ok := map[string]string{"present": "presented", "progress_n": "done", "notify": "notified"}[p.Name]
	if !ok {
		return nil, false
	}
	return text(answer), true
}
