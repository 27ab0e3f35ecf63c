// The replay viewer: the server replays a record through the engine; we step through it.
import { applyStatic, initialLang, lang, langSelect, loadCatalog, refusal, t } from "./i18n.js";
import { cardEl, sortCards } from "./cards.js";
import { $ } from "./dom.js";
import { loadSession, postHeaders } from "./session.js";

let data = null;
let at = 0;
let text = "";
let names = null;
// The expert's review of one seat's play, for a deal of a table: {seat, body} once made.
let review = null;
let asking = null;  // the seat whose review is being asked for
let tableId = null;
let dealNo = null;
let lessonNames = false;
// A table's deal: its chat lines and laughs, each with the number of actions before it.
let chat = [];

function fail(message) {
  $("load-error").textContent = message;
  if (message) $("loader").hidden = false;
}

async function load() {
  if (!text.trim()) { fail(t("web_replay_empty")); return; }
  const query = new URLSearchParams({ lang });
  if (lessonNames) names = t("default_names").split(",").map((n) => n.trim());
  for (const name of names || []) query.append("name", name || "");
  let response;
  let body;
  try {
    response = await fetch(`/api/replay?${query}`, { method: "POST", headers: postHeaders("text/plain"), body: text });
    body = await response.json();
  } catch {
    fail(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) {
    // The reader's reason is in English: other languages get the page's own sentence.
    if (lang === "en" || !body.code) fail(t("web_replay_bad", { reason: body.error }));
    else fail(body.code === "record_move" ? t("web_replay_bad_move", body) : t("web_replay_unreadable"));
    return;
  }
  fail("");
  data = body;
  at = Math.min(at, data.steps.length - 1);
  $("viewer").hidden = false;
  if (tableId !== null) showReviewPanel();
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
    const st = step.survivor === s ? "survivor" : step.statuses[s];  // the last with cards, at the end
    if (st !== "playing") marks.push([t("web_status_" + st), ""]);
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
  drawChat();
  $("first").disabled = $("prev").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === last;
  drawStepReview();
}

// The chat said up to this step, as text (never read as markup).
function drawChat() {
  $("r-chat").hidden = !chat.length;
  const box = $("r-chat-lines");
  box.textContent = "";
  for (const line of chat.filter((c) => c.after <= at)) {
    const p = document.createElement("p");
    if (line.kind === "laughs") {
      p.textContent = line.text;
    } else {
      const who = document.createElement("b");
      who.textContent = line.name;
      p.append(who, line.spectator ? ` (${t("web_spectator_mark")})` : "", ": ", line.text);
    }
    box.append(p);
  }
}

async function loadChat() {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/deals/${encodeURIComponent(dealNo)}/chat?lang=${lang}`);
    chat = response.ok ? await response.json() : [];
  } catch {
    chat = [];
  }
}

// -- the expert's review ------------------------------------------------------------------

function setState(words, bar = null) {
  $("review-state").textContent = words;
  const progress = $("review-bar");
  progress.hidden = bar === null;
  if (bar === null) return;
  if (bar.total) { progress.max = bar.total; progress.value = bar.done; } else progress.removeAttribute("value");
}

// Ask the server for seat's review until it is made (it queues it, then makes it).
async function askReview(seat) {
  asking = seat;
  review = null;
  $("review-body").hidden = true;
  drawStepReview();
  const url = `/api/tables/${encodeURIComponent(tableId)}/deals/${encodeURIComponent(dealNo)}/review?seat=${seat}&lang=${lang}`;
  setState(t("web_review_queued"), { done: 0, total: null });
  for (;;) {
    let response;
    let body;
    try {
      response = await fetch(url);
      body = await response.json();
    } catch {
      if (asking === seat) setState(t("web_server_unreachable"));
      asking = null;
      return;
    }
    if (asking !== seat) return;  // another seat was asked for meanwhile
    if (response.status === 200) {
      asking = null;
      setState("");
      review = { seat, body };
      drawReview();
      return;
    }
    if (response.status === 202) {
      if (body.status === "working" && body.total) {
        setState(t("review_progress", { done: body.done, total: body.total }), body);
      } else {
        setState(t(body.status === "working" ? "review_working" : "web_review_queued"), { done: 0, total: null });
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
      continue;
    }
    asking = null;
    setState(body.busy ? t("web_review_busy") : body.code ? refusal(body) : t("review_failed", { reason: body.error }));
    return;
  }
}

// One decision as a person reads it: what happened and what would have been better first,
// then the numbers, in words; badges that say what they mean (the verdict, the costliest).
function decisionEl(d, words, withShow) {
  const li = document.createElement("li");
  li.className = "decision " + d.verdict + (words.rank ? " costly" : "");
  li.dataset.at = d.at;
  const head = document.createElement("p");
  head.className = "head";
  const title = document.createElement("b");
  title.textContent = words.heading;
  head.append(title);
  for (const [label, cls] of [[words.badge, "verdict " + d.verdict], [words.rank, "costly"]]) {
    if (!label) continue;
    const badge = document.createElement("span");
    badge.className = "badge " + cls;
    badge.textContent = label;
    head.append(" ", badge);
  }
  li.append(head);
  if (words.sentence) {
    const p = document.createElement("p");
    p.className = "sentence";
    p.textContent = words.sentence;
    li.append(p);
  }
  if (words.numbers.length) {
    const ul = document.createElement("ul");
    ul.className = "options";
    for (const line of words.numbers) {
      const item = document.createElement("li");
      item.textContent = line;
      ul.append(item);
    }
    li.append(ul);
  }
  if (withShow) {
    const show = document.createElement("button");
    show.type = "button";
    show.className = "show";
    show.textContent = t("web_review_show");
    show.addEventListener("click", () => {
      go(d.at);
      // The move on show, where the viewer is (above the review on a phone).
      const step = $("step");
      const box = step.getBoundingClientRect();
      if (box.top < 0 || box.bottom > innerHeight) step.scrollIntoView({ block: "start" });
      step.focus({ preventScroll: true });
    });
    li.append(show);
  }
  return li;
}

// The whole review: its heading, every decision (the costliest marked), the summary.
function drawReview() {
  if (!review) return;
  const body = review.body;
  $("review-body").hidden = false;
  $("review-heading").textContent = body.text.title;
  $("review-lead").textContent = body.text.person.lead;
  $("review-unit").textContent = body.text.person.unit;
  $("review-note").textContent = body.text.note || "";
  $("review-note").hidden = !body.text.note;
  const list = $("review-decisions");
  list.textContent = "";
  body.decisions.forEach((d, i) => list.append(decisionEl(d, body.text.person.decisions[i], true)));
  const summary = $("review-summary");
  summary.textContent = "";
  const h = document.createElement("h3");
  h.textContent = t("review_summary");
  summary.append(h);
  for (const line of body.text.person.summary) {
    const p = document.createElement("p");
    p.textContent = line;
    summary.append(p);
  }
  drawStepReview();
}

// Beside the move on show: what the expert thought of the decisions made at this step.
function drawStepReview() {
  const box = $("r-review");
  box.textContent = "";
  const here = review ? review.body.decisions.map((d, i) => [d, i]).filter(([d]) => d.at === at) : [];
  box.hidden = !here.length;
  for (const li of $("review-decisions").children) li.classList.toggle("current", Number(li.dataset.at) === at);
  if (!here.length) return;
  const title = document.createElement("p");
  title.className = "title";
  title.textContent = t("web_review_here");
  const list = document.createElement("ul");
  for (const [d, i] of here) {
    list.append(decisionEl(d, review.body.text.person.decisions[i], false));
  }
  box.append(title, list);
}

function showReviewPanel() {
  const select = $("review-seat");
  const chosen = select.value !== "" ? select.value : seatParam;
  select.textContent = "";
  data.names.forEach((name, s) => select.append(new Option(name, String(s))));
  select.value = String(chosen !== null && Number(chosen) < data.names.length ? chosen : 0);
  $("review").hidden = false;
}

function go(i) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, i));
  draw();
}

$("load").addEventListener("click", () => { text = $("record").value; at = 0; names = null; lessonNames = false; load(); });
$("review-start").addEventListener("click", () => askReview(Number($("review-seat").value)));
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) { text = await file.text(); $("record").value = text; at = 0; names = null; lessonNames = false; load(); }
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowRight") go(at + 1);
  else if (event.key === "ArrowLeft") go(at - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(Infinity);
});

await Promise.all([loadCatalog(initialLang()), loadSession()]);
applyStatic();
// Until its sentences have come, the loader waits (a click would have shown a bare key).
$("load").disabled = $("file").disabled = false;
$("lang-slot").append(langSelect(async () => {
  if (tableId !== null) await loadChat();
  if (data) load();
  // The review again in the new language (the server keeps it: it comes at once).
  if (review && asking === null) askReview(review.seat);
}));
// Another deal's link pasted over this page's: that deal's page.
window.addEventListener("hashchange", () => location.reload());
const params = new URLSearchParams(location.hash.slice(1));
const deal = params.get("deal");
// The seat this page's person played, if they came from their table: their review is offered first.
const seatParam = /^\d$/.test(params.get("seat") || "") ? params.get("seat") : null;
if (params.get("table") && deal !== null) {
  tableId = params.get("table");
  dealNo = deal;
  // A deal of a table: its players' names and its record, straight to the viewer.
  $("loader").hidden = true;
  const [summary, record] = await Promise.all([
    fetch(`/api/tables/${encodeURIComponent(tableId)}`), fetch(`/api/tables/${encodeURIComponent(tableId)}/deals/${encodeURIComponent(deal)}/record`),
  ]);
  if (summary.ok) {
    const found = await summary.json();
    // A lesson's players have the catalog's names, as at its table (in the page's language).
    lessonNames = Boolean(found.lesson);
    names = found.seats.map((s) => s.name);
  }
  if (record.ok) {
    text = await record.text();
    await loadChat();
    await load();
    // Opened from the settlement's "Review my play": the review first, made at once.
    if (params.get("review") === "1" && seatParam !== null && data) {
      $("viewer").before($("review"));
      $("h-review").tabIndex = -1;
      $("h-review").focus();
      askReview(Number(seatParam));
    }
  }
  else fail(refusal(await record.json()));
}
