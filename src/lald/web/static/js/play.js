// The table page: one websocket, frames in (each the seat's own view), actions out.
import { applyStatic, initialLang, lang, langSelect, levelName, loadCatalog, refusal, t } from "./i18n.js";
import { backEl, cardEl, glyphs, rankOf, sortCards } from "./cards.js";
import { $, countText, escapeHtml, minus, signed, toast } from "./dom.js";
import { actionCards, actionId, keyOf, moveHelp, moveLabel, moveOfKey, moveWords, recordForm } from "./moves.js";
import { chatLine, clearChat, initChat, mayLaugh, renderChat } from "./chat.js";
import { loadSession, postHeaders } from "./session.js";
import { forgetSeat, rememberSeat } from "./seats.js";

const params = new URLSearchParams(location.hash.slice(1));
let token = params.get("t");
const watchId = params.get("w");
// /learn opens a lesson (the teaching deal) for this page, then plays it as its seat.
const learning = location.pathname === "/learn";

let ws = null;
// The table's id once known (the welcome says it; a spectator's link has it): the page
// connects to the table's own address, /ws/{id}, which the proxy of a site of several
// servers takes to the server that holds the table.
let tableId = watchId;
let frame = null;
let online = false;
let retry = 0;
let fatal = false;
let entries = [];
let selected = new Set();
let deadline = null;
// The absent person the table waits for, as the frame said, with the moments on this
// page's clock that they left and that their stand-in plays ({seat, left, standIn}).
let absent = null;
let audio = null;
// The move this page chose that the table has not shown yet: {v, action}. Sent again after
// a reconnection if the table is still at version v (the server applies an action only at
// the version it was chosen on, so a move is never applied twice).
let pending = null;
let resend = false;
// What just happened, shown on the table for a moment: {seat, cards, text, until}.
let flash = null;
let lastMove = null;
const FLASH_MS = 2600;
// The bot levels the server offers (its welcome says), for the deal after the lesson.
let levels = [];
// The lesson's sentence for a move it refused, until the table moves on.
let lessonRefused = null;
// A finished deal whose settlement this page keeps showing after another person began the
// next deal, until its own person closes it (its number), and whether this page's person
// asked for the next deal (then the settlement goes as the deal begins).
let keptDeal = null;
let wentOn = false;
const STRONGEST = ["expert", "pimc", "heuristic", "greedy", "random"];
// The expert's hint for this seat's decision (a table opened with hints on): the server's
// hint message for the version shown ({v, index, text}), or null; hintAsked is the version
// last asked about (asked by itself on this seat's turn, once a version).
let hint = null;
let hintAsked = -1;
let hintWaiting = false;
// Why the hint asked for did not come (the expert busy at other tables, a failure), as a
// catalog key: said in the hint's own place, not in a toast, since a hint also comes
// unasked; Hint asks again.
let hintRefused = null;
// The server's clock minus this page's (seconds), from the frame's ``now``: the countdown to
// the bots' taking a public table's empty seats (its ``fill_at``) is counted with it.
let clockSkew = 0;
// What the status line last said that is worth saying aloud (by key), and what is to be
// said at the end of this task: one live region (#announce) says each change once.
let statusSaid = new Set();
let toSay = [];

// -- connection -------------------------------------------------------------------------

