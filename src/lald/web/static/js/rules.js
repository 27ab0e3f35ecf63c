// The rules page: how to play in the page's language, and the project's complete rules.
import { applyStatic, initialLang, langSelect, loadCatalog } from "./i18n.js";
import { $ } from "./dom.js";

await loadCatalog(initialLang());
applyStatic();
$("lang-slot").append(langSelect(() => {}));
