// A board of cells on the page: the game's and the analysis editor's.
//
// The board is an ARIA grid: a row of column headers (A, B, ... AA, AB: the names the texts
// use), then rows of cells, each led by its row number; the headers stay on the edges while
// the board scrolls. Each cell is an element with data-x, data-y, data-state and an accessible
// name ("C4, covered", "C4, 3", "C4, flagged"). The board draws what it is given with draw():
// a function from (x, y) to the cell's look, touching only the cells whose look changed, so a
// 100x100 board redraws quickly.
//
// Input comes back through `on(action, x, y)`, action "open" | "flag" | "back": from the mouse,
// touch (a tap opens, a long press flags) and the keyboard (arrows move, Space or Enter opens,
// F flags, Backspace goes back). The board zooms (its buttons, pinch, Ctrl+wheel, + - 0) and
// pans (scrollbars, wheel, or one finger), and reveal(cells) brings cells into view.

import { t } from "./i18n.js";
import { el } from "./util.js";

const MIN_CELL = 8;
const MAX_CELL = 48;
const DRAG_PX = 10;

const LONG_PRESS_MS = 450;
const LABEL_GAP = 3;  // px at least between two column letters shown

// A canvas's context to measure text with (the column letters' widths), made once.
let canvas = null;
function pen() {
  canvas = canvas || document.createElement("canvas").getContext("2d");
  return canvas;
}

export const COVERED = -1;
export const FLAG = -2;

