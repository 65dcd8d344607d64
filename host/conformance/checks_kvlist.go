package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The kv.list check: pages, the opaque cursor handed back, and a foreign namespace.

func init() {
	register(&Check{
		Name:        "kv.list_pages",
		Description: "kv.list returns one page of the prefix's entries with a next_cursor; the cursor passed back unchanged returns the rest; a foreign namespace is -32602, carried verbatim",
		Requirement: "wire.md §6 kv.list {namespace, prefix, cursor?, limit?} → {entries, next_cursor?}",
		Tier:        Conditional,
		Tools:       []string{"kv_commit", "kv_list"},
		Features:    []protocol.Feature{protocol.FeatureKV},
		Covers:      []string{protocol.MethodKVList, reqError(protocol.MethodKVList, protocol.CodeInvalidParams)},
		Run:         checkKVList,
	})
}

type kvPage struct {
	Entries []struct {
		Key     string          `json:"key"`
		Value   json.RawMessage `json:"value"`
		Version string          `json:"version"`
	} `json:"entries"`
	NextCursor *string `json:"next_cursor"`
}

func checkKVList(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureKV); err != nil {
		return err
	}
	ns := t.Ext.Manifest.Name
	var writes []any
	for key, value := range map[string]int{"list/a": 1, "list/b": 2, "other": 3} {
		writes = append(writes, map[string]any{"op": "put", "namespace": ns, "key": key, "value": value})
	}
	resp, err := t.toolCall(s, "kv_commit", map[string]any{"preconditions": []any{}, "writes": writes})
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return fail("the kv_commit of three keys to apply", "%s", resp.Error)
	}
	list := func(args map[string]any) (kvPage, error) {
		var page kvPage
		resp, err := t.toolCall(s, "kv_list", args)
		if err != nil {
			return page, err
		}
		return page, structured(resp, &page)
	}
	first, err := list(map[string]any{"namespace": ns, "prefix": "list/", "limit": 1})
	if err != nil {
		return err
	}
	if len(first.Entries) != 1 || first.Entries[0].Key != "list/a" || string(first.Entries[0].Value) != "1" || !hex64.MatchString(first.Entries[0].Version) || first.NextCursor == nil {
		return fail(`page 1: entries [{key "list/a", value 1, its version}] and a next_cursor`, "%+v", first)
	}
	second, err := list(map[string]any{"namespace": ns, "prefix": "list/", "limit": 1, "cursor": *first.NextCursor})
	if err != nil {
		return err
	}
	if len(second.Entries) != 1 || second.Entries[0].Key != "list/b" || second.NextCursor != nil {
		return fail(fmt.Sprintf(`page 2 (cursor %q): entries [{key "list/b"}] and no next_cursor`, *first.NextCursor), "%+v", second)
	}
	// A foreign namespace: refused -32602, by the SDK itself or by the host (then verbatim).
	asked := len(s.services.Calls(protocol.MethodKVList))
	resp, err = t.toolCall(s, "kv_list", map[string]any{"namespace": "someone-else", "prefix": ""})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "kv.list in a foreign namespace"); err != nil {
		return err
	}
	if len(s.services.Calls(protocol.MethodKVList)) > asked {
		if err := expectCarried(resp, s, protocol.MethodKVList); err != nil {
			return err
		}
	}
	refused := refusal(-32602, "conformance: the cursor expired")
	s.services.Refuse(protocol.MethodKVList, refused)
	resp, err = t.toolCall(s, "kv_list", map[string]any{"namespace": ns, "prefix": "list/", "cursor": *first.NextCursor})
	if err != nil {
		return err
	}
	return expectVerbatim(resp, refused, "kv.list refused")
}
