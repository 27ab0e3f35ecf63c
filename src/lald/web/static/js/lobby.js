// The lobby: open a table (rules, seats, bots), hand out the seat links, list open tables.
import { applyStatic, initialLang, langSelect, levelName, loadCatalog, refusal, t } from "./i18n.js";
import { $, copyText, countText, escapeHtml, toast } from "./dom.js";

let levels = [];
// The level a seat gets unless chosen: one a newcomer enjoys playing against (the
// beginner's bot plays at random, the strongest ones win nearly every deal).
const NEWCOMER_LEVEL = "heuristic";

// A seat row's level select means two things: for a bot, its level; for a person, the
// bot that stands in when they leave or their turn timer runs out. The label says which.
function labelLevel(row) {
  const human = row.querySelector("select.who").value === "human";
  row.querySelector(".level-label").textContent = human ? t("web_standin") : t("web_level");
  row.querySelector(".level-help").textContent = human ? t("web_standin_help") : "";
  row.querySelector(".level-help").hidden = !human;
  row.querySelector("input.name").placeholder = t("web_name");
}

function seatRows() {
  const form = $("create");
  const players = Number(form.players.value);
  const box = $("seat-rows");
  const old = [...box.querySelectorAll(".seatrow")].map((row) => ({
    human: row.querySelector("select.who").value === "human",
    level: row.querySelector("select.level").value,
    name: row.querySelector("input.name").value,
  }));
  for (const row of box.querySelectorAll(".seatrow")) row.remove();
  for (let s = 0; s < players; s++) {
    const prev = old[s] || { human: s === 0, level: levels.includes(NEWCOMER_LEVEL) ? NEWCOMER_LEVEL : levels[0], name: "" };
    const row = document.createElement("div");
    row.className = "seatrow";
    row.dataset.seat = s;
    const title = escapeHtml(t("seat_name", { seat: s }));
    row.innerHTML = `<b class="seat-title">${title}</b>
      <select class="who" aria-label="${title}: ${escapeHtml(t("web_seat_kind"))}">
        <option value="human">${escapeHtml(t("web_human"))}</option><option value="bot">${escapeHtml(t("web_bot"))}</option></select>
      <label><span class="level-label"></span> <select class="level">${levels.map((l) => `<option value="${escapeHtml(l)}">${escapeHtml(levelName(l, true))}</option>`).join("")}</select></label>
      <input class="name" type="text" maxlength="40" aria-label="${title}: ${escapeHtml(t("web_name"))}">
      <p class="level-help"></p>`;
    row.querySelector("select.who").value = prev.human ? "human" : "bot";
    row.querySelector("select.level").value = prev.level;
    row.querySelector("input.name").value = prev.name;
    row.querySelector("select.who").addEventListener("change", () => labelLevel(row));
    labelLevel(row);
    box.append(row);
  }
}

async function create(event) {
  event.preventDefault();
  const form = $("create");
  const seats = [...document.querySelectorAll(".seatrow")].map((row) => ({
    human: row.querySelector("select.who").value === "human",
    level: row.querySelector("select.level").value,
    name: row.querySelector("input.name").value.trim() || null,
  }));
  const body = {
    preset: form.preset.value,
    players: Number(form.players.value),
    variants: [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    turn_seconds: Number(form.turn_seconds.value) || 0,
    hints: form.hints.checked,
    seats,
  };
  let response;
  let data;
  try {
    response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) { toast(refusal(data)); return; }
  // The host link is this page with the host's token after the #: a reload brings it back.
  history.replaceState(null, "", "#host=" + data.host.token);
  showHost(data);
  refresh();
}

// -- the host's view: seats, their links, who joined; a new link for a seat; closing --------

let hosted = null;

function hostToken() {
  return new URLSearchParams(location.hash.slice(1)).get("host");
}

// Whether the host's last request got no answer (the network or the server down): then
// who is connected is not known, and the page says so until an answer comes.
let unreachable = false;

async function host(path, extra = {}) {
  const token = hostToken();
  if (!token) return;
  let response;
  let data;
  try {
    response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, ...extra }),
    });
    data = await response.json();
  } catch {
    // Asked again every few seconds: said once, in its place, not in a toast each time.
    if (path !== "/api/host" || !hosted) toast(t("web_server_unreachable"));
    unreachable = true;
    if (hosted) showHost(hosted);
    return;
  }
  unreachable = false;
  if (!response.ok) { if (hosted) showHost(hosted); toast(refusal(data)); return; }
  showHost(data);
}