// Heartbeats: this page pings every ``every`` seconds and counts the connection as lost
// when the pong has not come within ``wait`` seconds (the welcome says both; these until
// it does). A socket can look open long after the network under it is gone.
let beat = { every: 10, wait: 10 };
let pingTimer = null;
let pongTimer = null;
let pings = 0;
let retryTimer = null;

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  drop(ws);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/ws${tableId ? `/${encodeURIComponent(tableId)}` : ""}`);
  ws = sock;
  sock.onopen = () => {
    retry = 0;
    online = true;
    resend = pending !== null;
    setConn();
    sock.send(JSON.stringify(token ? { type: "join", token, lang } : { type: "watch", table: watchId, lang }));
    schedulePing();
    if (frame) render();
  };
  sock.onmessage = (event) => onMessage(JSON.parse(event.data));
  sock.onclose = lost;
}

// A socket this page is done with: it says nothing more to the page.
function drop(sock) {
  if (!sock) return;
  sock.onopen = sock.onmessage = sock.onclose = null;
  try { sock.close(); } catch { /* closing a socket that never opened */ }
}

// The connection is gone (closed, silent past its pong's wait, or the browser offline):
// said at once, and a new one is tried (at once when the browser says it is back online).
function lost() {
  clearTimeout(pingTimer);
  clearTimeout(pongTimer);
  pongTimer = null;
  drop(ws);
  ws = null;
  online = false;
  setConn();
  if (frame) render();
  if (!fatal && retryTimer === null) {
    retryTimer = setTimeout(() => { retryTimer = null; connect(); }, Math.min(4000, 200 * 2 ** retry++));
  }
}

function schedulePing() {
  clearTimeout(pingTimer);
  pingTimer = setTimeout(ping, beat.every * 1000);
}

function ping() {
  if (!online || pongTimer !== null) return;
  pings += 1;
  if (!send({ type: "ping", id: pings })) return;
  const id = pings;
  pongTimer = setTimeout(() => { if (pings === id) lost(); }, beat.wait * 1000);
}

function ponged(msg) {
  if (msg.id !== pings) return;
  clearTimeout(pongTimer);
  pongTimer = null;
  schedulePing();
}

window.addEventListener("offline", () => { if (online || ws) lost(); });
window.addEventListener("online", () => { if (!online && !fatal) { retry = 0; connect(); } });

function send(message) {
  if (!online || !ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(message));
  return true;
}

function setConn() {
  const el = $("conn");
  el.classList.toggle("down", !online);
  el.textContent = fatal ? t("web_not_connected") : online ? t("web_online") : t("web_reconnecting");
}

// A page that cannot play (a bad link, no link): say why and what to do, and stop.
export function showNotice(text) {
  fatal = true;
  const el = $("notice");
  el.hidden = false;
  el.innerHTML = `<p>${escapeHtml(text)}</p><p><a href="/">${escapeHtml(t("web_to_lobby"))}</a></p>`;
  $("board").hidden = true;
  setConn();
}

const FATAL = { bad_token: "web_bad_link", no_table: "web_no_such_table" };

function onMessage(msg) {
  if (msg.type === "pong") {
    ponged(msg);
  } else if (msg.type === "elsewhere") {
    // Another server holds the table (or took it over): connect again, to its address.
    tableId = msg.table;
    retry = 0;
  } else if (msg.type === "welcome") {
    tableId = msg.table;
    levels = msg.levels || [];
    if (msg.ping) { beat = msg.ping; schedulePing(); }
  } else if (msg.type === "state") {
    if (msg.reset) { entries = []; $("log").textContent = ""; clearChat(); }
    const fresh = [];
    for (const entry of msg.log) {
      if (entry.kind === "chat" || entry.kind === "laughs") {
        chatLine(entry);
        if (entry.kind === "chat") continue;  // a laugh is in the game's log too
      }
      entries.push(entry);
      appendLog(entry);
      if (!msg.reset) fresh.push(entry);
    }
    noteMoves(msg.reset ? msg.log : fresh, !msg.reset);
    if (!frame || msg.v !== frame.v) { selected.clear(); lessonRefused = null; hint = null; hintWaiting = false; hintRefused = null; }
    const wasChoosing = frame !== null && frame.legal.length > 0;
    const wasOver = frame !== null && Boolean(frame.view && frame.view.over);
    if (wasOver && msg.deal !== frame.deal && !msg.reset) {
      // The next deal began: its settlement stays on this page unless its person went on.
      keptDeal = wentOn ? null : frame.deal;
      wentOn = false;
    }
    frame = msg;
    if (typeof msg.now === "number") clockSkew = msg.now - Date.now() / 1000;
    remember();
    deadline = msg.turn_deadline == null ? null : Date.now() + msg.turn_deadline * 1000;
    const w = msg.waiting_for;
    absent = w == null ? null : {
      seat: w.seat, left: Date.now() - w.away * 1000,
      standIn: w.stand_in == null ? null : Date.now() + w.stand_in * 1000,
    };
    if (pending) settlePending();
    render();
    const over = Boolean(frame.view && frame.view.over);
    if (!frame.lesson && ((frame.legal.length > 0 && !wasChoosing) || (over && !wasOver))) {
      requestAnimationFrame(revealTable);
    }
    if (over && !wasOver && !msg.reset) focusSettlement();
    // Hints on: on this seat's turn the hint comes by itself (once a version).
    if (canHint() && frame.view.to_move === frame.you && hintAsked !== frame.v) askHint();
  } else if (msg.type === "hint") {
    if (frame && msg.v === frame.v) {
      hint = msg;
      hintWaiting = false;
      render();
    }
  } else if (msg.type === "error") {
    if (Object.hasOwn(HINT_REFUSALS, msg.code)) {
      // Not waited for: the late answer to an ask the table's moving on made stale.
      if (!hintWaiting) return;
      hintWaiting = false;
      hintRefused = HINT_REFUSALS[msg.code];
      if (frame) render();
      return;
    }
    if (hintWaiting) { hintWaiting = false; if (frame) render(); }
    if (token && (FATAL[msg.code] || msg.code === "reissued")) forgetSeat(token);
    if (FATAL[msg.code] || ["taken_over", "reissued", "flooding"].includes(msg.code)) {
      showNotice(FATAL[msg.code] ? t(FATAL[msg.code]) : msg.message);
      ws.close();
      return;
    }
    if (msg.code === "lesson") {
      // The lesson's own sentence: which move it asks for (or to wait). Nothing changed.
      pending = null;
      lessonRefused = msg.message;
      if (frame) render();
      return;
    }
    if (msg.code === "stale" && pending) {
      pending = null;
      toast(t("web_changed_meanwhile"));
      if (frame) render();
      return;
    }
    if (msg.code === "stale") {
      // A hint asked as the table moved on (a bot's claim): the person chose nothing, so
      // nothing is said; the new version's frame asks by itself on this seat's turn.
      if (frame) render();
      return;
    }
    // The engine's own reason is in English; other languages get the catalog's sentence.
    toast(msg.detail && lang === "en" ? `${msg.message} (${msg.detail})` : msg.message);
  }
}

// A frame has come: the pending move was shown (the version moved on), or, just after a
// reconnection, it is sent again if it is still legal. An action once applied is never
// legal again (its cards have moved), so sending it again cannot play it twice.
function settlePending() {
  if (resend) {
    resend = false;
    const id = actionId(pending.action);
    if (frame.legal.some((a) => actionId(a) === id)) {
      pending.v = frame.v;
      send({ type: "act", v: frame.v, action: pending.action });
      return;
    }
    if (!played(pending.action)) toast(t("web_changed_meanwhile"));
    pending = null;
  } else if (frame.v !== pending.v) {
    pending = null;
  }
}

// Whether this deal's log shows ``action`` made (by its seat, with its cards).
function played(action) {
  const cards = key(actionCards(action));
  return entries.some((e) => e.kind === "op" && e.deal === frame.deal && e.op && e.op.seat === action.seat
    && (action.type === "lie_down" ? e.op.kind === "lie_down" : key(e.op.cards || []) === cards));
}

// This browser remembers the seat while its table is still to be played (the front page
// offers the way back); a table over or closed is forgotten. A lesson is not remembered.
function remember() {
  if (!token || !frame || frame.you === null || frame.table.lesson) return;
  const table = frame.table;
  if (["over", "closed"].includes(table.status)) { forgetSeat(token); return; }
  rememberSeat({ token, table: table.id, seat: frame.you, title: table.title || null, rules: table.rules });
}

// Said once by the live region, with whatever else this task says (a move, a status).
function say(text) {
  if (!text) return;
  if (!toSay.length) queueMicrotask(() => { $("announce").textContent = toSay.join(" "); toSay = []; });
  toSay.push(text);
}

// -- what just happened -----------------------------------------------------------------

function noteMoves(list, live) {
  const start = list.map((e) => e.kind).lastIndexOf("header");
  const tail = start >= 0 ? list.slice(start) : list;
  const last = [...tail].reverse().find((e) => e.kind === "op" && e.op && e.op.seat !== null);
  if (last) lastMove = { text: last.text, cards: last.op.cards || [], seat: last.op.seat, kind: last.op.kind };
  else if (start >= 0) lastMove = null;
  if (!live) return;
  if (last) {
    flash = { ...lastMove, until: Date.now() + FLASH_MS };
    clearTimeout(noteMoves.timer);
    noteMoves.timer = setTimeout(() => { flash = null; if (frame) render(); }, FLASH_MS);
  }
  for (const entry of list) if (entry.kind === "laugh" || entry.kind === "laughs") laugh(entry.text);
  for (const entry of list) if (entry.kind === "laugh") mayLaugh(entry, frame);
  const said = list.filter((e) => ["op", "laugh", "laughs", "timer", "away", "winner", "tie"].includes(e.kind)).map((e) => e.text);
  for (const text of said) say(text);
}

// -- actions ----------------------------------------------------------------------------

const key = (cards) => [...cards].sort().join(" ");

function act(action) {
  if (!frame || fatal) return;
  wakeAudio();
  const move = pending = { v: frame.v, action: recordForm(action), slow: false };
  selected.clear();
  if (!send({ type: "act", v: frame.v, action: pending.action })) toast(t("web_offline_queued"));
  render();
  // Not shown within a second: the move's button says it was sent and waits for the table.
  setTimeout(() => { if (pending === move && frame) { move.slow = true; render(); } }, 1000);
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

const names = () => frame.table.names;
const kindOf = (i) => (frame.kinds || [])[i] ?? null;
const isOut = (view, seat) => view && seat !== null && view.statuses[seat] !== "playing" && !view.over;

// -- hints ------------------------------------------------------------------------------

// Whether this page's seat may ask for a hint now: hints on, a person's seat, a decision.
function canHint() {
  if (!frame || !frame.table.hints || frame.you === null || !frame.view || frame.view.over) return false;
  return frame.table.seats[frame.you].human && frame.legal.length > 0;
}

// The server's refusals of a hint that say "not now" rather than "never here", by the
// catalog key of their sentence (shown in the page's language, switched or not).
const HINT_REFUSALS = { busy: "web_error_hint_busy", hint_pending: "web_error_hint_pending",
  hint_failed: "web_error_hint_failed" };

function askHint() {
  if (!frame) return;
  hintAsked = frame.v;
  hintRefused = null;
  // Hints off, a spectator, nothing to decide: the server says so in words.
  if (send({ type: "hint", v: frame.v }) && canHint()) hintWaiting = !hint;
  render();
}

function renderHint() {
  const on = Boolean(frame.table.hints);
  $("hints-note").hidden = !on;
  $("hint").hidden = !canHint();
  $("hint").disabled = hintWaiting;
  const box = $("hint-text");
  const text = hint ? hint.text : hintWaiting ? t("web_hint_thinking") : hintRefused ? t(hintRefused) : "";
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("thinking", !hint && hintWaiting);
}

function render() {
  if (!frame) return;
  renderChat(frame);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  // Focus in the player's panel or the settlement: kept there when its button goes.
  const had = document.activeElement;
  const inPanel = Boolean(had && had !== document.body && ($("me").contains(had) || $("settlement").contains(had)));
  const view = frame.view;
  const table = frame.table;
  const me = frame.you;
  const mine = me !== null ? table.seats[me] : null;
  const n = table.seats.length;
  $("deal-info").textContent = view ? t("deal_of", { number: frame.deal + 1, deals: table.deals }) : "";
  $("pot-label").textContent = t("pot_line", { pot: minus(view ? view.pot : frame.session.pot) });
  $("pot-label").title = t("web_pot_help");
  const showFlash = flash && Date.now() < flash.until;

  // seats, clockwise from this page's seat
  const seats = $("seats");
  seats.textContent = "";
  const first = me ?? 0;
  for (let i = 0; i < n; i++) seats.append(seatBox((first + i) % n, view, table, showFlash));

  // the table's cards (what was just thrown down marked), and what just left it
  const usable = new Set(frame.legal.flatMap(actionCards));
  const hints = new Set();
  if (selected.size) {
    for (const a of frame.legal) {
      const cards = actionCards(a);
      if ([...selected].every((c) => cards.includes(c))) cards.forEach((c) => hints.add(c));
    }
  }
  // Card elements are kept while what they show is unchanged (keyed by card), so a click
  // is never lost to a frame that came between the press and the release.
  const tableEl = $("table");
  const onTable = view ? new Set(view.table) : new Set();
  const tableCodes = view ? sortCards(view.table) : [];
  const leavingKey = showFlash && ["capture", "sweep", "claim"].includes(flash.kind) && flash.cards.length
    ? flash.until : null;
  const tableLayout = JSON.stringify([tableCodes.map((c) => cardKey(c, usable)), leavingKey]);
  if (tableEl.dataset.layout !== tableLayout) {
    const old = cardsIn(tableEl);
    tableEl.textContent = "";
    tableEl.dataset.layout = tableLayout;
    for (const code of tableCodes) tableEl.append(old.get(cardKey(code, usable)) || card(code, usable));
    if (leavingKey !== null) {
      // The captured cards leave the table toward the seat that took them.
      const elapsed = FLASH_MS - (flash.until - Date.now());
      const leaving = document.createElement("div");
      leaving.className = "leaving";
      leaving.setAttribute("aria-hidden", "true");
      leaving.style.setProperty("--delay", `-${elapsed}ms`);
      for (const code of sortCards(flash.cards.filter((c) => !onTable.has(c)))) {
        const el = cardEl(code);
        el.classList.add("gone");
        leaving.append(el);
      }
      const to = document.createElement("span");
      to.className = "to";
      to.textContent = "→ " + names()[flash.seat];
      leaving.append(to);
      tableEl.append(leaving);
    }
  }
  for (const el of tableEl.querySelectorAll(":scope > .card")) {
    cardState(el, hints);
    el.classList.toggle("fresh", Boolean(showFlash && flash.cards.includes(el.dataset.card)));
  }
  const last = $("last-move");
  last.textContent = "";
  if (lastMove && view) {
    const label = document.createElement("b");
    label.textContent = t("web_last_move") + " ";
    last.append(label, document.createTextNode(lastMove.text));
    last.classList.toggle("fresh", Boolean(showFlash));
  }

  // this seat's hand, grouped by rank (its elements kept while it is unchanged)
  const hand = $("hand");
  const handCodes = view ? sortCards(view.hand) : [];
  const emptyHand = Boolean(view && me !== null && !view.hand.length);
  const handLayout = JSON.stringify([handCodes.map((c) => cardKey(c, usable)), emptyHand ? lang : null]);
  if (hand.dataset.layout !== handLayout) {
    const old = cardsIn(hand);
    hand.textContent = "";
    hand.dataset.layout = handLayout;
    const groups = new Map();
    for (const code of handCodes) {
      const r = rankOf(code);
      if (!groups.has(r)) groups.set(r, []);
      groups.get(r).push(code);
    }
    for (const codes of groups.values()) {
      const group = document.createElement("div");
      group.className = "group";
      for (const code of codes) group.append(old.get(cardKey(code, usable)) || card(code, usable));
      hand.append(group);
    }
    if (emptyHand) {
      const empty = document.createElement("p");
      empty.className = "empty-hand";
      empty.textContent = t("web_hand_empty");
      hand.append(empty);
    }
  }
  for (const el of hand.querySelectorAll(".card")) cardState(el, hints);
  hand.classList.toggle("empty", Boolean(view && !view.hand.length));
  $("h-hand").hidden = me === null;
  $("hand").hidden = me === null;

  renderMoves(view);
  const out = isOut(view, me);
  const playing = me !== null && mine.human && view && !view.over && !out;
  $("play-sel").disabled = !selectedAction();
  $("play-sel").hidden = !playing;
  $("clear-sel").hidden = !playing;
  $("next-deal").hidden = !frame.can_next;
  $("take").hidden = !(mine && !mine.human);
  // Nothing to leave at a table that is over or closed (no bot plays on there).
  $("leave").hidden = !(mine && mine.human && ["playing", "waiting"].includes(table.status)) || table.lesson;
  document.body.classList.toggle("offline", !online);
  $("practice").hidden = !table.practice;
  renderStatus();
  renderSettlement();
  renderLedger();
  renderLesson();
  renderHint();
  if (focused) {
    const again = document.querySelector(`[data-focus="${CSS.escape(focused)}"]`)
      || (focused.startsWith("move:") && document.querySelector("#moves button"));
    if (again) again.focus();
  }
  const active = document.activeElement;
  if ((inPanel && (!active || active === document.body)) || (active === $("status") && firstMove())) parkFocus();
  // For scripts and tests driving the page: what the page is showing now.
  Object.assign(document.body.dataset, {
    v: frame.v, toMove: view && view.to_move !== null ? view.to_move : "", over: view && view.over ? "1" : "0",
  });
}

// The legal actions in the order the page shows them, claims first (a claim must be made
// before the turn's move that would close its window); the keys follow this order.
function shownMoves() {
  const all = frame.legal.map((a, i) => [a, i]);
  return [...all.filter(([a]) => a.type === "claim"), ...all.filter(([a]) => a.type !== "claim")];
}

// The moves' buttons are kept while what they say is unchanged (keyed by what they show:
// the move, its place and key, its words and marks), so a click pressed before a frame
// and released after it still plays; the panel is redrawn only when a button changed.
function renderMoves(view) {
  const moves = $("moves");
  const order = shownMoves();
  const place = new Map(order.map(([, i], k) => [i, k]));
  const groups = [[t("web_claims_title"), order.filter(([a]) => a.type === "claim"), "claims"],
    [t("web_turn_title"), order.filter(([a]) => a.type !== "claim"), "turn"]];
  const specs = [];
  for (const [title, list, cls] of groups) {
    if (!list.length) continue;
    // What a kind of move does is said once, above its buttons (each button points to it).
    const helps = new Map();
    const items = [];
    for (const [a, i] of list) {
      const help = moveHelp(a, kindOf(i));
      let id = null;
      if (help) {
        if (!helps.has(help)) {
          helps.set(help, `help-${cls}-${helps.size}`);
          items.push({ help, id: helps.get(help) });
        }
        id = helps.get(help);
      }
      const spec = moveSpec(a, i, place.get(i), view, id);
      items.push(spec);
    }
    specs.push({ title, cls, items });
  }
  const layout = JSON.stringify(specs, (k, v) => (k === "action" ? undefined : v));
  const old = new Map([...moves.querySelectorAll("button.move")].map((b) => [b.dataset.sig, b]));
  if (moves.dataset.layout !== layout) {
    moves.textContent = "";
    moves.dataset.layout = layout;
    for (const { title, cls, items } of specs) {
      const box = document.createElement("div");
      box.className = "move-group " + cls;
      box.setAttribute("role", "group");
      const h = document.createElement("p");
      h.className = "move-title";
      h.id = `moves-${cls}`;
      h.textContent = title;
      box.setAttribute("aria-labelledby", h.id);
      box.append(h);
      for (const item of items) {
        if (item.help !== undefined) {
          const p = document.createElement("p");
          p.className = "move-help";
          p.id = item.id;
          p.textContent = item.help;
          box.append(p);
        } else {
          box.append(old.get(item.sig) || moveButton(item));
        }
      }
      moves.append(box);
    }
  }
  // The action a button plays is this frame's (the same move, by its key).
  const bySig = new Map(specs.flatMap((g) => g.items).filter((x) => x.sig).map((x) => [x.sig, x.action]));
  for (const b of moves.querySelectorAll("button.move")) b.action = bySig.get(b.dataset.sig);
}

// Everything a move's button shows, and its key (``sig``) to keep the button by.
function moveSpec(a, i, position, view, helpId) {
  const kind = kindOf(i);
  const id = actionId(a);
  const marks = [];
  if (frame.lesson && frame.lesson.expected === i) marks.push(["lesson-move", "◀ " + t("lesson_mark")]);
  if (hint !== null && hint.index === i) marks.push(["hinted", "◀ " + t("hint_mark")]);
  const queued = Boolean(pending && actionId(pending.action) === id);
  // A move chosen that the table has not shown yet says so in words.
  const waiting = !queued ? null : !online ? t("web_move_waiting") : pending.slow ? t("web_move_sent") : null;
  const spec = { id, i, kind, type: a.type, cards: actionCards(a).join(" "), key: keyOf(position),
    label: moveLabel(a, kind, view ? view.hand : []), words: moveWords(a, kind, view ? view.hand : []),
    marks, queued, waiting, helpId };
  spec.sig = JSON.stringify(spec);
  spec.action = a;
  return spec;
}

function moveButton(spec) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "move" + (spec.type === "claim" ? " claim" : " turn");
  Object.assign(b.dataset, { index: spec.i, kind: spec.type, cards: spec.cards, focus: "move:" + spec.id, sig: spec.sig });
  if (spec.kind) b.dataset.what = spec.kind;
  if (spec.queued) b.classList.add("queued");
  if (spec.key) {
    // The key is said apart (aria-keyshortcuts), not run into the card: "4", then
    // "5 of spades takes 5 of hearts", not "45♠ takes 5♥".
    const kbd = document.createElement("kbd");
    kbd.textContent = spec.key;
    kbd.setAttribute("aria-hidden", "true");
    b.append(kbd);
    b.setAttribute("aria-keyshortcuts", spec.key);
  }
  const label = document.createElement("span");
  label.className = "what";
  label.textContent = spec.label;
  b.append(label);
  // The lesson's move and the hint's are marked in words as well as in colour.
  for (const [cls, words] of spec.marks) {
    b.classList.add(cls);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = words;
    b.append(mark);
  }
  if (spec.waiting) {
    const note = document.createElement("span");
    note.className = "waiting";
    note.textContent = spec.waiting;
    b.append(note);
  }
  b.setAttribute("aria-label", [spec.words, ...spec.marks.map(([, words]) => words), spec.waiting].filter(Boolean).join(" "));
  if (spec.helpId) b.setAttribute("aria-describedby", spec.helpId);
  b.addEventListener("click", () => { if (b.action) act(b.action); });
  return b;
}

// A card's key: the card, and whether it may be picked (a button) or not.
const cardKey = (code, usable) => code + (usable.has(code) ? "+" : "");

// The card elements inside ``box``, by their key, to be kept by the next drawing.
function cardsIn(box) {
  return new Map([...box.querySelectorAll(".card[data-card]")].filter((el) => !el.closest(".leaving"))
    .map((el) => [el.dataset.card + (el.tagName === "BUTTON" ? "+" : ""), el]));
}

function card(code, usable) {
  const el = cardEl(code, { selectable: usable.has(code) });
  if (usable.has(code)) {
    el.dataset.focus = "card:" + code;
    el.addEventListener("click", () => toggle(code));
  }
  return el;
}

// What a kept card shows now: picked, or one that goes with the cards picked.
function cardState(el, hints) {
  const code = el.dataset.card;
  const picked = selected.has(code);
  if (el.tagName === "BUTTON") el.setAttribute("aria-pressed", picked ? "true" : "false");
  el.classList.toggle("selected", picked);
  el.classList.toggle("hint", !picked && hints.has(code));
}

function seatBox(s, view, table, showFlash) {
  const info = table.seats[s];
  const box = document.createElement("div");
  box.className = "seat";
  box.dataset.seat = s;
  if (s === frame.you) box.classList.add("me");
  if (view && view.to_move === s && !view.over) box.classList.add("to-move");
  if (view && view.statuses[s] !== "playing") box.classList.add("out");
  if (showFlash && flash.seat === s) box.classList.add("acted");
  const name = document.createElement("div");
  name.className = "name";
  const dot = document.createElement("span");
  const on = info.online || !info.human;
  dot.className = "dot" + (on ? " on" : "");
  dot.title = on ? t("web_seat_online") : t("web_seat_offline");
  const text = document.createElement("span");
  text.className = "nm";
  text.textContent = names()[s];
  text.title = names()[s];
  name.append(dot, text);
  const badges = [];
  if (view && view.dealer === s) badges.push([t("web_dealer"), ""]);
  if (view && view.eldest === s) badges.push([t("web_eldest"), ""]);
  if (view && view.to_move === s && !view.over) badges.push([t("web_to_move_mark"), "turn"]);
  for (const [label, cls] of badges) {
    const b = document.createElement("span");
    b.className = "badge " + cls;
    b.textContent = label;
    name.append(b);
  }
  if (!info.human) {
    const b = document.createElement("span");
    b.className = "badge bot";
    if (table.lesson) {
      b.textContent = t("web_bot");  // the lesson's players follow its script: no level
    } else {
      b.title = levelName(info.level, true);
      b.innerHTML = `${escapeHtml(t("web_bot"))}<span class="lvl"> · ${escapeHtml(levelName(info.level))}</span>`;
    }
    name.append(b);
  }
  box.append(name);
  if (view) {
    const facts = document.createElement("div");
    facts.className = "facts";
    const fact = (label, value, title) => {
      const f = document.createElement("span");
      f.textContent = `${label} ${value}`;
      if (title) f.title = title;
      facts.append(f);
    };
    fact(t("web_in_hand"), view.hand_sizes[s]);
    fact(t("web_won"), view.won_sizes[s]);
    fact(t("web_balance"), signed(view.balances[s]), t("web_balance_help"));
    // The last with cards is out of cards too once the deal is over (the dealer took them).
    const result = view.over ? frame.session.results[frame.deal] : null;
    const st = result && result.survivor === s ? "survivor" : view.statuses[s];
    if (st !== "playing") {
      const status = document.createElement("span");
      status.className = "st";
      status.textContent = t("web_status_" + st);
      facts.append(status);
    }
    box.append(facts);
    if (s !== frame.you) {
      const mini = document.createElement("div");
      mini.className = "minihand";
      mini.setAttribute("aria-hidden", "true");
      for (let i = 0; i < view.hand_sizes[s]; i++) mini.append(backEl());
      box.append(mini);
    }
  }
  return box;
}

// The status line. It is not a live region itself (it is drawn again at every frame and
// every half second of a countdown): what is new in it, by key, is said once by #announce.
function renderStatus() {
  const el = $("status");
  if (fatal) return;
  const view = frame.view;
  const table = frame.table;
  const me = frame.you;
  const parts = [];  // [key to say it once by, or null: not said aloud; text]
  if (!online) parts.push(["offline", t("web_offline_status")]);
  if (pending && !online) parts.push(["queued", t("web_offline_queued")]);
  if (me === null) parts.push(["spectating", t("web_spectating")]);
  else if (!table.seats[me].human) parts.push(["bot", t("web_bot_plays")]);
  if (table.status === "waiting") {
    const waiting = table.seats.filter((s) => s.human && !s.joined).map((s) => table.names[s.seat]);
    parts.push(["waiting:" + waiting.join(","), t("web_waiting", { names: waiting.join(", ") })]);
  } else if (table.status === "over") {
    parts.push(["over", t(table.lesson ? "web_deal_over" : "web_session_over")]);
  } else if (table.status === "closed") {
    parts.push(["closed", t("web_table_closed")]);
  } else if (view && view.over) {
    parts.push(["deal_over:" + frame.deal, t("web_deal_over")]);
  } else if (view) {
    if (isOut(view, me)) {
      parts.push(["out:" + frame.deal, t(view.statuses[me] === "lain_down" ? "web_out_lain_down" : "web_out_empty")]);
      if (frame.legal.length) parts.push(["may_claim", t("web_out_may_claim")]);
    }
    const mover = view.to_move;
    const standIn = mover !== me && (frame.stand_ins || []).includes(mover);
    const away = absent && absent.seat === mover;
    // A name once: whoever is away says so with their name, and that they are to move.
    if (mover === me) parts.push(["turn", t("web_your_turn")]);
    else if (standIn) parts.push([null, t("web_turn_of_stand_in", { name: table.names[mover] })]);
    else if (!away) parts.push([null, t("web_turn_of", { name: table.names[mover] })]);
    if (deadline !== null) {
      const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      parts.push([null, countText(t, "web_seconds_left", seconds, { seconds })]);
    }
    parts.push(...absence(table, mover).map((text) => [null, text]));
  }
  el.textContent = parts.map(([, text]) => text).join(" ");
  el.classList.toggle("mine", Boolean(view && view.to_move === me && !view.over));
  // The bots' countdown at a public table waiting for people, and what happens then.
  const note = $("fill-note");
  const fill = table.status === "waiting" && table.fill_at ? Math.round(table.fill_at - (Date.now() / 1000 + clockSkew)) : null;
  note.hidden = fill === null;
  if (fill !== null) {
    note.textContent = fill > 0 ? t("web_fill_note", { count: fill }) : t("web_fill_now");
    parts.push([fill > 0 ? "fill" : "fill_now", note.textContent]);
  }
  const keys = new Set(parts.map(([key]) => key).filter(Boolean));
  for (const [key, text] of parts) if (key && !statusSaid.has(key)) say(text);
  statusSaid = keys;
}

// Whom the table waits for, gone without Leave, for how long and until their bot plays;
// and for whom a bot plays until they are back (the seat to move is said by the status).
function absence(table, mover) {
  const out = [];
  if (absent && absent.seat === mover) {
    const name = table.names[mover];
    const gone = Math.max(0, Math.floor((Date.now() - absent.left) / 1000));
    const since = `${Math.floor(gone / 60)}:${String(gone % 60).padStart(2, "0")}`;
    if (absent.standIn === null) out.push(t("web_away_waiting_alone", { name, gone: since }));
    else {
      const seconds = Math.max(0, Math.ceil((absent.standIn - Date.now()) / 1000));
      out.push(t("web_away_waiting", { name, gone: since, seconds }));
    }
  }
  for (const seat of frame.stand_ins || []) {
    if (seat !== frame.you && seat !== mover) out.push(t("web_away_stand_in", { name: table.names[seat] }));
  }
  return out;
}

// The first move offered, if any (a claim before the turn's moves, as shown).
const firstMove = () => document.querySelector("#moves button.move");

// The focus's place once the button it was on is gone (a move made, Next deal pressed):
// the first move offered, else the status line, which says what the table waits for.
function parkFocus() {
  const move = firstMove();
  if (move) { move.focus({ preventScroll: true }); return; }
  const status = $("status");
  status.tabIndex = -1;
  status.focus({ preventScroll: true });
}

// The deal is over: Next deal takes the focus (it reads the settlement's heading and pot
// as its description), or the settlement's heading where there is no next deal; unless
// the person is elsewhere (the chat, the log).
function focusSettlement() {
  const active = document.activeElement;
  if (active && active !== document.body && !$("me").contains(active) && !$("settlement").contains(active)) return;
  const next = $("next-deal");
  if (frame.can_next && !next.hidden) {
    next.setAttribute("aria-describedby", "h-settlement settle-pot");
    next.focus({ preventScroll: true });
  } else if ($("h-settlement")) {
    $("h-settlement").focus({ preventScroll: true });
  }
}

// The deal's settlement: one row per player, one number per column, then the narration.
// After another person began the next deal, the finished deal's settlement stays until
// this page's person closes it (its balances those the deal left), saying the next began.
function renderSettlement() {
  const el = $("settlement");
  const view = frame.view;
  const over = Boolean(view && view.over && frame.session.results[frame.deal]);
  if (over || keptDeal === frame.deal) keptDeal = null;
  const deal = over ? frame.deal : keptDeal;
  const result = deal === null ? null : frame.session.results[deal];
  if (!result) { el.hidden = true; keptDeal = null; settlementHtml = null; return; }
  const balances = over ? view.balances : frame.session.results.slice(0, deal + 1)
    .reduce((sum, r) => sum.map((b, s) => b + r.chips[s]), result.chips.map(() => 0));
  const nm = names();
  if (el.hidden) $("laugh").hidden = true;  // a laugh that came with the deal's end covered its heading
  el.hidden = false;
  let html = `<h2 id="h-settlement" tabindex="-1">${escapeHtml(t("web_settlement"))} · ${escapeHtml(t("deal_of", { number: deal + 1, deals: frame.table.deals }))}</h2>`;
  if (!over) {
    html += `<p class="kept" role="status">${escapeHtml(t("web_settlement_kept"))}</p>`
      + `<p><button id="settle-close" type="button">${escapeHtml(t("web_settlement_close"))}</button></p>`;
  }
  const chips = result.pairs !== null && result.pairs !== undefined;
  html += `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(t("web_settlement"))}"><table class="settle"><thead><tr><th scope="col">${escapeHtml(t("web_player"))}</th>`
    + `<th scope="col">${escapeHtml(t("web_cards_won"))}</th>`;
  if (chips) {
    html += `<th scope="col">${escapeHtml(t("web_col_pairs"))}</th><th scope="col">${escapeHtml(t("web_col_prize"))}</th>`
      + `<th scope="col">${escapeHtml(t("web_col_antes"))}</th><th scope="col">${escapeHtml(t("web_col_deal"))}</th>`
      + `<th scope="col">${escapeHtml(t("web_balance"))}</th>`;
  }
  html += `</tr></thead><tbody>`;
  for (let s = 0; s < nm.length; s++) {
    const best = result.winners.includes(s) && !chips;
    html += `<tr${best ? ' class="best"' : ""}><th scope="row" class="nm" title="${escapeHtml(nm[s])}">${escapeHtml(nm[s])}</th><td>${result.won[s]}</td>`;
    if (chips) {
      html += `<td>${signed(result.pairs[s])}</td><td>${result.prize_to === s ? signed(result.prize) : ""}</td>`
        + `<td>${signed(-result.antes[s])}</td><td><b>${signed(result.chips[s])}</b></td><td>${signed(balances[s])}</td>`;
    }
    html += `</tr>`;
  }
  html += `</tbody></table></div>`;
  // After the session's last deal the pot goes nowhere: it is not said to carry on.
  const last = frame.session.over && deal === frame.session.results.length - 1;
  if (chips) html += `<p class="small" id="settle-pot">${escapeHtml(t(last ? "web_settle_pot_last" : "web_settle_pot", { pot: minus(result.pot_after) }))}</p>`;
  const lines = entries.filter((e) => e.deal === deal && e.kind === "settle").flatMap((e) => e.lines || [e.text]);
  if (lines.length) {
    // In the lesson the counting is part of what is taught: shown open.
    html += `<details${frame.table.lesson ? " open" : ""}><summary>${escapeHtml(t("web_settle_how"))}</summary>`
      + lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") + `</details>`;
  }
  for (const e of entries.filter((x) => x.deal === deal && (x.kind === "winner" || x.kind === "tie"))) {
    html += `<p class="winner">${escapeHtml(e.text)}</p>`;
  }
  html += `<p><a href="/api/tables/${frame.table.id}/deals/${deal}/record" download>${escapeHtml(t("web_download"))}</a> · `
    + `<a href="${replayLink(deal)}" target="_blank">${escapeHtml(t("web_replay"))}</a>`
    // The expert's review of this page's own play: the replay opened on it.
    + (frame.you !== null ? ` · <a class="review-mine" href="${replayLink(deal)}&review=1" target="_blank">${escapeHtml(t("web_review_mine"))}</a>` : "")
    + `</p>`;
  // Drawn again only when it changed: a kept settlement outlives many frames of the next
  // deal, and its Close button, its open details and its scroll are kept meanwhile.
  if (html === settlementHtml) return;
  settlementHtml = html;
  el.innerHTML = html;
  if (!over) $("settle-close").addEventListener("click", closeSettlement);
}
let settlementHtml = null;

