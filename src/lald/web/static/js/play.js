// The table page: one websocket, frames in (each the seat's own view), actions out.
import { applyStatic, initialLang, lang, langSelect, loadCatalog, t } from "./i18n.js";
import { backEl, cardEl, glyph, glyphs, rankOf, sortCards } from "./cards.js";

const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("t");
const watchId = params.get("w");
const $ = (id) => document.getElementById(id);

let ws = null;
let frame = null;
let retry = 0;
let fatal = false;
let entries = [];
let selected = new Set();
let deadline = null;
let audio = null;

// -- connection -------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => {
    retry = 0;
    setConn(true);
    ws.send(JSON.stringify(token ? { type: "join", token, lang } : { type: "watch", table: watchId, lang }));
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = () => {
    setConn(false);
    if (!fatal) setTimeout(connect, Math.min(4000, 200 * 2 ** retry++));
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function setConn(up) {
  const el = $("conn");
  el.classList.toggle("down", !up);
  el.textContent = up ? t("web_online") : t("web_reconnecting");
}

function onMessage(msg) {
  if (msg.type === "state") {
    if (msg.reset) { entries = []; $("log").textContent = ""; }
    const fresh = !msg.reset;
    for (const entry of msg.log) {
      entries.push(entry);
      appendLog(entry);
      if (fresh && entry.kind === "laugh") laugh(entry.text);
    }
    if (!frame || msg.v !== frame.v) selected.clear();
    frame = msg;
    deadline = msg.turn_deadline == null ? null : Date.now() + msg.turn_deadline * 1000;
    render();
  } else if (msg.type === "error") {
    toast(msg.detail && lang === "en" ? `${msg.message} (${msg.detail})` : msg.message);
    if (["bad_token", "no_table", "taken_over", "reissued", "flooding"].includes(msg.code)) {
      fatal = true;
      $("status").textContent = msg.message;
      ws.close();
    }
  }
}

// -- actions ----------------------------------------------------------------------------

function actionCards(a) {
  if (a.type === "capture") return [...a.play, ...a.take];
  if (a.type === "claim") return a.cards;
  if (a.type === "trail") return [a.card];
  return [];
}

function actionLabel(a) {
  if (a.type === "capture") return `${glyphs(a.play)} × ${glyphs(a.take)}`;
  if (a.type === "claim") return `${t("web_claim")} ${glyphs(a.cards)}`;
  if (a.type === "trail") return `${t("web_trail")} ${glyph(a.card)}`;
  return t("web_lie_down");
}

const key = (cards) => [...cards].sort().join(" ");

function act(action) {
  if (!frame) return;
  wakeAudio();
  send({ type: "act", v: frame.v, action });
  selected.clear();
}

function selectedAction() {
  if (!frame || !selected.size) return null;
  const k = key(selected);
  return frame.legal.find((a) => key(actionCards(a)) === k) || null;
}

function toggle(code) {
  if (selected.has(code)) selected.delete(code); else selected.add(code);
  render();
}

// -- drawing ----------------------------------------------------------------------------

function names() { return frame.table.names; }

function render() {
  if (!frame) return;
  const view = frame.view;
  const table = frame.table;
  const me = frame.you;
  const mine = me !== null ? table.seats[me] : null;
  const n = table.seats.length;
  $("deal-info").textContent = view
    ? `${t("web_deal")} ${frame.deal + 1}/${table.deals}` : "";
  $("pot").textContent = view ? view.pot : frame.session.pot;

  // seats, clockwise from this page's seat
  const seats = $("seats");
  seats.textContent = "";
  const first = me ?? 0;
  for (let i = 0; i < n; i++) {
    const s = (first + i) % n;
    seats.append(seatBox(s, view, table));
  }

  // the table's cards and this seat's hand
  const usable = new Set(frame.legal.flatMap(actionCards));
  const hints = new Set();
  if (selected.size) {
    for (const a of frame.legal) {
      const cards = actionCards(a);
      if ([...selected].every((c) => cards.includes(c))) cards.forEach((c) => hints.add(c));
    }
  }
  const tableEl = $("table");
  tableEl.textContent = "";
  for (const code of view ? sortCards(view.table) : []) tableEl.append(card(code, usable, hints));

  const hand = $("hand");
  hand.textContent = "";
  const groups = new Map();
  for (const code of view ? sortCards(view.hand) : []) {
    const r = rankOf(code);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r).push(code);
  }
  for (const codes of groups.values()) {
    const group = document.createElement("div");
    group.className = "group";
    for (const code of codes) group.append(card(code, usable, hints));
    hand.append(group);
  }
  $("h-hand").hidden = me === null;

  // moves
  const moves = $("moves");
  moves.textContent = "";
  frame.legal.forEach((a, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move" + (a.type === "claim" ? " claim" : " turn");
    b.dataset.index = i;
    b.dataset.kind = a.type;
    b.dataset.cards = actionCards(a).join(" ");
    b.innerHTML = (i < 9 ? `<kbd>${i + 1}</kbd>` : "") + escapeHtml(actionLabel(a));
    b.addEventListener("click", () => act(a));
    moves.append(b);
  });
  $("play-sel").disabled = !selectedAction();
  $("clear-sel").hidden = me === null;
  $("play-sel").hidden = me === null;
  $("next-deal").hidden = !frame.can_next;
  $("take").hidden = !(mine && !mine.human);
  $("leave").hidden = !(mine && mine.human && table.status !== "over");
  $("practice").hidden = !table.practice;
  renderStatus();
  renderSettlement();
  renderLedger();
  // For scripts and tests driving the page: what the page is showing now.
  Object.assign(document.body.dataset, {
    v: frame.v, toMove: view && view.to_move !== null ? view.to_move : "", over: view && view.over ? "1" : "0",
  });
}

