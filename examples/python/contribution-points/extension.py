"""contribution-points: seed 001's contribution-point snippets, assembled into one extension."""

from octet_extension import Extension, persistence_metadata, post_mutation_rescan

ext = Extension()


@ext.tool(name="hello_world", description="Greet someone")
def hello(args):
    name = args.get("name", "world")
    publish_ready_after_initialize()
    return {"content": f"Hello, {name}!"}


@ext.tool(name="decorate", description="Decorate this call's progress row")
def decorate(args, context):
    ext.progress.decoration("indexing", detail="3 files")
    return "decorated"


@ext.command(name="checkpoint", description="Preview a checkpoint")
def checkpoint(arguments, context):
    return {"text": "..."}


@ext.hook("before_prompt")
def before_prompt(payload, context):
    return {"disposition": {"action": "continue"}}


@ext.hook("before_persistence")
def before_persistence(payload):
    return persistence_metadata({"tool": payload["name"]}, public=False)


@ext.hook("post_mutation")
def post_mutation(payload):
    return post_mutation_rescan(payload["resource_ids"])


@ext.context
def context(params):
    return [{"label": "example", "content": "...", "placement": "system_suffix"}]


@ext.status("status")
def status(params):
    return {"surface": "status", "text": "ready", "priority": 0}


@ext.renderer("hello_world")
def render(params):
    return {"segments": [{"text": "hello", "style_role": None}]}


revision = 0


# Call after initialize, with `[contributes] presentation = true` (API 0.2).
def publish_ready_after_initialize():
    global revision
    ext.presentation.update({
        "revision": revision,
        "status": {"state": "active", "label": "ready"},
        "activities": [],
        "actions": [],
    })
    revision += 1


ext.run()
