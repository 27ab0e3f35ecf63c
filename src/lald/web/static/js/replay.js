// The replay viewer: the server replays a record through the engine; we step through it.
import { applyStatic, initialLang, lang, langSelect, loadCatalog, t } from "./i18n.js";
import { cardEl, sortCards } from "./cards.js";
import { $ } from "./dom.js";

let data = null;
let at = 0;
let text = "";
let names = null;

function fail(message) {
  $("load-error").textContent = message;
  if (message) $("loader").hidden = false;
}

async function load() {
  if (!text.trim()) { fail(t("web_replay_empty")); return; }
  const query = new URLSearchParams({ lang });
  for (const name of names || []) query.append("name", name || "");
  let response;
  let body;
  try {
    response = await fetch(`/api/replay?${query}`, { method: "POST", body: text });
    body = await response.json();
  } catch {
    fail(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) { fail(t("web_replay_bad", { reason: body.error })); return; }
  fail("");
  data = body;
  at = Math.min(at, data.steps.length - 1);
  $("viewer").hidden = false;
  draw();
}

function pile(label, codes, emptyText) {
  const box = document.createElement("div");
  box.className = "pile";
  const b = document.createElement("span");
  b.textContent = label;
  box.append(b);
  if (!codes.length) {
    const none = document.createElement("span");
    none.className = "none";
    none.textContent = emptyText;
    box.append(none);
  }
  for (const c of sortCards(codes)) box.append(cardEl(c));
  return box;
}

function draw() {
  if (!data) return;
  const step = data.steps[at];
  const last = data.steps.length - 1;
  $("step").textContent = at === 0 ? t("web_replay_start", { steps: last })
    : t("web_replay_step", { step: at, steps: last });
  const lines = $("lines");
  lines.textContent = "";
  for (const line of step.lines) {
    const p = document.createElement("p");
    p.textContent = line;
    lines.append(p);
  }
  const table = $("r-table");
  table.textContent = "";
  for (const c of sortCards(step.table)) table.append(cardEl(c));
  const hands = $("r-hands");
  hands.textContent = "";
  step.hands.forEach((hand, s) => {
    const row = document.createElement("div");
    row.className = "row" + (step.to_move === s ? " to-move" : "");
    row.dataset.seat = s;
    const who = document.createElement("div");
    who.className = "who";
    const name = document.createElement("span");
    name.className = "nm";
    name.textContent = data.names[s];
    name.title = data.names[s];
    who.append(name);
    const marks = [];
    if (s === data.dealer) marks.push([t("web_dealer"), ""]);
    if (step.to_move === s) marks.push([t("web_to_move_mark"), "turn"]);
    if (step.statuses[s] !== "playing") marks.push([t("web_status_" + step.statuses[s]), ""]);
    for (const [label, cls] of marks) {
      const badge = document.createElement("span");
      badge.className = "badge " + cls;
      badge.textContent = label;
      who.append(badge);
    }
    row.append(who);
    row.append(pile(t("web_replay_hand"), hand, t("web_replay_none")));
    row.append(pile(t("web_replay_won"), step.won[s], t("web_replay_none")));
    hands.append(row);
  });
  $("first").disabled = $("prev").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === last;
}

function go(i) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, i));
  draw();
}

$("load").addEventListener("click", () => { text = $("record").value; at = 0; names = null; load(); });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) { text = await file.text(); $("record").value = text; at = 0; names = null; load(); }
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowRight") go(at + 1);
  else if (event.key === "ArrowLeft") go(at - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(Infinity);
});

await loadCatalog(initialLang());
applyStatic();
$("lang-slot").append(langSelect(() => { if (data) load(); }));
const params = new URLSearchParams(location.hash.slice(1));
const tableId = params.get("table");
const deal = params.get("deal");
if (tableId && deal !== null) {
  // A deal of a table: its players' names and its record, straight to the viewer.
  $("loader").hidden = true;
  const [summary, record] = await Promise.all([
    fetch(`/api/tables/${encodeURIComponent(tableId)}`), fetch(`/api/tables/${encodeURIComponent(tableId)}/deals/${encodeURIComponent(deal)}/record`),
  ]);
  if (summary.ok) names = (await summary.json()).seats.map((s) => s.name);
  if (record.ok) { text = await record.text(); load(); }
  else fail((await record.json()).error);
}
