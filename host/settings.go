package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/host/internal/schemacache"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// SecretNameFormat is the format keyword that marks a setting as the name of a secret: the
// operator writes the name, the extension resolves it through secret/get, and the value
// never enters the config, the wire's settings or the logs.
const SecretNameFormat = "secret-name"

// kindSettings refuses a start whose settings break the manifest's settings schema, or
// that the extension refused in its first configure: the same settings refuse again.
const kindSettings process.Kind = "settings_refused"

// SettingsError is an operator value the host refused before the extension saw it: the
// same fault contract as tool arguments (the instance pointer, the rule, the reason), with
// the extension and the top-level key named.
type SettingsError struct {
	Extension string
	Key       string // the top-level setting ("" when the fault is at the root)
	Pointer   string // RFC 6901 pointer into the settings object
	Rule      string // the keyword broken, or "secret-name"
	Reason    string
}

func (e *SettingsError) Error() string {
	key := e.Key
	if key == "" {
		key = "(root)"
	}
	return fmt.Sprintf("extension %s: setting %s refused: %s: %s (settings %s)",
		e.Extension, key, displayPointer(e.Pointer), e.Reason, e.Rule)
}

// ConfigureRefusedError is a configure the extension answered with accepted false. The
// settings in force before it stay in force.
type ConfigureRefusedError struct {
	Extension string
	DryRun    bool
	Reasons   []string
}

func (e *ConfigureRefusedError) Error() string {
	what := "refused the settings"
	if e.DryRun {
		what = "would refuse the settings (dry run)"
	}
	return fmt.Sprintf("extension %s %s: %s", e.Extension, what, strings.Join(e.Reasons, "; "))
}

// CheckSettings applies the manifest's settings schema to the operator's values: the
// schema's defaults are filled in where a value is absent (properties of objects, depth
// first), then the result is validated with the host's 2020-12 validator and the fault
// contract of tool arguments, and every secret-name setting must name a secret of the
// manifest's allowlist. It returns the effective settings as JSON; a manifest without
// settings returns nil (and any value the operator set for it is refused, so a typo in the
// extension's name does not go unnoticed).
func CheckSettings(m *manifest.Manifest, values map[string]any) (json.RawMessage, error) {
	schemaDoc, _ := m.JSON["settings"].(map[string]any)
	if len(schemaDoc) == 0 {
		if len(values) > 0 {
			keys := slices.Sorted(maps.Keys(values))
			return nil, &SettingsError{Extension: m.Name, Key: keys[0], Pointer: "/" + keys[0], Rule: "settings",
				Reason: "the manifest declares no settings; remove [extensions." + m.Name + ".settings]"}
		}
		return nil, nil
	}
	rawSchema, err := json.Marshal(schemaDoc)
	if err != nil {
		return nil, fmt.Errorf("extension %s: settings schema: %v", m.Name, err)
	}
	s, err := schemacache.Compile(rawSchema)
	if err != nil {
		return nil, fmt.Errorf("extension %s: settings schema: %v", m.Name, err)
	}
	// TOML values (int64, float64, datetimes) become JSON, then the validator's document.
	if values == nil {
		values = map[string]any{}
	}
	raw, err := json.Marshal(values)
	if err != nil {
		return nil, &SettingsError{Extension: m.Name, Rule: "type", Reason: "not representable as JSON: " + err.Error()}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, &SettingsError{Extension: m.Name, Rule: "type", Reason: "not valid JSON: " + err.Error()}
	}
	applyDefaults(schemaDoc, doc)
	if f := judgeDoc(s, doc); f != nil {
		return nil, &SettingsError{Extension: m.Name, Key: topKey(f.pointer), Pointer: f.pointer, Rule: f.keyword, Reason: f.reason}
	}
	if err := checkSecretNames(m, schemaDoc, doc); err != nil {
		return nil, err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("extension %s: settings: %v", m.Name, err)
	}
	return out, nil
}

// applyDefaults fills in each absent property's default, where the schema declares one in
// the object's own properties (no $ref, allOf or conditional is followed: a default there
// would depend on which branch applies), and descends into present object properties.
func applyDefaults(schema map[string]any, doc any) {
	obj, ok := doc.(map[string]any)
	if !ok {
		return
	}
	props, _ := schema["properties"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(props)) {
		ps, _ := props[k].(map[string]any)
		if ps == nil {
			continue
		}
		if _, present := obj[k]; !present {
			if d, has := ps["default"]; has {
				obj[k] = normalize(d)
			}
		}
		if v, present := obj[k]; present {
			applyDefaults(ps, v)
		}
	}
}

// normalize gives a default the validator's number type (json.Number), so an integer
// default is judged exactly as the same value written by the operator.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	d, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return v
	}
	return d
}

