"""dynamic-provider-search: seed 001's live tool catalog example behind two bootstrap tools."""

from octet_extension import Extension

ext = Extension()


def search_handler(args):
    return f"result for {args['query']}"


@ext.tool(name="select_provider", description="Enable searching the selected provider",
          parameters={"type": "object", "properties": {"provider": {"type": "string"}},
                      "required": ["provider"]})
def select_provider(args):
    update = ext.catalog.register([{
        "name": "provider_search",
        "description": f"Search {args['provider']}",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
        "handler": search_handler,
    }])
    # {"revision": 1, "tools": ["provider_search", ...]}
    return f"catalog revision {update['revision']}: {', '.join(update['tools'])}"


@ext.tool(name="clear_provider", description="Remove the provider search tool")
def clear_provider(args):
    update = ext.catalog.unregister(["provider_search"])
    return f"catalog revision {update['revision']}; now at {ext.catalog.revision()}"


ext.run()
