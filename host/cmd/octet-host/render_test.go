package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
)

func ev(payload any) services.Event {
	return services.Event{Extension: "ext", Generation: 1, Payload: payload}
}

func wantText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\ngot:\n%s\nwant:\n%s", what, got, want)
	}
}

func TestRenderProgress(t *testing.T) {
	for _, tc := range []struct{ event, want string }{
		{`{"type":"status","message":"Indexing","current":3,"total":10,"unit":"files"}`,
			"[ext] progress ▕██████░░░░░░░░░░░░░░▏  30%  3/10 files  Indexing\n"},
		{`{"type":"status","current":10,"total":10}`,
			"[ext] progress ▕████████████████████▏ 100%  10/10\n"},
		{`{"type":"status","current":0,"total":4,"message":"start"}`,
			"[ext] progress ▕░░░░░░░░░░░░░░░░░░░░▏   0%  0/4  start\n"},
		{`{"type":"status","current":7,"unit":"rows","message":"no total"}`, "[ext] progress 7 rows  no total\n"},
		{`{"type":"status","message":"just words"}`, "[ext] progress just words\n"},
		{`{"type":"output","stream":"stdout","encoding":"utf8","data":"line 1\nline 2\n"}`, "[ext] stdout | line 1\n[ext] stdout | line 2\n"},
		{`{"type":"output","stream":"stderr","encoding":"base64","data":"aGk="}`, "[ext] stderr | hi\n"},
		{`{"type":"decoration","label":"indexing","detail":"3 files"}`, "[ext] ◆ indexing: 3 files\n"},
	} {
		wantText(t, tc.event, renderEvent(ev(services.Progress{Sequence: 1, Event: json.RawMessage(tc.event)})), tc.want)
	}
}

func TestRenderNotificationConfirmationInput(t *testing.T) {
	wantText(t, "notification", renderEvent(ev(services.Notification{Level: "warning", Title: "Disk", Message: "90% full"})),
		"[ext] warning: Disk: 90% full\n")
	wantText(t, "untitled notification", renderEvent(ev(services.Notification{Level: "info", Message: "hello"})), "[ext] info: hello\n")
	wantText(t, "scripted confirmation", renderEvent(ev(services.Confirmation{Message: "Delete 3 files?", Destructive: true, Confirmed: true, Reason: "scripted"})),
		"[ext] confirm “Delete 3 files?” (destructive) → confirmed (scripted)\n")
	wantText(t, "default denial", renderEvent(ev(services.Confirmation{Message: "Go?", Reason: "denied: no scripted answer (default policy)"})),
		"[ext] confirm “Go?” → denied: no scripted answer (default policy)\n")
	wantText(t, "secret input", renderEvent(ev(services.InputRequest{Prompt: "Password", Secret: true, Answered: true})),
		"[ext] input “Password” (secret) → answered\n")
	// An escape sequence in extension text is shown, never sent to the terminal.
	wantText(t, "control characters", renderEvent(ev(services.Notification{Level: "info", Message: "a\x1b[2Jb"})), "[ext] info: a\\u001b[2Jb\n")
}

func TestRenderSnapshotActivitiesListTreeActions(t *testing.T) {
	owner := &host.Owner{SessionID: "s", ExtensionInstanceID: "i", ProcessGeneration: 1}
	activities := `{"revision":3,"status":{"state":"running","label":"Sync","detail":"2 of 3"},
		"activities":[{"id":"a","label":"Fetch","state":"succeeded"},{"id":"bb","label":"Parse everything","state":"running","detail":"page 2"},{"id":"c","label":"検索","state":"pending"}],
		"actions":[{"id":"retry","label":"Retry","command":"sync","arguments":["--all"]},{"id":"rm","label":"Remove","command":"rm","destructive":true}]}`
	wantText(t, "activities and actions", renderEvent(ev(services.PresentationUpdate{Owner: owner, Revision: 3, Snapshot: json.RawMessage(activities)})), strings.Join([]string{
		"[ext] presentation rev 3: running “Sync” — 2 of 3",
		"[ext]   activities",
		"[ext]     ✓ succeeded  Fetch",
		"[ext]     ● running    Parse everything  page 2",
		"[ext]     ○ pending    検索",
		"[ext]   actions",
		"[ext]     [retry]  Retry   → sync --all",
		"[ext]     [rm]     Remove  → rm  (destructive)",
	}, "\n")+"\n")
	list := `{"revision":1,"activities":[],"actions":[],"collection":{"kind":"list","selected":"b","nodes":[{"id":"a","label":"Apple","state":"succeeded"},{"id":"b","label":"Banana"}],"detail":{"title":"Banana","text":"yellow"}}}`
	wantText(t, "list", renderEvent(ev(services.PresentationUpdate{Snapshot: json.RawMessage(list)})), strings.Join([]string{
		"[ext] presentation rev 1 (process)",
		"[ext]   list",
		"[ext]     Apple  [succeeded]",
		"[ext]   ▸ Banana",
		"[ext]   detail: Banana: yellow",
	}, "\n")+"\n")
	tree := `{"revision":2,"activities":[],"actions":[],"collection":{"kind":"tree","nodes":[
		{"id":"root","label":"repo"},{"id":"src","parent":"root","label":"src"},{"id":"main","parent":"src","label":"main.go","state":"failed"},
		{"id":"util","parent":"src","label":"util.go"},{"id":"docs","parent":"root","label":"docs"},{"id":"other","label":"other root"}]}}`
	wantText(t, "tree", renderEvent(ev(services.PresentationUpdate{Owner: owner, Snapshot: json.RawMessage(tree)})), strings.Join([]string{
		"[ext] presentation rev 2",
		"[ext]   tree",
		"[ext]     repo",
		"[ext]     ├─ src",
		"[ext]     │  ├─ main.go  [failed]",
		"[ext]     │  └─ util.go",
		"[ext]     └─ docs",
		"[ext]     other root",
	}, "\n")+"\n")
}
