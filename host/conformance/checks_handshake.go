package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Handshake and refusal checks: they apply to every extension.

func init() {
	register(
		&Check{
			Name:        "handshake.manifest_echo",
			Description: "initialize answers with the offered api_version, the manifest's name, version and contributions, and a valid feature set",
			Requirement: "wire.md §5 initialize (host checks); docs/conformance.md#the-checks (transport compatibility): handshake and manifest",
			Tier:        Required,
			Covers:      []string{protocol.MethodInitialize},
			Run:         checkHandshake,
		},
		&Check{
			Name:        "version.refuse_0_3",
			Description: "offered API 0.3 (a distinct wire), the extension refuses instead of answering as 0.3",
			Requirement: "wire.md §2 versions (0.3 refused)",
			Tier:        Required,
			Covers:      []string{protocol.MethodInitialize, reqError(protocol.MethodInitialize, protocol.CodeUnsupportedAPIVersion)},
			Run:         checkRefuse03,
		},
		&Check{
			Name:        "version.mismatch_deterministic",
			Description: "offered an api_version other than the manifest's, the extension refuses or answers something the host refuses, the same way twice, never hanging",
			Requirement: "docs/conformance.md#the-checks (transport compatibility): deterministic version-mismatch refusal; wire.md §2",
			Tier:        Required,
			Covers:      []string{protocol.MethodInitialize},
			Run:         checkVersionMismatch,
		},
		&Check{
			Name:        "manifest.contribution_mismatch",
			Description: "when the manifest declares a tool the code does not implement, the handshake is refused (by the extension, or by the host from its answer)",
			Requirement: "wire.md §5 initialize host checks (tool names equal the manifest's); the host binds identity (docs/host.md)",
			Tier:        Required,
			Covers:      []string{protocol.MethodInitialize},
			Run:         checkContributionMismatch,
		},
		&Check{
			Name:        "negotiate.unknown_required_feature",
			Description: "a required feature the SDK does not support makes it refuse initialize with -32602 naming the feature",
			Requirement: "wire.md §2 SDK rule: reject initialize if a required feature is unsupported (-32602, message names it)",
			Tier:        Required,
			Covers:      []string{reqError(protocol.MethodInitialize, protocol.CodeInvalidParams)},
			Run:         checkUnknownRequiredFeature,
		},
		&Check{
			Name:        "rpc.unknown_targets",
			Description: "a tool, command, hook, status surface or renderer the extension does not serve, or context params of the wrong type, are refused -32602 (the method exists; its target does not)",
			Requirement: "schema/methods.json tool/call, command/execute, hook/run, status/collect, tool/render, context/collect errors (-32602); wire.md §10",
			Tier:        Required,
			Covers: []string{
				reqError(protocol.MethodToolCall, protocol.CodeInvalidParams),
				reqError(protocol.MethodCommandExecute, protocol.CodeInvalidParams),
				reqError(protocol.MethodHookRun, protocol.CodeInvalidParams),
				reqError(protocol.MethodStatusCollect, protocol.CodeInvalidParams),
				reqError(protocol.MethodToolRender, protocol.CodeInvalidParams),
				reqError(protocol.MethodContextCollect, protocol.CodeInvalidParams),
			},
			Run: checkUnknownTargets,
		},
		&Check{
			Name:        "rpc.unknown_method",
			Description: "an unknown method is answered -32601, distinct from authored errors",
			Requirement: "wire.md §1 error registry (-32601)",
			Tier:        Required,
			Run:         checkUnknownMethod,
		},
		&Check{
			Name:        "rpc.strict_params",
			Description: "tool/call params with an unknown field, or a resource_owner breaking its bounds, are refused -32602 rather than served",
			Requirement: "wire.md notation: objects refuse unknown fields; §4 ResourceOwner session_id 1..256 bytes",
			Tier:        Advisory,
			Fixture:     true,
			Covers:      []string{reqError(protocol.MethodToolCall, protocol.CodeInvalidParams)},
			Run:         checkStrictParams,
		},
		&Check{
			Name:        "rpc.invalid_params",
			Description: "typed called with wrong argument types is answered -32602; correct arguments give the typed result and structured_content",
			Requirement: "wire.md §1 (-32602), §4 output_schema; fixture.md typed",
			Tier:        Conditional,
			Tools:       []string{"typed"},
			Covers:      []string{protocol.MethodToolCall, reqError(protocol.MethodToolCall, protocol.CodeInvalidParams)},
			Run:         checkInvalidParams,
		},
	)
}

