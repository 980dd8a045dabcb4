// mineproof web app: the game page, the analysis board and the statistics.
// The server keeps the mine layout; this page only ever sees what the player has opened.
"use strict";

const COVERED = -1;
const FLAG = -2;
const LONG_PRESS_MS = 450;
const LANG_NAMES = {
  en: "English", ko: "한국어", ja: "日本語", zh: "中文", es: "Español",
  fr: "Français", de: "Deutsch", pt: "Português", ru: "Русский",
};

const $ = (id) => document.getElementById(id);
const store = {
  get: (k) => { try { return localStorage.getItem("mineproof." + k); } catch { return null; } },
  set: (k, v) => { try { localStorage.setItem("mineproof." + k, v); } catch { /* private mode */ } },
};

// ---- translations ------------------------------------------------------------------------

let messages = {};
let lang = "en";

function t(key, vars = {}) {
  const table = messages[lang] || {};
  let text = table[key] ?? (messages.en || {})[key] ?? key;
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll("{" + k + "}", String(v));
  return text;
}

function applyTranslations() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}

// ---- the API -----------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, data) {
    super(data && data.error ? data.error : "HTTP " + status);
    this.status = status;
    this.data = data || {};
  }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// ---- boards ------------------------------------------------------------------------------

// A grid of cell elements with data-x, data-y and data-state; `on` receives ("open" | "flag" |
// "back", x, y) from mouse, touch (long press flags) and keyboard (arrows, Space, F).
class BoardView {
  constructor(root, on) {
    this.root = root;
    this.on = on;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.cursor = [0, 0];
    this.press = null;
    this.lastPointer = "mouse";
    root.tabIndex = 0;
    root.addEventListener("click", (e) => this.click(e));
    root.addEventListener("contextmenu", (e) => this.context(e));
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      root.addEventListener(type, () => this.cancelPress());
    }
    root.addEventListener("keydown", (e) => this.key(e));
  }

  resize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.root.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
    const fragment = document.createDocumentFragment();
    this.cells = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const el = document.createElement("div");
        el.className = "cell";
        el.id = `${this.root.id}-${x}-${y}`;
        el.dataset.x = x;
        el.dataset.y = y;
        el.dataset.state = "covered";
        el.setAttribute("role", "gridcell");
        fragment.appendChild(el);
        this.cells.push(el);
      }
    }
    this.root.replaceChildren(fragment);
    this.cursor = [Math.min(this.cursor[0], width - 1), Math.min(this.cursor[1], height - 1)];
    this.showCursor(false);
  }

  cell(x, y) { return this.cells[y * this.width + x]; }

  target(e) {
    const el = e.target.closest(".cell");
    return el && this.root.contains(el) ? [Number(el.dataset.x), Number(el.dataset.y)] : null;
  }

  click(e) {
    const at = this.target(e);
    if (!at) return;
    if (this.longPressed) { this.longPressed = false; return; }
    this.cursor = at;
    this.showCursor(false);
    this.on("open", ...at);
  }

  context(e) {
    e.preventDefault();
    const at = this.target(e);
    if (!at || this.lastPointer === "touch") return;  // touch flags by the long-press timer
    this.on("flag", ...at);
  }

  pointerDown(e) {
    this.lastPointer = e.pointerType;
    this.longPressed = false;
    if (e.pointerType !== "touch") return;
    const at = this.target(e);
    if (!at) return;
    this.cancelPress();
    this.press = setTimeout(() => {
      this.press = null;
      this.longPressed = true;
      if (navigator.vibrate) navigator.vibrate(30);
      this.on("flag", ...at);
    }, LONG_PRESS_MS);
  }

  cancelPress() {
    if (this.press !== null) { clearTimeout(this.press); this.press = null; }
  }

  showCursor(visible) {
    for (const el of this.root.querySelectorAll(".cursor")) el.classList.remove("cursor");
    const el = this.cells.length ? this.cell(...this.cursor) : null;
    if (!el) return;
    this.root.setAttribute("aria-activedescendant", el.id);
    if (visible) el.classList.add("cursor");
  }

  key(e) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key in moves) {
      const [dx, dy] = moves[e.key];
      this.cursor = [
        Math.max(0, Math.min(this.width - 1, this.cursor[0] + dx)),
        Math.max(0, Math.min(this.height - 1, this.cursor[1] + dy)),
      ];
      this.showCursor(true);
      this.cell(...this.cursor).scrollIntoView({ block: "nearest", inline: "nearest" });
    } else if (e.key === " " || e.key === "Enter") {
      this.showCursor(true);
      this.on("open", ...this.cursor);
    } else if (e.key === "f" || e.key === "F") {
      this.on("flag", ...this.cursor);
    } else if (e.key === "Backspace") {
      this.on("back", ...this.cursor);
    } else {
      return;
    }
    e.preventDefault();
  }

  clearMarks() {
    for (const el of this.cells) {
      el.classList.remove("premise", "hint-safe", "hint-mine", "safest", "conflict");
    }
  }

  mark(cells, cls) {
    for (const [x, y] of cells || []) {
      const el = this.cell(x, y);
      if (el) el.classList.add(cls);
    }
  }

  // Show a mine probability (0..1, or null) on a covered cell, as a percentage on a heat colour.
  probability(el, p) {
    if (p === null || p === undefined) {
      el.style.background = "";
      return;
    }
    // Proven safe: green. Otherwise yellow (unlikely) to red (certain), lighter when unlikely.
    el.style.background = p === 0
      ? "hsl(130, 55%, 68%)"
      : `hsl(${Math.round(52 * (1 - p))}, 85%, ${Math.round(82 - 16 * p)}%)`;
    const span = document.createElement("span");
    span.className = "p";
    span.textContent = p > 0 && p < 0.005 ? "<1" : p < 1 && p > 0.995 ? ">99" : Math.round(p * 100);
    el.replaceChildren(span);
  }
}

