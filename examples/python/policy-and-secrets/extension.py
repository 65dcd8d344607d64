"""policy-and-secrets: seed 001's policy, approval, secret, input and confirmation examples."""

import hashlib

from octet_extension import Extension, SecretUnavailable, text_content, tool_result

ext = Extension()


@ext.tool(name="submit_comment", description="Publish a comment after a policy decision")
def submit_comment(args):
    intent = {
        "kind": "external_side_effect",
        "operation": "browser.submit_form",
        "target": {"origin": "https://example.com", "label": "Publish comment"},
        "data_classes": ["user_text"],
        "adapter_hints": {"read_only": False, "destructive": False},
    }
    policy = ext.policy.evaluate(intent)
    if policy["decision"] == "ask" and policy.get("approval_token"):
        policy = ext.policy.evaluate(intent, approval_token=policy["approval_token"])
    if policy["decision"] != "allow":
        return tool_result(text_content("The host denied the action."), is_error=True)
    if not ext.ui.confirm("Continue?", destructive=True)["confirmed"]:
        return tool_result(text_content("The user declined."), is_error=True)
    try:
        api_token = ext.secrets.get("browser.api_token")["value"]
    except SecretUnavailable:
        return tool_result(text_content("No API token is configured."), is_error=True)
    # Use the token, never return or log it; keep it short-lived.
    fingerprint = hashlib.sha256(api_token.encode()).hexdigest()[:8]
    del api_token
    ext.ui.notify("Ready", level="success", title="local workflow")
    return tool_result(text_content("Comment published."),
                       metadata={"token_fingerprint": fingerprint})


@ext.tool(name="login", description="Ask the user for a password")
def login(args):
    password = ext.ui.request_input("Password:", secret=True)["value"]
    if password is None:
        return tool_result(text_content("Input was cancelled."), is_error=True)
    return tool_result(text_content(f"Received {len(password)} characters."))


ext.run()
