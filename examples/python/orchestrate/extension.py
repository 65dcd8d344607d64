"""orchestrate: seed 001's child model-session example, unchanged."""

from octet_extension import Extension, text_content, tool_result

ext = Extension()


@ext.tool(name="orchestrate", description="Delegate a bounded investigation")
def orchestrate(args):
    child = ext.spawn_agent(
        task_name="inspect-catalog",
        profile="review",
        fingerprint="0123456789abcdef" * 4,
        message="Inspect the current provider tool catalog.",
        idempotency_key=f"catalog:{ext.request_id}",
        tools=["read", "search"],
        max_depth=1,
        max_concurrent_children=2,
        max_turns=8,
        max_tokens=None,
        max_cost_microdollars=200_000,
        max_output_bytes=8_192,
        timeout_ms=300_000,
    )
    ext.send_agent_message(child["agent_id"], "Include resource tools.")
    ext.follow_up_agent(child["agent_id"], "Return a compact summary.")
    settled = ext.wait_agents(timeout_ms=30_000)
    agents = ext.list_agents()
    if settled["timed_out"]:
        ext.interrupt_agent(child["agent_id"])
    return tool_result(
        text_content(f"Observed {len(agents['agents'])} owned child sessions.")
    )


ext.run()
