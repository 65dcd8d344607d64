// The octet inspector page: it loads the state, replays the kept live entries from the
// start (so a reload resumes the view), then follows the event stream.

import { api, events, type Entry } from "./api.js";
import { renderCatalog } from "./catalog.js";
import { h, replace } from "./dom.js";
import { renderExtensions } from "./extensions.js";
import { FrameLog } from "./frames.js";
import { renderBroker, renderNotices, renderProgress, renderQuestions } from "./live.js";
import { renderPresentation } from "./presentation.js";
import { SessionsView } from "./sessions.js";
import { Store } from "./store.js";
import { ToolsView } from "./tools.js";

const store = new Store();
const tools = new ToolsView();
const frames = new FrameLog();
const sessions = new SessionsView();

const tabs = ["tools", "frames", "activity", "presentation", "catalog", "sessions"] as const;
type Tab = (typeof tabs)[number];
let tab: Tab = (tabs as readonly string[]).includes(location.hash.slice(1)) ? (location.hash.slice(1) as Tab) : "tools";
let selected = "";

const live = h("span", { class: "live", id: "live" }, "connecting…");
const sidebar = h("aside", { class: "sidebar", id: "extensions" });
const questions = h("div", { class: "questions", id: "questions", hidden: true });
const progressBox = h("div", { class: "progress", id: "progress" });
const progressAll = h("div", { class: "progress", id: "progress-all" });
const noticesBox = h("div", { id: "notices" });
const brokerBox = h("div", { id: "broker" });
const presentationBox = h("div", { id: "presentation" });
const livePresentation = h("div", { id: "live-presentation" });
const catalogBox = h("div", { id: "catalog" });
const tabBar = h("nav", { class: "tabs" });
const view = h("main", { class: "view", id: "view" });
const sessionLabel = h("span", { class: "muted" });

const views: Record<Tab, HTMLElement> = {
  tools: tools.el,
  frames: frames.el,
  activity: h("div", {}, h("h3", {}, "Progress"), progressAll, h("h3", {}, "Notifications and events"), noticesBox, h("h3", {}, "Policy and secret requests"), brokerBox),
  presentation: presentationBox,
  catalog: catalogBox,
  sessions: sessions.el,
};

function drawTabs(): void {
  replace(tabBar, ...tabs.map((t) => h("button", { type: "button", id: `tab-${t}`, class: t === tab ? "tab selected" : "tab", onclick: () => {
    tab = t;
    history.replaceState(null, "", location.search + "#" + t);
    if (t === "sessions") void sessions.load();
    drawTabs();
    draw();
  } }, t)));
  replace(view, views[tab]);
}

function draw(): void {
  const st = store.state;
  if (st) {
    if (!st.extensions.some((e) => e.name === selected)) selected = st.extensions[0]?.name ?? "";
    renderExtensions(sidebar, st.extensions, selected, (n) => {
      selected = n;
      draw();
    });
    sessionLabel.textContent = st.session_id ? ` session ${st.session_id}` : "";
    sessions.replay = st.replay;
  }
  renderQuestions(questions, store);
  renderProgress(progressBox, store);
  // The live column shows the newest progress and snapshots whatever the tab.
  renderPresentation(livePresentation, store);
  switch (tab) {
    case "tools":
      tools.render(st?.extensions.find((e) => e.name === selected));
      break;
    case "frames":
      frames.render(store.frames, st?.started_at_ms ?? 0);
      break;
    case "activity":
      renderProgress(progressAll, store);
      renderNotices(noticesBox, store);
      renderBroker(brokerBox, store);
      break;
    case "presentation":
      renderPresentation(presentationBox, store);
      break;
    case "catalog":
      renderCatalog(catalogBox, store);
      break;
  }
}

// Drawing is batched to one frame: a burst of entries redraws once.
let pending = false;
function schedule(): void {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    draw();
  });
}

// The state (extensions, catalog definitions, stderr) is fetched again after a state
// change, a catalog revision or a finished call; overlapping requests collapse into one.
let refreshing: Promise<void> | null = null;
let again = false;
function refresh(): void {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = api.state().then((s) => {
    store.setState(s);
    schedule();
  }).catch(() => {}).finally(() => {
    refreshing = null;
    if (again) {
      again = false;
      refresh();
    }
  });
}
store.onStateChange = refresh;

async function start(): Promise<void> {
  const root = document.getElementById("app")!;
  replace(root, h("header", {}, h("b", {}, "octet inspector"), sessionLabel, " ", live), questions,
    h("div", { class: "layout" }, sidebar, h("div", { class: "center" }, tabBar, view),
      h("aside", { class: "live-col" }, h("h3", {}, "Live progress"), progressBox, h("h3", {}, "Presentation"), livePresentation)));
  store.setState(await api.state());
  drawTabs();
  draw();
  if (tab === "sessions") void sessions.load();
  events(0, (e: Entry) => {
    if (store.add(e)) schedule();
  }, (ok) => {
    live.textContent = ok ? "● live" : "○ reconnecting…";
    live.className = ok ? "live on" : "live off";
  });
}

start().catch((e) => {
  document.getElementById("app")!.textContent = "The inspector could not start: " + (e as Error).message;
});
