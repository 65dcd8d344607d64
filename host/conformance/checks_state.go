package conformance

import (
	"encoding/base64"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The state checks: what the host keeps for an extension across runs. A brokered secret
// is never kept: a KV commit carrying one, in any encoding, is refused whole with
// kv_secret_refused, and the extension carries that refusal to its caller verbatim (the
// same code, message and data from every SDK).

func init() {
	register(&Check{
		Name:        "state.kv_secret_refused",
		Description: "a kv.commit whose value holds the brokered secret base64-encoded is refused with -32020 kv_secret_refused {namespace, key, path}, carried verbatim; nothing of the batch is applied",
		Requirement: "docs/host.md#kv-and-secrets: a brokered secret never lands in state.db",
		Tier:        Conditional,
		Tools:       []string{"kv_commit", "kv_get"},
		Features:    []protocol.Feature{protocol.FeatureKV},
		Covers:      []string{reqError(protocol.MethodKVCommit, protocol.CodeKVSecretRefused)},
		Run:         checkKVSecretRefused,
	})
}

func checkKVSecretRefused(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureKV); err != nil {
		return err
	}
	ns := t.Ext.Manifest.Name
	basic := base64.StdEncoding.EncodeToString([]byte("user:" + FixtureSecret))
	resp, err := t.toolCall(s, "kv_commit", map[string]any{"preconditions": []any{}, "writes": []any{
		map[string]any{"op": "put", "namespace": ns, "key": "plain", "value": "no secret here"},
		map[string]any{"op": "put", "namespace": ns, "key": "auth", "value": map[string]any{"basic": basic}},
	}})
	if err != nil {
		return err
	}
	if err := expectCode(resp, protocol.CodeKVSecretRefused, "kv_secret_refused: the value holds the brokered secret, base64-encoded"); err != nil {
		return err
	}
	want := &RPCError{Code: protocol.CodeKVSecretRefused,
		Message: strings.ReplaceAll(protocol.MessageKVSecretRefused, "{path}", "writes[1].value"),
		Data:    mustJSON(map[string]any{"namespace": ns, "key": "auth", "path": "writes[1].value"})}
	if err := expectVerbatim(resp, want, "a KV commit holding a secret"); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "kv_get", map[string]any{"namespace": ns, "key": "plain"})
	if err != nil {
		return err
	}
	var got struct {
		Found bool `json:"found"`
	}
	if err := structured(resp, &got); err != nil {
		return err
	}
	if got.Found {
		return fail("nothing of the refused batch applied", "its first write (no secret) was stored")
	}
	return nil
}