// checkSecretNames refuses a top-level secret-name setting whose value is not a secret the
// manifest's capabilities.secrets allows: the extension could never resolve it, and a value
// that looks like a secret itself must not travel further.
func checkSecretNames(m *manifest.Manifest, schema map[string]any, doc any) error {
	props, _ := schema["properties"].(map[string]any)
	obj, _ := doc.(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(props)) {
		ps, _ := props[k].(map[string]any)
		if f, _ := ps["format"].(string); f != SecretNameFormat {
			continue
		}
		v, present := obj[k]
		if !present {
			continue
		}
		name, _ := v.(string)
		if !slices.Contains(m.Capabilities.Secrets, name) {
			// The value is not echoed: a pasted secret would otherwise reach the message.
			return &SettingsError{Extension: m.Name, Key: k, Pointer: pointerOf([]string{k}), Rule: SecretNameFormat,
				Reason: "must name a secret of capabilities.secrets (" + strings.Join(m.Capabilities.Secrets, ", ") + "); the value is not one"}
		}
	}
	return nil
}

// topKey is the first token of an RFC 6901 pointer, unescaped.
func topKey(p string) string {
	t := splitPointer(p)
	if len(t) == 0 {
		return ""
	}
	return strings.ReplaceAll(strings.ReplaceAll(t[0], "~1", "/"), "~0", "~")
}

// settingsState is the operator's values in force for one extension and their revision.
type settingsState struct {
	configuring sync.Mutex // held by Configure for one change
	mu          sync.Mutex
	loaded      bool
	values      map[string]any
	revision    int64
}

// settingsValues returns the values in force: the host's configured ones until a
// Configure replaced them.
func (e *Extension) settingsValues() (map[string]any, int64) {
	st := &e.settings
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.loaded {
		st.values, st.loaded, st.revision = e.host.opts.Settings[e.name], true, 1
	}
	return st.values, st.revision
}

// Settings returns the operator's values in force and their revision (1 at start).
func (e *Extension) Settings() (map[string]any, int64) { return e.settingsValues() }

// sendConfigure delivers settings to g when g negotiated configure; without the feature
// the extension gets no settings (an older extension still starts).
func (g *generation) sendConfigure(ctx context.Context, settings json.RawMessage, revision int64, dryRun bool) error {
	if !g.neg.features[string(protocol.FeatureConfigure)] {
		return nil
	}
	if settings == nil {
		settings = json.RawMessage("{}")
	}
	var raw json.RawMessage
	if err := g.request(ctx, protocol.MethodConfigure, &protocol.ConfigureParams{Settings: settings, DryRun: dryRun, Revision: revision}, &raw); err != nil {
		return err
	}
	if _, re := judgeResult(protocol.MethodConfigure, g.manifest.APIVersion, "", raw); re != nil {
		re.Extension = g.manifest.Name
		return g.reject(re)
	}
	var res protocol.ConfigureResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return err
	}
	if !res.Accepted {
		reasons := res.Reasons
		if len(reasons) == 0 {
			reasons = []string{"(no reason given)"}
		}
		return &ConfigureRefusedError{Extension: g.manifest.Name, DryRun: dryRun, Reasons: reasons}
	}
	return nil
}

// ConfigureOutcome is what Configure did.
type ConfigureOutcome struct {
	Revision  int64 // the revision in force afterwards
	Delivered bool  // the extension negotiated configure and accepted
}

// Configure checks values against the manifest's settings schema and delivers them to the
// running extension without a restart. A *SettingsError refuses them before the extension
// sees them; a *ConfigureRefusedError is the extension's refusal. Either way the settings in
// force stay in force, for this generation and every later one. dryRun asks the extension
// to judge only.
func (e *Extension) Configure(ctx context.Context, values map[string]any, dryRun bool) (ConfigureOutcome, error) {
	g, err := e.current(ctx)
	if err != nil {
		return ConfigureOutcome{}, err
	}
	// One change at a time, so revisions are delivered in order.
	e.settings.configuring.Lock()
	defer e.settings.configuring.Unlock()
	_, rev := e.settingsValues()
	eff, err := CheckSettings(g.manifest, values)
	if err != nil {
		return ConfigureOutcome{Revision: rev}, err
	}
	if !g.neg.features[string(protocol.FeatureConfigure)] {
		return ConfigureOutcome{Revision: rev}, fmt.Errorf("extension %s did not negotiate configure; restart it to apply the settings", e.name)
	}
	if err := g.sendConfigure(ctx, eff, rev+1, dryRun); err != nil {
		return ConfigureOutcome{Revision: rev}, err
	}
	if dryRun {
		return ConfigureOutcome{Revision: rev, Delivered: true}, nil
	}
	e.settings.mu.Lock()
	e.settings.values, e.settings.revision = values, rev+1
	e.settings.mu.Unlock()
	return ConfigureOutcome{Revision: rev + 1, Delivered: true}, nil
}
