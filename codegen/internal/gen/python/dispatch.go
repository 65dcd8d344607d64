package python

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The dispatch emitters turn the registry's routing metadata (direction, dispatch role,
// owner binding, gating feature) into what each SDK's hand-written code would otherwise
// restate: method and feature constants, the derived sets (work methods, lifecycle events,
// features per offer), a handler interface for every method the extension receives with a
// dispatch table over it, and typed request descriptors for every method it sends.

// pyHandler is the generated handler method name of a received method (tool/call -> on_tool_call).
func pyHandler(name string) string {
	return "on_" + strings.ToLower(strings.Join(emit.SplitWords(emit.Snake(name)), "_"))
}

func pyDispatch(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("#", hash))
	fmt.Fprintf(&b, "# ruff: noqa: E501\n# Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n")
	b.WriteString(`"""Method and feature names, derived sets, the host handler base and its dispatch table."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

# -- Method names (schema/methods.json) --

`)
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "METHOD_%s: Final = %s\n", emit.UpperSnake(emit.Snake(me.Name)), pyStr(me.Name))
	}
	b.WriteString("\n# -- Dispatch roles --\n\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "DISPATCH_%s: Final = %s\n", emit.UpperSnake(r), pyStr(r))
	}
	if n := m.Negotiation; n != nil {
		b.WriteString("\n# -- Feature names (schema/initialize.schema.json Feature) --\n\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "FEATURE_%s: Final = %s\n", emit.UpperSnake(f.Name), pyStr(f.Name))
		}
		b.WriteString("\n# -- Features per API version and offer --\n\n")
		for _, how := range emit.OfferKinds {
			fmt.Fprintf(&b, "%s_FEATURES: Final[dict[str, tuple[str, ...]]] = {\n", strings.ToUpper(how))
			for _, p := range emit.Offered(n, how) {
				fmt.Fprintf(&b, "    %s: %s,\n", pyStr(p.Name), pyTuple(emit.SplitList(p.Text)))
			}
			b.WriteString("}\n")
		}
	}
	b.WriteString("\n\nclass Method:\n    \"\"\"Method names as attributes, for authors: Method.TOOL_CALL.\"\"\"\n\n")
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "    %s: Final = METHOD_%s\n", emit.UpperSnake(emit.Snake(me.Name)), emit.UpperSnake(emit.Snake(me.Name)))
	}
	if n := m.Negotiation; n != nil {
		b.WriteString("\n\nclass FeatureName:\n    \"\"\"Feature names as attributes, for authors: FeatureName.KV.\"\"\"\n\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "    %s: Final = FEATURE_%s\n", emit.UpperSnake(f.Name), emit.UpperSnake(f.Name))
		}
	}
	b.WriteString("\n\n# -- Derived sets --\n\n")
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		fmt.Fprintf(&b, "%s_METHODS: Final = frozenset(%s)\n", emit.UpperSnake(r), pyTuple(emit.RoleMethods(m, r)))
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
	for _, me := range emit.Received(m) {
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
	for _, me := range emit.Received(m) {
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
	b.WriteString(emit.Header("#", hash))
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
	for _, me := range emit.Received(m) {
		fmt.Fprintf(&b, "        %s,\n", pyStr(me.Name))
	}
	b.WriteString("    ])\n")
	return b.String()
}
