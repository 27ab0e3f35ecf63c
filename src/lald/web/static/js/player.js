// A player's profile: their rating in each reading with its history plotted (SVG, drawn
// here: mu with a band of ±σ after each rated session), and their games with each deal's
// record, replay and review.
import { applyStatic, initialLang, langSelect, loadCatalog, t } from "./i18n.js";
import { $ } from "./dom.js";
import { loadSession, session } from "./session.js";
import { readingName } from "./leaderboard-names.js";

const SVG = "http://www.w3.org/2000/svg";
const fixed = (x) => Number(x).toFixed(1);

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// The history of one reading: mu after each session, the band mu ± σ, the axes named. One
// session alone is a point with its ±σ drawn as a bar of some width (a band of one point
// had no width, so nothing showed).
function plot(points, label) {
  const w = 320, h = 160, pad = 28, left = 44, bottom = 40;
  const lo = Math.min(...points.map((p) => p.mu - p.sigma)), hi = Math.max(...points.map((p) => p.mu + p.sigma));
  const x = (i) => left + (points.length === 1 ? (w - left - pad) / 2 : (i * (w - left - pad)) / (points.length - 1));
  const y = (v) => h - bottom + ((lo - v) * (h - bottom - pad / 2)) / Math.max(1e-9, hi - lo);
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label, class: "history" });
  const half = points.length === 1 ? 14 : 0;
  const band = points.map((p, i) => `${x(i) - (i === 0 ? half : 0)},${y(p.mu + p.sigma)}`)
    .concat(half ? [`${x(0) + half},${y(points[0].mu + points[0].sigma)}`, `${x(0) + half},${y(points[0].mu - points[0].sigma)}`] : [])
    .concat([...points].reverse().map((p, j) => `${x(points.length - 1 - j) - (half && j === points.length - 1 ? half : 0)},${y(p.mu - p.sigma)}`));
  box.append(svg("polygon", { points: band.join(" "), class: "band" }));
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" "), class: "line" }));
  for (const [i, p] of points.entries()) box.append(svg("circle", { cx: x(i), cy: y(p.mu), r: 3, class: "dot" }));
  for (const v of [lo, hi]) {
    const text = svg("text", { x: left - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" });
    text.textContent = fixed(v);
    box.append(text);
  }
  const across = svg("text", { x: (left + w - pad) / 2, y: h - 8, class: "axis axis-title", "text-anchor": "middle" });
  across.textContent = t("web_plot_axis_sessions");
  const up = svg("text", { x: 0, y: 0, class: "axis axis-title", "text-anchor": "middle",
    transform: `translate(11 ${(h - bottom + pad / 2) / 2}) rotate(-90)` });
  up.textContent = t("web_plot_axis_rating");
  box.append(across, up);
  return box;
}

function dealLinks(game, whose) {
  const done = game.status === "over" || game.status === "closed" ? game.deals : Math.max(0, game.deals - 1);
  const out = [];
  for (let d = 0; d < done; d++) {
    const replay = document.createElement("a");
    replay.href = `/replay#table=${encodeURIComponent(game.table)}&deal=${d}&seat=${game.seat}`;
    replay.textContent = t("web_player_deal", { number: d + 1 });
    const review = document.createElement("a");
    review.href = `/replay#table=${encodeURIComponent(game.table)}&deal=${d}&seat=${game.seat}&review=1`;
    review.className = "review";
    review.textContent = whose;
    const record = document.createElement("a");
    record.href = `/api/tables/${encodeURIComponent(game.table)}/deals/${d}/record`;
    record.textContent = t("web_record");
    out.push(" — ", replay, " · ", review, " · ", record);
  }
  return out;
}

async function show() {
  const name = decodeURIComponent(location.hash.slice(1));
  const response = name ? await fetch(`/api/players/${encodeURIComponent(name)}`) : null;
  $("player-missing").hidden = Boolean(response && response.ok);
  $("player-missing").textContent = t("web_player_missing");
  if (!response || !response.ok) { $("h-player").textContent = name || t("web_account_profile"); return; }
  const data = await response.json();
  $("h-player").textContent = data.name;
  const box = $("ratings");
  box.textContent = "";
  if (!data.ratings.length) {
    const p = document.createElement("p");
    p.textContent = t("web_player_unrated");
    box.append(p);
  }
  for (const r of data.ratings) {
    const h = document.createElement("h3");
    h.textContent = readingName(r.reading);
    const p = document.createElement("p");
    p.textContent = `${t("web_player_rating", { rating: fixed(r.ordinal), mu: fixed(r.mu), sigma: fixed(r.sigma) })} `
      + t("web_player_after", { count: r.games });
    const points = data.history.filter((e) => e.reading === r.reading);
    box.append(h, p, plot(points, t("web_player_history", { reading: readingName(r.reading) })));
  }
  // "Review my play" on one's own profile; anyone else's says whose play it is.
  const me = session().account;
  const whose = me && me.name === data.name ? t("web_review_mine") : t("web_review_of", { name: data.name });
  const list = $("games");
  list.textContent = "";
  for (const g of data.tables) {
    const li = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = g.table;
    li.append(code, " ", readingName([g.rules.preset, g.rules.players, ...g.rules.variants].join("/")));
    if (g.rated) { const b = document.createElement("span"); b.className = "badge"; b.textContent = t("web_rated_badge"); li.append(" ", b); }
    li.append(...dealLinks(g, whose));
    list.append(li);
  }
}

await Promise.all([loadCatalog(initialLang()), loadSession()]);
applyStatic();
$("lang-slot").append(langSelect(show));
window.addEventListener("hashchange", show);
show();
