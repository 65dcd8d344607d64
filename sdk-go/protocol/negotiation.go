package protocol

import (
	"fmt"
	"slices"
	"strings"
)

// The negotiation rules applied to the generated table (features_gen.go). Go's SDK and the
// reference host both call these, and the Python and TypeScript SDKs implement the same
// steps over their generated copy of the table; schema/vectors/negotiation fixes the result.

// Refusal is a negotiation refusal: the exact JSON-RPC error object every SDK answers.
type Refusal struct {
	Code    int64
	Message string
	Data    map[string]any
}

func (r *Refusal) Error() string { return r.Message }

// FillMessage replaces each {key} of template with its value; args are key, value pairs.
func FillMessage(template string, args ...string) string {
	pairs := make([]string, 0, len(args))
	for i := 0; i+1 < len(args); i += 2 {
		pairs = append(pairs, "{"+args[i]+"}", args[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// SelectVersion applies version selection: requested is initialize's api_version, pinned the
// version the extension runs ("" when not pinned), manifest the manifest's api_version ("" when
// absent). Nil means requested is selected.
func SelectVersion(requested, pinned, manifest string) *Refusal {
	refuse := func(msg string, supported []string) *Refusal {
		return &Refusal{Code: CodeUnsupportedAPIVersion, Message: msg,
			Data: map[string]any{"requested": requested, "supported": supported}}
	}
	supported := slices.Clone(SpokenVersions)
	if pinned != "" {
		supported = []string{pinned}
	}
	if reason, ok := DistinctVersions[requested]; ok {
		return refuse(FillMessage(MsgVersionDistinct, "requested", requested, "reason", reason), supported)
	}
	if !slices.Contains(SpokenVersions, requested) || (pinned != "" && requested != pinned) {
		return refuse(FillMessage(MsgVersionUnsupported, "requested", requested, "supported", strings.Join(supported, ", ")), supported)
	}
	if manifest != "" && manifest != requested {
		return refuse(FillMessage(MsgVersionManifest, "requested", requested, "manifest", manifest), []string{manifest})
	}
	return nil
}

// ManifestHas reports whether the dotted member of a manifest (as JSON) is present and
// non-empty: a non-empty array, object or string, true, or any number.
func ManifestHas(manifest map[string]any, dotted string) bool {
	var v any = manifest
	for _, part := range strings.Split(dotted, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[part]; !ok {
			return false
		}
	}
	switch x := v.(type) {
	case nil:
		return false
	case []any:
		return len(x) > 0
	case []string:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case string:
		return x != ""
	case bool:
		return x
	}
	return true
}

// AcceptFeatures answers an offer: every required feature (or a -32602 refusal naming the
// first that cannot be accepted), then each offered optional one the extension can serve, in
// offer order, once each. hasHandler reports whether a handler kind is registered.
func AcceptFeatures(api string, required, optional []string, hasHandler func(kind string) bool, manifest map[string]any) ([]string, *Refusal) {
	refuse := func(template string, args ...string) *Refusal {
		msg := FillMessage(template, args...)
		return &Refusal{Code: CodeInvalidParams, Message: msg,
			Data: map[string]any{"path": "/protocol/required_features", "reason": msg}}
	}
	var out []string
	req := map[string]bool{}
	for _, f := range required {
		rule, ok := LookupFeatureRule(f)
		if !ok || !rule.SDK || rule.Offer[api] == "" {
			return nil, refuse(MsgRequiredUnsupported, "feature", f, "api", api)
		}
		if rule.Handler != "" && !hasHandler(rule.Handler) {
			return nil, refuse(MsgRequiredHandler, "feature", f, "handler", rule.Handler)
		}
		if rule.Manifest != "" && !ManifestHas(manifest, rule.Manifest) {
			return nil, refuse(MsgRequiredManifest, "feature", f, "manifest", rule.Manifest)
		}
		if !req[f] {
			req[f] = true
			out = append(out, f)
		}
	}
	for _, f := range optional {
		rule, ok := LookupFeatureRule(f)
		if !ok || !rule.SDK || rule.Offer[api] == "" || slices.Contains(out, f) ||
			(rule.Handler != "" && !hasHandler(rule.Handler)) ||
			(rule.Manifest != "" && !ManifestHas(manifest, rule.Manifest)) {
			continue
		}
		out = append(out, f)
	}
	// Needs: drop an optional feature whose needs were not accepted (repeat: a drop may
	// strand another); a required one refuses.
	for changed := true; changed; {
		changed = false
		for _, f := range slices.Clone(out) {
			rule, _ := LookupFeatureRule(f)
			for _, need := range rule.Needs {
				if slices.Contains(out, need) {
					continue
				}
				if req[f] {
					return nil, refuse(MsgRequiredNeeds, "feature", f, "needs", need)
				}
				out = slices.DeleteFunc(out, func(x string) bool { return x == f })
				changed = true
				break
			}
		}
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// OfferFeatures is what a host offers for api to the extension of manifest: the version's
// required features, and, when the host serves reverse requests, its optional features and
// each conditional one whose condition holds (and whose manifest member and needs are met).
func OfferFeatures(api string, manifest map[string]any, services bool, holds func(HostCondition) bool) (required, optional []string) {
	required, optional = []string{}, []string{}
	for _, rule := range FeatureRules {
		switch rule.Offer[api] {
		case OfferRequired:
			required = append(required, rule.Name)
		case OfferOptional:
			if services {
				optional = append(optional, rule.Name)
			}
		case OfferConditional:
			if services && holds(rule.Condition) {
				optional = append(optional, rule.Name)
			}
		}
	}
	optional = slices.DeleteFunc(optional, func(f string) bool {
		rule, _ := LookupFeatureRule(f)
		if rule.Manifest != "" && !ManifestHas(manifest, rule.Manifest) {
			return true
		}
		for _, need := range rule.Needs {
			if !slices.Contains(optional, need) && !slices.Contains(required, need) {
				return true
			}
		}
		return false
	})
	return required, optional
}

// CheckAnswer is the host's judgement of an answered feature list against its offer: each
// feature offered and listed once, every required one present, every feature's needs
// negotiated too. It returns the negotiated set.
func CheckAnswer(required, optional, answered []string) (map[string]bool, error) {
	offered := map[string]bool{}
	for _, f := range append(slices.Clone(required), optional...) {
		offered[f] = true
	}
	got := map[string]bool{}
	for _, f := range answered {
		if got[f] {
			return nil, fmt.Errorf("feature %q is listed twice", f)
		}
		if !offered[f] {
			return nil, fmt.Errorf("feature %q was not offered", f)
		}
		got[f] = true
	}
	for _, f := range required {
		if !got[f] {
			return nil, fmt.Errorf("required feature %q is missing", f)
		}
	}
	for _, f := range answered {
		rule, _ := LookupFeatureRule(f)
		for _, need := range rule.Needs {
			if !got[need] {
				return nil, fmt.Errorf("%s", FillMessage(MsgAnswerNeeds, "feature", f, "needs", need))
			}
		}
	}
	return got, nil
}
