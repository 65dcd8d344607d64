// lifecycle-counting: reference-count running turns per session from lifecycle observations
// (the caffeinate pattern without the macOS helper), report it as status, clean up on shutdown.
import { Extension, Method } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });
const running = new Map<string, Set<string>>();

function total(): number {
  let n = 0;
  for (const turns of running.values()) n += turns.size;
  return n;
}

ext.onLifecycle("turn_started", (event) => {
  const turns = running.get(event.session_id) ?? new Set<string>();
  turns.add(event.turn_id ?? "");
  running.set(event.session_id, turns);
  ext.log.info("turn started", { session_id: event.session_id, running: total() });
});

ext.onLifecycle(Method.TURN_SETTLED, (event) => {
  running.get(event.session_id)?.delete(event.turn_id ?? "");
  ext.log.info("turn settled", { turn_id: event.turn_id, outcome: event.outcome, running: total() });
});

ext.onLifecycle("session_settled", (event) => {
  // A settled session can leave no turn behind, whatever notifications were lost.
  running.delete(event.session_id);
});

ext.status("status", () => ({ surface: "status", text: `${total()} turn(s) running`, priority: 0 }));

ext.onShutdown(() => {
  running.clear();
  ext.log.info("released all turn state");
});

await ext.run();
