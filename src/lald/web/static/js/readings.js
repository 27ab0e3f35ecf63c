// The readings laboratory in the browser (lald.web.readings): two readings of the rules
// compared on the same deals by the server, the figures filling in as the deals are
// played, then the report with its tables and plots; a link to it (#r=ID) and a practice
// table under either reading.
import { applyStatic, initialLang, langSelect, levelName, loadCatalog, refusal, t } from "./i18n.js";
import { $, toast } from "./dom.js";
import { loadSession, postHeaders } from "./session.js";

const PRESETS = ["survivor", "last-capture"];
const VARIANTS = ["modern-laugh", "low-stakes", "silent"];
const LEVELS = ["random", "heuristic", "expert"];
const MOST = { random: 4000, heuristic: 2000, expert: 200 };
// The figures the page fills in, in the order shown (lald.web.readings.work.BRIEF).
const FIGURES = ["turns", "lie_downs", "survivor_last", "residue", "sweep", "hand_set", "dealer_chips", "balance"];
const SHARES = new Set(["survivor_last"]);
// The laboratory's refusals, by code: the sentence in the page's language.
const LAB_REFUSALS = {
  lab_busy: "web_lab_refused_busy", lab_hourly: "web_lab_refused_hourly", lab_time: "web_lab_refused_time",
  lab_failed: "web_lab_refused_failed", lab_stopped: "web_lab_refused_stopped", no_comparison: "web_lab_refused_missing",
};
const POLL_MS = 700;

let shown = null; // the comparison on the page (its last answer)
let polling = null;

function labRefusal(body) {
  const key = body && Object.hasOwn(LAB_REFUSALS, body.code) ? LAB_REFUSALS[body.code] : null;
  if (key) return t(key, body);
  if (body && body.code === "lab_request") return t("web_lab_refused_request", { detail: body.detail });
  return refusal(body);
}

// -- the form -------------------------------------------------------------------------------

function readingControls(fieldset) {
  const side = fieldset.dataset.side;
  for (const el of fieldset.querySelectorAll(":scope > :not(legend)")) el.remove();
  const preset = document.createElement("select");
  preset.name = `${side}-preset`;
  for (const p of PRESETS) preset.append(new Option(t(`web_preset_${p.replace("-", "_")}`), p));
  preset.value = side === "a" ? "survivor" : "last-capture";
  const players = document.createElement("select");
  players.name = `${side}-players`;
  for (const n of [5, 4, 3]) players.append(new Option(String(n), String(n)));
  const variants = document.createElement("div");
  variants.className = "lab-variants";
  for (const v of VARIANTS) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = `${side}-variant`;
    box.value = v;
    label.append(box, " ", t(`web_variant_${v.replace("-", "_")}`));
    variants.append(label);
  }
  const options = document.createElement("input");
  options.type = "text";
  options.name = `${side}-options`;
  options.placeholder = "prize=7 pair_on_pair=off";
  options.setAttribute("aria-describedby", `${side}-options-hint`);
  const hint = document.createElement("small");
  hint.id = `${side}-options-hint`;
  hint.textContent = t("web_lab_options_hint");
  fieldset.append(labelled("web_preset", preset), labelled("web_players", players), variants,
    labelled("web_lab_options", options), hint);
}

function labelled(key, control) {
  const label = document.createElement("label");
  const span = document.createElement("span");
  span.textContent = t(key);
  label.append(span, " ", control);
  return label;
}

// A reading in lald's notation: PRESET[+VARIANT...][:OPTION=VALUE...][/PLAYERS].
function readingOf(side) {
  const form = $("lab-form");
  let text = form.elements[`${side}-preset`].value;
  for (const box of form.querySelectorAll(`input[name=${side}-variant]:checked`)) text += `+${box.value}`;
  for (const option of form.elements[`${side}-options`].value.split(/[\s,;:]+/).filter(Boolean)) text += `:${option}`;
  const players = form.elements[`${side}-players`].value;
  return players === "5" ? text : `${text}/${players}`;
}

function levelControls() {
  const select = $("lab-players");
  const chosen = select.value || "heuristic";
  select.textContent = "";
  for (const level of LEVELS) select.append(new Option(levelName(level, true), level, false, level === chosen));
  $("lab-deals").max = String(MOST[select.value]);
}

async function compare(event) {
  event.preventDefault();
  const players = $("lab-players").value;
  ask({ a: readingOf("a"), b: readingOf("b"), players, deals: Number($("lab-deals").value),
    seed: Number($("lab-seed").value) });
}

