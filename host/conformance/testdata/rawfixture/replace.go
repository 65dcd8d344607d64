package main

import (
	"context"
	"encoding/json"
)

// modeReplaceAsTwo replaces the dynamic catalog with a tools/unregister of the old tools
// and a tools/register of the new: two revisions for one change, and a refused list leaves
// the catalog emptied (catalog.atomic_replace).
const modeReplaceAsTwo = "replace-as-two"

// catalogReplace is replace_dynamic: {tools: [{name, text}]} becomes the whole dynamic
// catalog with one tools/replace (the host refuses a list with a bad name whole).
func (c *conn) catalogReplace(ctx context.Context, args map[string]json.RawMessage) (any, *rpcError) {
	list := arg[[]struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}](args, "tools")
	// The catalog becomes these tools and replace_dynamic itself, which must stay callable.
	defs := []any{map[string]any{"name": "replace_dynamic", "description": "fixture tool replace_dynamic", "parameters": map[string]any{"type": "object"}}}
	next := map[string]string{}
	for _, tl := range list {
		defs = append(defs, map[string]any{"name": tl.Name, "description": "dynamic", "parameters": map[string]any{"type": "object"}})
		next[tl.Name] = tl.Text
	}
	var res json.RawMessage
	var e *rpcError
	if mode == modeReplaceAsTwo {
		c.mu.Lock()
		var old []string
		for k := range c.catalogs[c.revision] {
			old = append(old, k)
		}
		c.mu.Unlock()
		if len(old) > 0 {
			if res, e = c.call(ctx, "tools/unregister", map[string]any{"names": old}); e != nil {
				return nil, e
			}
			c.commit(res, map[string]string{})
		}
		res, e = c.call(ctx, "tools/register", map[string]any{"tools": defs})
	} else {
		res, e = c.call(ctx, "tools/replace", map[string]any{"tools": defs})
	}
	if e != nil {
		return nil, e
	}
	return withStructured("catalog", map[string]any{"revision": c.commit(res, next)}), nil
}

// commit records the catalog a host acknowledgement committed, and returns its revision.
func (c *conn) commit(ack json.RawMessage, catalog map[string]string) int {
	var a struct {
		Revision int `json:"revision"`
	}
	_ = json.Unmarshal(ack, &a)
	c.mu.Lock()
	defer c.mu.Unlock()
	if a.Revision != c.revision+1 {
		fatal("protocol error: catalog revision %d after %d", a.Revision, c.revision)
	}
	c.revision = a.Revision
	c.catalogs[c.revision] = catalog
	delete(c.catalogs, c.revision-8) // retain 8 committed catalogs
	return c.revision
}
