// Small helpers the lobby, the table and the replay viewer share.
export const $ = (id) => document.getElementById(id);

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v);
// A number with the same minus sign as ``signed`` (the pot beside the balances), no plus.
export const minus = (v) => (v < 0 ? "−" : "") + Math.abs(v);

// A message at the bottom of the screen for a few seconds (also read out: #toast is an alert).
export function toast(message, ms = 4000) {
  const el = $("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), ms);
}

// Copy text to the clipboard: navigator.clipboard where the page may use it (HTTPS or
// localhost), else a selected text area and the copy command (plain-HTTP LAN addresses).
// Resolves to true if the text was copied.
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch { /* fall back */ }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  const before = document.activeElement;
  area.focus();
  area.select();
  let done = false;
  try { done = document.execCommand("copy"); } catch { done = false; }
  area.remove();
  if (before && before.focus) before.focus();
  return done;
}

// Plural-needing messages go through here, so that switching to the catalog's plural
// forms (CLDR categories, i18n.js) is one change.
export function countText(t, key, count, values = {}) {
  return t(key, { ...values, count });
}
