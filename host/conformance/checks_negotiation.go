package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/octet-kit/octet/schema"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// negotiation.vectors replays the offers of schema/vectors/negotiation/answer-*.json against
// the extension under test. Each offer goes to a fresh process with the extension's own
// manifest (and OCTET_EXTENSION_API_VERSION, its pin, from it), so the expected outcome is
// computed by the schema's negotiation table (protocol.SelectVersion, AcceptFeatures) from
// that manifest and the handlers the extension registered: the exact refusal (code, message,
// data) or the exact feature list, in offer order, with lifecycle subscriptions in enum order.

func init() {
	register(&Check{
		Name:        "negotiation.vectors",
		Description: "every offer of schema/vectors/negotiation is answered as the schema's negotiation table says for this extension: the same features in offer order, or the same refusal code, message and data",
		Requirement: "schema/initialize.schema.json x-octet-features (docs/reference/negotiation.md); issue 12: negotiation decided once",
		Tier:        Required,
		Covers:      []string{protocol.MethodInitialize},
		Run:         checkNegotiationVectors,
	})
}

type offerVector struct {
	name       string
	APIVersion string `json:"api_version"`
	Protocol   struct {
		RequiredFeatures []string `json:"required_features"`
		OptionalFeatures []string `json:"optional_features"`
	} `json:"protocol"`
}

// answerOffers returns the distinct offers of the answer vectors, by file name.
func answerOffers() ([]offerVector, error) {
	var out []offerVector
	seen := map[string]bool{}
	files := schema.NegotiationVectors()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var v struct {
			Kind  string      `json:"kind"`
			Offer offerVector `json:"offer"`
		}
		if err := json.Unmarshal(files[n], &v); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if v.Kind != "answer" {
			continue
		}
		key := fmt.Sprint(v.Offer.APIVersion, v.Offer.Protocol.RequiredFeatures, v.Offer.Protocol.OptionalFeatures)
		if seen[key] {
			continue
		}
		seen[key] = true
		v.Offer.name = n
		out = append(out, v.Offer)
	}
	return out, nil
}

func checkNegotiationVectors(t *T) error {
	pinned := t.Ext.Manifest.APIVersion
	if pinned == "0.1" {
		return skip("API 0.1 negotiates no features")
	}
	offers, err := answerOffers()
	if err != nil {
		return err
	}
	if len(offers) == 0 {
		return fail("schema/vectors/negotiation answer vectors", "none embedded")
	}
	// Which handler kinds the extension registered shows in an ordinary handshake.
	_, base, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	lifecycle := base.HasFeature(protocol.FeatureLifecycleEvents)
	hasHandler := func(kind string) bool { return kind == "lifecycle" && lifecycle }
	man := t.Ext.Manifest.JSON
	for _, o := range offers {
		s, err := t.Start(StartOptions{})
		if err != nil {
			return err
		}
		params := initParams(t.Ext, InitOptions{APIVersion: o.APIVersion})
		proto, _ := params["protocol"].(map[string]any)
		if proto == nil { // a version outside the table: the protocol block is the vector's
			proto = map[string]any{"version": o.APIVersion, "limits": map[string]any{"max_concurrent_requests": 64}}
			params["protocol"] = proto
		}
		proto["required_features"], proto["optional_features"] = o.Protocol.RequiredFeatures, o.Protocol.OptionalFeatures
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodInitialize, params)
		_ = s.CloseStdin()
		if err != nil {
			return fmt.Errorf("%s: %w", o.name, err)
		}
		var want *protocol.Refusal
		var features []string
		if want = protocol.SelectVersion(o.APIVersion, pinned, pinned); want == nil {
			features, want = protocol.AcceptFeatures(o.APIVersion, o.Protocol.RequiredFeatures, o.Protocol.OptionalFeatures, hasHandler, man)
		}
		if want != nil {
			if resp.Error == nil {
				return fail(fmt.Sprintf("%s: the refusal %d %q", o.name, want.Code, want.Message), "answered %s", excerpt(resp.Result, 300))
			}
			wantData, _ := json.Marshal(want.Data)
			if resp.Error.Code != want.Code || resp.Error.Message != want.Message || !sameJSONValue(resp.Error.Data, wantData) {
				return fail(fmt.Sprintf("%s: the refusal %d %q data %s", o.name, want.Code, want.Message, wantData),
					"%d %q data %s", resp.Error.Code, resp.Error.Message, resp.Error.Data)
			}
			continue
		}
		if resp.Error != nil {
			return fail(fmt.Sprintf("%s: the features %v", o.name, features), "refused %s", resp.Error.Error())
		}
		var got struct {
			Protocol *struct {
				Features        []string `json:"features"`
				LifecycleEvents []string `json:"lifecycle_events"`
			} `json:"protocol"`
		}
		if err := json.Unmarshal(resp.Result, &got); err != nil || got.Protocol == nil {
			return fail(fmt.Sprintf("%s: a protocol block", o.name), "%s", excerpt(resp.Result, 300))
		}
		if !slices.Equal(got.Protocol.Features, features) && !(len(features) == 0 && len(got.Protocol.Features) == 0) {
			return fail(fmt.Sprintf("%s: the features %v, in offer order", o.name, features), "%v", got.Protocol.Features)
		}
		ordered := slices.DeleteFunc(slices.Clone(protocol.LifecycleEvents), func(e string) bool { return !slices.Contains(got.Protocol.LifecycleEvents, e) })
		if !slices.Equal(ordered, got.Protocol.LifecycleEvents) {
			return fail(fmt.Sprintf("%s: lifecycle_events in the LifecycleEvent enum's order", o.name), "%v", got.Protocol.LifecycleEvents)
		}
	}
	t.Note("%d offers replayed (lifecycle handlers: %t)", len(offers), lifecycle)
	return nil
}

// sameJSONValue compares two JSON texts as values.
func sameJSONValue(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
