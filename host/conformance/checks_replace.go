package conformance

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Atomic catalog replacement: the fixture's replace_dynamic swaps its whole dynamic catalog
// with one tools/replace, so a change that removes and adds tools is one revision, and a
// list the host (or the SDK) refuses changes nothing.

func init() {
	register(&Check{
		Name:        "catalog.atomic_replace",
		Description: "replace_dynamic swaps the whole dynamic catalog with one tools/replace: one revision for a change that removes a tool and adds two, each callable at that revision and the removed one only at the older; a list with an invalid tool name is -32602 and changes nothing (the next replacement is the very next revision, the refused list's tools never exist)",
		Requirement: "schema/methods.json tools/replace (one revision, all or nothing); docs/design/fixture.md replace_dynamic",
		Tier:        Conditional,
		Tools:       []string{"register_dynamic", "replace_dynamic"},
		Features:    []protocol.Feature{protocol.FeatureDynamicTools},
		Covers:      []string{protocol.MethodToolsReplace, reqError(protocol.MethodToolsReplace, protocol.CodeInvalidParams)},
		Run:         checkAtomicReplace,
	})
}

func checkAtomicReplace(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureDynamicTools); err != nil {
		return err
	}
	var rev struct {
		Revision int `json:"revision"`
	}
	change := func(tool string, args map[string]any, want int) error {
		resp, err := t.toolCall(s, tool, args)
		if err != nil {
			return err
		}
		if err := structured(resp, &rev); err != nil {
			return err
		}
		if rev.Revision != want {
			return fail(fmt.Sprintf("revision %d after %s (one revision for the whole change)", want, tool), "revision %d", rev.Revision)
		}
		return nil
	}
	pinned := func(name string, revision int, want string) error {
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": name, "arguments": map[string]any{}, "catalog_revision": revision})
		if err != nil {
			return err
		}
		if want == "" {
			return expectCode(resp, -32602, fmt.Sprintf("%s is not in catalog revision %d", name, revision))
		}
		if _, err := expectText(resp, want); err != nil {
			return fmt.Errorf("%s at catalog_revision %d: %w", name, revision, err)
		}
		return nil
	}
	replace := func(tools ...[2]string) map[string]any {
		var list []any
		for _, tl := range tools {
			list = append(list, map[string]any{"name": tl[0], "text": tl[1]})
		}
		return map[string]any{"tools": list}
	}
	if err := change("register_dynamic", map[string]any{"name": "dyn_a", "text": "a"}, 1); err != nil {
		return err
	}
	if err := change("replace_dynamic", replace([2]string{"dyn_b", "b1"}, [2]string{"dyn_c", "c1"}), 2); err != nil {
		return err
	}
	replaces, registers, unregisters := len(s.services.Calls(protocol.MethodToolsReplace)), len(s.services.Calls(protocol.MethodToolsRegister)), len(s.services.Calls(protocol.MethodToolsUnregister))
	if replaces != 1 || registers != 1 || unregisters != 0 {
		return fail("one tools/replace for the replacement (after the one tools/register)", "%d tools/replace, %d tools/register, %d tools/unregister", replaces, registers, unregisters)
	}
	for _, c := range []struct {
		name string
		rev  int
		want string
	}{{"dyn_b", 2, "b1"}, {"dyn_c", 2, "c1"}, {"dyn_a", 2, ""}, {"dyn_a", 1, "a"}} {
		if err := pinned(c.name, c.rev, c.want); err != nil {
			return err
		}
	}
	resp, err := t.toolCall(s, "replace_dynamic", replace([2]string{"dyn_d", "d"}, [2]string{"bad name!", "x"}))
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "a replacement holding an invalid tool name refused whole"); err != nil {
		return err
	}
	if err := change("replace_dynamic", replace([2]string{"dyn_b", "b2"}), 3); err != nil {
		return fmt.Errorf("after the refused replacement: %w", err)
	}
	for _, c := range []struct {
		name string
		rev  int
		want string
	}{{"dyn_b", 3, "b2"}, {"dyn_c", 3, ""}, {"dyn_d", 3, ""}, {"dyn_c", 2, "c1"}} {
		if err := pinned(c.name, c.rev, c.want); err != nil {
			return err
		}
	}
	return nil
}
