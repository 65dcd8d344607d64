package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The dispatch emitters turn the registry's routing metadata (direction, dispatch role,
// owner binding, gating feature) into what each SDK's hand-written code would otherwise
// restate: method and feature constants, the derived sets (work methods, lifecycle events,
// features per offer), a handler interface for every method the extension receives with a
// dispatch table over it, and typed request descriptors for every method it sends.

// Generated dispatch files.
const (
	GoDispatchFile     = GoDir + "dispatch_gen.go"
	GoRequestsFile     = GoDir + "requests_gen.go"
	PythonGenDir       = "sdk-python/src/octet_extension/_generated/"
	PythonDispatchFile = PythonGenDir + "dispatch.py"
	PythonGenInit      = PythonGenDir + "__init__.py"
	PythonDispatchTest = "sdk-python/tests/test_dispatch_gen.py"
	TSDispatchFile     = "dispatch.ts"
	TSRequestsFile     = "requests.ts"
	TSDispatchTest     = "sdk-typescript/test/dispatch-gen.test.ts"
)

// received lists the methods an extension receives (host_to_extension and both), in schema order.
func received(m *ir.Model) []ir.Method {
	var out []ir.Method
	for _, me := range m.Methods {
		if me.Dispatch != "" {
			out = append(out, me)
		}
	}
	return out
}

// sent lists the methods only an extension sends.
func sent(m *ir.Model) []ir.Method {
	var out []ir.Method
	for _, me := range m.Methods {
		if me.Direction == "extension_to_host" {
			out = append(out, me)
		}
	}
	return out
}

// roleMethods lists the received methods of one dispatch role.
func roleMethods(m *ir.Model, role string) []string {
	var out []string
	for _, me := range received(m) {
		if me.Dispatch == role {
			out = append(out, me.Name)
		}
	}
	return out
}

// offered lists, per version, the features offered that way (required/optional/conditional).
func offered(n *ir.Negotiation, how string) []ir.Pair {
	var out []ir.Pair
	for _, v := range n.Versions {
		var names []string
		for _, f := range n.Features {
			for _, o := range f.Offer {
				if o.Name == v && o.Text == how {
					names = append(names, f.Name)
				}
			}
		}
		out = append(out, ir.Pair{Name: v, Text: strings.Join(names, ",")})
	}
	return out
}

