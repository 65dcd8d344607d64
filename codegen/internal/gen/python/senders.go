package python

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The sending side: a descriptor for every method the extension sends (senders.py) and the
// service classes built on them (services.py), one class per service of the methods' sdk
// rows, one method per operation. Hand-written code names descriptors, never method strings,
// and calls the services; the SDK's send checks the feature, validates params and result.

// Where the sending artifacts go.
const (
	SendersFile  = GenDir + "senders.py"
	ServicesFile = GenDir + "services.py"
)

// filledBySDK are params a service fills when the caller leaves them out, so the generated
// operation takes them as optional keywords even where the wire requires them: one table of
// every such exception (the KV namespace defaults to the extension's own name; a progress
// report's sequence is the call's next number).
var filledBySDK = map[string]bool{"namespace": true, "sequence": true}

// pySendName is the descriptor constant of a method (the KV commit -> KV_COMMIT).
func pySendName(name string) string { return emit.UpperSnake(emit.Snake(name)) }

// pyServiceClass is the generated class of a service (kv -> KVOperations).
func pyServiceClass(service string) string { return emit.GoName(service) + "Operations" }

func sentMethods(m *ir.Model) []ir.Method {
	var out []ir.Method
	for _, me := range m.Methods {
		if me.SDK != nil {
			out = append(out, me)
		}
	}
	return out
}