// The person has read the settlement kept for them: it goes, and the focus goes to the
// moves (or the hand) of the deal now in play.
function closeSettlement() {
  keptDeal = null;
  render();
  const next = document.querySelector("#moves button.move, #hand button.card");
  if (next) next.focus({ preventScroll: true });
}

// The ledger: each finished deal's chips (antes included) and what it did to the pot; the
// deal in play so far (its antes); the last row is the balance now and the pot now, the
// same numbers as the seat boxes and the table's heading.
function renderLedger() {
  const el = $("ledger");
  const session = frame.session;
  const view = frame.view;
  const n = frame.table.seats.length;
  const nm = names();
  const cell = (v) => `<td>${signed(v)}</td>`;
  let html = `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(t("web_ledger"))}"><table class="ledger"><caption>${escapeHtml(t("web_ledger_help"))}</caption>`
    + `<thead><tr><th scope="col">${escapeHtml(t("web_deal"))}</th>`;
  for (let s = 0; s < n; s++) html += `<th scope="col" class="nm" title="${escapeHtml(nm[s])}"><span>${escapeHtml(nm[s])}</span></th>`;
  html += `<th scope="col">${escapeHtml(t("web_pot"))}</th></tr></thead><tbody>`;
  let pot = 0;
  for (const r of session.results) {
    html += `<tr><td>${r.deal + 1}</td>` + r.chips.map(cell).join("") + cell(r.pot_after - pot) + `</tr>`;
    pot = r.pot_after;
  }
  const balances = view ? view.balances : session.balances;
  const potNow = view ? view.pot : session.pot;
  if (view && !view.over) {
    html += `<tr class="now"><td>${frame.deal + 1} <small>${escapeHtml(t("web_so_far"))}</small></td>`
      + balances.map((b, s) => cell(b - session.balances[s])).join("") + cell(potNow - session.pot) + `</tr>`;
  }
  html += `<tr class="total"><th scope="row">${escapeHtml(t("web_balance"))}</th>` + balances.map((b) => `<th>${signed(b)}</th>`).join("")
    + `<th>${minus(potNow)}</th></tr></tbody></table></div>`;
  if (session.results.length) {
    // Each finished deal's record, to keep or to replay.
    html += `<p class="records">` + session.results.map((r) => `<span>${escapeHtml(t("web_deal"))} ${r.deal + 1}: `
      + `<a href="/api/tables/${frame.table.id}/deals/${r.deal}/record" download>${escapeHtml(t("web_download"))}</a> `
      + `<a href="${replayLink(r.deal)}" target="_blank">${escapeHtml(t("web_replay"))}</a></span>`).join(" · ") + `</p>`;
  }
  el.innerHTML = html;
}

