package manifest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/octet-kit/octet/host/internal/suggest"
)

var (
	nameRE     = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)
	semverRE   = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)
	pinRE      = regexp.MustCompile(`^=\d+\.\d+\.\d+$`)
	toolRE     = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)
	commandRE  = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)
	secretRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)
	hookNames  = []string{"before_prompt", "after_response", "before_tool_call", "after_tool_call", "before_persistence", "post_mutation"}
	uiNames    = []string{"status", "header", "footer"}
	lifecycles = []string{"legacy_resident", "lazy_resident", "oneshot", "session", "workspace_service", "always", "pi_aggregate"}
)

// SupportedAPIVersions are the exact API versions this host speaks.
var SupportedAPIVersions = []string{"0.1", "0.2", "0.4"}

// validator accumulates diagnostics for one manifest; it never stops at the first.
type validator struct {
	file  string
	dir   string
	opts  Options
	diags []Diagnostic
	api   string
}

func (v *validator) add(field, rule, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{File: v.file, Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// known refuses fields this host does not know, at any level.
func (v *validator) known(obj map[string]any, path string, fields ...string) {
	var unknown []string
	for k := range obj {
		if !contains(fields, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		// A near miss of a known field is a typo, not a feature of a newer octet.
		if near := suggest.Closest(k, fields); near != "" {
			v.add(join(path, k), RuleUnknownField, "field %q is not known; did you mean %q?", k, near)
			continue
		}
		v.add(join(path, k), RuleUnknownField, "field %q is not known to this host; it may need a newer octet", k)
	}
}

func (v *validator) validate(doc map[string]any) {
	v.known(doc, "", "name", "version", "api_version", "requires_octet", "description", "entrypoint", "capabilities", "contributes", "settings", "runtime", "state", "session", "certify")

	if s, ok := v.str(doc, "name", "name", true); ok && !nameRE.MatchString(s) {
		v.add("name", RulePattern, "%q must match ^[a-z][a-z0-9_-]{0,63}$", s)
	}
	if s, ok := v.str(doc, "version", "version", true); ok && !semverRE.MatchString(s) {
		v.add("version", RulePattern, "%q is not a semantic version like 1.2.3", s)
	}
	if s, ok := v.str(doc, "api_version", "api_version", true); ok {
		switch {
		case s == "0.3":
			v.add("api_version", RuleAPIVersion, "API 0.3 is a distinct wire this host does not speak; use \"0.4\"")
		case !contains(SupportedAPIVersions, s):
			v.add("api_version", RuleAPIVersion, "%q is not supported; this host speaks exactly %s", s, strings.Join(SupportedAPIVersions, ", "))
		default:
			v.api = s
		}
	}
	if s, ok := v.str(doc, "requires_octet", "requires_octet", false); ok {
		if !pinRE.MatchString(s) {
			v.add("requires_octet", RulePattern, "%q must be an exact pin like \"=0.8.0\"", s)
		} else if v.opts.OctetVersion != "" && s != "="+v.opts.OctetVersion {
			v.add("requires_octet", RuleRequiresOctet, "extension requires octet %s but this host is octet %s", s[1:], v.opts.OctetVersion)
		}
	}
	if s, ok := v.str(doc, "description", "description", false); ok && utf8.RuneCountInString(s) > 1024 {
		v.add("description", RuleLength, "is %d characters; at most 1024 allowed", utf8.RuneCountInString(s))
	}
	v.entrypoint(doc)
	v.capabilities(doc)
	tools := v.contributes(doc)
	v.runtime(doc)
	v.state(doc)
	v.session(doc)
	v.certify(doc)
	v.settings(doc)
	_ = tools
}

func (v *validator) entrypoint(doc map[string]any) {
	ep, ok := v.table(doc, "entrypoint", "entrypoint", true)
	if !ok {
		return
	}
	v.known(ep, "entrypoint", "command", "args")
	if cmd, ok := v.str(ep, "command", "entrypoint.command", true); ok {
		switch {
		case len(cmd) == 0 || len(cmd) > 4096:
			v.add("entrypoint.command", RuleLength, "must be 1..4096 bytes, got %d", len(cmd))
		case strings.ContainsRune(cmd, 0):
			v.add("entrypoint.command", RulePattern, "must not contain NUL bytes")
		case !filepath.IsAbs(cmd) && strings.Contains(cmd, "/"):
			if !inside(v.dir, cmd) {
				v.add("entrypoint.command", RuleEntrypoint, "relative command %q leaves the extension directory; keep it inside or use a bare command name", cmd)
			}
		}
	}
	v.strings(ep, "args", "entrypoint.args", nil, false)
}

func (v *validator) capabilities(doc map[string]any) {
	c, ok := v.table(doc, "capabilities", "capabilities", false)
	if !ok {
		return
	}
	v.known(c, "capabilities", "filesystem", "process", "network", "connect", "read", "write", "budgets", "secrets", "environment")
	v.sandboxCapabilities(c)
	if s, ok := v.str(c, "filesystem", "capabilities.filesystem", false); ok && !contains([]string{"none", "workspace", "unrestricted"}, s) {
		v.add("capabilities.filesystem", RuleEnum, "%q must be one of none, workspace, unrestricted", s)
	}
	v.boolean(c, "process", "capabilities.process")
	v.boolean(c, "network", "capabilities.network")
	if secrets, ok := v.strings(c, "secrets", "capabilities.secrets", secretRE, true); ok {
		if len(secrets) > 64 {
			v.add("capabilities.secrets", RuleLength, "has %d entries; at most 64 allowed", len(secrets))
		}
	}
	if env, ok := v.strings(c, "environment", "capabilities.environment", nil, true); ok {
		for i, e := range env {
			if e != "SSH_AUTH_SOCK" {
				v.add(fmt.Sprintf("capabilities.environment[%d]", i), RuleEnum, "%q is not a reviewed environment broker; only SSH_AUTH_SOCK is", e)
			}
		}
		if v.api == "0.1" && len(env) > 0 {
			v.add("capabilities.environment", RuleAPI01, "API 0.1 does not allow environment brokers; use API 0.2 or 0.4")
		}
	}
}

func (v *validator) contributes(doc map[string]any) []string {
	c, ok := v.table(doc, "contributes", "contributes", false)
	if !ok {
		return nil
	}
	v.known(c, "contributes", "tools", "commands", "hooks", "ui", "context", "tool_renderers", "notifications", "confirmations", "presentation")
	tools, _ := v.strings(c, "tools", "contributes.tools", toolRE, true)
	if len(tools) > 256 {
		v.add("contributes.tools", RuleLength, "has %d tools; at most 256 allowed", len(tools))
	}
	v.strings(c, "commands", "contributes.commands", commandRE, true)
	if hooks, ok := v.strings(c, "hooks", "contributes.hooks", nil, true); ok {
		for i, h := range hooks {
			field := fmt.Sprintf("contributes.hooks[%d]", i)
			if !contains(hookNames, h) {
				v.add(field, RuleEnum, "%q is not a hook; use one of %s", h, strings.Join(hookNames, ", "))
			} else if v.api == "0.1" && (h == "before_persistence" || h == "post_mutation") {
				v.add(field, RuleAPI01, "API 0.1 does not allow the %s hook; use API 0.2 or 0.4", h)
			}
		}
	}
	if ui, ok := v.strings(c, "ui", "contributes.ui", nil, true); ok {
		for i, u := range ui {
			if !contains(uiNames, u) {
				v.add(fmt.Sprintf("contributes.ui[%d]", i), RuleEnum, "%q must be one of status, header, footer", u)
			}
		}
	}
	v.boolean(c, "context", "contributes.context")
	// A renderer may name a dynamic tool, which only the handshake can reveal (and API 0.1 has
	// no dynamic tools), so the subset rule is enforced here for 0.1 and at handshake otherwise.
	if renderers, ok := v.strings(c, "tool_renderers", "contributes.tool_renderers", toolRE, true); ok && v.api == "0.1" {
		for i, r := range renderers {
			if !contains(tools, r) {
				v.add(fmt.Sprintf("contributes.tool_renderers[%d]", i), RuleRenderer, "renderer %q names a tool not in contributes.tools", r)
			}
		}
	}
	v.boolean(c, "notifications", "contributes.notifications")
	v.boolean(c, "confirmations", "contributes.confirmations")
	if p, ok := v.boolean(c, "presentation", "contributes.presentation"); ok && p && v.api == "0.1" {
		v.add("contributes.presentation", RuleAPI01, "API 0.1 does not allow presentation; use API 0.2 or 0.4")
	}
	return tools
}

func (v *validator) runtime(doc map[string]any) {
	lifecycle, sharing := "legacy_resident", "isolated"
	if r, ok := v.table(doc, "runtime", "runtime", false); ok {
		v.known(r, "runtime", "lifecycle", "sharing")
		if s, ok := v.str(r, "lifecycle", "runtime.lifecycle", false); ok {
			if !contains(lifecycles, s) {
				v.add("runtime.lifecycle", RuleEnum, "%q must be one of %s", s, strings.Join(lifecycles, ", "))
				return
			}
			lifecycle = s
		}
		if s, ok := v.str(r, "sharing", "runtime.sharing", false); ok {
			if s != "isolated" && s != "workspace" {
				v.add("runtime.sharing", RuleEnum, "%q must be isolated or workspace", s)
				return
			}
			sharing = s
		}
	}
	switch lifecycle {
	case "workspace_service", "always", "pi_aggregate":
		if sharing != "workspace" {
			v.add("runtime.sharing", RuleRuntime, "lifecycle %s requires sharing = \"workspace\"", lifecycle)
		}
	case "oneshot", "legacy_resident", "session":
		if sharing != "isolated" {
			v.add("runtime.sharing", RuleRuntime, "lifecycle %s requires sharing = \"isolated\"", lifecycle)
		}
	}
	if v.api == "0.1" && sharing != "isolated" {
		v.add("runtime.sharing", RuleAPI01, "API 0.1 extensions are always isolated")
	}
}

// table returns obj[key] as a table; a wrong type or a missing required table is reported.
func (v *validator) table(obj map[string]any, key, field string, required bool) (map[string]any, bool) {
	raw, present := obj[key]
	if !present {
		if required {
			v.add(field, RuleRequired, "is required")
		}
		return nil, false
	}
	t, ok := raw.(map[string]any)
	if !ok {
		v.add(field, RuleType, "must be a table, got %s", typeName(raw))
		return nil, false
	}
	return t, true
}

func (v *validator) str(obj map[string]any, key, field string, required bool) (string, bool) {
	raw, present := obj[key]
	if !present {
		if required {
			v.add(field, RuleRequired, "is required")
		}
		return "", false
	}
	s, ok := raw.(string)
	if !ok {
		v.add(field, RuleType, "must be a string, got %s", typeName(raw))
		return "", false
	}
	return s, true
}

func (v *validator) boolean(obj map[string]any, key, field string) (bool, bool) {
	raw, present := obj[key]
	if !present {
		return false, false
	}
	b, ok := raw.(bool)
	if !ok {
		v.add(field, RuleType, "must be a boolean, got %s", typeName(raw))
		return false, false
	}
	return b, true
}

// strings checks a list of strings, each matching re when given, optionally duplicate-free.
func (v *validator) strings(obj map[string]any, key, field string, re *regexp.Regexp, unique bool) ([]string, bool) {
	raw, present := obj[key]
	if !present {
		return nil, false
	}
	list, ok := raw.([]any)
	if !ok {
		v.add(field, RuleType, "must be a list of strings, got %s", typeName(raw))
		return nil, false
	}
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for i, e := range list {
		f := fmt.Sprintf("%s[%d]", field, i)
		s, ok := e.(string)
		if !ok {
			v.add(f, RuleType, "must be a string, got %s", typeName(e))
			continue
		}
		if re != nil && !re.MatchString(s) {
			v.add(f, RulePattern, "%q must match %s", s, re.String())
		}
		if unique && seen[s] {
			v.add(f, RuleUnique, "%q is listed twice", s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, true
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a table"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// inside reports whether the relative path rel, resolved against dir, stays within dir.
func inside(dir, rel string) bool {
	clean := filepath.Clean(filepath.Join(dir, rel))
	r, err := filepath.Rel(filepath.Clean(dir), clean)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && r != "."
}
