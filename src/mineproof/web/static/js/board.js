// A board of cells on the page: the game's and the analysis editor's.
//
// The board is an ARIA grid of rows of cells, each cell an element with data-x, data-y and
// data-state. It draws what it is given with draw(): a function from (x, y) to the cell's look,
// and touches only the cells whose look changed, so a 100x100 board redraws quickly. Input
// comes back through `on(action, x, y)`, action "open" | "flag" | "back": from the mouse,
// touch (a long press flags) and the keyboard (arrows move, Space or Enter opens, F flags,
// Backspace goes back).

import { el } from "./util.js";

const LONG_PRESS_MS = 450;

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
// the classes of the hints drawn on it ("premise", "hint-safe", "hint-mine", "safest", ...).
export function look(state, { n = null, p = null, marks = [] } = {}) {
  return { state, n, p, marks };
}

// The look of a cell code of the API (-1 covered, -2 flag, 0-8 opened).
export function codeLook(code, extra = {}) {
  if (code >= 0) return look("open", { ...extra, n: code });
  return look(code === FLAG ? "flag" : "covered", extra);
}

// The background of a covered cell showing mine probability p (0..1).
export function heat(p) {
  return p === 0
    ? "hsl(130, 55%, 68%)"
    : `hsl(${Math.round(52 * (1 - p))}, 85%, ${Math.round(82 - 16 * p)}%)`;
}

function percent(p) {
  return p > 0 && p < 0.005 ? "<1" : p < 1 && p > 0.995 ? ">99" : String(Math.round(p * 100));
}

export class BoardView {
  constructor(root, on) {
    this.root = root;
    this.on = on;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.keys = [];
    this.cursor = [0, 0];
    this.cursorShown = false;
    this.press = null;
    this.longPressed = false;
    this.lastPointer = "mouse";
    root.tabIndex = 0;
    root.setAttribute("role", "grid");
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
    const rows = [];
    this.cells = [];
    for (let y = 0; y < height; y++) {
      const row = el("div", { class: "row", role: "row" });
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
    this.keys = new Array(width * height).fill("");
    this.cursor = [Math.min(this.cursor[0], width - 1), Math.min(this.cursor[1], height - 1)];
    this.showCursor(false);
  }

  cell(x, y) { return this.cells[y * this.width + x]; }

  // Draw every cell as lookAt(x, y) says; only the cells whose look changed are touched.
  draw(lookAt) {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) this.paint(x, y, lookAt(x, y));
    }
  }

  // Forget what is drawn (the next draw repaints every cell).
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
      cell.replaceChildren(el("span", { class: "p" }, shown));
    } else {
      cell.style.background = "";
      cell.textContent = n ? String(n) : "";
    }
  }

  target(e) {
    const cell = e.target.closest(".cell");
    return cell && this.root.contains(cell) ? [Number(cell.dataset.x), Number(cell.dataset.y)] : null;
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
    this.cursorShown = visible;
    for (const cell of this.root.querySelectorAll(".cursor")) cell.classList.remove("cursor");
    const cell = this.cells.length ? this.cell(...this.cursor) : null;
    if (!cell) return;
    this.root.setAttribute("aria-activedescendant", cell.id);
    if (visible) cell.classList.add("cursor");
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
}