// A comparison asked of the server: the same request is the same comparison, made once.
async function ask(body) {
  let response;
  let data;
  try {
    response = await fetch("/api/readings", { method: "POST", headers: postHeaders(), body: JSON.stringify(body) });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) {
    say(labRefusal(data), true);
    return;
  }
  if (location.hash.slice(1) !== linkOf(data.request)) history.pushState(null, "", `#${linkOf(data.request)}`);
  show(data);
}

// -- the comparison -------------------------------------------------------------------------

function say(text, error = false) {
  const status = $("lab-status");
  $("lab-result").hidden = false;
  status.textContent = text;
  status.classList.toggle("error", error);
  if (error) toast(text);
}

function estimate(e, share, signed = false) {
  if (!e || e.mean === null || e.mean === undefined) return "–";
  const f = (x) => {
    const v = share ? 100 * x : x;
    const text = v.toFixed(share ? 1 : 2) + (share ? "%" : "");
    return signed && v >= 0 ? `+${text}` : text.replace("-", "\u2212");
  };
  if (e.low === null || e.high === null || e.low === undefined) return f(e.mean);
  return `${f(e.mean)} [${f(e.low)}, ${f(e.high)}]`;
}

function figures(data) {
  const table = $("lab-figures");
  const brief = data.brief;
  const head = table.querySelector("thead");
  const body = table.querySelector("tbody");
  head.textContent = "";
  body.textContent = "";
  if (!brief) return;
  const readings = brief.readings;
  const tr = document.createElement("tr");
  const names = readings.map((r) => r.reading);
  const against = t("web_lab_difference", { a: names[0], b: names[names.length - 1] });
  for (const text of [t("web_lab_figure"), ...names, against]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    tr.append(th);
  }
  head.append(tr);
  const differences = Object.fromEntries(brief.differences.map((d) => [d.measure, d]));
  for (const key of FIGURES) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`web_lab_measure_${key}`);
    row.append(th);
    for (const r of readings) {
      const td = document.createElement("td");
      td.textContent = estimate(r.figures[key], SHARES.has(key));
      row.append(td);
    }
    const d = differences[key];
    const td = document.createElement("td");
    td.textContent = d ? estimate(d, SHARES.has(key), true) + (d.real ? " *" : "") : "–";
    row.append(td);
    body.append(row);
  }
  const deals = readings.map((r) => r.deals).join(" / ");
  $("lab-figures-caption").textContent = t("web_lab_figures_caption", { deals });
}

// Inline text of the report: `code` and *italics*, as the command's report writes them.
function inline(parent, text) {
  String(text).split("`").forEach((part, i) => {
    if (i % 2) {
      const code = document.createElement("code");
      code.textContent = part;
      parent.append(code);
      return;
    }
    part.split("*").forEach((bit, j) => {
      if (j % 2) {
        const em = document.createElement("em");
        em.textContent = bit;
        parent.append(em);
      } else if (bit) parent.append(bit);
    });
  });
}

function report(blocks) {
  const root = $("lab-report");
  root.textContent = "";
  if (!blocks) return;
  const note = document.createElement("p");
  note.className = "lab-note";
  note.textContent = t("web_lab_report_note");
  root.append(note);
  for (const b of blocks) {
    let el;
    if (b.kind === "h") {
      el = document.createElement(`h${Math.min(6, b.level + 2)}`);
      inline(el, b.text);
    } else if (b.kind === "p") {
      el = document.createElement("p");
      inline(el, b.text);
    } else if (b.kind === "list") {
      el = document.createElement("ul");
      for (const item of b.items) {
        const li = document.createElement("li");
        inline(li, item);
        el.append(li);
      }
    } else if (b.kind === "table") {
      el = document.createElement("div");
      el.className = "scroll";
      const table = document.createElement("table");
      table.className = "board";
      const tr = document.createElement("tr");
      for (const h of b.head) { const th = document.createElement("th"); inline(th, h); tr.append(th); }
      const thead = document.createElement("thead");
      thead.append(tr);
      const tbody = document.createElement("tbody");
      for (const row of b.rows) {
        const r = document.createElement("tr");
        for (const c of row) { const td = document.createElement("td"); inline(td, c); r.append(td); }
        tbody.append(r);
      }
      table.append(thead, tbody);
      el.append(table);
    } else if (b.kind === "img") {
      el = document.createElement("figure");
      const img = document.createElement("img");
      img.src = b.src;
      img.alt = b.caption;
      img.className = "lab-plot";
      const caption = document.createElement("figcaption");
      caption.textContent = b.caption;
      el.append(img, caption);
    }
    if (el) root.append(el);
  }
}

