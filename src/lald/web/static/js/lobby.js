// The lobby: open a table (rules, seats, bots), hand out the seat links, list open tables.
import { applyStatic, initialLang, LANG_NAMES, LANGS, lang, langSelect, levelName, loadCatalog, refusal, t } from "./i18n.js";
import { $, copyText, countText, escapeHtml, toast } from "./dom.js";
import { initAccount, showAccount } from "./account.js";
import { postHeaders, session } from "./session.js";
import { forgetSeat, mySeats, seatAt } from "./seats.js";

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
    open: row.querySelector("select.who").value === "open",
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
        <option value="human">${escapeHtml(t("web_human"))}</option><option value="bot">${escapeHtml(t("web_bot"))}</option><option value="open">${escapeHtml(t("web_open_seat"))}</option></select>
      <label><span class="level-label"></span> <select class="level">${levels.map((l) => `<option value="${escapeHtml(l)}">${escapeHtml(levelName(l, true))}</option>`).join("")}</select></label>
      <input class="name" type="text" maxlength="40" aria-label="${title}: ${escapeHtml(t("web_name"))}">
      <p class="level-help"></p>`;
    row.querySelector("select.who").value = prev.open && form.public.checked ? "open" : prev.human ? "human" : "bot";
    row.querySelector("option[value=open]").disabled = !form.public.checked;
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
  const seats = [...document.querySelectorAll(".seatrow")].map((row) => {
    const who = row.querySelector("select.who").value;
    const level = row.querySelector("select.level").value;
    if (who === "open" && form.public.checked) return { open: true, level };
    return { human: who === "human", level, name: row.querySelector("input.name").value.trim() || null };
  });
  const lobby = { lang: form.lang.value };
  if (form.title.value.trim()) lobby.title = form.title.value.trim();
  if (form.public.checked) Object.assign(lobby, { public: true, fill_seconds: Number(form.fill_seconds.value) || 0 });
  if (form.public.checked && account && form.rated.checked) lobby.rated = true;
  const body = {
    ...lobby,
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
      method: "POST", headers: postHeaders(), body: JSON.stringify(body),
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
      method: "POST", headers: postHeaders(), body: JSON.stringify({ token, ...extra }),
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
      const who = s.open && s.human ? (s.joined ? t("web_host_joined") : t("web_open_seat")) : levelName(s.level, true);
      li.textContent = `${name} · ${who}`;
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

// -- the live list of open tables (/ws/lobby) and Play now ----------------------------------

const rows = new Map();
let lobbySock = null;
let lobbyRetry = 0;
let clockSkew = 0;  // the server's clock minus this page's (seconds), for the bots' countdown

function connectLobby() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  lobbySock = sock;
  sock.onopen = () => { lobbyRetry = 0; $("lobby-down").hidden = true; };
  sock.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (typeof msg.now === "number") clockSkew = msg.now - Date.now() / 1000;
    if (msg.type === "lobby") {
      rows.clear();
      for (const row of msg.tables) rows.set(row.id, row);
    } else if (msg.type === "lobby_update") {
      for (const row of msg.put) rows.set(row.id, row);
      for (const id of msg.drop) rows.delete(id);
    } else {
      return;
    }
    renderTables();
  };
  sock.onclose = () => {
    if (lobbySock !== sock) return;
    $("lobby-down").hidden = false;
    setTimeout(connectLobby, Math.min(5000, 250 * 2 ** lobbyRetry++));
  };
}

function rulesText(rules) {
  return [t("review_preset_" + rules.preset.replace("-", "_") + "_name"),
    `${t("web_players")} ${rules.players}`,
    ...rules.variants.map((v) => t("variant_" + v.replace(/-/g, "_")))].join(" · ");
}

function badge(text) {
  const span = document.createElement("span");
  span.className = "badge";
  span.textContent = text;
  return span;
}

// One table of the list, built from text nodes only: a title or a name is shown as the
// text it is, never read as markup.
function tableItem(table) {
  const li = document.createElement("li");
  li.dataset.table = table.id;
  // The row begins with words (its title, its rules), not the table's id, which means nothing.
  const parts = [];
  if (table.title) {
    const b = document.createElement("b");
    b.className = "table-title";
    b.textContent = table.title;
    parts.push(b, " ");
  }
  const people = table.seats.filter((s) => s.human && (s.joined || s.name || s.erased)).map((s) => (s.erased ? t("web_deleted_player") : s.name || t("seat_name", { seat: s.seat })));
  const state = table.status === "waiting" ? countText(t, "web_seats_free", table.public ? table.free : table.seats.filter((s) => s.human && !s.joined).length)
    : t("deal_of", { number: table.deal, deals: table.deals });
  parts.push(rulesText(table.rules), " — ", state);
  if (people.length) parts.push(" — ", people.join(", "));
  parts.push(" — ", LANG_NAMES[table.lang] || table.lang);
  if (table.turn_seconds) parts.push(" — ", t("web_turn_badge", { seconds: table.turn_seconds }));
  parts.push(" — ", badge(table.public ? t("web_public_badge") : t("web_private_badge")));
  if (table.rated) parts.push(" ", badge(t("web_rated_badge")));
  if (table.practice) parts.push(" ", badge(t("web_practice_badge")));
  if (table.hints) parts.push(" ", badge(t("web_hints_badge")));
  if (table.fill_at) {
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.dataset.at = table.fill_at;
    parts.push(" — ", fill);
  }
  const mine = seatAt(table.id);  // this browser's seat there: the way back, not another seat
  if (table.public && table.free > 0 && !mine && !(table.rated && !account)) {
    const sit = document.createElement("button");
    sit.type = "button";
    sit.className = "sit";
    sit.textContent = t("web_sit");
    sit.setAttribute("aria-label", `${t("web_sit")}: ${table.title || rulesText(table.rules)}`);
    sit.addEventListener("click", () => seat("/api/sit", { table: table.id, ...guestName() }));
    parts.push(" ", sit);
  }
  if (mine) parts.push(" ", backLink(mine));
  const watch = document.createElement("a");
  watch.href = `/play#w=${encodeURIComponent(table.id)}`;
  watch.textContent = t("web_watch");
  parts.push(" — ", watch);
  li.append(...parts);
  return li;
}