function paint(el, code) {
  el.style.background = "";
  if (code >= 0) {
    el.dataset.state = "open";
    el.dataset.n = code;
    el.textContent = code > 0 ? String(code) : "";
  } else {
    el.dataset.state = code === FLAG ? "flag" : "covered";
    delete el.dataset.n;
    el.textContent = "";
  }
}

function showMessage(box, { label = "", text = "", kind = "" } = {}) {
  box.className = "message" + (kind ? " " + kind : "");
  box.replaceChildren();
  if (label) {
    const strong = document.createElement("span");
    strong.className = "label";
    strong.textContent = label;
    box.appendChild(strong);
  }
  box.appendChild(document.createTextNode(text));
  box.hidden = !label && !text;
}

// ---- the game ----------------------------------------------------------------------------

const play = {
  view: null,
  board: null,
  hint: null,
  probabilities: null,
  queue: Promise.resolve(),
  timer: null,
  clockStart: 0,
};

function gameRequest() {
  const level = $("level").value;
  const body = { level, guess_free: $("guess-free").checked };
  if (level === "custom") {
    body.width = Number($("custom-width").value);
    body.height = Number($("custom-height").value);
    body.mines = Number($("custom-mines").value);
  }
  return body;
}

async function newGame() {
  try {
    const view = await api("POST", "/api/games", gameRequest());
    store.set("game", view.id);
    store.set("level", $("level").value);
    play.probabilities = null;
    showGame(view);
    showMessage($("message"));
    $("board").focus();
  } catch (err) {
    showMessage($("message"), { text: err.message, kind: "error" });
  }
}

async function resumeGame() {
  const id = store.get("game");
  if (id) {
    try {
      showGame(await api("GET", `/api/games/${encodeURIComponent(id)}`));
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
    }
  }
  await newGame();
}