function show(data) {
  shown = data;
  $("lab-result").hidden = false;
  const req = data.request;
  $("lab-asked").textContent = t("web_lab_asked", { a: req.a, b: req.b, players: levelName(req.players, true),
    deals: req.deals, seed: req.seed });
  $("lab-link").href = `/readings#${linkOf(req)}`;
  for (const [i, side] of ["a", "b"].entries()) {
    const button = $(`lab-play-${side}`);
    button.textContent = t("web_lab_play", { reading: req[side] });
    button.onclick = () => play(req.rules[i]);
  }
  const progress = $("lab-progress");
  progress.max = data.total;
  progress.value = data.done;
  if (data.status === "queued") say(t("web_lab_queued", { ahead: data.ahead }));
  else if (data.status === "running") {
    say(data.done >= data.total ? t("web_lab_drawing") : t("web_lab_running", { done: data.done, total: data.total }));
  } else if (data.status === "done") say(t("web_lab_done", { deals: req.deals }));
  else say(labRefusal({ code: data.code, error: data.error }), true);
  figures(data);
  report(data.status === "done" ? data.report : null);
  clearTimeout(polling);
  const asked = { a: req.a, b: req.b, players: req.players, deals: req.deals, seed: req.seed };
  if (data.status === "queued" || data.status === "running") polling = setTimeout(() => follow(req.id, asked), POLL_MS);
}

// A comparison's link: its id, and its request, so that a server that does not keep it (one
// restarted, or another of a site) is asked to make it again.
function linkOf(req) {
  const { id, a, b, players, deals, seed } = req;
  return new URLSearchParams({ r: id, a, b, players, deals, seed }).toString();
}

async function follow(id, request = null) {
  let response;
  let data;
  try {
    response = await fetch(`/api/readings/${encodeURIComponent(id)}`, { cache: "no-store" });
    data = await response.json();
  } catch {
    say(t("web_server_unreachable"), true);
    polling = setTimeout(() => follow(id), 4 * POLL_MS);
    return;
  }
  if (response.status === 404 && request) {
    ask(request);
    return;
  }
  if (!response.ok) {
    say(labRefusal(data), true);
    return;
  }
  show(data);
}

// "Play this reading": a practice table under the reading's rules, the visitor in seat 0 and
// the chosen bots in the others (the lobby's own endpoint).
async function play(rules) {
  const level = shown ? shown.request.players : "heuristic";
  const seats = Array.from({ length: rules.players }, (_, s) => (s === 0 ? { human: true } : { human: false, level }));
  const body = { preset: rules.preset, players: rules.players, variants: rules.variants, options: rules.options,
    seats, seed: Math.floor(Math.random() * 2 ** 31) };
  let response;
  let data;
  try {
    response = await fetch("/api/tables", { method: "POST", headers: postHeaders(), body: JSON.stringify(body) });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return;
  }
  if (!response.ok) { toast(refusal(data)); return; }
  location.href = data.seats[0].url;
}

function fromHash() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const id = hash.get("r");
  if (!id) return;
  const request = ["a", "b", "players", "deals", "seed"].every((k) => hash.has(k))
    ? { a: hash.get("a"), b: hash.get("b"), players: hash.get("players"), deals: Number(hash.get("deals")),
      seed: Number(hash.get("seed")) }
    : null;
  follow(id, request);
}

function render() {
  applyStatic();
  for (const fieldset of document.querySelectorAll(".lab-reading")) readingControls(fieldset);
  levelControls();
  if (shown) show(shown);
}

await loadCatalog(initialLang());
await loadSession();
applyStatic();
$("lang-slot").append(langSelect(() => {
  const kept = new FormData($("lab-form"));
  render();
  for (const [name, value] of kept) {
    const el = $("lab-form").elements[name];
    if (el instanceof RadioNodeList) {
      for (const box of el) if (box.value === value) box.checked = true;
    } else if (el && el.type === "checkbox") el.checked = true;
    else if (el) el.value = value;
  }
}));
render();
$("lab-players").addEventListener("change", () => { $("lab-deals").max = String(MOST[$("lab-players").value]); });
$("lab-form").addEventListener("submit", compare);
window.addEventListener("hashchange", fromHash);
fromHash();