function card(code, usable, hints) {
  const el = cardEl(code, { selectable: usable.has(code) });
  if (selected.has(code)) el.classList.add("selected");
  else if (hints.has(code)) el.classList.add("hint");
  if (usable.has(code)) el.addEventListener("click", () => toggle(code));
  return el;
}

function seatBox(s, view, table) {
  const info = table.seats[s];
  const box = document.createElement("div");
  box.className = "seat";
  box.dataset.seat = s;
  if (s === frame.you) box.classList.add("me");
  if (view && view.to_move === s) box.classList.add("to-move");
  if (view && view.statuses[s] !== "playing") box.classList.add("out");
  const name = document.createElement("div");
  name.className = "name";
  const dot = document.createElement("span");
  dot.className = "dot" + (info.online || !info.human ? " on" : "");
  name.append(dot, document.createTextNode(names()[s]));
  const badges = [];
  if (view && view.dealer === s) badges.push([t("web_dealer"), ""]);
  if (view && view.eldest === s) badges.push([t("web_eldest"), ""]);
  if (!info.human) badges.push([`${t("web_bot")} · ${info.level}`, "bot"]);
  for (const [text, cls] of badges) {
    const b = document.createElement("span");
    b.className = "badge " + cls;
    b.textContent = text;
    name.append(b);
  }
  box.append(name);
  if (view) {
    const facts = document.createElement("div");
    facts.className = "facts";
    facts.innerHTML = `<span>${t("web_hand_count", { count: view.hand_sizes[s] })}</span>`
      + `<span>${t("web_won_count", { count: view.won_sizes[s] })}</span>`
      + `<span>${t("web_balance")} ${signed(view.balances[s])}</span>`
      + `<span>${t("web_status_" + view.statuses[s])}</span>`;
    box.append(facts);
    if (s !== frame.you) {
      const mini = document.createElement("div");
      mini.className = "minihand";
      for (let i = 0; i < view.hand_sizes[s]; i++) mini.append(backEl());
      box.append(mini);
    }
  }
  return box;
}

function renderStatus() {
  const el = $("status");
  if (fatal) return;
  const view = frame.view;
  const table = frame.table;
  const me = frame.you;
  let text = "";
  if (table.status === "waiting") {
    const waiting = table.seats.filter((s) => s.human && !s.joined).map((s) => table.names[s.seat]);
    text = t("web_waiting", { names: waiting.join(", ") });
  } else if (table.status === "over") {
    text = t("web_session_over");
  } else if (table.status === "closed") {
    text = t("web_table_closed");
  } else if (view && view.over) {
    text = t("web_deal_over");
  } else if (view) {
    const mover = view.to_move;
    text = mover === me ? t("web_your_turn") : t("web_turn_of", { name: table.names[mover] });
    if (deadline !== null) text += " " + t("web_seconds_left", { seconds: Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) });
  }
  if (me === null) text = t("web_spectating") + " " + text;
  else if (!table.seats[me].human) text = t("web_bot_plays") + " " + text;
  el.textContent = text;
  el.classList.toggle("mine", view && view.to_move === me);
}

function renderSettlement() {
  const el = $("settlement");
  const view = frame.view;
  if (!view || !view.over) { el.hidden = true; return; }
  const deal = frame.deal;
  const settle = entries.filter((e) => e.deal === deal && (e.kind === "settle" || e.kind === "winner" || e.kind === "tie"));
  el.hidden = false;
  el.textContent = "";
  const h = document.createElement("h2");
  h.textContent = `${t("web_settlement")} · ${t("web_deal")} ${deal + 1}`;
  el.append(h);
  for (const e of settle) {
    for (const line of e.lines || [e.text]) {
      const p = document.createElement("p");
      p.textContent = line;
      if (e.kind !== "settle") p.className = "winner";
      el.append(p);
    }
  }
  const links = document.createElement("p");
  links.innerHTML = `<a href="/api/tables/${frame.table.id}/deals/${deal}/record" download>${t("web_download")}</a> · `
    + `<a href="/replay#table=${frame.table.id}&deal=${deal}" target="_blank">${t("web_replay")}</a>`;
  el.append(links);
}

