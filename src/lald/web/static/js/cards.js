// Cards drawn as SVG: rank and suit in the corners, pips or a court panel in the middle.
import { t } from "./i18n.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "A23456789TJQK";
const NS = "http://www.w3.org/2000/svg";

export function rankOf(code) { return RANKS.indexOf(code[0]); }
export function rankText(code) { return code[0] === "T" ? "10" : code[0]; }
export function glyph(code) { return rankText(code) + SUITS[code[1]]; }
export function glyphs(codes) { return codes.map(glyph).join(" "); }
// A card in words, for a screen reader (which reads "5♠" badly, or a digit before it as
// part of a number): "5 of spades", "Pik 5"; the glyph where the catalog has no words.
export function spoken(code) {
  const rank = "AJQK".includes(code[0]) ? t("web_rank_" + code[0]) : rankText(code);
  const suit = t("web_suit_" + code[1]);
  if (suit === "web_suit_" + code[1]) return glyph(code);
  return t("web_card_words", { rank, suit });
}
export function spokenList(codes) { return codes.map(spoken).join(", "); }
export function sortCards(codes) {
  return [...codes].sort((a, b) => rankOf(a) - rankOf(b) || "SHDC".indexOf(a[1]) - "SHDC".indexOf(b[1]));
}

// Pip positions (x, y) on a 100 x 140 face for ranks 1..10.
const PIPS = {
  1: [[50, 70]],
  2: [[50, 32], [50, 108]],
  3: [[50, 32], [50, 70], [50, 108]],
  4: [[32, 32], [68, 32], [32, 108], [68, 108]],
  5: [[32, 32], [68, 32], [50, 70], [32, 108], [68, 108]],
  6: [[32, 32], [68, 32], [32, 70], [68, 70], [32, 108], [68, 108]],
  7: [[32, 32], [68, 32], [50, 51], [32, 70], [68, 70], [32, 108], [68, 108]],
  8: [[32, 32], [68, 32], [50, 51], [32, 70], [68, 70], [50, 89], [32, 108], [68, 108]],
  9: [[32, 30], [68, 30], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 110], [68, 110]],
  10: [[32, 30], [68, 30], [50, 43], [32, 56], [68, 56], [32, 84], [68, 84], [50, 97], [32, 110], [68, 110]],
};

function faceSVG(code) {
  const suit = SUITS[code[1]];
  const red = code[1] === "H" || code[1] === "D";
  const colour = red ? "#c0142b" : "#1b1b1b";
  const rank = rankOf(code) + 1;
  const label = rankText(code);
  let middle = "";
  if (rank <= 10) {
    const size = rank === 1 ? 44 : 20;
    for (const [x, y] of PIPS[rank]) {
      const flip = y > 75 ? ` transform="rotate(180 ${x} ${y})"` : "";
      middle += `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" dominant-baseline="central"${flip}>${suit}</text>`;
    }
  } else {
    middle = `<rect x="22" y="24" width="56" height="92" rx="4" fill="${red ? "#fbe3e6" : "#e6e9f2"}" stroke="${colour}" stroke-width="1.5"/>`
      + `<text x="50" y="62" font-size="34" font-weight="700" text-anchor="middle" dominant-baseline="central">${label}</text>`
      + `<text x="50" y="94" font-size="24" text-anchor="middle" dominant-baseline="central">${suit}</text>`;
  }
  return `<svg xmlns="${NS}" viewBox="0 0 100 140" role="img" aria-label="${spoken(code)}">`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf8" stroke="#555" stroke-width="2"/>`
    + `<g fill="${colour}" font-family="Georgia, 'DejaVu Serif', serif">`
    + `<text x="10" y="22" font-size="21" font-weight="700" text-anchor="middle">${label}</text>`
    + `<text x="10" y="40" font-size="17" text-anchor="middle">${suit}</text>`
    + `<g transform="rotate(180 50 70)"><text x="10" y="22" font-size="21" font-weight="700" text-anchor="middle">${label}</text>`
    + `<text x="10" y="40" font-size="17" text-anchor="middle">${suit}</text></g>`
    + middle + `</g></svg>`;
}

const BACK = `<svg xmlns="${NS}" viewBox="0 0 100 140" aria-hidden="true">`
  + `<defs><pattern id="lald-back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`
  + `<rect width="10" height="10" fill="#23507a"/><rect width="5" height="10" fill="#2d6496"/></pattern></defs>`
  + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="url(#lald-back)" stroke="#eee" stroke-width="3"/>`
  + `<rect x="12" y="12" width="76" height="116" rx="5" fill="none" stroke="#f4e2a1" stroke-width="2"/></svg>`;

export function cardEl(code, { selectable = false } = {}) {
  const el = document.createElement(selectable ? "button" : "span");
  el.className = "card";
  el.dataset.card = code;
  if (selectable) el.type = "button";
  el.innerHTML = faceSVG(code);
  el.title = glyph(code);
  return el;
}

export function backEl() {
  const el = document.createElement("span");
  el.className = "card back";
  el.innerHTML = BACK;
  return el;
}
