"""lifecycle-counting: seed 001's lifecycle example (caffeinate without the macOS helper).

It reference-counts turns that started and have not settled, per session; settling a session
clears its state; shutdown releases everything. A real inhibitor would start its helper when
the count leaves zero and stop it when it returns to zero.
"""

import threading
from collections import Counter

from octet_extension import Extension, Method

ext = Extension()
lock = threading.Lock()
active: Counter[str] = Counter()
settled_total = 0


@ext.on_lifecycle("turn_started")
def turn_started(event):
    with lock:
        active[event["session_id"]] += 1


@ext.on_lifecycle("turn_settled")
def turn_settled(event):
    global settled_total
    with lock:
        session = event["session_id"]
        active[session] = max(0, active[session] - 1)
        settled_total += 1
    ext.log.info(
        "turn settled",
        turn_id=event.get("turn_id"),
        outcome=event.get("outcome"),
    )


@ext.on_lifecycle(Method.SESSION_SETTLED)
def session_settled(event):
    with lock:
        active.pop(event["session_id"], None)


@ext.status("status")
def status(params):
    with lock:
        running = sum(active.values())
    return {"surface": "status", "text": f"{running} active turns", "priority": 0}


@ext.tool(name="turn_counts", description="Active and settled turn counts")
def turn_counts(args):
    with lock:
        return {"content": f"active={sum(active.values())} settled={settled_total}",
                "structured_content": {"active": sum(active.values()), "settled": settled_total}}


@ext.on_shutdown
def release():
    with lock:
        active.clear()
    ext.log.info("released all turn holds")


ext.run()