func splitList(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// singleParams returns the one params type of a method, or "" when it varies by version.
func singleType(vs []ir.VersionedType) string {
	if len(vs) == 1 {
		return vs[0].Type
	}
	return ""
}

var offerKinds = []string{"required", "optional", "conditional"}

func emitDispatch(m *ir.Model, out Output) error {
	hash := fingerprint(true, m.Methods, m.Negotiation)
	for name, src := range map[string]string{GoDispatchFile: goDispatch(m, hash), GoRequestsFile: goRequests(m, hash)} {
		b, err := format.Source([]byte(src))
		if err != nil {
			return fmt.Errorf("gofmt %s: %w\n%s", name, err, numbered(src))
		}
		out[name] = b
	}
	out[PythonDispatchFile] = []byte(pyDispatch(m, hash))
	out[PythonGenInit] = []byte(header("#", hash) + "# ruff: noqa: E501\n\"\"\"Code generated from schema/: never edit; change the schema or codegen.\"\"\"\n")
	out[PythonDispatchTest] = []byte(pyDispatchTest(m, hash))
	out[TSDispatchTest] = []byte(tsDispatchTest(m, hash))
	return nil
}

// ---- Go ---------------------------------------------------------------------------------

func goDispatch(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	b.WriteString("// Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n\n")
	b.WriteString("package protocol\n\nimport (\n\t\"context\"\n\n\t\"github.com/octet-kit/octet/sdk-go/protocol/strictjson\"\n)\n\n")
	b.WriteString("// Dispatch roles: how an SDK routes a method it receives (methods.json `dispatch`).\nconst (\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "\tDispatch%s = %q\n", goName(r), r)
	}
	b.WriteString(")\n\n")
	b.WriteString("// HostHandler is what an SDK implements to receive the host's methods: one method per\n// method the registry lists as received (host_to_extension or both). An SDK missing one does\n// not compile where it binds NewHostRoutes. R is the SDK's request type (the protocol package\n// knows no transport).\ntype HostHandler[R any] interface {\n")
	for _, me := range received(m) {
		goComment(&b, "\t", fmt.Sprintf("%s (%s, %s %s): %s", goName(me.Name), me.Name, me.Dispatch, me.Kind, me.Description))
		fmt.Fprintf(&b, "\t%s(ctx context.Context, r R) (any, error)\n", goName(me.Name))
	}
	b.WriteString("}\n\n")
	b.WriteString(`// HostRoute is one row of the dispatch table.
type HostRoute[R any] struct {
	Method       string
	Dispatch     string // Dispatch* role
	Notification bool
	OwnerBound   bool              // params carry the caller's resource_owner
	Params       map[string]string // API version -> params type name
	Serve        func(ctx context.Context, r R) (any, error)
}

// CheckParams validates raw params against the type the registry names for the API
// version (unknown fields, bounds, patterns); a version without a type passes.
func (rt HostRoute[R]) CheckParams(apiVersion string, raw []byte) error {
	return validateParams(rt.Params[apiVersion], raw)
}

// NewHostRoutes binds h to the dispatch table, keyed by method name.
func NewHostRoutes[R any](h HostHandler[R]) map[string]HostRoute[R] {
	return map[string]HostRoute[R]{
`)
	for _, me := range received(m) {
		fmt.Fprintf(&b, "\t\tMethod%s: {Method: Method%s, Dispatch: Dispatch%s, Notification: %v, OwnerBound: %v, Params: %s, Serve: h.%s},\n",
			goName(me.Name), goName(me.Name), goName(me.Dispatch), me.Kind == "notification", me.OwnerBound, goVersionMap(me.Params), goName(me.Name))
	}
	b.WriteString("\t}\n}\n\n")
	b.WriteString(`// validateParams checks raw params against a named type after strict decoding. The
// routes are the methods the host sends, so their params are types ValidateFromHost knows.
func validateParams(typeName string, raw []byte) error {
	if typeName == "" {
		return nil
	}
	if raw == nil {
		raw = []byte("{}")
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return err
	}
	return ValidateFromHost(typeName, doc)
}

`)
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		fmt.Fprintf(&b, "// %sMethods are the received methods whose role is %q, in schema order.\nvar %sMethods = []string{", goName(r), r, goName(r))
		for i, n := range roleMethods(m, r) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "Method%s", goName(n))
		}
		b.WriteString("}\n\n")
	}
	if n := m.Negotiation; n != nil {
		for _, how := range offerKinds {
			fmt.Fprintf(&b, "// %sFeatures maps an API version to the features offered %s in it, in table order.\nvar %sFeatures = map[string][]Feature{\n", goName(how), how, goName(how))
			for _, p := range offered(n, how) {
				fmt.Fprintf(&b, "\t%q: {", p.Name)
				for i, f := range splitList(p.Text) {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "Feature%s", goName(f))
				}
				b.WriteString("},\n")
			}
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

func goVersionMap(vs []ir.VersionedType) string {
	var parts []string
	for _, v := range vs {
		for _, ver := range v.Versions {
			parts = append(parts, fmt.Sprintf("%q: %q", ver, v.Type))
		}
	}
	return "map[string]string{" + strings.Join(parts, ", ") + "}"
}

func goRequests(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	b.WriteString("// Source: schema/methods.json.\n\n")
	b.WriteString(`package protocol

// RequestType binds an extension-to-host request to its params and result types, the way
// vscode-jsonrpc's RequestType does: a caller names the descriptor, never the method string.
type RequestType[P, R any] struct {
	Method     string
	Feature    Feature // negotiated feature the host needs for it ("" none)
	OwnerBound bool    // params name the parent host request whose owner applies
}

// NotificationType binds an extension-to-host notification to its params type.
type NotificationType[P any] struct {
	Method     string
	Feature    Feature
	OwnerBound bool
}

`)
	for _, me := range sent(m) {
		p := singleType(me.Params)
		if p == "" {
			continue
		}
		goComment(&b, "", fmt.Sprintf("%s is %s: %s", reqVar(me), me.Name, me.Description))
		feat := `""`
		if me.Feature != "" {
			feat = "Feature" + goName(me.Feature)
		}
		if me.Kind == "request" {
			fmt.Fprintf(&b, "var %s = RequestType[%s, %s]{Method: Method%s, Feature: %s, OwnerBound: %v}\n\n", reqVar(me), p, singleType(me.Result), goName(me.Name), feat, me.OwnerBound)
		} else {
			fmt.Fprintf(&b, "var %s = NotificationType[%s]{Method: Method%s, Feature: %s, OwnerBound: %v}\n\n", reqVar(me), p, goName(me.Name), feat, me.OwnerBound)
		}
	}
	return b.String()
}

func reqVar(me ir.Method) string {
	if me.Kind == "request" {
		return "Request" + goName(me.Name)
	}
	return "Notify" + goName(me.Name)
}

// ---- Python -----------------------------------------------------------------------------

// pyHandler is the generated handler method name of a received method (tool/call -> on_tool_call).
func pyHandler(name string) string {
	return "on_" + strings.ToLower(strings.Join(splitWords(snake(name)), "_"))
}

func pyDispatch(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("#", hash))
	fmt.Fprintf(&b, "# ruff: noqa: E501\n# Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n")
	b.WriteString(`"""Method and feature names, derived sets, the host handler base and its dispatch table."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

# -- Method names (schema/methods.json) --

`)
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "METHOD_%s: Final = %s\n", upperSnake(snake(me.Name)), pyStr(me.Name))
	}
	b.WriteString("\n# -- Dispatch roles --\n\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "DISPATCH_%s: Final = %s\n", upperSnake(r), pyStr(r))
	}
	if n := m.Negotiation; n != nil {
		b.WriteString("\n# -- Feature names (schema/initialize.schema.json Feature) --\n\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "FEATURE_%s: Final = %s\n", upperSnake(f.Name), pyStr(f.Name))
		}
		b.WriteString("\n# -- Features per API version and offer --\n\n")
		for _, how := range offerKinds {
			fmt.Fprintf(&b, "%s_FEATURES: Final[dict[str, tuple[str, ...]]] = {\n", strings.ToUpper(how))
			for _, p := range offered(n, how) {
				fmt.Fprintf(&b, "    %s: %s,\n", pyStr(p.Name), pyTuple(splitList(p.Text)))
			}
			b.WriteString("}\n")
		}
	}
	b.WriteString("\n\nclass Method:\n    \"\"\"Method names as attributes, for authors: Method.TOOL_CALL.\"\"\"\n\n")
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "    %s: Final = METHOD_%s\n", upperSnake(snake(me.Name)), upperSnake(snake(me.Name)))
	}
	if n := m.Negotiation; n != nil {
		b.WriteString("\n\nclass FeatureName:\n    \"\"\"Feature names as attributes, for authors: FeatureName.KV.\"\"\"\n\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "    %s: Final = FEATURE_%s\n", upperSnake(f.Name), upperSnake(f.Name))
		}
	}
	b.WriteString("\n\n# -- Derived sets --\n\n")
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		fmt.Fprintf(&b, "%s_METHODS: Final = frozenset(%s)\n", upperSnake(r), pyTuple(roleMethods(m, r)))
	}
	var owner []string
	for _, me := range m.Methods {
		if me.OwnerBound {
			owner = append(owner, me.Name)
		}
	}
	fmt.Fprintf(&b, "OWNER_BOUND_METHODS: Final = frozenset(%s)\n", pyTuple(owner))
	b.WriteString(`

class HostRoute:
    """One row of the dispatch table (a slotted class: a NamedTuple would import typing)."""

    __slots__ = ("dispatch", "handler", "method", "notification", "owner_bound", "params")

    def __init__(self, method: str, handler: str, dispatch: str, notification: bool,
                 owner_bound: bool, params: dict[str, str]) -> None:
        self.method = method
        self.handler = handler
        self.dispatch = dispatch
        self.notification = notification
        self.owner_bound = owner_bound
        self.params = params


HOST_ROUTES: Final[dict[str, HostRoute]] = {
`)
	for _, me := range received(m) {
		var parts []string
		for _, v := range me.Params {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%s: %s", pyStr(ver), pyStr(v.Type)))
			}
		}
		fmt.Fprintf(&b, "    %s: HostRoute(%s, %s, %s, %s, %s, {%s}),\n", pyStr(me.Name), pyStr(me.Name), pyStr(pyHandler(me.Name)),
			pyStr(me.Dispatch), pyBool(me.Kind == "notification"), pyBool(me.OwnerBound), strings.Join(parts, ", "))
	}
	b.WriteString(`}


class HostHandler:
    """What an SDK implements to receive the host's methods: one on_* method per method the
    registry lists as received. The generated completeness test fails for a subclass missing
    one; dispatch() routes by the table."""

`)
	for _, me := range received(m) {
		fmt.Fprintf(&b, "    def %s(self, call: Any, params: dict[str, Any]) -> Any:\n", pyHandler(me.Name))
		pyComment(&b, "        ", fmt.Sprintf("%s (%s %s): %s", me.Name, me.Dispatch, me.Kind, me.Description))
		fmt.Fprintf(&b, "        raise NotImplementedError(%s)\n\n", pyStr(me.Name))
	}
	b.WriteString(`
def dispatch(handler: HostHandler, method: str, call: Any, params: dict[str, Any]) -> Any:
    """Run the handler of a received method (KeyError for a method the registry lacks)."""
    return getattr(handler, HOST_ROUTES[method].handler)(call, params)
`)
	return b.String()
}