func pyVersionMap(vs []ir.VersionedType) string {
	var parts []string
	for _, v := range vs {
		for _, ver := range v.Versions {
			parts = append(parts, fmt.Sprintf("%s: %s", pyStr(ver), pyStr(v.Type)))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func pySenders(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("#", hash))
	b.WriteString("# ruff: noqa: E501\n# Source: schema/methods.json (the methods the extension sends).\n")
	b.WriteString(`"""A descriptor for every method the extension sends: what send() checks and validates."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class Send:
    """One method the extension sends (a slotted class: a NamedTuple would import typing).

    ` + "`params`/`result`" + ` name the schema type per API version (validated with the generated
    validators); ` + "`parent`" + ` says the params carry the parent_request_id the SDK fills from the
    call in progress.
    """

    __slots__ = ("contribution", "feature", "kind", "name", "operation", "params", "parent",
                 "result", "service", "versions")

    def __init__(self, name: str, kind: str, feature: str, contribution: str,
                 versions: tuple[str, ...], params: dict[str, str], result: dict[str, str],
                 parent: bool, service: str, operation: str) -> None:
        self.name = name
        self.kind = kind
        self.feature = feature
        self.contribution = contribution
        self.versions = versions
        self.params = params
        self.result = result
        self.parent = parent
        self.service = service
        self.operation = operation

    def __repr__(self) -> str:
        return f"Send({self.name!r})"


`)
	var names []string
	for _, me := range sentMethods(m) {
		n := pySendName(me.Name)
		names = append(names, n)
		pyComment(&b, "", me.Description)
		fmt.Fprintf(&b, "%s: Final = Send(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)\n", n, pyStr(me.Name), pyStr(me.Kind),
			pyStr(me.Feature), pyStr(me.Contribution), pyTuple(me.Versions), pyVersionMap(me.Params), pyVersionMap(me.Result),
			pyBool(hasParam(m, me, "parent_request_id")), pyStr(me.SDK.Service), pyStr(me.SDK.Operation))
	}
	b.WriteString("\nSENDS: Final[dict[str, Send]] = {d.name: d for d in (\n")
	for _, n := range names {
		fmt.Fprintf(&b, "    %s,\n", n)
	}
	b.WriteString(")}\n")
	return b.String()
}

// paramFields is the union of the fields of a method's params types over every version and
// oneOf variant, first declaration first; required only when every variant requires it.
func paramFields(m *ir.Model, me ir.Method) []*ir.Field {
	var order []string
	byName := map[string]*ir.Field{}
	count := map[string]int{}
	variants := 0
	var walk func(name string)
	walk = func(name string) {
		n := m.Lookup(name)
		if n == nil {
			return
		}
		if len(n.Type.OneOf) > 0 {
			for _, v := range n.Type.OneOf {
				walk(v.Ref)
			}
			return
		}
		variants++
		for _, f := range n.Type.Fields {
			if _, ok := byName[f.Name]; !ok {
				order = append(order, f.Name)
				byName[f.Name] = &ir.Field{Name: f.Name, Type: f.Type, Required: f.Required}
			}
			if f.Required {
				count[f.Name]++
			}
		}
	}
	seen := map[string]bool{}
	for _, v := range me.Params {
		if !seen[v.Type] {
			seen[v.Type] = true
			walk(v.Type)
		}
	}
	out := make([]*ir.Field, 0, len(order))
	for _, name := range order {
		f := byName[name]
		f.Required = count[name] == variants
		out = append(out, f)
	}
	return out
}

func hasParam(m *ir.Model, me ir.Method, name string) bool {
	for _, f := range paramFields(m, me) {
		if f.Name == name {
			return true
		}
	}
	return false
}

var pyListRe = regexp.MustCompile(`\blist\[`)
var pyRefRe = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`)

// pyServiceType is a field's annotation inside a service class, where an operation named
// list shadows the builtin.
func pyServiceType(t *ir.Type, refs map[string]bool) string {
	s := pyListRe.ReplaceAllString(pyType(t), "builtins.list[")
	for _, r := range pyRefRe.FindAllString(s, -1) {
		switch r {
		case "Any", "Literal", "None", "True", "False":
		default:
			refs[r] = true
		}
	}
	return s
}

func pyServices(m *ir.Model, hash string) string {
	var body bytes.Buffer
	refs := map[string]bool{}
	var services []string
	byService := map[string][]ir.Method{}
	for _, me := range sentMethods(m) {
		s := me.SDK.Service
		if _, ok := byService[s]; !ok {
			services = append(services, s)
		}
		byService[s] = append(byService[s], me)
	}
	for _, s := range services {
		fmt.Fprintf(&body, "\n\nclass %s(Operations):\n", pyServiceClass(s))
		fmt.Fprintf(&body, "    \"\"\"The generated operations of ext.%s (schema/methods.json sdk rows).\"\"\"\n", s)
		for _, me := range byService[s] {
			body.WriteString("\n")
			pyOperation(&body, m, me, refs)
		}
	}
	var b bytes.Buffer
	b.WriteString(emit.Header("#", hash))
	b.WriteString("# ruff: noqa: E501\n# Source: schema/methods.json (sdk rows).\n")
	b.WriteString(`"""The service operations: positional arguments and keyword options build each method's
params, which go through the one send of the session (feature check, validation, typed result).
The SDK's service objects subclass these and add the conveniences of schema/sdk-surface.json."""

from __future__ import annotations

import builtins

from . import senders

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal

`)
	var sorted []string
	for r := range refs {
		sorted = append(sorted, r)
	}
	sort.Strings(sorted)
	if len(sorted) > 0 {
		b.WriteString("    from ._models import (\n")
		for _, r := range sorted {
			fmt.Fprintf(&b, "        %s,\n", r)
		}
		b.WriteString("    )\n")
	}
	b.WriteString(`
    Sender = Callable[[senders.Send, dict[str, Any]], Any]


class Operations:
    """The base of every service: _send is the session's send (a service may wrap it)."""

    __slots__ = ("_sender",)

    def __init__(self, sender: Sender) -> None:
        self._sender = sender

    def _send(self, send: senders.Send, params: dict[str, Any]) -> Any:
        return self._sender(send, params)
`)
	b.Write(body.Bytes())
	b.WriteString("\n\nSERVICES: Final[dict[str, type[Operations]]] = {\n")
	for _, s := range services {
		fmt.Fprintf(&b, "    %s: %s,\n", pyStr(s), pyServiceClass(s))
	}
	b.WriteString("}\n")
	out := b.String()
	return strings.Replace(out, "from typing import Any, Literal\n", "from typing import Any, Final, Literal\n", 1)
}

// pyOperation writes one operation: arguments positional, the other params keyword-only
// (required ones without a default, except those the service fills), parent_request_id
// last (the SDK fills it from the call in progress when it is left out).
func pyOperation(b *bytes.Buffer, m *ir.Model, me ir.Method, refs map[string]bool) {
	fields := paramFields(m, me)
	byName := map[string]*ir.Field{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	var sig []string
	sig = append(sig, "self")
	for _, a := range me.SDK.Arguments {
		sig = append(sig, fmt.Sprintf("%s: %s", a, pyServiceType(byName[a].Type, refs)))
	}
	isArg := map[string]bool{}
	for _, a := range me.SDK.Arguments {
		isArg[a] = true
	}
	var required, defaulted, optional []*ir.Field
	for _, f := range fields {
		switch {
		case isArg[f.Name] || f.Name == "parent_request_id":
		case f.Type.Default != nil && !mutableDefault(f.Type.Default):
			defaulted = append(defaulted, f)
		case f.Required && !filledBySDK[f.Name] && !f.Type.Has(ir.Array):
			required = append(required, f)
		default:
			optional = append(optional, f)
		}
	}
	if len(required)+len(defaulted)+len(optional) > 0 || byName["parent_request_id"] != nil {
		sig = append(sig, "*")
	}
	for _, f := range required {
		sig = append(sig, fmt.Sprintf("%s: %s", f.Name, pyServiceType(f.Type, refs)))
	}
	for _, f := range defaulted {
		sig = append(sig, fmt.Sprintf("%s: %s = %s", f.Name, pyServiceType(f.Type, refs), pyLiteral(f.Type.Default)))
	}
	for _, f := range optional {
		t := pyServiceType(f.Type, refs)
		if !f.Type.Has(ir.Null) {
			t += " | None"
		}
		sig = append(sig, fmt.Sprintf("%s: %s = None", f.Name, t))
	}
	if byName["parent_request_id"] != nil {
		sig = append(sig, "parent_request_id: int | str | None = None")
	}
	ret := "None"
	if me.Kind == "request" {
		ret = me.Result[len(me.Result)-1].Type
		refs[ret] = true
	}
	fmt.Fprintf(b, "    def %s(\n        %s,\n    ) -> %s:\n", me.SDK.Operation, strings.Join(sig, ",\n        "), ret)
	pyDocstring(b, me)
	var lits []string
	for _, a := range me.SDK.Arguments {
		lits = append(lits, fmt.Sprintf("%s: %s", pyStr(a), a))
	}
	for _, f := range append(required, defaulted...) {
		lits = append(lits, fmt.Sprintf("%s: %s", pyStr(f.Name), f.Name))
	}
	fmt.Fprintf(b, "        params: dict[str, Any] = {%s}\n", strings.Join(lits, ", "))
	for _, f := range optional {
		if f.Required && f.Type.Has(ir.Array) && !filledBySDK[f.Name] {
			// A required list the caller leaves out is sent empty.
			fmt.Fprintf(b, "        params[%s] = [] if %s is None else %s\n", pyStr(f.Name), f.Name, f.Name)
			continue
		}
		fmt.Fprintf(b, "        if %s is not None:\n            params[%s] = %s\n", f.Name, pyStr(f.Name), f.Name)
	}
	if byName["parent_request_id"] != nil {
		b.WriteString("        if parent_request_id is not None:\n            params[\"parent_request_id\"] = parent_request_id\n")
	}
	if me.Kind == "request" {
		fmt.Fprintf(b, "        result: %s = self._send(senders.%s, params)\n        return result\n", ret, pySendName(me.Name))
	} else {
		fmt.Fprintf(b, "        self._send(senders.%s, params)\n", pySendName(me.Name))
	}
}

func pyDocstring(b *bytes.Buffer, me ir.Method) {
	lines := wrap(me.Description, 88)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "        \"\"\"%s", strings.ReplaceAll(lines[0], `"""`, `'''`))
	for _, l := range lines[1:] {
		fmt.Fprintf(b, "\n        %s", strings.ReplaceAll(l, `"""`, `'''`))
	}
	if len(lines) > 1 {
		b.WriteString("\n        ")
	}
	b.WriteString("\"\"\"\n")
}

// pyLiteral is a schema default as a Python literal.
func pyLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return pyStr(x)
	case bool:
		return pyBool(x)
	default:
		return fmt.Sprint(x)
	}
}

// mutableDefault reports a list or object default: Python would share one instance between
// calls (ruff B006), so such a param is an optional keyword filled in the body instead.
func mutableDefault(v any) bool {
	switch v.(type) {
	case []any, map[string]any:
		return true
	}
	return false
}
