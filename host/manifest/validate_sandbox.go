package manifest

import (
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host/sandbox"
)

// sandboxCapabilities checks the sandbox detail of [capabilities] that the JSON Schema
// cannot say: connect needs network, a port is 1-65535, a path holds no NUL byte. Types,
// lengths and the budgets' ranges come from the schema (schemaCheck).
func (v *validator) sandboxCapabilities(c map[string]any) {
	network, _ := v.boolean(c, "network", "capabilities.network")
	if list, ok := v.strings(c, "connect", "capabilities.connect", nil, true); ok {
		for i, hp := range list {
			if _, err := sandbox.ParseHostPort(hp); err != nil {
				v.add(fmt.Sprintf("capabilities.connect[%d]", i), RulePattern, "%v", err)
			}
		}
		if len(list) > 0 && !network {
			v.add("capabilities.connect", RuleEnum, "names destinations but capabilities.network is not true; set network = true")
		}
	}
	for _, key := range []string{"read", "write"} {
		list, _ := v.strings(c, key, "capabilities."+key, nil, true)
		for i, p := range list {
			if p == "" || strings.ContainsRune(p, 0) {
				v.add(fmt.Sprintf("capabilities.%s[%d]", key, i), RuleLength, "must be a non-empty path without NUL bytes")
			}
		}
	}
	if raw, ok := c["budgets"]; ok {
		b, ok := raw.(map[string]any)
		if !ok {
			v.add("capabilities.budgets", RuleType, "must be a table, got %s", typeName(raw))
			return
		}
		v.known(b, "capabilities.budgets", "memory_mb", "cpu_seconds", "open_files", "processes")
	}
}