func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

func pyDispatchTest(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("#", hash))
	fmt.Fprintf(&b, "# ruff: noqa: E501\n# Source: schema/methods.json.\n")
	b.WriteString(`"""Completeness: every HostHandler subclass in the SDK implements every received method."""

from __future__ import annotations

import importlib
import pkgutil

import octet_extension
from octet_extension._generated.dispatch import HOST_ROUTES, HostHandler


def _implementers() -> list[type[HostHandler]]:
    for mod in pkgutil.walk_packages(octet_extension.__path__, "octet_extension."):
        importlib.import_module(mod.name)
    found: list[type[HostHandler]] = []
    todo = list(HostHandler.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_sdk_implements_every_received_method() -> None:
    classes = _implementers()
    assert classes, "no class in octet_extension subclasses HostHandler"
    missing = [f"{cls.__qualname__}.{route.handler} ({name})"
               for cls in classes for name, route in HOST_ROUTES.items()
               if getattr(cls, route.handler) is getattr(HostHandler, route.handler)]
    assert not missing, "handlers the schema requires are missing: " + ", ".join(missing)


def test_table_covers_the_registry() -> None:
    assert sorted(HOST_ROUTES) == sorted([
`)
	for _, me := range received(m) {
		fmt.Fprintf(&b, "        %s,\n", pyStr(me.Name))
	}
	b.WriteString("    ])\n")
	return b.String()
}

