// mineproof web app: the page's entry point (a native ES module, no build step).
//
// The page is a set of views (Play, Analysis, Review, Statistics), each a module exporting an object
//   { name, tab, create(app, panel) -> { render(), show?(), language?(), start?() } }
// `name` is the id of its panel (a <section>) and of its tab ("tab-" + name), `tab` the key of
// the tab's label in the page's strings. create() fills the panel (markup with data-i18n keys),
// keeps the view's state in one object of its own, and returns its hooks: render() draws the
// whole view from that state; show() runs when its tab is opened; language() when the
// language changed (ask again for what the server words, then render); start() once, when
// every view exists.
//
// To add a view: write js/NAME.js exporting such an object, add it to VIEWS below, and add
// its strings to src/mineproof/web/strings.py (then `make catalogs` and translate them in the
// nine catalogs: tests/web/test_static.py fails on a key the page uses that has no string).
// What a view may use is `app`, built in start() below: the server's meta (levels, languages,
// limits), api(), lang(), errorText(), announce(text) (the screen reader's live region),
// confirm(textKey, yesKey, noKey) (a modal question), go(name) and review(gameId) (open the
// Review view on a finished game).
//
// A view with a board uses BoardView (board.js): draw(lookAt) with a look per cell (its marks
// are CSS classes, named for screen readers in cellLabel), reveal(cells) to bring cells into
// view. In the Play view (play.js), a field of a new game is an input in its TEMPLATE and a
// line in gameRequest(); what is drawn on a finished game comes from cellLook(); words under
// the board are a message descriptor in `s.message`, worded at render time.

import { ApiError, api } from "./api.js";
import { analysisView } from "./analysis.js";
import { errorText, language, loadLanguage, t, translate } from "./i18n.js";
import { playView } from "./play.js";
import { reviewView } from "./review.js";
import { statsView } from "./stats.js";
import { $, el, saved } from "./util.js";

const VIEWS = [playView, analysisView, reviewView, statsView];

// The language the player chose last, else the browser's.
const wanted = () => saved.get("lang") || (navigator.language || "en").slice(0, 2);

// Say `text` above the views (what the page as a whole could not do), or nothing.
function sayOnPage(text) {
  const box = $("page-error");
  box.textContent = text;
  box.hidden = !text;
}

async function start() {
  const meta = await api("GET", "/api/meta");
  await loadLanguage(api, meta.languages.includes(wanted()) ? wanted() : "en");

  const views = new Map();
  const app = {
    meta,
    api,
    lang: language,
    errorText,
    go: (name) => show(name),
    review(id) {
      views.get("review").open(id);
      show("review");
    },
    announce(text) { $("announce").textContent = text; },
    // Ask a question in a modal dialog; resolves to whether the player said yes.
    confirm(textKey, yesKey, noKey) {
      const dialog = $("confirm");
      $("confirm-text").textContent = t(textKey);
      $("confirm-yes").textContent = t(yesKey);
      $("confirm-no").textContent = t(noKey);
      dialog.returnValue = "";
      dialog.showModal();
      return new Promise((resolve) => {
        dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      });
    },
  };

  const tabs = $("tabs");
  const main = document.querySelector("main");
  for (const view of VIEWS) {
    const tab = el("button", {
      role: "tab", id: "tab-" + view.name, "aria-controls": view.name, "aria-selected": "false",
      "data-tab": view.name, "data-i18n": view.tab, type: "button",
    });
    tabs.appendChild(tab);
    const panel = el("section", {
      id: view.name, class: "panel", role: "tabpanel", "aria-labelledby": tab.id, hidden: true,
    });
    main.appendChild(panel);
    views.set(view.name, view.create(app, panel));
    tab.addEventListener("click", () => show(view.name));
  }
  // The tabs: one stop for Tab, arrows (and Home, End) move between them.
  tabs.addEventListener("keydown", (e) => {
    const all = [...tabs.querySelectorAll("[role=tab]")];
    const at = all.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 }[e.key];
    if (at < 0 || to === undefined) return;
    e.preventDefault();
    const tab = all[(to + all.length) % all.length];
    tab.focus();
    show(tab.dataset.tab);
  });

  function show(name) {
    if (!views.has(name)) name = VIEWS[0].name;
    for (const tab of tabs.querySelectorAll("[role=tab]")) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      $(tab.dataset.tab).hidden = !on;
    }
    saved.set("tab", name);
    const view = views.get(name);
    if (view.show) view.show();
  }

  const select = $("lang");
  for (const code of meta.languages) {
    select.appendChild(el("option", { value: code }, meta.language_names[code] || code));
  }
  select.value = language();
  // A language whose words cannot be had is said so, in the language still shown, which the
  // menu keeps showing.
  select.addEventListener("change", async () => {
    const lang = select.value;
    try {
      if (!(await loadLanguage(api, lang))) return; // another was chosen since
    } catch (err) {
      console.error(err);
      select.value = language();
      sayOnPage(`${t("error_language", { language: meta.language_names[lang] || lang })} ${errorText(err)}`);
      return;
    }
    sayOnPage("");
    saved.set("lang", language());
    translate();
    document.dispatchEvent(new Event("mineproof:language"));
    for (const view of views.values()) {
      if (view.language) await view.language();
      else view.render();
    }
  });

  translate();
  for (const view of views.values()) view.render();
  show(saved.get("tab") || VIEWS[0].name);
  for (const view of views.values()) if (view.start) await view.start();
  document.body.dataset.ready = "true";
}

// A page that cannot start says why in the player's words when the server still gives them,
// else in the English words of the markup: the server does not answer.
start().catch(async (err) => {
  console.error(err);
  if (!(err instanceof ApiError)) {
    sayOnPage(String(err.message || err));
    return;
  }
  sayOnPage($("page-error").textContent);
  for (const lang of [wanted(), "en"]) {
    try {
      await loadLanguage(api, lang);
      sayOnPage(errorText(err));
      return;
    } catch (again) {
      if (again.kind === "offline") return;
    }
  }
});
