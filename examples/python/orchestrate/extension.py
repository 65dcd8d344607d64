"""orchestrate: seed 001's child model-session example, unchanged."""

from octet_extension import Extension, text_content, tool_result

ext = Extension()


@ext.tool(name="orchestrate", description="Delegate a bounded investigation")
def orchestrate(args):
    child = ext.agents.spawn(
        "inspect-catalog",
        "Inspect the current provider tool catalog.",
        profile="review",
        fingerprint="0123456789abcdef" * 4,
        idempotency_key=f"catalog:{ext.request_id}",
        policy={
            "tools": ["read", "search"],
            "max_depth": 1,
            "max_concurrent_children": 2,
            "max_turns": 8,
            "max_tokens": None,
            "max_cost_microdollars": 200_000,
            "max_output_bytes": 8_192,
            "timeout_ms": 300_000,
        },
    )
    ext.agents.message(child["agent_id"], "Include resource tools.")
    ext.agents.follow_up(child["agent_id"], "Return a compact summary.")
    settled = ext.agents.wait(timeout_ms=30_000)
    agents = ext.agents.list()
    if settled["timed_out"]:
        ext.agents.interrupt(child["agent_id"])
    return tool_result(
        text_content(f"Observed {len(agents['agents'])} owned child sessions.")
    )


ext.run()
