"""What an extension contributes: handler specs and the decorators that record them."""

from __future__ import annotations

from types import FunctionType

from ._checks import is_tool_name
from ._generated.dispatch import EVENT_METHODS
from ._jsonschema._values import json_string
from ._schema import SchemaError, compile_schema
from ._settings import SettingsState
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias, TypeVar, overload

    from ._schema import Check

    F = TypeVar("F", bound=Callable[..., Any])
    Handler: TypeAlias = Callable[[Any, dict[str, Any]], Any]

HOOKS = frozenset({
    "before_prompt", "after_response", "before_tool_call", "after_tool_call",
    "before_persistence", "post_mutation",
})
SURFACES = frozenset({"status", "header", "footer"})
LIFECYCLE = EVENT_METHODS
DEFAULT_PARAMETERS: dict[str, Any] = {"type": "object"}


def adapt(func: Callable[..., Any]) -> Handler:
    """Call ``func`` with (value), (value, context) or () depending on what it accepts."""
    shape = _positional_shape(func)
    if shape is None:
        return func
    positional, required, varargs = shape
    # Parameters with defaults are the caller's own (e.g. ``lambda a, i=i: ...``), except an
    # optional second parameter explicitly named ``context``.
    wants_context = len(positional) >= 2 and positional[1] in ("context", "ctx")
    if varargs or required >= 2 or wants_context:
        return func
    if required or positional:
        return lambda value, _context: func(value)
    return lambda _value, _context: func()


_CO_VARARGS = 0x04  # inspect.CO_VARARGS, without importing inspect at start-up


def _positional_shape(func: Callable[..., Any]) -> tuple[list[str], int, bool] | None:
    """(positional parameter names, how many lack a default, takes *args) or None if unknown.

    Plain functions and lambdas (nearly every handler) are read from their code object:
    ``inspect`` (with ``ast``, ``dis`` and ``tokenize``) costs about 4 ms of every start. Any
    other callable (bound methods, partials, callable objects, builtins) goes through
    ``inspect.signature``, imported only then.
    """
    # A function carrying __wrapped__ (functools.wraps) or __signature__ presents another
    # signature than its code object's; inspect.signature honours both.
    if (isinstance(func, FunctionType) and not hasattr(func, "__wrapped__")
            and not hasattr(func, "__signature__")):
        code = func.__code__
        count = code.co_argcount  # positional-only and positional-or-keyword
        defaults = len(func.__defaults__ or ())
        return list(code.co_varnames[:count]), count - defaults, bool(code.co_flags & _CO_VARARGS)
    import inspect

    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(1 for p in positional if p.default is p.empty)
    varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
    return [p.name for p in positional], required, varargs


def lifecycle_name(name: str) -> str:
    """``turn_settled`` and ``turn/settled`` name the same event; return the wire form."""
    wire = name.replace("_", "/", 1) if "/" not in name else name
    if wire not in LIFECYCLE:
        raise ValueError(f"unknown lifecycle event {name!r}; expected one of {sorted(LIFECYCLE)}")
    return wire


class ToolSpec:
    """One registered tool. A plain slotted class, not a dataclass: ``dataclasses`` imports
    ``inspect`` and costs several ms of every extension's start."""

    __slots__ = ("check_arguments", "check_output", "description", "func", "handler", "name",
                 "output_schema", "parameters", "uses_context")

    def __init__(self, name: str, description: str, parameters: dict[str, Any],
                 output_schema: dict[str, Any] | None, handler: Handler,
                 func: Callable[..., Any], check_arguments: Check | None,
                 check_output: Check | None) -> None:
        self.name = name
        self.description = description
        self.parameters = parameters
        self.output_schema = output_schema
        self.handler = handler
        self.func = func
        # adapt() wraps a function only to drop the context it does not take: then no
        # context dict is built per call (the wrapper ignores its second argument).
        self.uses_context = handler is func
        # Compiled once here: validation runs on every call.
        self.check_arguments = check_arguments
        self.check_output = check_output

    def __repr__(self) -> str:
        return f"ToolSpec(name={self.name!r}, description={self.description!r})"

    def definition(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "description": self.description, "parameters": self.parameters,
        }
        if self.output_schema is not None:
            out["output_schema"] = self.output_schema
        return out