function showGame(view) {
  if (!play.view || play.view.id !== view.id || play.view.moves !== view.moves) play.hint = null;
  play.view = view;
  const board = play.board;
  board.resize(view.width, view.height);
  board.clearMarks();
  if (play.hint) markHint(play.hint);
  const over = view.state === "won" || view.state === "lost";
  const mines = new Set((view.mine_cells || []).map(([x, y]) => y * view.width + x));
  const wrong = new Set((view.wrong_flags || []).map(([x, y]) => y * view.width + x));
  const exploded = view.exploded ? view.exploded[1] * view.width + view.exploded[0] : -1;
  const probs = play.probabilities;
  for (let y = 0; y < view.height; y++) {
    for (let x = 0; x < view.width; x++) {
      const i = y * view.width + x;
      const el = board.cells[i];
      const code = view.cells[y][x];
      paint(el, code);
      if (over) {
        if (i === exploded) el.dataset.state = "exploded";
        else if (wrong.has(i)) el.dataset.state = "wrong-flag";
        else if (code === COVERED && mines.has(i)) el.dataset.state = view.state === "won" ? "flag" : "mine";
      } else if (probs && code === COVERED) {
        board.probability(el, probs[y][x]);
      }
    }
  }
  $("mines-left").textContent = view.state === "won" ? 0 : view.mines_left;
  const state = $("state");
  state.dataset.state = view.state;
  state.textContent = view.state === "won" ? t("won_short") : view.state === "lost" ? t("lost_short") : "";
  board.root.dataset.gameState = view.state;
  board.root.dataset.moves = view.moves;
  board.root.dataset.game = view.id;
  runClock(view);
}

function runClock(view) {
  clearInterval(play.timer);
  play.timer = null;
  const show = (s) => { $("timer").textContent = Math.floor(s); };
  show(view.elapsed);
  if (view.state !== "playing") return;
  play.clockStart = performance.now() - view.elapsed * 1000;
  play.timer = setInterval(() => show((performance.now() - play.clockStart) / 1000), 250);
}

// Moves are sent one at a time, in the order played.
function act(kind, x, y) {
  play.queue = play.queue.then(() => actNow(kind, x, y)).catch(() => {});
}

async function actNow(kind, x, y) {
  const view = play.view;
  if (!view || view.state === "won" || view.state === "lost") return;
  const code = view.cells[y][x];
  if (kind === "open" && code === FLAG) return;
  if (kind === "back") kind = "flag";
  if (kind === "open" && code > 0) kind = "chord";
  else if (kind === "open" && code === 0) return;
  if (kind === "flag" && code >= 0) return;
  try {
    const result = await api("POST", `/api/games/${view.id}/${kind}`, { x, y, lang });
    if (play.probabilities && result.state === "playing") {
      play.probabilities = (await api("GET", `/api/games/${view.id}/probabilities`)).probabilities;
    }
    showGame(result);
    if (result.state === "won") {
      showMessage($("message"), { label: t("won_short"), text: t("won_message", { time: result.elapsed.toFixed(1) }) });
    } else if (result.state === "lost") {
      showMessage($("message"), { label: t("lost_short"), text: t("lost_message"), kind: "error" });
    } else if (result.tutor && $("tutor").checked) {
      showHint(result.tutor, t("tutor_message"), "tutor");
    } else if (kind !== "flag") {
      showMessage($("message"));
    }
  } catch (err) {
    showMessage($("message"), { text: err.message, kind: "error" });
  }
}

// A hint in play may take several steps (mines first, then a cell to open): all are shown.
function hintSteps(h) {
  return h.steps && h.steps.length ? h.steps : [h];
}

function markHint(h) {
  const board = play.board;
  board.clearMarks();
  for (const step of hintSteps(h)) {
    board.mark(step.premises, "premise");
    board.mark(step.safe, "hint-safe");
    board.mark(step.mine, "hint-mine");
  }
  board.mark(h.safest, "safest");
}

function showHint(h, prefix = "", kind = "") {
  play.hint = h;
  markHint(h);
  const steps = hintSteps(h);
  const label = [prefix, h.label].filter(Boolean).join(" ");
  const text = steps
    .map((step, n) => (n === 0 ? step.text : `${step.label} ${step.text}`))
    .join(" ");
  showMessage($("message"), { label, text, kind });
}

