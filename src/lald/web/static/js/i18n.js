// The shared message catalog (src/lald/i18n/*.json), served by /api/i18n/{lang}.
//
// A message is a str.format template, or a plural entry: an object with one template per
// CLDR plural category of the catalog's locale (its "locale" key: "pt-PT" for pt), e.g.
//   "n_cards": {"one": "{count} card", "other": "{count} cards"}.
// t(key, {count}) picks the form with Intl.PluralRules, the browser's copy of the same CLDR
// data that Babel gives the terminal; plural(n) names the category.
export const LANGS = ["en", "de", "pt", "es"];
export const LANG_NAMES = { en: "English", de: "Deutsch", pt: "Português", es: "Español" };
const NAMES = LANG_NAMES;
let catalog = {};
let rules = new Intl.PluralRules("en");
export let lang = "en";

// Use a catalog already in hand (the page fetches it in loadCatalog; tests pass one).
export function useCatalog(l, messages) {
  catalog = messages;
  lang = l;
  rules = new Intl.PluralRules(typeof messages.locale === "string" ? messages.locale : l);
}

// The CLDR plural category of n in the catalog's language: "one", "many", "other"...
// A string such as "1.0" keeps its visible decimals, as CLDR counts them.
export function plural(n) {
  const text = String(n).replace(/^\+/, "");
  const decimals = text.includes(".") ? text.split(".")[1].length : 0;
  const options = decimals ? { minimumFractionDigits: decimals } : {};
  return new Intl.PluralRules(rules.resolvedOptions().locale, options).select(Math.abs(Number(text)));
}

export function initialLang() {
  const stored = localStorage.getItem("lald-lang");
  if (LANGS.includes(stored)) return stored;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : "en";
}

export async function loadCatalog(l) {
  const response = await fetch(`/api/i18n/${l}`);
  if (!response.ok) throw new Error(`the catalog ${l} did not come (${response.status})`);
  useCatalog(l, await response.json());
  localStorage.setItem("lald-lang", l);
  document.documentElement.lang = l;
}

// str.format's {name} and {name:+d}, the two forms the catalog uses; a plural entry picks
// its form by values.count (a missing count is an error, as in the terminal).
export function t(key, values = {}) {
  let template = catalog[key] ?? key;
  if (typeof template === "object") {
    if (values.count === undefined) throw new Error(`${key} is a plural message: give it a count`);
    template = template[plural(values.count)] ?? template.other;
  }
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    const v = values[name];
    if (v === undefined) return whole;
    if (spec === "+d") return (v >= 0 ? "+" : "") + v;
    return String(v);
  });
}

// A bot level as people name it, as the terminal's setup screen does: "bot: medium (rules
// of thumb)" in full, "medium" short; a level the catalog does not know, by its name.
export function levelName(level, full = false) {
  const key = (full ? "level_" : "web_level_name_") + level;
  if (catalog[key] !== undefined) return t(key);
  return full ? t("level_other", { level }) : level;
}

// The server's refusals a person can meet through the pages, by their code: the sentence
// in the page's language, filled with the numbers the refusal names; any other refusal in
// the API's own words (English, for programs).
const REFUSALS = {
  other_site: "web_refused_other_site", too_many_tables: "web_refused_too_many_tables",
  name: "web_refused_name", table_closed: "web_refused_table_closed",
  host_link: "web_refused_host_link", server_error: "web_refused_server_error",
  no_table: "web_no_such_table", no_deal: "web_refused_no_deal",
  private_table: "web_refused_private_table", rated_login: "web_refused_rated_login",
  seated: "web_refused_seated", no_free_seat: "web_refused_no_free_seat", guest_name: "web_refused_guest_name",
  title: "web_refused_title", title_character: "web_refused_title_character", too_many_seats: "web_refused_too_many_seats",
  login: "web_refused_login", login_limit: "web_refused_login_limit", name_taken: "web_refused_name_taken",
  name_rules: "web_refused_name_rules", name_refused: "web_refused_name_refused",
  password_rules: "web_refused_password_rules", password_wrong: "web_refused_password_wrong",
  password_limit: "web_refused_password_limit", password_logged_out: "web_refused_password_logged_out",
  name_character: "web_refused_name_character", name_marks: "web_refused_name_marks",
  csrf: "web_refused_csrf", register_limit: "web_refused_register_limit", not_logged_in: "web_refused_not_logged_in",
  rated_public: "web_refused_rated_public", rated_rules: "web_refused_rated_rules", no_player: "web_player_missing",
};

export function refusal(body) {
  const key = body && Object.hasOwn(REFUSALS, body.code) ? REFUSALS[body.code] : null;
  return key ? t(key, body) : String(body && body.error);
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
    try {
      await loadCatalog(select.value);
    } catch {
      // The network or the server is down: said in words, and the page stays as it was.
      // (dom.js is every page's already, so nothing is fetched; this module stays one file.)
      select.value = lang;
      const { toast } = await import("./dom.js");
      toast(t("web_server_unreachable"));
      return;
    }
    applyStatic();
    onChange(select.value);
  });
  return select;
}