// ---- TypeScript -------------------------------------------------------------------------

// tsHandler is the handler member of a received method (tool/call -> toolCall).
func tsHandler(name string) string { return lowerFirst(goName(name)) }

func tsDispatch(m *ir.Model) string {
	hash := fingerprint(true, m.Methods, m.Negotiation)
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n")
	b.WriteString("// The host handler interface, its dispatch table and the derived method and feature sets.\n\n")
	b.WriteString("/** Dispatch roles: how an SDK routes a method it receives. */\nexport const Dispatch = {\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "  %s: %s,\n", upperSnake(r), tsStr(r))
	}
	b.WriteString("} as const;\nexport type DispatchRole = (typeof Dispatch)[keyof typeof Dispatch];\n\n")
	if n := m.Negotiation; n != nil {
		b.WriteString("/** Feature names (the Feature enum). */\nexport const FeatureName = {\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "  %s: %s,\n", upperSnake(f.Name), tsStr(f.Name))
		}
		b.WriteString("} as const;\n\n")
		for _, how := range offerKinds {
			fmt.Fprintf(&b, "/** API version -> the features offered %s in it, in table order. */\nexport const %s_FEATURES: Readonly<Record<string, readonly string[]>> = {\n", how, strings.ToUpper(how))
			for _, p := range offered(n, how) {
				q := []string{}
				for _, f := range splitList(p.Text) {
					q = append(q, tsStr(f))
				}
				fmt.Fprintf(&b, "  %s: [%s],\n", tsStr(p.Name), strings.Join(q, ", "))
			}
			b.WriteString("};\n\n")
		}
	}
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		q := []string{}
		for _, n := range roleMethods(m, r) {
			q = append(q, tsStr(n))
		}
		fmt.Fprintf(&b, "/** Received methods whose role is %q. */\nexport const %s_METHODS: ReadonlySet<string> = new Set([%s]);\n\n", r, upperSnake(r), strings.Join(q, ", "))
	}
	b.WriteString("/**\n * What an SDK implements to receive the host's methods: one member per method the registry\n * lists as received, so an SDK missing one does not compile. C is the SDK's call type.\n */\nexport interface HostHandlers<C> {\n")
	for _, me := range received(m) {
		fmt.Fprintf(&b, "  /** %s (%s %s): %s */\n  %s(call: C): unknown;\n", me.Name, me.Dispatch, me.Kind, me.Description, tsHandler(me.Name))
	}
	b.WriteString(`}

/** One row of the dispatch table. */
export interface HostRoute {
  readonly method: string;
  readonly handler: keyof HostHandlers<unknown>;
  readonly dispatch: DispatchRole;
  readonly notification: boolean;
  readonly ownerBound: boolean;
  /** API version -> params type name (validated before the handler runs). */
  readonly params: Readonly<Record<string, string>>;
}

/** The dispatch table of received methods, by name. */
export const HOST_ROUTES: Readonly<Record<string, HostRoute>> = {
`)
	for _, me := range received(m) {
		var parts []string
		for _, v := range me.Params {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%s: %s", tsStr(ver), tsStr(v.Type)))
			}
		}
		fmt.Fprintf(&b, "  %s: { method: %s, handler: %s, dispatch: %s, notification: %v, ownerBound: %v, params: { %s } },\n",
			tsStr(me.Name), tsStr(me.Name), tsStr(tsHandler(me.Name)), tsStr(me.Dispatch), me.Kind == "notification", me.OwnerBound, strings.Join(parts, ", "))
	}
	b.WriteString(`};

/** Run the handler of a received method; undefined when the registry lacks it. */
export function dispatchHost<C>(handlers: HostHandlers<C>, method: string, call: C): { value: unknown } | undefined {
  const route = Object.hasOwn(HOST_ROUTES, method) ? HOST_ROUTES[method] : undefined;
  if (route === undefined) return undefined;
  return { value: handlers[route.handler](call) };
}
`)
	return b.String()
}

