// The page's strings: one table per language, served by the server from its gettext catalogs
// (GET /api/strings?lang=xx), the one source of every text. Markup names a string by its key
// in a data-i18n attribute (its text), data-i18n-label (aria-label) or data-i18n-title (title).

// The boards by technique of /api/meta, with the key of each one's name.
export const TECHNIQUE_NAMES = {
  any: "technique_any",
  gentle: "technique_gentle",
  level3: "technique_level3",
  level4: "technique_level4",
  total: "technique_total",
};

let table = {};
let current = "en";
let asked = 0;

export function language() { return current; }

// Fetch the strings of `lang` and make it the page's language. Returns false, changing nothing
// and throwing nothing, when another language was asked for before these strings came: two
// quick changes of the menu end in the last one chosen, whichever answer comes last.
export async function loadLanguage(api, lang) {
  const ask = ++asked;
  let strings;
  try {
    strings = await api("GET", `/api/strings?lang=${encodeURIComponent(lang)}`);
  } catch (err) {
    if (ask !== asked) return false;
    throw err;
  }
  if (ask !== asked) return false;
  table = strings;
  current = lang;
  document.documentElement.lang = lang;
  return true;
}

// Return `x` with `digits` decimals as the page's language writes it (a decimal comma in
// French, German, Spanish, Portuguese and Russian), without grouping, as the server's texts do.
export function decimal(x, digits) {
  return new Intl.NumberFormat(current, {
    minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
  }).format(x);
}

// Return `n` (0-100) as a whole percentage, with the sign as the page's language writes it
// ("45%", "45 %" with a no-break space in German, a narrow one in French).
export function percentText(n) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(n / 100);
}

// Word the browser's own check of the number field `input` (its range) in the page's language:
// the browser would say it in its own ("Value must be less than or equal to 100."). `field` is
// the string naming the field.
export function wordRange(input, field) {
  input.addEventListener("input", () => input.setCustomValidity(""));
  input.addEventListener("invalid", () => {
    if (input.validity.customError) return;
    const vars = { field: t(field), lo: input.min, hi: input.max };
    input.setCustomValidity(t(input.max === "" ? "error_at_least" : "error_range", vars));
  });
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

// Return the words for an error of the API (an ApiError, see api.js), in the page's language:
// from its kind and data; the server's English message for an error the page has no words
// for (a request the page itself would not make), and after the page's words for a text that
// is no position (the server's reason says what is wrong in it). `labels` gives the key of the
// label of a field where a view names it otherwise than the request does ({ mines: "mine_total" }).
export function errorText(err, labels = {}) {
  const d = err.data || {};
  switch (err.kind) {
    case "offline": return t("error_offline");
    case "cancelled": return t("error_cancelled");
    case "busy": return t("error_busy");
    case "too-complex": return t("error_too_complex");
    case "inconsistent": {
      // Worded by what the conflict holds: one number, several, the mine total.
      const n = (d.clues || []).length;
      if (d.uses_mine_total) {
        return t(n === 0 ? "error_inconsistent_total_only" : n === 1 ? "error_inconsistent_total_one" : "error_inconsistent_total");
      }
      return t(n === 1 ? "error_inconsistent_one" : "error_inconsistent");
    }
    case "format": {
      // The page's words, then what is wrong: in the page's language when the server names a
      // reason the page has words for (FORMAT_REASONS of mineproof.errors), else the server's
      // message (in English: what is wrong, and where when the page's words do not say it).
      // The page says a line and a column only when the server gives both; the server's message
      // drops the place it leads with then ("line 2, column 3: ").
      const key = typeof d.reason === "string" ? "format_" + d.reason.replaceAll("-", "_") : "";
      const worded = key in table;
      let reason = typeof d.error === "string" ? d.error : "";
      if (worded) reason = t(key, d.details || {});
      if (d.line && d.column) {
        const rest = reason.replace(/^line \d+, column \d+: /, "");
        return joinReason(t("error_format_at", { line: d.line, column: d.column }), rest, !worded);
      }
      return joinReason(t("error_format"), reason, !worded);
    }
    case "argument": {
      if (d.name === "size") return t("error_board_small");
      if (d.name === "side" && d.allowed) return t("error_paste_side", { hi: d.allowed[1] });
      if (d.name === "text" && d.allowed) return t("error_paste_long", { hi: d.allowed[1] });
      const field = labels[d.name] || d.name;
      if (d.allowed && field in table) {
        return t("error_range", { field: t(field), lo: d.allowed[0], hi: d.allowed[1] });
      }
      break;
    }
    case "game-over": return t("game_over");
    case "not-started": return t("first_click");
    case "not-found": return t("error_not_found");
    case "store": return t("error_store");
    case "illegal-move": return t("error_move");
  }
  // No words of the page's own for it: the server's message (in English) says what is wrong.
  if (d.error) return t("error_other_said", { status: err.status, message: d.error });
  return t("error_other", { status: err.status });
}

// Return `words` followed by `reason` as a sentence of its own, with `capital` its first
// letter made a capital (the server's English message starts in lower case; the page's own
// strings are written as they are shown); no space after a full stop of Japanese or Chinese
// (。), as the server's texts join theirs; `words` alone when there is no reason.
function joinReason(words, reason, capital = true) {
  const text = reason.trim();
  if (!text) return words;
  const space = /[\u3000-\u303f\uff00-\uffef]$/.test(words) ? "" : " ";
  return `${words}${space}${capital ? text[0].toUpperCase() : text[0]}${text.slice(1)}`;
}

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

// Return a count given as its decimal digits (exact, often longer than a number of JavaScript
// holds) as the page's language writes it: in full, grouped, up to 15 digits; else rounded to
// two figures with its power of ten ("≈ 3.6 × 10¹³³⁹").
export function countText(digits) {
  const s = String(digits);
  if (!/^[0-9]+$/.test(s) || s.length <= 15) return new Intl.NumberFormat(current).format(Number(s));
  let power = s.length - 1;
  let lead = Math.round(Number(s.slice(0, 3)) / 10) / 10; // 1.0 to 10.0
  if (lead >= 10) [lead, power] = [1, power + 1];
  const exponent = [...String(power)].map((c) => SUPERSCRIPT[Number(c)]).join("");
  return `≈ ${decimal(lead, 1)} × 10${exponent}`;
}