func checkHandshake(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if r.Protocol != nil {
		t.Note("api %s, features %s, concurrency %d", r.APIVersion, strings.Join(r.Protocol.Features, ","), r.Protocol.Limits.MaxConcurrentRequests)
	} else {
		t.Note("api %s", r.APIVersion)
	}
	_ = s
	return nil
}

// refusal classifies an initialize attempt that should not succeed: it returns a
// description of how it was refused, or an error when it was not.
type outcome struct {
	refused bool
	how     string
}

func tryInitialize(t *T, o InitOptions) (outcome, error) {
	s, err := t.Start(StartOptions{APIVersion: o.APIVersion})
	if err != nil {
		return outcome{}, err
	}
	manifest := o.Manifest
	params, resp, err := t.Initialize(s, o)
	switch {
	case errors.Is(err, ErrTransport):
		return outcome{true, fmt.Sprintf("exited without answering (code %d)", s.ExitCode())}, nil
	case err != nil:
		return outcome{}, fail(fmt.Sprintf("a refusal within %s (an error answer or an exit)", t.Timeout()), "%v", err)
	case resp.Error != nil:
		return outcome{true, fmt.Sprintf("refused with error %d", resp.Error.Code)}, nil
	}
	declared := manifest
	if declared == nil {
		declared = t.Ext.Manifest.JSON
	}
	_, probs := validateInit(params, resp.Result, t.Ext, declared)
	if len(probs) > 0 {
		return outcome{true, "host refuses the answer: " + strings.Join(probs, "; ")}, nil
	}
	return outcome{false, "answered initialize successfully: " + excerpt(resp.Result, 160)}, nil
}

func checkRefuse03(t *T) error {
	out, err := tryInitialize(t, InitOptions{APIVersion: "0.3"})
	if err != nil {
		return err
	}
	if !out.refused {
		return fail("API 0.3 refused (-32006 or an exit)", "%s", out.how)
	}
	t.Note("%s", out.how)
	return nil
}

// otherVersion picks a supported version that is not the manifest's.
func otherVersion(v string) string {
	if v == "0.4" {
		return "0.2"
	}
	return "0.4"
}

func checkVersionMismatch(t *T) error {
	offer := otherVersion(t.Ext.Manifest.APIVersion)
	var hows []string
	for range 2 {
		out, err := tryInitialize(t, InitOptions{APIVersion: offer})
		if err != nil {
			return err
		}
		if !out.refused {
			// The extension followed the offered version: the host refuses because the
			// manifest pins another one. That is a deterministic refusal too.
			out.how = fmt.Sprintf("followed the offered %s; the host refuses it because the manifest pins %s", offer, t.Ext.Manifest.APIVersion)
		}
		hows = append(hows, out.how)
	}
	if kind(hows[0]) != kind(hows[1]) {
		return fail("the same refusal twice", "%q then %q", hows[0], hows[1])
	}
	t.Note("offered %s to a %s manifest: %s", offer, t.Ext.Manifest.APIVersion, hows[0])
	return nil
}

// kind reduces a refusal description to its class for the determinism comparison.
func kind(how string) string {
	word, _, _ := strings.Cut(how, " (")
	if i := strings.Index(word, ":"); i > 0 {
		word = word[:i]
	}
	return word
}

// undeclaredTool is a tool name no extension implements.
const undeclaredTool = "conformance_undeclared_tool"

func checkContributionMismatch(t *T) error {
	man := cloneJSON(t.Ext.Manifest.JSON)
	contributes, _ := man["contributes"].(map[string]any)
	if contributes == nil {
		contributes = map[string]any{}
		man["contributes"] = contributes
	}
	tools := stringList(contributes["tools"])
	contributes["tools"] = append(slices.Clone(tools), undeclaredTool)
	// dynamic_tools is withheld: with it, the initialize tools are revision 0 and need not
	// match the manifest, so nothing would have to refuse.
	out, err := tryInitialize(t, InitOptions{Manifest: man, Withhold: []string{string(protocol.FeatureDynamicTools)}})
	if err != nil {
		return err
	}
	if !out.refused {
		return fail(fmt.Sprintf("a refusal: the manifest declares %q, which the code does not implement", undeclaredTool), "%s", out.how)
	}
	t.Note("%s", out.how)
	return nil
}

func cloneJSON(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	if out == nil {
		out = maps.Clone(m)
	}
	return out
}