func tsRequests(m *ir.Model) string {
	hash := fingerprint(true, m.Methods)
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json.\n")
	imports := map[string]bool{}
	for _, me := range sent(m) {
		if p := singleType(me.Params); p != "" {
			imports[p] = true
		}
		if r := singleType(me.Result); r != "" {
			imports[r] = true
		}
	}
	var names []string
	for n := range imports {
		names = append(names, n)
	}
	sortStrings(names)
	byFile := map[string][]string{}
	for _, n := range names {
		nt := m.Lookup(n)
		if nt == nil || nt.File == nil {
			continue
		}
		byFile[nt.File.Stem] = append(byFile[nt.File.Stem], n)
	}
	var stems []string
	for s := range byFile {
		stems = append(stems, s)
	}
	sortStrings(stems)
	for _, s := range stems {
		fmt.Fprintf(&b, "import type { %s } from \"./%s.types.js\";\n", strings.Join(byFile[s], ", "), s)
	}
	b.WriteString(`
/** Binds an extension-to-host request to its params and result types (as vscode-jsonrpc's RequestType). */
export interface RequestType<P, R> {
  readonly method: string;
  /** Negotiated feature the host needs for it ("" none). */
  readonly feature: string;
  /** Params name the parent host request whose owner applies. */
  readonly ownerBound: boolean;
  /** Type-level only: never set. */
  readonly _types?: (p: P) => R;
}

/** Binds an extension-to-host notification to its params type. */
export interface NotificationType<P> {
  readonly method: string;
  readonly feature: string;
  readonly ownerBound: boolean;
  readonly _types?: (p: P) => void;
}

`)
	b.WriteString("/** Every extension-to-host method as a typed descriptor: callers name these, never the method string. */\nexport const Requests = {\n")
	for _, me := range sent(m) {
		p := singleType(me.Params)
		if p == "" {
			continue
		}
		name := upperSnake(me.Name)
		if me.Kind == "request" {
			fmt.Fprintf(&b, "  /** %s: %s */\n  %s: { method: %s, feature: %s, ownerBound: %v } as RequestType<%s, %s>,\n", me.Name, me.Description, name, tsStr(me.Name), tsStr(me.Feature), me.OwnerBound, p, singleType(me.Result))
		} else {
			fmt.Fprintf(&b, "  /** %s: %s */\n  %s: { method: %s, feature: %s, ownerBound: %v } as NotificationType<%s>,\n", me.Name, me.Description, name, tsStr(me.Name), tsStr(me.Feature), me.OwnerBound, p)
		}
	}
	b.WriteString("} as const;\n")
	return b.String()
}

func tsDispatchTest(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json.\n")
	b.WriteString(`// The dispatch table covers exactly the received methods of the registry; the compiler checks
// that the SDK implements HostHandlers (a missing member fails the build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { HOST_ROUTES, METHODS } from "../src/generated/index.js";

test("HOST_ROUTES lists every received method of the registry", () => {
  const received = Object.values(METHODS).filter((m) => m.direction !== "extension_to_host").map((m) => m.name);
  assert.deepEqual(Object.keys(HOST_ROUTES).sort(), received.sort());
  assert.deepEqual(Object.keys(HOST_ROUTES).sort(), [
`)
	var names []string
	for _, me := range received(m) {
		names = append(names, me.Name)
	}
	sortStrings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "    %s,\n", tsStr(n))
	}
	b.WriteString("  ]);\n});\n")
	return b.String()
}
