// The shared message catalog (src/lald/i18n/*.json), served by /api/i18n/{lang}.
export const LANGS = ["en", "de", "pt", "es"];
const NAMES = { en: "English", de: "Deutsch", pt: "Português", es: "Español" };
let catalog = {};
export let lang = "en";

export function initialLang() {
  const stored = localStorage.getItem("lald-lang");
  if (LANGS.includes(stored)) return stored;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : "en";
}

export async function loadCatalog(l) {
  const response = await fetch(`/api/i18n/${l}`);
  catalog = await response.json();
  lang = l;
  localStorage.setItem("lald-lang", l);
  document.documentElement.lang = l;
}

// str.format's {name} and {name:+d}, the two forms the catalog uses.
export function t(key, values = {}) {
  const template = catalog[key] ?? key;
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    const v = values[name];
    if (v === undefined) return whole;
    if (spec === "+d") return (v >= 0 ? "+" : "") + v;
    return String(v);
  });
}

export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
}

export function langSelect(onChange) {
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", "Language");
  for (const l of LANGS) {
    const option = new Option(NAMES[l], l, false, l === lang);
    select.append(option);
  }
  select.addEventListener("change", async () => {
    await loadCatalog(select.value);
    applyStatic();
    onChange(select.value);
  });
  return select;
}