// unknownFeature is a required feature no SDK supports.
const unknownFeature = "conformance_teleportation"

func checkUnknownRequiredFeature(t *T) error {
	if t.Ext.Manifest.APIVersion == "0.1" {
		return skip("API 0.1 negotiates no features")
	}
	s, err := t.Start(StartOptions{})
	if err != nil {
		return err
	}
	params := initParams(t.Ext, InitOptions{})
	proto := params["protocol"].(map[string]any)
	proto["required_features"] = append(slices.Clone(proto["required_features"].([]string)), unknownFeature)
	resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodInitialize, params)
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "required feature "+unknownFeature+" is unsupported"); err != nil {
		return err
	}
	if !strings.Contains(resp.Error.Message, unknownFeature) {
		return fail("the -32602 message to name "+unknownFeature, "%q", resp.Error.Message)
	}
	return nil
}

func checkUnknownTargets(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	hook := "before_prompt"
	for _, h := range []string{"before_prompt", "after_response", "before_tool_call", "after_tool_call"} {
		if !slices.Contains(r.Hooks, h) {
			hook = h
			break
		}
	}
	// A surface the extension does not contribute, or "" when it contributes all three.
	surface := ""
	for _, u := range []string{"footer", "header", "status"} {
		if !slices.Contains(r.UI, u) {
			surface = u
			break
		}
	}
	var renderResult any = map[string]any{"content": []any{map[string]any{"type": "text", "text": "x"}}}
	if r.APIVersion == "0.1" {
		renderResult = map[string]any{"content": "x"}
	}
	// Without a context contribution the target itself is missing; with one, a prompt of the
	// wrong type is the invalid parameter.
	contextParams := map[string]any{}
	if t.Ext.Manifest.Contributes.Context {
		contextParams = map[string]any{"prompt": 5}
	}
	for _, c := range []struct {
		method string
		params map[string]any
	}{
		{protocol.MethodToolCall, map[string]any{"name": "conformance_no_such_tool", "arguments": map[string]any{}}},
		{protocol.MethodCommandExecute, map[string]any{"name": "conformance_no_such_command", "arguments": []string{}}},
		{protocol.MethodHookRun, map[string]any{"hook": hook, "payload": hookPayloads[hook]}},
		{protocol.MethodStatusCollect, map[string]any{"surface": surface}},
		{protocol.MethodToolRender, map[string]any{"name": "conformance_no_such_tool", "arguments": map[string]any{}, "result": renderResult}},
		{protocol.MethodContextCollect, contextParams},
	} {
		if c.method == protocol.MethodHookRun && slices.Contains(r.Hooks, hook) {
			continue // it serves every hook this check could name
		}
		if c.method == protocol.MethodStatusCollect && surface == "" {
			continue // it serves every surface
		}
		resp, err := s.Call(t.Ctx, t.Timeout(), c.method, c.params)
		if err != nil {
			return err
		}
		if err := expectCode(resp, -32602, c.method+" naming something the extension does not serve"); err != nil {
			return err
		}
	}
	return nil
}

func checkUnknownMethod(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := s.Call(t.Ctx, t.Timeout(), "conformance/no_such_method", map[string]any{})
	if err != nil {
		return err
	}
	return expectCode(resp, -32601, "method not found")
}

func checkInvalidParams(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := t.toolCall(s, "typed", map[string]any{"count": "three", "label": 5})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "typed with count a string and label a number"); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "typed", map[string]any{"count": 3, "label": "apples"})
	if err != nil {
		return err
	}
	r, err := expectText(resp, "apples:3")
	if err != nil {
		return err
	}
	if !jsonEqual(r.StructuredContent, []byte(`{"count":3}`)) {
		return fail(`structured_content {"count":3}`, "%s", excerpt(r.StructuredContent, 120))
	}
	return nil
}

func checkStrictParams(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, c := range []struct {
		what   string
		params map[string]any
	}{
		{"an unknown params field", map[string]any{"name": "echo", "arguments": map[string]any{"value": 1}, "conformance_unknown": true}},
		{"resource_owner.session_id empty", map[string]any{"name": "echo", "arguments": map[string]any{"value": 1},
			"resource_owner": map[string]any{"session_id": "", "extension_instance_id": "x", "process_generation": 0}}},
	} {
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, c.params)
		if err != nil {
			return err
		}
		if err := expectCode(resp, -32602, c.what); err != nil {
			return err
		}
	}
	return nil
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return string(ca) == string(cb)
}