def make_tool(
    name: str,
    description: str,
    handler: Callable[..., Any],
    parameters: dict[str, Any] | None = None,
    output_schema: dict[str, Any] | None = None,
) -> ToolSpec:
    if not isinstance(name, str) or not is_tool_name(name):
        raise ValueError(f"tool name {name!r} must match [a-zA-Z_][a-zA-Z0-9_-]{{0,63}}")
    if not isinstance(description, str) or len(description) > 4096:
        raise ValueError(f"tool {name!r}: description must be a str of at most 4096 characters")
    if not callable(handler):
        raise TypeError(f"tool {name!r}: handler must be callable")
    if parameters is not None and not isinstance(parameters, dict):
        raise TypeError(f"tool {name!r}: parameters must be a JSON Schema object (dict)")
    if output_schema is not None and not isinstance(output_schema, dict):
        raise TypeError(f"tool {name!r}: output_schema must be a JSON Schema object (dict)")
    adapted = adapt(handler)
    wrapped = adapted
    if (parameters is None or output_schema is None) and getattr(handler, "__annotations__", None):
        # Annotated handlers may derive their schemas from type hints (_typed, imported
        # only here: an extension with hand-written schemas never loads typing).
        from ._typed import derive

        shape = _positional_shape(handler)
        typed = derive(name, handler, shape[0][0] if shape and shape[0] else None)
        if parameters is None:
            parameters = typed.parameters
        if output_schema is None:
            output_schema = typed.output_schema
        derived_args = parameters is typed.parameters
        derived_result = output_schema is typed.output_schema
        wrapped = _typed_handler(adapted, typed.convert_args if derived_args else None,
                                 typed.convert_result if derived_result else None)
    parameters = parameters or dict(DEFAULT_PARAMETERS)
    checks = []
    for what, schema in (("parameters schema", parameters), ("output_schema", output_schema)):
        try:
            checks.append(compile_schema(schema))
        except SchemaError as exc:
            raise ValueError(f"tool {json_string(name)}: {what} {exc}") from None
    spec = ToolSpec(name, description, parameters, output_schema, wrapped, handler,
                    checks[0], checks[1])
    spec.uses_context = adapted is handler
    return spec


def _typed_handler(handler: Handler, convert_args: Callable[[Any], Any] | None,
                   convert_result: Callable[[Any], Any] | None) -> Handler:
    """Wrap a handler with the conversions its type hints ask for (dataclass arguments in,
    a structured value out); unchanged when there are none."""
    if convert_args is None and convert_result is None:
        return handler

    def typed(value: Any, context: Any) -> Any:
        out = handler(convert_args(value) if convert_args else value, context)
        return convert_result(out) if convert_result else out

    return typed


class Declared:
    """What the author declared: every handler and the limits they asked for.

    The runtime (session, dispatch, negotiation) reads this and nothing of the Extension, so
    the modules that serve a connection never import the public class.
    """

    __slots__ = ("commands", "context", "hooks", "lifecycle", "max_concurrent_requests",
                 "max_pending_requests", "renderers", "settings", "shutdown_hooks", "status",
                 "tools")

    def __init__(self) -> None:
        self.tools: dict[str, ToolSpec] = {}
        self.commands: dict[str, tuple[str, Handler]] = {}
        self.hooks: dict[str, Handler] = {}
        self.context: Handler | None = None
        self.status: dict[str, Handler] = {}
        self.renderers: dict[str, Handler] = {}
        self.lifecycle: dict[str, list[Handler]] = {}
        self.shutdown_hooks: list[Callable[[], Any]] = []
        self.max_concurrent_requests = 1
        self.max_pending_requests = 0
        self.settings = SettingsState()