async function askHint() {
  const view = play.view;
  if (!view) return;
  if (view.state === "new") {
    showMessage($("message"), { text: t("first_click") });
    return;
  }
  if (view.state !== "playing") {
    showMessage($("message"), { text: t("game_over") });
    return;
  }
  try {
    showHint(await api("GET", `/api/games/${view.id}/hint?lang=${lang}`));
  } catch (err) {
    showMessage($("message"), { text: err.message, kind: "error" });
  }
}

async function toggleProbabilities() {
  const view = play.view;
  play.probabilities = null;
  if ($("show-probabilities").checked && view && view.state !== "won" && view.state !== "lost") {
    try {
      play.probabilities = (await api("GET", `/api/games/${view.id}/probabilities`)).probabilities;
    } catch (err) {
      showMessage($("message"), { text: err.message, kind: "error" });
    }
  }
  if (view) showGame(view);
}

// ---- the analysis board ------------------------------------------------------------------

const edit = { board: null, width: 8, height: 8, cells: [], pending: null, result: null, ticket: 0 };

function emptyPosition(width, height) {
  edit.width = width;
  edit.height = height;
  edit.cells = Array.from({ length: height }, () => Array(width).fill(COVERED));
  edit.board.resize(width, height);
  drawEditor();
  scheduleAnalysis();
}

function positionText() {
  const rows = edit.cells.map((row) => row.map((c) => (c === COVERED ? "H" : c === FLAG ? "F" : String(c))).join(""));
  return `${edit.width}x${edit.height}x${Number($("edit-mines").value) || 0}\n${rows.join("\n")}\n`;
}

function drawEditor() {
  const board = edit.board;
  board.clearMarks();
  const result = edit.result;
  for (let y = 0; y < edit.height; y++) {
    for (let x = 0; x < edit.width; x++) {
      const el = board.cell(x, y);
      const code = edit.cells[y][x];
      paint(el, code);
      if (result && code === COVERED) board.probability(el, result.analysis.probabilities[y][x]);
    }
  }
  if (result) {
    board.mark(result.analysis.safe, "hint-safe");
    board.mark(result.analysis.mine, "hint-mine");
    board.mark(result.hint.premises, "premise");
  }
}

function editCell(kind, x, y) {
  const order = [COVERED, 0, 1, 2, 3, 4, 5, 6, 7, 8, FLAG];
  const at = order.indexOf(edit.cells[y][x]);
  const step = kind === "open" ? 1 : kind === "flag" ? order.length - 1 : 0;
  if (kind === "flag" && edit.board.lastPointer === "touch") {
    edit.cells[y][x] = edit.cells[y][x] === FLAG ? COVERED : FLAG;
  } else if (kind === "back") {
    edit.cells[y][x] = COVERED;
  } else {
    edit.cells[y][x] = order[(at + step) % order.length];
  }
  edit.result = null;
  drawEditor();
  scheduleAnalysis();
}

function scheduleAnalysis() {
  clearTimeout(edit.pending);
  edit.pending = setTimeout(runAnalysis, 150);
}

async function runAnalysis(text = null) {
  clearTimeout(edit.pending);
  const ticket = ++edit.ticket;  // only the latest request's answer is shown
  const box = $("analysis-result");
  const body = { text: text ?? positionText(), lang, trust_flags: $("trust-flags").checked };
  if (text !== null && text.trim().startsWith("[")) body.mines = Number($("edit-mines").value) || 0;
  try {
    const result = await api("POST", "/api/analyze", body);
    if (ticket !== edit.ticket) return;
    const p = result.position;
    edit.width = p.width;
    edit.height = p.height;
    edit.cells = p.cells;
    $("edit-width").value = p.width;
    $("edit-height").value = p.height;
    $("edit-mines").value = p.mines;
    edit.board.resize(p.width, p.height);
    edit.result = result;
    drawEditor();
    const a = result.analysis;
    const summary = t("arrangements", { n: a.arrangements, safe: a.safe.length, mine: a.mine.length });
    const h = result.hint;
    showMessage(box, { label: summary, text: (h.label ? h.label + " " : "") + h.text });
    box.dataset.state = "ok";
  } catch (err) {
    if (ticket !== edit.ticket) return;
    edit.result = null;
    drawEditor();
    if (err instanceof ApiError && err.data.clues) edit.board.mark(err.data.clues, "conflict");
    showMessage(box, { text: err.message, kind: "error" });
    box.dataset.state = "error";
  }
}

