// The page's strings: one table per language, served by the server from its gettext catalogs
// (GET /api/strings?lang=xx), the one source of every text. Markup names a string by its key
// in a data-i18n attribute (its text), data-i18n-label (aria-label) or data-i18n-title (title).

let table = {};
let current = "en";

export function language() { return current; }

export async function loadLanguage(api, lang) {
  table = await api("GET", `/api/strings?lang=${encodeURIComponent(lang)}`);
  current = lang;
  document.documentElement.lang = lang;
}

// Return the string `key` with its {placeholders} filled from `vars`.
export function t(key, vars = {}) {
  let text = table[key] ?? key;
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll("{" + k + "}", String(v));
  return text;
}

// Translate the marked elements under `root`.
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
}

// Return the words for an error of the API (an ApiError).
export function errorText(err) {
  return err.message;
}