// A finished deal in the replay viewer, with this page's seat chosen for the expert's review.
function replayLink(deal) {
  const seat = frame.you !== null ? `&seat=${frame.you}` : "";
  return `/replay#table=${encodeURIComponent(frame.table.id)}&deal=${deal}${seat}`;
}

// -- the lesson -------------------------------------------------------------------------

// The lesson's panel: the welcome (before the first move), the explanations that hold,
// the lesson's move, a refused move's sentence; Go on where play waits for the learner to
// read; after the deal, its settlement explained and a normal deal offered.
function renderLesson() {
  const lesson = frame.lesson;
  document.body.classList.toggle("learning", Boolean(frame.table.lesson));
  $("lesson").hidden = !lesson;
  const go = $("lesson-go-on");
  const held = Boolean(lesson && lesson.held);
  const wasHidden = go.hidden;
  go.hidden = !held;
  $("lesson-go-on-help").hidden = !held;
  if (held && wasHidden) go.focus();
  $("lesson-do").hidden = !(lesson && lesson.do);
  $("lesson-do").textContent = lesson && lesson.do ? lesson.do : "";
  $("lesson-refused").textContent = lessonRefused || "";
  $("lesson-refused").hidden = !lessonRefused;
  if (!lesson) return;
  const box = $("lesson-words");
  const said = [...lesson.welcome.map((w) => ["welcome", w]), ...lesson.told.map((w) => ["told", w]),
    ...lesson.end.map((w, i) => [i === lesson.end.length - 1 ? "next" : "end", w])];
  const key = JSON.stringify(said);
  if (box.dataset.key !== key) {  // redrawn only when the words change, so a reader is not interrupted
    const before = new Set([...box.children].map((p) => p.textContent));
    box.dataset.key = key;
    box.textContent = "";
    for (const [kind, words] of said) {
      const p = document.createElement("p");
      p.className = "lesson-" + kind;
      p.textContent = words;
      box.append(p);
    }
    if (said.some(([, words]) => !before.has(words))) showLesson();
  }
  $("lesson-play").hidden = !lesson.over;
  $("lesson-again").hidden = !lesson.over;
}