function linkItem(label, url) {
  const li = document.createElement("li");
  const b = document.createElement("b");
  b.textContent = label;
  const a = document.createElement("a");
  a.href = url;
  a.target = "_blank";
  a.textContent = url;
  li.append(b, " ", a, " ", copyButton(url, label));
  return li;
}

function showHost(data) {
  hosted = data;
  const list = $("links");
  list.textContent = "";
  list.append(linkItem(t("web_host_link"), data.host.url));
  const open = data.table.status === "waiting" || data.table.status === "playing";
  for (const s of data.seats) {
    const name = s.name || t("seat_name", { seat: s.seat });
    if (!s.url) {
      const li = document.createElement("li");
      li.textContent = `${name} · ${levelName(s.level, true)}`;
      list.append(li);
      continue;
    }
    const state = unreachable ? t("web_host_unknown")
      : s.online ? t("web_host_online") : s.joined ? t("web_host_joined") : t("web_host_not_joined");
    const li = linkItem(`${name} · ${state}:`, s.url);
    li.dataset.seat = s.seat;
    if (open) {
      const again = document.createElement("button");
      again.type = "button";
      again.className = "reissue";
      again.textContent = t("web_host_reissue");
      again.addEventListener("click", () => host("/api/host/reissue", { seat: s.seat }));
      li.append(" ", again);
    }
    list.append(li);
  }
  list.append(linkItem(t("web_watch") + ":", data.watch));
  $("host-note").textContent = [
    data.table.practice ? t("web_practice") : "",
    data.table.hints ? t("web_hints_on") : "",
    open ? "" : t("web_table_closed"),
  ].filter(Boolean).join(" ");
  $("host-down").hidden = !unreachable;
  $("host-down").textContent = unreachable ? t("web_host_unreachable") : "";
  $("close-table").hidden = !open;
  $("created").hidden = false;
}

// A Copy button that says what it did: "Copied", or, where the browser refuses, how to
// copy by hand (the link is selected for it).
function copyButton(url, what) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = t("web_copy");
  button.setAttribute("aria-label", `${t("web_copy")}: ${what}`);
  button.addEventListener("click", async () => {
    const done = await copyText(url);
    const said = done ? t("web_copied") : t("web_copy_by_hand");
    button.textContent = done ? t("web_copied") : t("web_copy");
    $("copied").textContent = `${what}: ${said}`;
    if (!done) {
      const range = document.createRange();
      range.selectNodeContents(button.previousElementSibling);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      toast(said);
    }
    clearTimeout(button.timer);
    button.timer = setTimeout(() => { button.textContent = t("web_copy"); }, 2500);
  });
  return button;
}

async function refresh() {
  let tables;
  try {
    tables = await (await fetch("/api/tables")).json();
  } catch {
    return;
  }
  const ul = $("tables");
  ul.textContent = "";
  if (!tables.length) {
    const li = document.createElement("li");
    li.textContent = t("web_no_tables");
    ul.append(li);
  }
  for (const table of tables) {
    const li = document.createElement("li");
    const free = table.seats.filter((s) => s.human && !s.joined).length;
    const rules = [t("review_preset_" + table.rules.preset.replace("-", "_") + "_name"),
      `${t("web_players")} ${table.rules.players}`,
      ...table.rules.variants.map((v) => t("variant_" + v.replace(/-/g, "_")))].join(" · ");
    const state = table.status === "waiting" ? countText(t, "web_seats_free", free)
      : t("deal_of", { number: table.deal, deals: table.deals });
    const practice = table.practice ? ` — <span class="badge">${escapeHtml(t("web_practice_badge"))}</span>` : "";
    const hints = table.hints ? ` — <span class="badge">${escapeHtml(t("web_hints_badge"))}</span>` : "";
    li.innerHTML = `<code>${escapeHtml(table.id)}</code> ${escapeHtml(rules)} — ${escapeHtml(state)}${practice}${hints} — <a href="/play#w=${encodeURIComponent(table.id)}">${escapeHtml(t("web_watch"))}</a>`;
    ul.append(li);
  }
}

await loadCatalog(initialLang());
levels = await (await fetch("/api/levels")).json();
applyStatic();
$("lang-slot").append(langSelect(() => { seatRows(); refresh(); if (hosted) showHost(hosted); }));
$("close-table").addEventListener("click", () => host("/api/host/close"));
$("create").players.addEventListener("change", seatRows);
$("create").addEventListener("submit", create);
seatRows();
refresh();
if (hostToken()) host("/api/host");
setInterval(() => { refresh(); if (hostToken()) host("/api/host"); }, 5000);
