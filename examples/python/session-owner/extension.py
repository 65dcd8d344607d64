"""session-owner: owns session policy (docs/host.md#the-session-owner).

Its before_prompt hook judges every prompt before the model sees it. A prompt naming a
denied topic is blocked; a prompt the policy cannot judge (control characters) makes the
hook fail, and because this extension is the owner the host stops the turn rather than
letting the prompt through. audit_log is private: hidden from the model's catalog.
"""

from typing import Any

from octet_extension import Extension

DENIED_TOPICS = ("password", "credit card")

ext = Extension()
counts = {"judged": 0, "blocked": 0}


def _has_control(text: str) -> bool:
    return any(ord(c) < 32 and c not in "\n\t" or ord(c) == 127 for c in text)


@ext.hook("before_prompt")
def before_prompt(payload: dict[str, Any]) -> dict[str, Any]:
    prompt = str(payload.get("prompt", ""))
    counts["judged"] += 1
    if _has_control(prompt):
        raise ValueError("the policy cannot judge a prompt with control characters")
    lower = prompt.lower()
    for topic in DENIED_TOPICS:
        if topic in lower:
            counts["blocked"] += 1
            return {"disposition": {"action": "block", "message": f"the session policy does not allow prompts about {topic}"}}
    return {"disposition": {"action": "continue"}}


@ext.tool(name="policy_status", description="Say which topics the session policy blocks",
          parameters={"type": "object", "properties": {}})
def policy_status(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": "blocked topics: " + ", ".join(DENIED_TOPICS)}


@ext.tool(name="audit_log", description="Count the prompts the policy judged and blocked (private to the owner)",
          parameters={"type": "object", "properties": {}})
def audit_log(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": f"{counts['judged']} prompts judged, {counts['blocked']} blocked"}


ext.run()
