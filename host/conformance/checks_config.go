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