// ---- statistics --------------------------------------------------------------------------

async function showStats() {
  const { stats } = await api("GET", "/api/stats");
  const body = $("stats-table").querySelector("tbody");
  body.replaceChildren();
  const order = ["beginner", "intermediate", "expert", "custom"];
  stats.sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level) || b.guess_free - a.guess_free);
  for (const s of stats) {
    const tr = document.createElement("tr");
    const cells = [
      [t(s.level), false],
      [s.guess_free ? t("guess_free_short") : t("random_short"), false],
      [s.played, true],
      [s.won, true],
      [s.played ? Math.round((100 * s.won) / s.played) + " %" : "–", true],
      [s.best_time === null ? "–" : s.best_time.toFixed(1) + " s", true],
      [s.guesses_per_game === null ? "–" : s.guesses_per_game.toFixed(2), true],
    ];
    for (const [text, num] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (num) td.className = "num";
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("no-stats").hidden = stats.length > 0;
}

// ---- the page ----------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    $(tab.dataset.tab).hidden = !on;
  }
  store.set("tab", name);
  if (name === "stats") showStats().catch((err) => console.error(err));
  if (name === "analysis" && !edit.result) scheduleAnalysis();
}

async function setLanguage(code) {
  lang = code in LANG_NAMES ? code : "en";
  store.set("lang", lang);
  $("lang").value = lang;
  applyTranslations();
  if (play.view) showGame(play.view);
  const box = $("message");
  if (!box.hidden && !box.classList.contains("error") && play.view && play.view.state === "playing") {
    await askHint();
  }
  if (edit.result) runAnalysis();
}

async function start() {
  try {
    messages = await (await fetch("/static/i18n.json")).json();
  } catch {
    messages = {};
  }
  const select = $("lang");
  for (const [code, name] of Object.entries(LANG_NAMES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    select.appendChild(option);
  }
  const browser = (navigator.language || "en").slice(0, 2);
  lang = store.get("lang") || (browser in LANG_NAMES ? browser : "en");
  select.value = lang;
  applyTranslations();

  play.board = new BoardView($("board"), act);
  edit.board = new BoardView($("editor"), editCell);
  const level = store.get("level");
  if (level) $("level").value = level;
  $("custom-size").hidden = $("level").value !== "custom";

  select.addEventListener("change", () => setLanguage(select.value));
  $("level").addEventListener("change", () => { $("custom-size").hidden = $("level").value !== "custom"; });
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("hint").addEventListener("click", askHint);
  $("show-probabilities").addEventListener("change", toggleProbabilities);
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
  }
  $("board").addEventListener("keydown", (e) => {
    if (e.key === "h" || e.key === "H") askHint();
    else if (e.key === "n" || e.key === "N") newGame();
    else if (e.key === "p" || e.key === "P") {
      $("show-probabilities").checked = !$("show-probabilities").checked;
      toggleProbabilities();
    }
  });
  $("load-paste").addEventListener("click", () => runAnalysis($("paste").value));
  $("editor-size").addEventListener("submit", (e) => {
    e.preventDefault();
    emptyPosition(
      Math.max(1, Math.min(100, Number($("edit-width").value) || 8)),
      Math.max(1, Math.min(100, Number($("edit-height").value) || 8)),
    );
  });
  $("edit-mines").addEventListener("change", () => scheduleAnalysis());
  $("trust-flags").addEventListener("change", () => scheduleAnalysis());
  emptyPosition(8, 8);
  showTab(store.get("tab") || "play");
  await resumeGame();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", () => {
  start().catch((err) => showMessage($("message"), { text: String(err.message || err), kind: "error" }));
});
