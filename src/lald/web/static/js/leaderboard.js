// A reading's leaderboard: accounts by their rating (mu − 3σ), and the bots' fixed ratings.
import { applyStatic, initialLang, langSelect, levelName, loadCatalog, t } from "./i18n.js";
import { $ } from "./dom.js";
import { readingName } from "./leaderboard-names.js";

const fixed = (x) => Number(x).toFixed(1);

async function show() {
  // No reading asked for: the server's choice, the reading with the most rated players.
  const asked = new URLSearchParams(location.hash.slice(1)).get("reading");
  const data = await (await fetch(asked ? `/api/leaderboard?reading=${encodeURIComponent(asked)}` : "/api/leaderboard")).json();
  const reading = data.reading;
  const select = $("reading");
  select.textContent = "";
  for (const r of new Set([reading, ...data.readings])) select.append(new Option(readingName(r), r, false, r === reading));
  $("board-caption").textContent = `${t("web_leaderboard_title")}: ${readingName(reading)}`;
  const body = $("board").querySelector("tbody");
  body.textContent = "";
  for (const p of data.players) {
    const tr = document.createElement("tr");
    const link = document.createElement("a");
    link.href = `/player#${encodeURIComponent(p.name)}`;
    link.textContent = p.name;
    const cells = [String(p.rank), link, `${fixed(p.ordinal)} (μ ${fixed(p.mu)}, σ ${fixed(p.sigma)})`, String(p.games)];
    for (const c of cells) { const td = document.createElement("td"); td.append(c); tr.append(td); }
    body.append(tr);
  }
  if (!data.players.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 4;
    td.textContent = t("web_leaderboard_empty");
    tr.append(td);
    body.append(tr);
  }
  $("bots").textContent = "";
  for (const b of data.bots) {
    const li = document.createElement("li");
    li.textContent = `${levelName(b.level, true)}: μ ${fixed(b.mu)}, σ ${fixed(b.sigma)}`;
    $("bots").append(li);
  }
}

await loadCatalog(initialLang());
applyStatic();
$("lang-slot").append(langSelect(show));
$("reading").addEventListener("change", () => { location.hash = `reading=${encodeURIComponent($("reading").value)}`; });
window.addEventListener("hashchange", show);
show();
