package jsonschema

import (
	"maps"
	"slices"
	"strconv"
)

// What one validation run carries through the compiled checks. On the valid
// path nothing is allocated: collect is false and checks answer booleans; only
// a failed instance is validated a second time with collect set, gathering
// every fault, and the path is kept only then.
type state struct {
	collect bool
	out     []Fault
	path    []string    // instance location of the value being checked (collect only)
	dyn     []*resource // schema resources entered, outermost first, for $dynamicRef
	depth   int         // references being followed (see maxDepth)
	tooDeep bool
}

// check is one compiled schema object or keyword judging a value. ev gathers
// annotations (which properties and items were evaluated) for
// unevaluatedProperties and unevaluatedItems; nil when nobody needs them.
type check func(v any, st *state, ev *evaluated) bool

// evaluated is what a successful evaluation of an instance evaluated.
type evaluated struct {
	props    map[string]bool
	allProps bool
	items    int // items 0..items-1 evaluated (prefixItems)
	itemSet  map[int]bool
	allItems bool
}

func (e *evaluated) prop(name string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[name] = true
}

func (e *evaluated) item(i int) {
	if e.itemSet == nil {
		e.itemSet = map[int]bool{}
	}
	e.itemSet[i] = true
}

func (e *evaluated) merge(from *evaluated) {
	if from.allProps {
		e.allProps = true
	} else if from.props != nil {
		if e.props == nil {
			e.props = map[string]bool{}
		}
		maps.Copy(e.props, from.props)
	}
	if from.allItems {
		e.allItems = true
	}
	e.items = max(e.items, from.items)
	for i := range from.itemSet {
		e.item(i)
	}
}

func (e *evaluated) hasProp(name string) bool { return e.allProps || e.props[name] }

func (e *evaluated) hasItem(i int) bool { return e.allItems || i < e.items || e.itemSet[i] }

// report records a fault at the current location.
func (st *state) report(keyword, reason string) {
	st.out = append(st.out, Fault{Tokens: slices.Clone(st.path), Keyword: keyword, Reason: reason})
}

// quietly runs c on the boolean path whatever mode the run is in: the branches
// of anyOf, oneOf, not, if, contains and propertyNames are judged, not reported.
func quietly(c check, v any, st *state, ev *evaluated) bool {
	if !st.collect {
		return c(v, st, ev)
	}
	st.collect = false
	ok := c(v, st, ev)
	st.collect = true
	return ok
}

// member applies a member's subschema with the member's token on the path. A
// literal false under additionalProperties, items and the unevaluated*
// keywords reports that keyword at the container, once per rejected member.
// The member is a property name, or an array index when idx >= 0 (its token is
// only spelled out when collecting, so the valid path formats nothing).
type memberCheck func(v any, name string, idx int, st *state) bool

func member(c check, isFalse bool, keyword string, why func(token string) string) memberCheck {
	if isFalse {
		return func(_ any, name string, idx int, st *state) bool {
			if st.collect {
				st.report(keyword, why(token(name, idx)))
			}
			return false
		}
	}
	return func(v any, name string, idx int, st *state) bool {
		if !st.collect {
			return c(v, st, nil)
		}
		st.path = append(st.path, token(name, idx))
		ok := c(v, st, nil)
		st.path = st.path[:len(st.path)-1]
		return ok
	}
}

func token(name string, idx int) string {
	if idx >= 0 {
		return strconv.Itoa(idx)
	}
	return name
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func isObject(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}