function renderLedger() {
  const el = $("ledger");
  const results = frame.session.results;
  const n = frame.table.seats.length;
  const nm = names();
  let html = `<table class="ledger"><thead><tr><th>${t("web_deal")}</th>`;
  for (let s = 0; s < n; s++) html += `<th title="${escapeHtml(nm[s])}">${escapeHtml(short(nm[s]))}</th>`;
  html += `<th></th></tr></thead><tbody>`;
  for (const r of results) {
    html += `<tr><td>${r.deal + 1}</td>` + r.chips.map((c) => `<td>${signed(c)}</td>`).join("")
      + `<td><a href="/api/tables/${frame.table.id}/deals/${r.deal}/record" download title="${t("web_download")}">⤓</a> `
      + `<a href="/replay#table=${frame.table.id}&deal=${r.deal}" target="_blank" title="${t("web_replay")}">▶</a></td></tr>`;
  }
  html += `<tr><th>${t("web_balance")}</th>` + frame.session.balances.map((b) => `<th>${signed(b)}</th>`).join("")
    + `<th></th></tr></tbody></table>`;
  el.innerHTML = html;
}

function appendLog(entry) {
  const p = document.createElement("p");
  p.className = entry.kind;
  p.textContent = entry.text;
  const log = $("log");
  log.append(p);
  log.scrollTop = log.scrollHeight;
}

function laugh(text) {
  const el = $("laugh");
  el.hidden = false;
  el.innerHTML = `<div>${escapeHtml(t("web_laugh_big"))}<small>${escapeHtml(text)}</small></div>`;
  clearTimeout(laugh.timer);
  laugh.timer = setTimeout(() => { el.hidden = true; }, 1900);
  playLaugh();
}

// A short synthesized "ha-ha-ha": falling vowel-like bursts (only after a user gesture).
function wakeAudio() {
  if (!audio && window.AudioContext) {
    try { audio = new AudioContext(); } catch { audio = null; }
  }
}

function playLaugh() {
  if (!audio || audio.state !== "running") return;
  const now = audio.currentTime;
  for (let i = 0; i < 4; i++) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sawtooth";
    osc.frequency.setValueAtTime(330 - i * 28, now + i * 0.16);
    osc.frequency.exponentialRampToValueAtTime(210 - i * 20, now + i * 0.16 + 0.12);
    gain.gain.setValueAtTime(0.0001, now + i * 0.16);
    gain.gain.exponentialRampToValueAtTime(0.08, now + i * 0.16 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.13);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.16);
    osc.stop(now + i * 0.16 + 0.14);
  }
}

function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), 3500);
}

const signed = (v) => (v > 0 ? "+" : "") + v;
const short = (name) => (name.length > 8 ? name.slice(0, 7) + "…" : name);
function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// -- input ------------------------------------------------------------------------------

$("play-sel").addEventListener("click", () => { const a = selectedAction(); if (a) act(a); });
$("clear-sel").addEventListener("click", () => { selected.clear(); render(); });
$("next-deal").addEventListener("click", () => { wakeAudio(); send({ type: "next_deal" }); });
$("take").addEventListener("click", () => send({ type: "take" }));
$("leave").addEventListener("click", () => send({ type: "leave" }));

document.addEventListener("keydown", (event) => {
  if (!frame || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (/^[1-9]$/.test(event.key)) {
    const a = frame.legal[Number(event.key) - 1];
    if (a) { event.preventDefault(); act(a); }
  } else if (event.key === "Enter" && !(target instanceof HTMLButtonElement)) {
    const a = selectedAction();
    if (a) { event.preventDefault(); act(a); }
  } else if (event.key === "Escape") {
    selected.clear();
    render();
  } else if (event.key === "n" || event.key === "N") {
    if (frame.can_next) send({ type: "next_deal" });
  }
});
document.addEventListener("pointerdown", wakeAudio, { once: true });
setInterval(() => { if (frame && deadline !== null) renderStatus(); }, 500);

// -- start ------------------------------------------------------------------------------

await loadCatalog(initialLang());
applyStatic();
$("lang-slot").append(langSelect((l) => {
  send({ type: "lang", lang: l });
  setConn(ws && ws.readyState === WebSocket.OPEN);
}));
if (!token && !watchId) {
  $("status").textContent = t("web_no_link");
} else {
  connect();
}