// -- the seats this browser (or this account) has taken and not finished ---------------------

function backLink(seat) {
  const a = document.createElement("a");
  a.className = "back-to-table button primary";
  a.href = `/play#t=${encodeURIComponent(seat.token)}`;
  a.textContent = t("web_back_to_table");
  return a;
}

// What the front page knows of each remembered table: its public summary (asked by its id;
// the seat's token stays in this browser), or null once it is over, closed or gone.
const known = new Map();
let accountSeats = [];

async function tableSummary(id) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(id)}`);
    if (response.status === 404) return null;
    if (!response.ok) return undefined;
    return await response.json();
  } catch {
    return undefined;  // the server away: the seat is kept and shown as remembered
  }
}

async function loadMySeats() {
  const local = mySeats();
  await Promise.all(local.map(async (seat) => {
    const summary = await tableSummary(seat.table);
    if (summary === null || (summary && ["over", "closed"].includes(summary.status))) {
      forgetSeat(seat.token);
      known.delete(seat.table);
    } else if (summary) {
      known.set(seat.table, summary);
    }
  }));
  accountSeats = [];
  if (account) {
    try {
      const response = await fetch("/api/account/seats", { cache: "no-store" });
      if (response.ok) accountSeats = (await response.json()).seats;
    } catch { /* the server away: this browser's own seats only */ }
  }
  renderMySeats();
  renderTables();
}

function renderMySeats() {
  const ul = $("my-seats-list");
  ul.textContent = "";
  const local = mySeats();
  for (const seat of local) {
    const summary = known.get(seat.table);
    const li = document.createElement("li");
    li.dataset.table = seat.table;
    const title = document.createElement("b");
    title.textContent = (summary && summary.title) || seat.title || rulesText((summary && summary.rules) || seat.rules);
    li.append(title);
    if (summary) {
      li.append(" — ", summary.status === "waiting" ? t("web_my_seat_waiting")
        : t("deal_of", { number: summary.deal, deals: summary.deals }));
    }
    li.append(" ", backLink(seat));
    ul.append(li);
  }
  // The account's seats taken in another browser: their links are there; here, watch.
  for (const seat of accountSeats.filter((s) => !local.some((l) => l.table === s.table))) {
    const li = document.createElement("li");
    li.dataset.table = seat.table;
    const title = document.createElement("b");
    title.textContent = seat.title || rulesText(seat.rules);
    const watch = document.createElement("a");
    watch.className = "watch";
    watch.href = seat.watch;
    watch.textContent = t("web_watch");
    li.append(title, " — ", t(seat.status === "waiting" ? "web_my_seat_waiting" : "web_status_playing"),
      " — ", t("web_my_seat_elsewhere"), " — ", watch);
    ul.append(li);
  }
  $("my-seats").hidden = !ul.children.length;
}

function renderTables() {
  const ul = $("tables");
  const focused = document.activeElement && ul.contains(document.activeElement)
    ? [document.activeElement.closest("li")?.dataset.table, document.activeElement.className] : null;
  ul.textContent = "";
  const list = [...rows.values()].sort((a, b) => b.created - a.created);
  if (!list.length) {
    const li = document.createElement("li");
    li.textContent = t("web_no_tables");
    ul.append(li);
  }
  for (const table of list) ul.append(tableItem(table));
  tickFill();
  if (focused) {  // a live update must not take the keyboard's place away
    const again = ul.querySelector(`li[data-table="${CSS.escape(focused[0] || "")}"] .${CSS.escape(focused[1] || "sit")}`)
      || ul.querySelector(`li[data-table="${CSS.escape(focused[0] || "")}"] a`);
    if (again) again.focus();
  }
}

function tickFill() {
  const now = Date.now() / 1000 + clockSkew;
  for (const el of document.querySelectorAll("#tables .fill")) {
    el.textContent = t("web_fill_in", { seconds: Math.max(0, Math.round(Number(el.dataset.at) - now)) });
  }
}

function guestName() {
  const name = $("play-now").name.value.trim();
  return !account && name ? { name } : {};
}

// Take a seat (Play now, or Sit down at a listed table) and go to it.
async function seat(path, body) {
  let response;
  let data;
  try {
    response = await fetch(path, { method: "POST", headers: postHeaders(), body: JSON.stringify(body) });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) { toast(refusal(data)); return; }
  location.href = data.url + (data.host ? `&host=${encodeURIComponent(data.host.token)}` : "");
}

function playNow(event) {
  event.preventDefault();
  const form = $("play-now");
  const body = { preset: form.preset.value, players: Number(form.players.value), lang, ...guestName() };
  if (account && form.rated.checked) body.rated = true;
  seat("/api/play-now", body);
}

// The logged-in account (account.js keeps it), whose CSRF token every post carries.
let account = null;

function accountChanged() {
  const before = account;
  account = session().account;
  if ((before && before.id) !== (account && account.id)) loadMySeats();
  for (const el of document.querySelectorAll(".account-only")) {
    el.hidden = !account || (el.classList.contains("public-only") && !$("create").public.checked);
  }
  for (const el of document.querySelectorAll(".guest-only")) el.hidden = Boolean(account);
  renderTables();
}

function showPublic() {
  const form = $("create");
  for (const el of form.querySelectorAll(".public-only")) el.hidden = !form.public.checked || (el.classList.contains("account-only") && !account);
  if (!form.public.checked) form.rated.checked = false;
  seatRows();
}

await loadCatalog(initialLang());
levels = await (await fetch("/api/levels")).json();
applyStatic();
$("lang-slot").append(langSelect(() => { seatRows(); renderTables(); renderMySeats(); showAccount(); if (hosted) showHost(hosted); }));
await initAccount(accountChanged);
accountChanged();
if (!account) loadMySeats();  // (a logged-in page's were loaded as its account came)
for (const l of LANGS) $("table-lang").append(new Option(LANG_NAMES[l], l, false, l === lang));
$("close-table").addEventListener("click", () => host("/api/host/close"));
$("create").players.addEventListener("change", seatRows);
$("create").public.addEventListener("change", showPublic);
$("create").addEventListener("submit", create);
$("play-now").addEventListener("submit", playNow);
seatRows();
connectLobby();
if (hostToken()) host("/api/host");
setInterval(() => { tickFill(); }, 1000);
setInterval(() => { if (hostToken()) host("/api/host"); }, 5000);
