"""Dispatch: the table of host-to-extension methods and the handler behind each.

Everything that decides what a host request means lives here: how its params are checked and
which declared handler answers. Which methods are served is the generated table
(``_generated/dispatch.py``, HOST_ROUTES): the session routes each work method to its on_*
handler, which calls the dispatcher's method here on a worker.
"""

from __future__ import annotations

from ._cancel import Call
from ._catalog import CatalogHistory
from ._checks import check_resource_owner, is_int
from ._errors import InvalidParams, OctetError
from ._faults import handler_exception, unknown_tool
from ._generated._models import METHODS
from ._generated._models import validate as validate_type
from ._generated.dispatch import METHOD_TOOL_CALL
from ._integral import integral_numbers
from ._log import log
from ._registry import Declared
from ._results import (
    command_result,
    context_result,
    hook_result,
    render_result,
    status_result,
    tool_result_01,
    tool_result_02,
)
from ._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_MISSING = object()  # a default no frame can hold
# What a tool handler that takes no context is passed (adapt()'s wrapper drops it).
_UNUSED_CONTEXT: dict[str, Any] = {}
_TOOL_CALL_FIELDS = frozenset({"name", "arguments", "catalog_revision", "resource_owner",
                               "call_id", "idempotency_key"})


class Dispatcher:
    """Runs one admitted host request against what the author declared."""

    __slots__ = ("api", "catalogs", "declared", "legacy")

    def __init__(self, declared: Declared, api: str, catalogs: CatalogHistory) -> None:
        self.declared = declared
        self.api = api
        self.legacy = api == "0.1"
        self.catalogs = catalogs

    def check(self, call: Call) -> None:
        """Bind the call's owner and judge its params: tool/call field by field on its fast
        path (tool_call), the other host methods, not on the hot path, against the generated
        schema (unknown fields, types, enums), naming the first violation."""
        params = call.params
        call.resource_owner = params.get("resource_owner")
        if call.method == METHOD_TOOL_CALL:
            return
        type_name = METHODS[call.method].params.get(self.api)
        problems = validate_type(type_name, params) if type_name else []
        if problems:
            path, _, reason = problems[0].partition(": ")
            raise InvalidParams(reason, path.replace("$", "", 1).lstrip(".") or "params")

    @staticmethod
    def context(call: Call) -> dict[str, Any]:
        """What a command, hook, context, status or render handler is passed."""
        return {"request_id": call.id, "method": call.method,
                "resource_owner": call.resource_owner, "cancellation": call.token}

    # ---- the host methods after the schema check (tool/call has its own fast path) ------

    def command_execute(self, params: dict[str, Any], context: dict[str, Any]) -> Any:
        name = params.get("name")
        entry = self.declared.commands.get(name) if isinstance(name, str) else None
        if entry is None:
            raise InvalidParams(f"unknown command {name!r}", "name")
        context["name"] = name
        # The schema checked that arguments is there and an array of strings.
        return command_result(entry[1](params["arguments"], context))

    def hook_run(self, params: dict[str, Any], context: dict[str, Any]) -> Any:
        hook_name = params.get("hook")
        hook = self.declared.hooks.get(hook_name) if isinstance(hook_name, str) else None
        if hook is None:
            raise InvalidParams(f"hook {hook_name!r} is not registered", "hook")
        context["hook"] = hook_name
        # The schema checked that payload is the object this hook point takes.
        return hook_result(hook(params["payload"], context))

    def context_collect(self, params: dict[str, Any], context: dict[str, Any]) -> Any:
        if self.declared.context is None:
            raise InvalidParams("no context handler is registered")
        return context_result(self.declared.context(params, context))

    def status_collect(self, params: dict[str, Any], context: dict[str, Any]) -> Any:
        surface = params.get("surface", "status")
        handler = self.declared.status.get(surface) if isinstance(surface, str) else None
        if handler is None:
            raise InvalidParams(f"no status handler for surface {surface!r}", "surface")
        return status_result(handler(params, context), str(surface))

    def tool_render(self, params: dict[str, Any], context: dict[str, Any]) -> Any:
        name = params.get("name")
        renderer = self.declared.renderers.get(name) if isinstance(name, str) else None
        if renderer is None:
            raise InvalidParams(f"no renderer for tool {name!r}", "name")
        return render_result(renderer(params, context))

    def configure(self, params: dict[str, Any]) -> Any:
        # The schema checked settings (an object), dry_run and revision.
        return self.declared.settings.configure(params)

    # ---- tool/call: the hot path, checked field by field ---------------------------------

    def tool_call(self, call: Call, params: dict[str, Any], owner: Any) -> Any:
        if not _TOOL_CALL_FIELDS.issuperset(params):
            unknown = sorted(set(params) - _TOOL_CALL_FIELDS)
            raise InvalidParams(f"unknown field {unknown[0]!r}", "params")
        name = params.get("name")
        if not isinstance(name, str):
            raise InvalidParams("must be a string", "name")
        if "resource_owner" in params:
            check_resource_owner(params["resource_owner"])
        args = params.get("arguments", _MISSING)
        if args is _MISSING:
            args = {}
        elif not isinstance(args, dict):
            raise InvalidParams("must be an object", "arguments")
        if "idempotency_key" in params:
            # Off the fast path: a keyed call is judged by the generated schema validator,
            # so the key's pattern fault reads as in the other SDKs.
            problems = validate_type(METHODS[METHOD_TOOL_CALL].params[self.api], params)
            if problems:
                path, _, reason = problems[0].partition(": ")
                raise InvalidParams(reason, path.replace("$", "", 1).lstrip(".") or "params")
        revision = params.get("catalog_revision")
        if revision is not None and not (is_int(revision) and revision >= 0):
            raise InvalidParams("must be an integer >= 0", "catalog_revision")
        spec = self.catalogs.lookup(revision).get(name)
        if spec is None:
            raise unknown_tool(name)
        if spec.check_arguments is not None:
            spec.check_arguments(args, "/arguments")
        args = integral_numbers(args)  # 7.0 passed as an integer: the handler gets int 7
        try:
            if spec.uses_context:
                value = spec.handler(args, {
                    "request_id": call.id, "method": METHOD_TOOL_CALL, "resource_owner": owner,
                    "cancellation": call.token, "name": name, "call_id": params.get("call_id"),
                    "catalog_revision": revision,
                    "idempotency_key": params.get("idempotency_key"),
                })
            else:
                value = spec.handler(args, _UNUSED_CONTEXT)
        except OctetError:
            raise  # ToolError, InvalidParams, Cancelled, RemoteError: each has its answer
        except Exception as exc:
            if call.token.is_cancelled():
                raise
            log.exception("handler failed", method=METHOD_TOOL_CALL, id=call.id, tool=name)
            raise handler_exception(name, exc) from None
        if self.legacy:
            return tool_result_01(value, spec)
        return tool_result_02(value, spec)
