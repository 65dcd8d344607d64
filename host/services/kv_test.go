package services_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/store"
)

type kvGetRes struct {
	Found   bool            `json:"found"`
	Value   json.RawMessage `json:"value"`
	Version string          `json:"version"`
}

type kvCommitRes struct {
	Versions []struct {
		Namespace string  `json:"namespace"`
		Key       string  `json:"key"`
		Version   *string `json:"version"`
	} `json:"versions"`
}

func put(ns, key string, v any) map[string]any {
	return map[string]any{"op": "put", "namespace": ns, "key": key, "value": v}
}

func TestKVCommitGetList(t *testing.T) {
	e := newEnv(t, nil)
	var c kvCommitRes
	e.ok("kv.commit", map[string]any{"preconditions": []any{map[string]any{"namespace": "demo", "key": "a", "absent": true}},
		"writes": []any{put("demo", "a", map[string]any{"b": 1, "a": []int{1, 2}}), put("demo.cache", "x", "y"), put("demo", "gone", 1),
			map[string]any{"op": "delete", "namespace": "demo", "key": "gone"}}}, &c)
	if len(c.Versions) != 4 || c.Versions[3].Version != nil || c.Versions[0].Version == nil {
		t.Fatalf("versions %+v", c.Versions)
	}
	var g kvGetRes
	e.ok("kv.get", map[string]any{"namespace": "demo", "key": "a"}, &g)
	want := store.Digest([]byte(`{"a":[1,2],"b":1}`))
	if !g.Found || string(g.Value) != `{"a":[1,2],"b":1}` || g.Version != want || *c.Versions[0].Version != want {
		t.Fatalf("get %+v, want version %s", g, want)
	}
	g = kvGetRes{}
	e.ok("kv.get", map[string]any{"namespace": "demo", "key": "gone"}, &g)
	if g.Found || g.Version != "" {
		t.Fatalf("deleted key found: %+v", g)
	}
	// Conflict: nothing applies, data names the key and both versions.
	err := e.fails("kv.commit", map[string]any{
		"preconditions": []any{map[string]any{"namespace": "demo", "key": "a", "version": strings.Repeat("0", 64)}},
		"writes":        []any{put("demo", "new", 1)}}, -32005)
	var data struct {
		Namespace, Key   string
		Expected, Actual *string
	}
	json.Unmarshal(err.Data, &data)
	if data.Namespace != "demo" || data.Key != "a" || data.Expected == nil || data.Actual == nil || *data.Actual != want {
		t.Fatalf("conflict data %s", err.Data)
	}
	g = kvGetRes{}
	e.ok("kv.get", map[string]any{"namespace": "demo", "key": "new"}, &g)
	if g.Found {
		t.Fatal("a failed batch applied a write")
	}
	// absent precondition on an existing key conflicts with expected null.
	err = e.fails("kv.commit", map[string]any{"preconditions": []any{map[string]any{"namespace": "demo", "key": "a", "absent": true}},
		"writes": []any{put("demo", "new", 1)}}, -32005)
	if !strings.Contains(string(err.Data), `"expected":null`) {
		t.Fatalf("conflict data %s", err.Data)
	}
	// Version precondition that holds applies.
	e.ok("kv.commit", map[string]any{"preconditions": []any{map[string]any{"namespace": "demo", "key": "a", "version": want}},
		"writes": []any{put("demo", "a", 2)}}, &c)
	// Listing with paging.
	for i := 0; i < 5; i++ {
		e.ok("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("demo", fmt.Sprintf("p/%d", i), i)}}, nil)
	}
	var l struct {
		Entries []struct {
			Key     string
			Value   json.RawMessage
			Version string
		}
		NextCursor string `json:"next_cursor"`
	}
	var keys []string
	cursor := ""
	for page := 0; page < 5; page++ {
		params := map[string]any{"namespace": "demo", "prefix": "p/", "limit": 2}
		if cursor != "" {
			params["cursor"] = cursor
		}
		l.NextCursor = ""
		l.Entries = nil
		e.ok("kv.list", params, &l)
		for _, en := range l.Entries {
			keys = append(keys, en.Key)
		}
		if l.NextCursor == "" {
			break
		}
		cursor = l.NextCursor
	}
	if strings.Join(keys, ",") != "p/0,p/1,p/2,p/3,p/4" {
		t.Fatalf("paged keys %v", keys)
	}
	// A cursor is bound to its namespace and prefix.
	e.ok("kv.list", map[string]any{"namespace": "demo", "prefix": "p/", "limit": 2}, &l)
	e.fails("kv.list", map[string]any{"namespace": "demo", "prefix": "q/", "cursor": l.NextCursor}, -32602)
	e.fails("kv.list", map[string]any{"namespace": "demo", "prefix": "p/", "cursor": "garbage!"}, -32602)
	e.fails("kv.list", map[string]any{"namespace": "demo", "prefix": "", "limit": 1001}, -32602)
	e.fails("kv.list", map[string]any{"namespace": "demo", "prefix": "", "limit": 0}, -32602)
}

func TestKVNamespacesAndBounds(t *testing.T) {
	e := newEnv(t, nil)
	foreign := []string{"other", "demox", "demo.", "demo..x", "Demo", "core.extensions", "demo/x", ""}
	for _, ns := range foreign {
		t.Run("foreign "+ns, func(t *testing.T) {
			// A foreign namespace anywhere refuses the whole batch.
			e.fails("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("demo", "ok", 1), put(ns, "k", 1)}}, -32602)
			var g kvGetRes
			e.ok("kv.get", map[string]any{"namespace": "demo", "key": "ok"}, &g)
			if g.Found {
				t.Fatal("the own-namespace write of a refused batch applied")
			}
			e.fails("kv.get", map[string]any{"namespace": ns, "key": "k"}, -32602)
		})
	}
	writes := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = put("demo", fmt.Sprint(i), i)
		}
		return out
	}
	pres := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"namespace": "demo", "key": fmt.Sprint(i), "absent": true}
		}
		return out
	}
	bad := map[string]map[string]any{
		"no writes":        {"preconditions": []any{}, "writes": []any{}},
		"257 writes":       {"preconditions": []any{}, "writes": writes(257)},
		"257 preconds":     {"preconditions": pres(257), "writes": writes(1)},
		"long key":         {"preconditions": []any{}, "writes": []any{put("demo", strings.Repeat("k", 513), 1)}},
		"empty key":        {"preconditions": []any{}, "writes": []any{put("demo", "", 1)}},
		"big value":        {"preconditions": []any{}, "writes": []any{put("demo", "k", strings.Repeat("v", 262144))}},
		"put no value":     {"preconditions": []any{}, "writes": []any{map[string]any{"op": "put", "namespace": "demo", "key": "k"}}},
		"delete value":     {"preconditions": []any{}, "writes": []any{map[string]any{"op": "delete", "namespace": "demo", "key": "k", "value": 1}}},
		"bad op":           {"preconditions": []any{}, "writes": []any{map[string]any{"op": "upsert", "namespace": "demo", "key": "k", "value": 1}}},
		"both preconds":    {"preconditions": []any{map[string]any{"namespace": "demo", "key": "k", "absent": true, "version": strings.Repeat("0", 64)}}, "writes": writes(1)},
		"neither precond":  {"preconditions": []any{map[string]any{"namespace": "demo", "key": "k"}}, "writes": writes(1)},
		"absent false":     {"preconditions": []any{map[string]any{"namespace": "demo", "key": "k", "absent": false}}, "writes": writes(1)},
		"bad version":      {"preconditions": []any{map[string]any{"namespace": "demo", "key": "k", "version": "abc"}}, "writes": writes(1)},
		"missing preconds": {"writes": writes(1)},
	}
	for name, p := range bad {
		t.Run(name, func(t *testing.T) { e.fails("kv.commit", p, -32602) })
	}
	// Exactly 256 writes of 256 KiB-bounded values fit.
	e.ok("kv.commit", map[string]any{"preconditions": pres(256), "writes": writes(256)}, nil)
	// Duplicate keys in one value are refused (meaning differs across parsers).
	e.fails("kv.commit", `{"preconditions":[],"writes":[{"op":"put","namespace":"demo","key":"d","value":{"a":1,"a":2}}]}`, -32602)
}

func TestKVNullValueIsAValue(t *testing.T) {
	e := newEnv(t, nil)
	e.ok("kv.commit", `{"preconditions":[],"writes":[{"op":"put","namespace":"demo","key":"n","value":null}]}`, nil)
	res, err := e.call("kv.get", `{"namespace":"demo","key":"n"}`)
	if err != nil || string(res) != `{"found":true,"value":null,"version":"`+store.Digest([]byte("null"))+`"}` {
		t.Fatalf("get null: %s %v", res, err)
	}
}
