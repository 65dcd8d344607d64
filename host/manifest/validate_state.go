package manifest

import "math"

// RuleRange: an integer outside its allowed range.
const RuleRange = "range"

// state checks the [state] table: kv_version an integer in 0..2147483647.
func (v *validator) state(doc map[string]any) {
	st, ok := v.table(doc, "state", "state", false)
	if !ok {
		return
	}
	v.known(st, "state", "kv_version")
	raw, present := st["kv_version"]
	if !present {
		return
	}
	n, ok := raw.(int64)
	if !ok {
		if f, isFloat := raw.(float64); isFloat && f == math.Trunc(f) {
			n, ok = int64(f), true
		}
	}
	if !ok {
		v.add("state.kv_version", RuleType, "must be an integer, got %s", typeName(raw))
		return
	}
	if n < 0 || n > math.MaxInt32 {
		v.add("state.kv_version", RuleRange, "%d is outside 0..%d", n, math.MaxInt32)
	}
}