// The name of a cell as the board's edges and the explanations show it: column letters (A-Z,
// AA, AB, ...), then the 1-based row (the same rule as mineproof.board.cell_name).
export function cellName(x, y) {
  let letters = "";
  for (let n = x + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters + (y + 1);
}

// The look of a cell: state "covered" | "open" | "flag" | "mine" | "exploded" | "wrong-flag",
// n the number of an open cell, p a mine probability to show on a covered cell (or null), marks
// the classes of the marks drawn on it: a hint's ("premise", "hint-safe", "hint-mine",
// "safest", "best"), a post-mortem's ("provable", "fatal"), a review's ("rv-forced",
// "rv-guess", "rv-mistake").
export function look(state, { n = null, p = null, marks = [] } = {}) {
  return { state, n, p, marks };
}

// The look of a cell code of the API (-1 covered, -2 flag, 0-8 opened).
export function codeLook(code, extra = {}) {
  if (code >= 0) return look("open", { ...extra, n: code });
  return look(code === FLAG ? "flag" : "covered", extra);
}

// The heat map of mine probabilities: viridis, from light yellow (safe) to dark violet (a
// mine), which every kind of colour vision reads in order, by lightness alone.
const VIRIDIS = [
  [253, 231, 37], [181, 222, 43], [110, 206, 88], [53, 183, 121], [31, 158, 137],
  [38, 130, 142], [49, 104, 142], [62, 73, 137], [72, 40, 120], [68, 1, 84],
];

// The background of a covered cell showing mine probability p (0..1).
export function heat(p) {
  const at = Math.max(0, Math.min(1, p)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(at));
  const f = at - i;
  const rgb = VIRIDIS[i].map((c, k) => Math.round(c + (VIRIDIS[i + 1][k] - c) * f));
  return `rgb(${rgb.join(", ")})`;
}

// The ink of the percentage written on heat(p): black on the lighter colours, white on the
// darker (each at least 4.5:1).
export function heatInk(p) {
  return p < 0.57 ? "#000" : "#fff";
}

// Never rounds a possibility away: 0.5 % is "<1", 99.5 % is ">99".
function percent(p) {
  const shown = Math.round(p * 100);
  return p > 0 && shown <= 0 ? "<1" : p < 1 && shown >= 100 ? ">99" : String(shown);
}

export class BoardView {
  // `root`: the element of the grid, inside a scrolling `.board-wrap`; `on(action, x, y)`.
  constructor(root, on) {
    this.root = root;
    this.wrap = root.parentElement;
    this.on = on;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.keys = [];
    this.cursor = [0, 0];
    this.cursorShown = false;
    this.press = null;
    this.longPressed = false;
    this.panned = false;
    this.pointers = new Map();
    this.pinch = null;
    this.lastPointer = "mouse";
    this.size = matchMedia("(pointer: coarse)").matches ? 30 : 28;
    root.tabIndex = 0;
    root.setAttribute("role", "grid");
    root.style.setProperty("--cell", this.size + "px");
    this.bar = el("div", { class: "zoom toolbar" },
      el("button", { type: "button", class: "zoom-out", "data-i18n-label": "zoom_out", "data-i18n-title": "zoom_out" }, "\u2212"),
      el("button", { type: "button", class: "zoom-in", "data-i18n-label": "zoom_in", "data-i18n-title": "zoom_in" }, "+"),
      el("button", { type: "button", class: "zoom-fit", "data-i18n-label": "zoom_fit", "data-i18n-title": "zoom_fit" }, "\u2922"),
    );
    this.wrap.before(this.bar);
    this.bar.querySelector(".zoom-out").addEventListener("click", () => this.zoom(1 / 1.25));
    this.bar.querySelector(".zoom-in").addEventListener("click", () => this.zoom(1.25));
    this.bar.querySelector(".zoom-fit").addEventListener("click", () => this.fit());
    root.addEventListener("click", (e) => this.click(e));
    root.addEventListener("contextmenu", (e) => this.context(e));
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    root.addEventListener("pointerup", () => this.cancelPress());
    root.addEventListener("pointerleave", () => this.cancelPress());
    root.addEventListener("keydown", (e) => this.key(e));
    // Reached by the keyboard, the board shows where its keys act (not on a click: the mouse
    // points itself).
    root.addEventListener("focus", () => { if (root.matches(":focus-visible")) this.showCursor(true); });
    // Touch: one finger pans the board (then the page, past its edges), two fingers zoom.
    const wrap = this.wrap;
    wrap.addEventListener("pointerdown", (e) => this.touchDown(e));
    wrap.addEventListener("pointermove", (e) => this.touchMove(e));
    for (const type of ["pointerup", "pointercancel"]) wrap.addEventListener(type, (e) => this.touchUp(e));
    wrap.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      this.zoom(e.deltaY < 0 ? 1.1 : 1 / 1.1, [e.clientX, e.clientY]);
    }, { passive: false });
    document.addEventListener("mineproof:language", () => this.invalidate());
  }

  resize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    const head = el("div", { class: "row cols", role: "row" }, el("div", { class: "corner", "aria-hidden": "true" }));
    for (let x = 0; x < width; x++) {
      const name = cellName(x, 0).slice(0, -1);
      head.appendChild(el("div", { class: "col-label", role: "columnheader", "aria-label": name }, name));
    }
    const rows = [head];
    this.cells = [];
    for (let y = 0; y < height; y++) {
      const row = el("div", { class: "row", role: "row" }, el("div", { class: "row-label", role: "rowheader" }, String(y + 1)));
      for (let x = 0; x < width; x++) {
        const cell = el("div", {
          class: "cell", id: `${this.root.id}-${x}-${y}`, role: "gridcell",
          dataset: { x, y, state: "covered" },
        });
        row.appendChild(cell);
        this.cells.push(cell);
      }
      rows.push(row);
    }
    this.root.replaceChildren(...rows);
    this.root.setAttribute("aria-rowcount", height + 1);
    this.root.setAttribute("aria-colcount", width + 1);
    this.keys = new Array(width * height).fill("");
    this.cursor = [Math.min(this.cursor[0], width - 1), Math.min(this.cursor[1], height - 1)];
    this.showCursor(false);
    this.labelStep = 1;
    this.spaceLabels();
  }

  // Show the column letters of every `step`-th column only (A, C, E, ...), the fewest steps
  // at which the widest letters do not run together at this cell size; each column header
  // keeps its name (aria-label) for screen readers.
  spaceLabels() {
    const heads = [...this.root.querySelectorAll(".col-label")];
    if (!heads.length) return;
    const style = getComputedStyle(heads[0]);
    const text = pen();
    text.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(...heads.map((h) => text.measureText(h.getAttribute("aria-label")).width));
    const step = Math.max(1, Math.ceil((widest + LABEL_GAP) / (this.size + 1)));
    if (step === this.labelStep) return;
    this.labelStep = step;
    heads.forEach((h, x) => { h.textContent = x % step ? "" : h.getAttribute("aria-label"); });
  }

  cell(x, y) { return this.cells[y * this.width + x]; }

  // Draw every cell as lookAt(x, y) says; only the cells whose look changed are touched.
  draw(lookAt) {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) this.paint(x, y, lookAt(x, y));
    }
  }

  // Forget what is drawn (the next draw repaints every cell: after a language switch).
  invalidate() { this.keys.fill(""); }

  paint(x, y, { state, n, p, marks }) {
    const i = y * this.width + x;
    // A probability counts as the percentage shown: a click far away that moves it by a
    // hundredth of a percent leaves the cell alone.
    const shown = p === null || p === undefined || state !== "covered" ? "" : percent(p);
    const key = `${state}|${n ?? ""}|${shown}|${marks.join(" ")}`;
    if (this.keys[i] === key) return;
    this.keys[i] = key;
    const cell = this.cells[i];
    cell.dataset.state = state;
    if (n === null) delete cell.dataset.n;
    else cell.dataset.n = n;
    cell.className = ["cell", ...marks].join(" ");
    if (this.cursorShown && x === this.cursor[0] && y === this.cursor[1]) cell.classList.add("cursor");
    if (shown) {
      cell.style.background = heat(p);
      cell.style.color = heatInk(p);
      cell.replaceChildren(el("span", { class: "p", "aria-hidden": "true" }, shown));
    } else {
      cell.style.background = "";
      cell.style.color = "";
      cell.textContent = n ? String(n) : "";
    }
    cell.setAttribute("aria-label", cellLabel(cellName(x, y), state, n, shown, marks));
  }

  // --- zoom and view ----------------------------------------------------------------------

  // Set the cell size to `px` (clamped), keeping the content under `anchor` ([clientX,
  // clientY], default: the middle of the board's window) where it is.
  setSize(px, anchor = null) {
    const size = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.round(px)));
    if (size === this.size) return;
    const wrap = this.wrap;
    const box = wrap.getBoundingClientRect();
    const [ax, ay] = anchor || [box.left + wrap.clientWidth / 2, box.top + wrap.clientHeight / 2];
    const fx = (wrap.scrollLeft + ax - box.left) / (this.size + 1);
    const fy = (wrap.scrollTop + ay - box.top) / (this.size + 1);
    this.size = size;
    this.root.style.setProperty("--cell", size + "px");
    this.spaceLabels();
    wrap.scrollLeft = fx * (size + 1) - (ax - box.left);
    wrap.scrollTop = fy * (size + 1) - (ay - box.top);
    this.root.dataset.cell = size;
  }

  zoom(factor, anchor = null) { this.setSize(this.size * factor, anchor); }

  // The room the cells have in the board's window, in px: [width, height] (the headers
  // aside, and no taller than the browser's window).
  room() {
    return this.inside(this.wrap.clientWidth, this.wrap.clientHeight);
  }

  // The room the cells have in the board's window if it were `width` x `height` px: as much of
  // it as is on screen below the window's top, less the labels.
  inside(width, height) {
    const labels = this.labels();
    const top = Math.max(0, this.wrap.getBoundingClientRect().top);
    const tall = Math.min(height, window.innerHeight - top, window.innerHeight);
    return [width - labels[0] - 4, tall - labels[1] - 4];
  }

  labels() {
    const corner = this.root.querySelector(".corner");
    return corner ? [corner.offsetWidth, corner.offsetHeight] : [0, 0];
  }

  // The room the cells could have, in px: [width, height], as room() measures it but for the
  // board's window at its largest (as wide as what holds it, as tall as its max-height), not
  // at its size now: the window is the board's size when the board is smaller, so a board
  // zoomed out would otherwise fit only its own small window.
  space() {
    const holder = this.wrap.parentElement;
    const pad = getComputedStyle(holder);
    const width = holder.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
    const max = parseFloat(getComputedStyle(this.wrap).maxHeight);  // NaN for "none"
    return this.inside(width, Number.isNaN(max) ? Infinity : max);
  }

  // Zoom so that the whole board fills its window at its largest (as far as the smallest and
  // largest cells allow), from any zoom.
  fit() {
    const [w, h] = this.space();
    const tall = Math.max(h, window.innerHeight * 0.5);
    // Whole pixels down: a board rounded up would overflow its room, and the page scrolled to
    // show it would give the next fit another room.
    this.setSize(Math.floor(Math.min(w / this.width, tall / this.height)) - 1);
    this.onScreen(this.bar); // the zoom buttons stay in reach above the board
  }

  // Scroll the page so that the board's window is whole on the screen, from `top` (the
  // window itself, or the zoom bar above it) down: a phone scrolls the controls above it
  // away; what is below it, the hint's words, fits under it.
  onScreen(top = this.wrap) {
    const frame = this.wrap.getBoundingClientRect();
    const first = top.getBoundingClientRect().top;
    if (first < 0 || frame.bottom > window.innerHeight) window.scrollBy(0, first - 2);
  }

  // Bring `cells` ([x, y] pairs) into view: zoom out until they fit the board's window,
  // scroll the board to centre them, then the page so that the board's window is on the
  // screen.
  reveal(cells) {
    if (!cells.length || !this.cells.length) return;
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const [w, h] = this.room();
    const fits = Math.floor(Math.min(w / (x1 - x0 + 1), h / (y1 - y0 + 1))) - 1;
    if (fits < this.size) this.setSize(fits);
    const wrap = this.wrap;
    const [lw, lh] = this.labels();
    const box = wrap.getBoundingClientRect();
    const a = this.cell(x0, y0).getBoundingClientRect();
    const b = this.cell(x1, y1).getBoundingClientRect();
    const middleX = (a.left + b.right) / 2 - box.left + wrap.scrollLeft;
    const middleY = (a.top + b.bottom) / 2 - box.top + wrap.scrollTop;
    const [roomW, roomH] = this.room();
    wrap.scrollLeft = middleX - lw - roomW / 2;
    wrap.scrollTop = middleY - lh - roomH / 2;
    this.onScreen();
  }

  // --- input ------------------------------------------------------------------------------

  target(e) {
    const cell = e.target.closest(".cell");
    return cell && this.root.contains(cell) ? [Number(cell.dataset.x), Number(cell.dataset.y)] : null;
  }

  click(e) {
    const at = this.target(e);
    if (!at) return;
    if (this.longPressed || this.panned) { this.longPressed = false; this.panned = false; return; }
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

  touchDown(e) {
    if (e.pointerType !== "touch") return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    this.panned = false;
    if (this.pointers.size === 2) {
      this.cancelPress();
      const [[ax, ay], [bx, by]] = [...this.pointers.values()];
      this.pinch = { distance: Math.hypot(ax - bx, ay - by) || 1, size: this.size };
    }
  }

  touchMove(e) {
    const last = this.pointers.get(e.pointerId);
    if (!last) return;
    const [x, y] = [e.clientX, e.clientY];
    this.pointers.set(e.pointerId, [x, y]);
    if (this.pointers.size >= 2 && this.pinch) {
      const [[ax, ay], [bx, by]] = [...this.pointers.values()];
      const distance = Math.hypot(ax - bx, ay - by);
      this.panned = true;
      this.setSize(this.pinch.size * distance / this.pinch.distance, [(ax + bx) / 2, (ay + by) / 2]);
      return;
    }
    const [dx, dy] = [x - last[0], y - last[1]];
    if (!this.panned) {
      this.travel = (this.travel || 0) + Math.abs(dx) + Math.abs(dy);
      if (this.travel < DRAG_PX) return;
      this.panned = true;
      this.cancelPress();
    }
    const wrap = this.wrap;
    const top = wrap.scrollTop;
    wrap.scrollLeft -= dx;
    wrap.scrollTop -= dy;
    const rest = dy + (wrap.scrollTop - top);  // what the board could not scroll: the page does
    if (Math.abs(rest) >= 1) window.scrollBy(0, -rest);
  }

  touchUp(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (this.pointers.size === 0) this.travel = 0;
  }

  showCursor(visible) {
    this.cursorShown = visible;
    for (const cell of this.root.querySelectorAll(".cursor")) cell.classList.remove("cursor");
    const cell = this.cells.length ? this.cell(...this.cursor) : null;
    if (!cell) return;
    this.root.setAttribute("aria-activedescendant", cell.id);
    if (visible) cell.classList.add("cursor");
  }

  key(e) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key in moves) {
      const [dx, dy] = moves[e.key];
      this.cursor = [
        Math.max(0, Math.min(this.width - 1, this.cursor[0] + dx)),
        Math.max(0, Math.min(this.height - 1, this.cursor[1] + dy)),
      ];
      this.showCursor(true);
      this.reveal([this.cursor]);
    } else if (e.key === " " || e.key === "Enter") {
      this.showCursor(true);
      this.on("open", ...this.cursor);
    } else if (e.key === "f" || e.key === "F") {
      this.on("flag", ...this.cursor);
    } else if (e.key === "Backspace") {
      this.on("back", ...this.cursor);
    } else if (e.key === "+" || e.key === "=") {
      this.zoom(1.25);
    } else if (e.key === "-") {
      this.zoom(1 / 1.25);
    } else if (e.key === "0") {
      this.fit();
    } else {
      return;
    }
    e.preventDefault();
  }
}

// The accessible name of a cell: "C4, covered", "C4, 3", "C4, flagged", ... then the hint's
// marks on it.
function cellLabel(cell, state, n, shown, marks) {
  let text;
  if (state === "open") text = t("cell_number", { cell, n });
  else if (state === "flag") text = t("cell_flag", { cell });
  else if (state === "mine") text = t("cell_mine", { cell });
  else if (state === "exploded") text = t("cell_exploded", { cell });
  else if (state === "wrong-flag") text = t("cell_wrong_flag", { cell });
  else if (shown) text = t("cell_probability", { cell, p: shown });
  else text = t("cell_covered", { cell });
  const words = {
    premise: "mark_premise", "hint-safe": "mark_safe", "hint-mine": "mark_mine", safest: "mark_safest",
    best: "mark_best", provable: "mark_provable", fatal: "mark_fatal", "rv-forced": "mark_forced",
    "rv-guess": "mark_guess", "rv-mistake": "mark_mistake",
  };
  for (const mark of marks) if (words[mark]) text += ", " + t(words[mark]);
  return text;
}
