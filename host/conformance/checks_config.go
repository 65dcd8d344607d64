package conformance

import (
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// The config check: an extension that declares settings answers configure, the dry run and
// the real one, with a ConfigureResult (accepted, or refused with reasons).

func init() {
	register(&Check{
		Name:        "config.configure_answered",
		Description: "configure after initialize (a dry run, then the settings themselves, defaults applied) is answered with a ConfigureResult: accepted, or accepted false with at least one reason",
		Requirement: "settings.schema.json ConfigureParams/ConfigureResult; docs/settings.md",
		Tier:        Conditional,
		Features:    []protocol.Feature{protocol.FeatureConfigure},
		Covers:      []string{protocol.MethodConfigure},
		Run:         checkConfigure,
	})
}

func checkConfigure(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureConfigure); err != nil {
		return err
	}
	for _, dry := range []bool{true, false} {
		params := map[string]any{"settings": map[string]any{}, "dry_run": dry, "revision": 1}
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodConfigure, params)
		if err != nil {
			return err
		}
		if resp.Error != nil {
			return fail("a ConfigureResult", "configure (dry_run %v) answered an error: %s", dry, resp.Error)
		}
		doc, err := strictjson.Parse(resp.Result)
		if err == nil {
			err = protocol.Validate("ConfigureResult", doc)
		}
		if err != nil {
			return fail("a ConfigureResult", "configure (dry_run %v) answered %s: %v", dry, resp.Result, err)
		}
		var res protocol.ConfigureResult
		_ = json.Unmarshal(resp.Result, &res)
		if !res.Accepted && len(res.Reasons) == 0 {
			return fail("reasons with accepted false", "configure (dry_run %v) refused without a reason: %s", dry, resp.Result)
		}
	}
	return nil
}

func init() {
	register(&Check{
		Name:        "idempotency.key_accepted",
		Description: "tool/call with an idempotency_key is served like any call; a key that breaks its pattern is -32602",
		Requirement: "host-methods.schema.json ToolCallParams.idempotency_key; docs/host.md Idempotent tool calls",
		Tier:        Conditional,
		Tools:       []string{"echo"},
		Covers:      []string{reqError(protocol.MethodToolCall, protocol.CodeInvalidParams)},
		Run:         checkIdempotencyKey,
	})
}

func checkIdempotencyKey(t *T) error {
	if t.Ext.Manifest.APIVersion == "0.1" {
		return skip("API 0.1 has no idempotency_key")
	}
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	call := func(key string) (Response, error) {
		return s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, map[string]any{"name": "echo", "arguments": map[string]any{"value": "keyed"}, "idempotency_key": key})
	}
	resp, err := call("order-1:retry.2")
	if err != nil {
		return err
	}
	if err := expectEcho(resp, "keyed"); err != nil {
		return err
	}
	resp, err = call("not a key!")
	if err != nil {
		return err
	}
	if resp.Error == nil || resp.Error.Code != protocol.CodeInvalidParams {
		return fail("-32602 for idempotency_key \"not a key!\"", "%s", resp)
	}
	return nil
}
