// Moves in words: what a legal action does, its key, and the form the server takes back.
import { t } from "./i18n.js";
import { glyph, glyphs, spoken, spokenList } from "./cards.js";

// The keys of the moves in their order: 1-9, 0, then the letters (h is the hint's, n the
// next deal's).
export const KEYS = "1234567890abcdefgijklmopqrstuvwxyz";

export const keyOf = (index) => KEYS[index] ?? null;

// The index of the move a key stands for, or -1.
export const moveOfKey = (key) => (key.length === 1 ? KEYS.indexOf(key.toLowerCase()) : -1);

export function actionCards(a) {
  if (a.type === "capture") return [...a.play, ...a.take];
  if (a.type === "claim") return a.cards;
  if (a.type === "trail") return [a.card];
  return [];
}

// The action in the record's form (docs/record.md#actions), as the server takes it.
export function recordForm(a) {
  const out = { seat: a.seat, type: a.type };
  if (a.type === "capture") Object.assign(out, { play: a.play, take: a.take });
  else if (a.type === "claim") out.cards = a.cards;
  else if (a.type === "trail") out.card = a.card;
  return out;
}

export const actionId = (a) => JSON.stringify(recordForm(a));

const CAPTURE = { single: "act_single", sweep: "act_sweep", pair: "act_pair", prial: "act_prial" };
const CLAIM = { hand_set: "act_claim_set", dead: "act_claim_dead", spotter: "act_claim_spot" };

// One line saying what the move is; ``kind`` is the engine's word for it (frame.kinds).
export function moveLabel(a, kind, hand) {
  if (a.type === "capture") return t(CAPTURE[kind] ?? "act_single", { play: glyphs(a.play), take: glyphs(a.take) });
  if (a.type === "claim") return t(CLAIM[kind] ?? "act_claim_spot", { cards: glyphs(a.cards) });
  if (a.type === "trail") return t("act_trail", { card: glyph(a.card) });
  return t("act_lie_down_count", { cards: glyphs(hand), count: hand.length });
}

// The same line with the cards in words (a button's accessible name: a screen reader
// reads "5♠" badly).
export function moveWords(a, kind, hand) {
  if (a.type === "capture") return t(CAPTURE[kind] ?? "act_single", { play: spokenList(a.play), take: spokenList(a.take) });
  if (a.type === "claim") return t(CLAIM[kind] ?? "act_claim_spot", { cards: spokenList(a.cards) });
  if (a.type === "trail") return t("act_trail", { card: spoken(a.card) });
  return t("act_lie_down_count", { cards: spokenList(hand), count: hand.length });
}

// What the move does, for a newcomer (claims and lying down; captures say it themselves).
export function moveHelp(a, kind) {
  if (a.type === "claim") {
    if (kind === "hand_set") return t(a.cards.length === 2 ? "web_claim_help_prial" : "web_claim_help_mournival");
    if (kind === "dead") return t("web_claim_help_dead");
    return t("web_claim_help_spot");
  }
  if (a.type === "lie_down") return t("web_lie_down_help");
  if (a.type === "trail") return t("web_trail_help");
  return "";
}