class Registry:
    """The decorators of seed 001; every registration happens before ``run()``."""

    def __init__(self) -> None:
        self._declared = Declared()

    # The registrations by their former attribute names (tests and tools read them).
    @property
    def _tools(self) -> dict[str, ToolSpec]:
        return self._declared.tools

    @property
    def _commands(self) -> dict[str, tuple[str, Handler]]:
        return self._declared.commands

    @property
    def _hooks(self) -> dict[str, Handler]:
        return self._declared.hooks

    @property
    def _context(self) -> Handler | None:
        return self._declared.context

    @property
    def _status(self) -> dict[str, Handler]:
        return self._declared.status

    @property
    def _renderers(self) -> dict[str, Handler]:
        return self._declared.renderers

    @property
    def _lifecycle(self) -> dict[str, list[Handler]]:
        return self._declared.lifecycle

    @property
    def _shutdown_hooks(self) -> list[Callable[[], Any]]:
        return self._declared.shutdown_hooks

    def tool(
        self,
        name: str | None = None,
        description: str = "",
        *,
        parameters: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
    ) -> Callable[[F], F]:
        """Register a bootstrap tool (it must be listed in the manifest's tools)."""

        def decorate(func: F) -> F:
            spec = make_tool(name or func.__name__, description, func, parameters, output_schema)
            if spec.name in self._declared.tools:
                raise ValueError(f"tool {spec.name!r} is registered twice")
            self._declared.tools[spec.name] = spec
            return func

        return decorate

    def command(self, name: str | None = None, description: str = "") -> Callable[[F], F]:
        """Register a command; it receives the argument list (and optionally the context)."""

        def decorate(func: F) -> F:
            cname = name or func.__name__
            if cname in self._declared.commands:
                raise ValueError(f"command {cname!r} is registered twice")
            self._declared.commands[cname] = (description, adapt(func))
            return func

        return decorate

    def hook(self, name: str) -> Callable[[F], F]:
        """Register a hook handler; it receives the hook payload."""
        if name not in HOOKS:
            raise ValueError(f"unknown hook {name!r}; expected one of {sorted(HOOKS)}")

        def decorate(func: F) -> F:
            self._declared.hooks[name] = adapt(func)
            return func

        return decorate

    # The overloads are for type checkers only (typing is not imported at run time).
    if TYPE_CHECKING:
        @overload
        def context(self, func: F) -> F: ...
        @overload
        def context(self, func: None = None) -> Callable[[F], F]: ...

    def context(self, func: F | None = None) -> F | Callable[[F], F]:
        """Register the context/collect handler (usable bare or called)."""

        def decorate(f: F) -> F:
            self._declared.context = adapt(f)
            return f

        return decorate(func) if func is not None else decorate

    def status(self, surface: str = "status") -> Callable[[F], F]:
        """Register the status/collect handler of a surface (status, header or footer)."""
        if surface not in SURFACES:
            raise ValueError(f"unknown surface {surface!r}; expected one of {sorted(SURFACES)}")

        def decorate(func: F) -> F:
            self._declared.status[surface] = adapt(func)
            return func

        return decorate

    def renderer(self, tool_name: str) -> Callable[[F], F]:
        """Register the tool/render handler of one tool."""

        def decorate(func: F) -> F:
            self._declared.renderers[tool_name] = adapt(func)
            return func

        return decorate

    def on_lifecycle(self, name: str) -> Callable[[F], F]:
        """Observe a lifecycle event (``turn_settled`` or ``turn/settled``); needs 0.2+."""
        wire = lifecycle_name(name)

        def decorate(func: F) -> F:
            self._declared.lifecycle.setdefault(wire, []).append(adapt(func))
            return func

        return decorate

    def on_configure(self, func: F) -> F:
        """Judge the settings ``configure`` delivers: ``func(settings, info)`` (info optional).

        A dataclass or TypedDict annotation on ``settings`` types them; raise
        ``SettingsRefused(*reasons)`` to refuse. ``ext.settings`` is the last accepted value.
        """
        self._declared.settings.register(func, _positional_shape(func))
        return func

    @property
    def settings(self) -> Any:
        """The settings in force: the last value a configure accepted (None before any)."""
        return self._declared.settings.current()[0]

    @property
    def settings_revision(self) -> int:
        """The host's revision of the settings in force (0 before any configure)."""
        return self._declared.settings.current()[1]

    # The overloads are for type checkers only (typing is not imported at run time).
    if TYPE_CHECKING:
        @overload
        def on_shutdown(self, func: F) -> F: ...
        @overload
        def on_shutdown(self, func: None = None) -> Callable[[F], F]: ...

    def on_shutdown(self, func: F | None = None) -> F | Callable[[F], F]:
        """Run ``func()`` during shutdown or stdin EOF, bounded by the drain deadline."""

        def decorate(f: F) -> F:
            self._declared.shutdown_hooks.append(f)
            return f

        return decorate(func) if func is not None else decorate
