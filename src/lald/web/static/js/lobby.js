// The lobby: open a table (rules, seats, bots), hand out the seat links, list open tables.
import { applyStatic, initialLang, langSelect, loadCatalog, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let levels = [];

function seatRows() {
  const form = $("create");
  const players = Number(form.players.value);
  const box = $("seat-rows");
  const old = [...box.querySelectorAll(".seatrow")].map((row) => ({
    human: row.querySelector("select.who").value === "human",
    level: row.querySelector("select.level").value,
    name: row.querySelector("input").value,
  }));
  box.textContent = "";
  for (let s = 0; s < players; s++) {
    const prev = old[s] || { human: s === 0, level: levels[0], name: "" };
    const row = document.createElement("div");
    row.className = "seatrow";
    row.innerHTML = `<b>${t("seat_name", { seat: s }).replace("{seat}", s)}</b>
      <select class="who" aria-label="${t("web_seat_kind")}">
        <option value="human">${t("web_human")}</option><option value="bot">${t("web_bot")}</option></select>
      <label>${t("web_level")} <select class="level">${levels.map((l) => `<option>${l}</option>`).join("")}</select></label>
      <input type="text" maxlength="40" placeholder="${t("web_name")}" aria-label="${t("web_name")}">`;
    row.querySelector("select.who").value = prev.human ? "human" : "bot";
    row.querySelector("select.level").value = prev.level;
    row.querySelector("input").value = prev.name;
    box.append(row);
  }
}

async function create(event) {
  event.preventDefault();
  const form = $("create");
  const seats = [...document.querySelectorAll(".seatrow")].map((row) => ({
    human: row.querySelector("select.who").value === "human",
    level: row.querySelector("select.level").value,
    name: row.querySelector("input").value.trim() || null,
  }));
  const body = {
    preset: form.preset.value,
    players: Number(form.players.value),
    variants: [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    turn_seconds: Number(form.turn_seconds.value) || 0,
    seats,
  };
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) { toast(data.error); return; }
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

async function host(path, extra = {}) {
  const token = hostToken();
  if (!token) return;
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, ...extra }),
  });
  const data = await response.json();
  if (!response.ok) { toast(data.error); return; }
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
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = t("web_copy");
  copy.addEventListener("click", () => navigator.clipboard?.writeText(url));
  li.append(b, " ", a, " ", copy);
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
      li.textContent = `${name} · ${t("web_bot")} (${s.level})`;
      list.append(li);
      continue;
    }
    const state = s.online ? t("web_host_online") : s.joined ? t("web_host_joined") : t("web_host_not_joined");
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
    open ? "" : t("web_table_closed"),
  ].filter(Boolean).join(" ");
  $("close-table").hidden = !open;
  $("created").hidden = false;
}

async function refresh() {
  const tables = await (await fetch("/api/tables")).json();
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
    const rules = [table.rules.preset, `${table.rules.players}`, ...table.rules.variants].join(" · ");
    const state = table.status === "waiting" ? t("web_waiting_count", { count: free })
      : `${t("web_deal")} ${table.deal}/${table.deals}`;
    const practice = table.practice ? ` — <span class="badge">${t("web_practice_badge")}</span>` : "";
    li.innerHTML = `<code>${table.id}</code> ${rules} — ${state}${practice} — <a href="/play#w=${table.id}">${t("web_watch")}</a>`;
    ul.append(li);
  }
}

function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.classList.add("show");
  setTimeout(() => el.classList.remove("show"), 4000);
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
setInterval(() => { refresh(); if (hosted && hostToken()) host("/api/host"); }, 5000);
