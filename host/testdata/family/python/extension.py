"""Process-family fixture: a same-group and a setsid grandchild, then one tool."""

import os
import subprocess
import sys

from octet_extension import Extension

# Each ignores SIGTERM (the shell's SIG_IGN survives exec), so only SIGKILL ends it.
SLEEP = ["sh", "-c", "trap '' TERM; exec sleep 1000"]
kids = [
    subprocess.Popen(SLEEP, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    subprocess.Popen(SLEEP, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
]
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("".join(f"{k.pid}\n" for k in kids))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])

ext = Extension()


@ext.tool(name="hello_python", description="Answer", parameters={"type": "object"})
def hello(args):
    return {"content": "hello"}


ext.run()
