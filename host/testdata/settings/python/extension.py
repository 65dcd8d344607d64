"""Settings fixture: typed settings (a dataclass), a refusal, and a tool showing what is in force."""

from __future__ import annotations

import os
from dataclasses import dataclass

from octet_extension import ConfigureInfo, Extension, SettingsRefused

ext = Extension()


@dataclass
class Settings:
    limit: int
    greeting: str = ""
    token: str = ""


@ext.on_configure
def configure(settings: Settings, info: ConfigureInfo) -> None:
    if settings.greeting == "refuse-me":
        raise SettingsRefused('greeting "refuse-me" is refused', "pick another")


@ext.tool(name="show", description="The settings in force", parameters={"type": "object"})
def show(args):
    s = ext.settings
    return {"content": f"{s.greeting}/{s.limit}/{s.token} rev {ext.settings_revision} pid {os.getpid()}"}


@ext.tool(name="key", description="The call's idempotency key", parameters={"type": "object"})
def key(args, context):
    return {"content": f"key={context['idempotency_key'] or ''}"}


ext.run()
