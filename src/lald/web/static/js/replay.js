// The replay viewer: the server replays a record through the engine; we step through it.
import { applyStatic, initialLang, lang, langSelect, loadCatalog, t } from "./i18n.js";
import { cardEl, sortCards } from "./cards.js";

const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;

async function load() {
  const response = await fetch(`/api/replay?lang=${lang}`, { method: "POST", body: $("record").value });
  const body = await response.json();
  if (!response.ok) { toast(body.error); return; }
  data = body;
  at = Math.min(at, data.steps.length - 1);
  $("viewer").hidden = false;
  draw();
}

function draw() {
  if (!data) return;
  const step = data.steps[at];
  $("step").textContent = `${at} / ${data.steps.length - 1}` + (step.action ? ` — ${step.action}` : "");
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
    row.className = "row";
    const marks = (s === data.dealer ? " · " + t("web_dealer") : "") + (step.to_move === s ? " ◀" : "");
    row.innerHTML = `<b>${data.names[s]}${marks}</b><span>${t("web_won_count", { count: step.won[s].length })}</span>`;
    const cards = document.createElement("div");
    cards.className = "cards";
    for (const c of hand) cards.append(cardEl(c));
    row.append(cards);
    hands.append(row);
  });
}

function go(i) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, i));
  draw();
}

function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.classList.add("show");
  setTimeout(() => el.classList.remove("show"), 5000);
}

$("load").addEventListener("click", () => { at = 0; load(); });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) { $("record").value = await file.text(); at = 0; load(); }
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
if (params.get("table") && params.get("deal") !== null) {
  const response = await fetch(`/api/tables/${params.get("table")}/deals/${params.get("deal")}/record`);
  if (response.ok) { $("record").value = await response.text(); load(); }
  else toast((await response.json()).error);
}