// New notes are read from their top: the lesson's panel is brought down below the header
// if the page had scrolled past it (to the moves, on a phone).
function showLesson() {
  const by = belowHeader($("lesson"));
  if (by < 0) scrollPage(by);
}

// How far an element's top is below the header stuck to the top (negative: under it).
function belowHeader(el) {
  return el.getBoundingClientRect().top - document.querySelector("header.bar").getBoundingClientRect().bottom - 4;
}

// The page scrolled by ``by`` pixels: smoothly, unless the person asked for less motion.
function scrollPage(by) {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: by, behavior: still ? "auto" : "smooth" });
}

function goOn() {
  if (frame && frame.lesson && frame.lesson.held) send({ type: "go_on" });
}

// After the lesson: a normal table with hints on, this person in seat 0 against the
// strongest bots the server offers (as the lesson's last words say).
async function playAfterLesson() {
  const level = STRONGEST.find((l) => levels.includes(l)) || levels[0];
  const seats = [0, 1, 2, 3, 4].map((s) => ({ human: s === 0, level }));
  let response;
  let data;
  try {
    response = await fetch("/api/tables", {
      method: "POST", headers: postHeaders(), body: JSON.stringify({ seats, hints: true }),
    });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) { toast(refusal(data)); return; }
  location.assign(data.seats[0].url);  // (another seat's link: the page reloads, below)
}

