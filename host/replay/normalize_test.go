package replay

import (
	"strings"
	"testing"
)

// Each rule, alone: what it replaces, and that it touches nothing else.
func TestNormalizationRules(t *testing.T) {
	n := Normalizer{Dirs: []string{"/old/ext", "/new/ext"}}
	for _, tc := range []struct{ name, in, want string }{
		{"1: the id of an extension request", `{"jsonrpc":"2.0","id":7,"method":"kv/get","params":{"key":"k"}}`,
			`{"id":"<id>","jsonrpc":"2.0","method":"kv/get","params":{"key":"k"}}`},
		{"1: a response keeps the host's id", `{"jsonrpc":"2.0","id":7,"result":{}}`, `{"id":7,"jsonrpc":"2.0","result":{}}`},
		{"2: times by member name", `{"result":{"started_at_ms":1,"elapsed":2.5,"at":"x","created_at":"2026","duration":{"s":1},"count":3}}`,
			`{"result":{"at":"<time>","count":3,"created_at":"<time>","duration":"<time>","elapsed":"<time>","started_at_ms":"<time>"}}`},
		{"3: generated identifiers in strings", `{"result":{"a":"artifact:0123456789abcdef0123456789abcdef","u":"id 123e4567-e89b-12d3-a456-426614174000!","short":"cafe1234","digits":"12345678901234567890"}}`,
			`{"result":{"a":"artifact:<hex>","digits":"12345678901234567890","short":"cafe1234","u":"id <hex>!"}}`},
		{"4: process ids", `{"result":{"pid":4242,"child_pid":1,"pids":[1]}}`, `{"result":{"child_pid":"<pid>","pid":"<pid>","pids":[1]}}`},
		{"5: both runs' directories", `{"result":{"text":"at /old/ext/x and /new/ext/y"}}`, `{"result":{"text":"at <extension-dir>/x and <extension-dir>/y"}}`},
		{"numbers compare as written", `{"result":{"n":1.10,"big":12345678901234567890}}`, `{"result":{"big":12345678901234567890,"n":1.10}}`},
		{"not JSON is kept as text", `not json `, `not json`},
	} {
		if got := n.Frame([]byte(tc.in)); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
}

func fr(dir, frame string) Frame { return Frame{Direction: dir, Frame: []byte(frame)} }

const h2e, e2h = "host->ext", "ext->host"

// Compare groups the extension's frames by the host request they belong to, so two calls
// that interleaved differently are still equal, and reports a changed frame with its
// pointer.
func TestCompareGroupsByRequestAndReportsChanges(t *testing.T) {
	recorded := []Frame{
		fr(h2e, `{"jsonrpc":"2.0","id":1,"method":"tool/call","params":{"name":"a"}}`),
		fr(h2e, `{"jsonrpc":"2.0","id":2,"method":"tool/call","params":{"name":"b"}}`),
		fr(e2h, `{"jsonrpc":"2.0","method":"$/progress","params":{"parent_request_id":1,"sequence":1,"event":{"type":"status","message":"a1"}}}`),
		fr(e2h, `{"jsonrpc":"2.0","method":"$/progress","params":{"parent_request_id":2,"sequence":1,"event":{"type":"status","message":"b1"}}}`),
		fr(e2h, `{"jsonrpc":"2.0","id":1,"result":{"text":"A"}}`),
		fr(e2h, `{"jsonrpc":"2.0","id":2,"result":{"text":"B","at_ms":5}}`),
		fr(e2h, `{"jsonrpc":"2.0","method":"notification/send","params":{"message":"bye","level":"info"}}`),
	}
	// The same behaviour, interleaved the other way, other times.
	same := []Frame{recorded[0], recorded[1], recorded[3],
		fr(e2h, `{"jsonrpc":"2.0","id":2,"result":{"text":"B","at_ms":9}}`), recorded[2], recorded[4], recorded[6]}
	if r := Compare(recorded, same, Normalizer{}); r.Differences() != 0 {
		var b strings.Builder
		r.WriteText(&b)
		t.Fatalf("interleaving and times differ:\n%s", b.String())
	}
	changed := []Frame{recorded[0], recorded[1], recorded[2], recorded[3],
		fr(e2h, `{"jsonrpc":"2.0","id":1,"result":{"text":"A!"}}`), recorded[5]}
	r := Compare(recorded, changed, Normalizer{})
	if r.Differences() != 3 { // A -> A!, and the notification is gone
		t.Fatalf("%d differences", r.Differences())
	}
	var b strings.Builder
	r.WriteText(&b)
	for _, want := range []string{
		"3 frames differ (- recorded, + replayed)\n",
		"@@ tool/call 1 (a) (1 frames equal)\n",
		`- {"id":1,"jsonrpc":"2.0","result":{"text":"A"}}` + "\n" + `+ {"id":1,"jsonrpc":"2.0","result":{"text":"A!"}}` + "\n" + `    /result/text: "A" → "A!"` + "\n",
		"@@ outside any request\n" + `- {"jsonrpc":"2.0","method":"notification/send","params":{"level":"info","message":"bye"}}` + "\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "tool/call 2") {
		t.Errorf("an equal group is shown:\n%s", b.String())
	}
}

func TestFieldChanges(t *testing.T) {
	got := fieldChanges(`{"a":1,"b":[1,2],"c":null,"d/e":"x"}`, `{"a":2,"b":[1],"d/e":"y","f":true}`, 10)
	want := []string{"/a: 1 → 2", "/b/1: 2 → (absent)", "/c: null → (absent)", "/d~1e: \"x\" → \"y\"", "/f: (absent) → true"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