// /learn: open a lesson, then play it as this page's seat (a reload goes back to it).
async function openLesson() {
  $("status").textContent = t("web_lesson_opening");
  let response;
  let data;
  try {
    response = await fetch("/api/lessons", {
      method: "POST", headers: postHeaders(), body: "{}",
    });
    data = await response.json();
  } catch {
    showNotice(t("web_lesson_failed", { reason: t("web_server_unreachable") }));
    return;
  }
  if (!response.ok) { showNotice(data.code ? refusal(data) : t("web_lesson_failed", { reason: data.error })); return; }
  token = data.token;
  history.replaceState(null, "", "/play#t=" + token);
  connect();
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

// -- input ------------------------------------------------------------------------------

$("play-sel").addEventListener("click", () => { const a = selectedAction(); if (a) act(a); });
$("clear-sel").addEventListener("click", () => { selected.clear(); render(); });
$("next-deal").addEventListener("click", () => { wakeAudio(); wentOn = true; send({ type: "next_deal" }); });
$("take").addEventListener("click", () => send({ type: "take" }));
$("leave").addEventListener("click", () => send({ type: "leave" }));
$("lesson-go-on").addEventListener("click", goOn);
$("lesson-play").addEventListener("click", playAfterLesson);
$("hint").addEventListener("click", askHint);
// On a phone the hints note shows its first line only (the style sheet): a tap or Enter
// shows it whole, and again its first line.
function toggleNote(event) {
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  event.stopPropagation();
  $("hints-note").classList.toggle("open");
}
$("hints-note").addEventListener("click", toggleNote);
$("hints-note").addEventListener("keydown", toggleNote);
// Only where it is cut to its first line is the note a stop for the Tab key.
const compact = matchMedia("(max-width: 700px), (max-width: 959.98px) and (max-height: 520px)");
function noteFocus() {
  if (compact.matches) $("hints-note").tabIndex = 0;
  else $("hints-note").removeAttribute("tabindex");
}
compact.addEventListener("change", noteFocus);
noteFocus();

document.addEventListener("keydown", (event) => {
  if (!frame || fatal || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const index = moveOfKey(event.key);
  if (event.key === "?") {
    // The rules, one key away (in a tab of their own: the table stays as it is).
    event.preventDefault();
    window.open("/rules", "_blank");
  } else if (event.key === "Enter" && frame.lesson && frame.lesson.held
             && !(target instanceof HTMLAnchorElement) && !(target instanceof HTMLButtonElement)) {
    event.preventDefault();
    goOn();
  } else if (event.key === "h" || event.key === "H") {
    event.preventDefault();
    askHint();
  } else if ((event.key === "n" || event.key === "N") && frame.can_next) {
    event.preventDefault();
    wentOn = true;
    send({ type: "next_deal" });
  } else if (index >= 0 && index < frame.legal.length) {
    event.preventDefault();
    act(shownMoves()[index][0]);
  } else if (event.key === "Enter" && !(target instanceof HTMLButtonElement) && !(target instanceof HTMLAnchorElement)) {
    const a = selectedAction();
    if (a) { event.preventDefault(); act(a); }
  } else if (event.key === "Escape") {
    selected.clear();
    render();
  }
});
document.addEventListener("pointerdown", wakeAudio, { once: true });
setInterval(() => {
  if (frame && (deadline !== null || absent !== null || (frame.table.status === "waiting" && frame.table.fill_at))) renderStatus();
}, 500);

// In one column the player's panel sticks to the bottom of the screen and would cover the
// line saying what was last played (the table above it can be long): there the line heads
// the panel instead, just above "your turn".
const oneColumn = matchMedia("(max-width: 959.98px)");
function placeLastMove() {
  if (oneColumn.matches) $("me").prepend($("last-move"));
  else $("table").after($("last-move"));
}
oneColumn.addEventListener("change", placeLastMove);
placeLastMove();

// There the panel, holding the claims and the moves, can also cover the table's cards
// (a prial in hand on one's turn: three claims and eight moves on a phone). When a
// decision comes, the page scrolls (only if it must, and once) to put the cards just above
// the panel, as far as the table's heading can rise below the header. On a wide screen,
// where the panel is under the table (and under the settlement once the deal is over), it
// scrolls to bring the panel's end into sight: the last move offered, or Next deal. Not in
// the lesson, whose sentence at the top of the page is the thing to read.
function revealTable() {
  const cards = $("table").getBoundingClientRect();
  const panel = $("me").getBoundingClientRect();
  const wanted = oneColumn.matches ? cards.bottom - panel.top + 6  // the cards, out from under the panel
    : panel.bottom - innerHeight + 8;  // the panel's end, up from below the screen
  if (oneColumn.matches && panel.left >= cards.right) return;  // side by side
  const by = Math.min(wanted, belowHeader(document.querySelector(".table-panel")));
  if (by > 0) scrollPage(by);
}

// -- start ------------------------------------------------------------------------------

await Promise.all([loadCatalog(initialLang()), loadSession()]);
applyStatic();
initChat(send, params.get("host"), () => { if (frame) render(); });
$("lang-slot").append(langSelect((l) => {
  send({ type: "lang", lang: l });
  // The hint shown, in the new language (the server keeps it: no new work).
  if (hint && frame && hint.v === frame.v) send({ type: "hint", v: frame.v });
  setConn();
  if (frame) render();
}));
// A link pasted over this page's (another table, another seat) is that link's page.
window.addEventListener("hashchange", () => location.reload());
if (learning && !token) {
  openLesson();
} else if (!token && !watchId) {
  showNotice(t("web_no_link"));
} else {
  connect();
}
