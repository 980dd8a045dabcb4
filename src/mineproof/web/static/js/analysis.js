// The Analysis view: a position pasted or edited by hand, analysed by the server (the forced
// cells, every mine probability, the number of arrangements, the next hint).
//
// Its state is one object, `s`: the edited cells and the last answer for exactly those cells.

import { BoardView, COVERED, FLAG, codeLook } from "./board.js";
import { countText, t, wordRange } from "./i18n.js";
import { markPending, showMessage } from "./util.js";

const TEMPLATE = `
  <div class="columns">
    <div>
      <label for="paste" data-i18n="paste_position"></label>
      <textarea id="paste" rows="8" spellcheck="false"></textarea>
      <div class="toolbar"><button id="load-paste" type="button" data-i18n="load"></button></div>
      <form id="editor-size" class="toolbar">
        <label><span data-i18n="width"></span> <input id="edit-width" type="number" min="1" value="8"></label>
        <label><span data-i18n="height"></span> <input id="edit-height" type="number" min="1" value="8"></label>
        <button type="submit" data-i18n="empty_board"></button>
      </form>
      <div class="toolbar">
        <label><span data-i18n="mine_total"></span> <input id="edit-mines" type="number" min="0" value="10"></label>
        <label class="switch"><input id="trust-flags" type="checkbox"> <span data-i18n="trust_flags"></span></label>
      </div>
      <p class="help" data-i18n="edit_help"></p>
    </div>
    <div>
      <div class="board-wrap"><div id="editor" class="board" data-i18n-label="editor"></div></div>
      <div id="analysis-result" class="message" role="status"></div>
    </div>
  </div>
`;

const CYCLE = [COVERED, 0, 1, 2, 3, 4, 5, 6, 7, 8, FLAG];

export const analysisView = {
  name: "analysis",
  tab: "analysis",
  create(app, panel) {
    panel.innerHTML = TEMPLATE;
    const q = (id) => panel.querySelector("#" + id);
    const s = {
      width: 8,
      height: 8,
      cells: [],       // rows of cell codes (-1 covered, -2 flag, 0-8)
      result: null,    // the server's analysis of exactly `cells`
      error: null,     // the server's refusal of `cells`
      pending: null,   // the timer of the next analysis
      ticket: 0,       // only the answer for the position as it is now is shown
      busy: false,     // an answer is awaited: what is shown is not yet for \`cells\`
      // A pasted text not yet shown on the board (awaited, or refused without a position, as
      // for its mine total): { text, total: the mine total typed since (it replaces the text's
      // own), allowed: the totals the server allows it, once it said }. A change of the mine
      // total or of the flags' trust asks for it again, not for the board shown before; an
      // edit of that board, or a new empty one, drops it.
      paste: null,
    };
    const board = new BoardView(q("editor"), edit);
    for (const id of ["edit-width", "edit-height"]) q(id).max = app.meta.max_side;
    wordRange(q("edit-width"), "width");
    wordRange(q("edit-height"), "height");
    wordRange(q("edit-mines"), "mine_total");

    function empty(width, height) {
      s.paste = null;
      s.width = width;
      s.height = height;
      s.cells = Array.from({ length: height }, () => Array(width).fill(COVERED));
      s.result = null;
      s.error = null;
      render();
      schedule();
    }

    // The mine total typed, or null when the field holds no whole number from 0 up (empty,
    // negative, a fraction): the page says so rather than read it as 0.
    function mineTotal() {
      const typed = q("edit-mines").value.trim();
      const n = Number(typed);
      return typed !== "" && Number.isInteger(n) && n >= 0 ? n : null;
    }

    // The error of a mine total the field cannot give, as the server words a total out of range.
    // A pasted text awaited has the totals the server allowed it, once it said.
    function badTotal() {
      const covered = s.cells.flat().filter((c) => c === COVERED || c === FLAG).length;
      const allowed = (s.paste && s.paste.allowed) || [0, covered];
      return { kind: "argument", status: 400, data: { name: "mines", allowed } };
    }

    function positionText() {
      const rows = s.cells.map((row) => row.map((c) => (c === COVERED ? "H" : c === FLAG ? "F" : String(c))).join(""));
      return `${s.width}x${s.height}x${mineTotal()}\n${rows.join("\n")}\n`;
    }

    function edit(kind, x, y) {
      const at = CYCLE.indexOf(s.cells[y][x]);
      if (kind === "flag" && board.lastPointer === "touch") {
        s.cells[y][x] = s.cells[y][x] === FLAG ? COVERED : FLAG;
      } else if (kind === "back") {
        s.cells[y][x] = COVERED;
      } else {
        const step = kind === "open" ? 1 : CYCLE.length - 1;
        s.cells[y][x] = CYCLE[(at + step) % CYCLE.length];
      }
      s.paste = null;
      s.result = null;
      s.error = null;
      render();
      schedule();
    }

    // Ask for the analysis in a moment (the position changed, or is shown first). An answer
    // still awaited is for the position before: it is dropped (its cells, adopted, would undo
    // the edit), and what is shown is marked as stale from now on, not once the request is sent.
    function schedule() {
      clearTimeout(s.pending);
      awaitAnswer();
      s.pending = setTimeout(() => analyse(), 150);
    }

    // From now on a new answer is awaited: one awaited before is dropped when it comes (its
    // ticket is no longer the latest), and the result shown is marked as stale (data-state
    // "pending"), so neither a person nor a test takes the previous position's analysis for
    // the new one. Returns the new answer's ticket.
    function awaitAnswer() {
      s.busy = true;
      markPending(q("analysis-result"), true);
      return ++s.ticket;
    }

    // Analyse `text` (pasted: it is awaited until it is shown, see `paste`), else the pasted text
    // awaited, else the board shown. `scroll`: bring the verdict into view.
    async function analyse(text = null, scroll = text !== null) {
      clearTimeout(s.pending);
      const ticket = awaitAnswer();
      if (text !== null) s.paste = { text, total: false, allowed: null };
      const paste = s.paste;
      const grid = paste !== null && paste.text.trim().startsWith("[");
      // The field's total is asked for the board, for a grid (which has none) and for a text
      // whose total was typed since it was pasted; else the text's own.
      const typed = paste === null || grid || paste.total;
      if (typed && mineTotal() === null) {
        Object.assign(s, { result: null, error: badTotal(), busy: false });
        render();
        return;
      }
      const body = { text: paste ? paste.text : positionText(), lang: app.lang(), trust_flags: q("trust-flags").checked };
      if (paste && typed) body.mines = mineTotal();
      try {
        const result = await app.api("POST", "/api/analyze", body);
        if (ticket !== s.ticket) return;
        // The language changed while it was awaited: its hint is in the one before (an error
        // is worded here, in the language of the moment). The same position is asked again
        // (a paste is still awaited: it is the one asked).
        if (body.lang !== app.lang()) return analyse(null, scroll);
        adopt(result.position);
        Object.assign(s, { result, error: null, busy: false });
      } catch (err) {
        if (ticket !== s.ticket) return;
        // A position no arrangement fits comes back with the error: it is the one shown, its
        // conflicting numbers outlined on it.
        if (err.data.position) adopt(err.data.position);
        else if (paste && err.kind === "argument" && err.data.name === "mines") {
          if (err.data.allowed) paste.allowed = err.data.allowed;
        } else if (paste && paste === s.paste) {
          // Refused for what it holds, not for its total: a new total cannot mend it, so the
          // board shown is again the one a change of the total or the flags' trust analyses.
          s.paste = null;
        }
        Object.assign(s, { result: null, error: err, busy: false });
      }
      render();
      // A pasted position's verdict may be below a tall board: bring it into view (an edit of
      // the board is answered where the player is looking, without a jump).
      if (scroll) q("analysis-result").scrollIntoView({ block: "nearest" });
    }

    // Edit from here on the position the server read (size, mine total, cells).
    function adopt(p) {
      Object.assign(s, { width: p.width, height: p.height, cells: p.cells, paste: null });
      q("edit-width").value = p.width;
      q("edit-height").value = p.height;
      q("edit-mines").value = p.mines;
    }

    function render() {
      board.resize(s.width, s.height);
      const a = s.result && s.result.analysis;
      const marks = new Map();
      const add = (cells, cls) => {
        for (const [x, y] of cells || []) marks.set(x + "," + y, [...(marks.get(x + "," + y) || []), cls]);
      };
      if (a) {
        add(a.safe, "hint-safe");
        add(a.mine, "hint-mine");
        if (s.result.hint) add(s.result.hint.premises, "premise");
      }
      if (s.error && s.error.data.clues) add(s.error.data.clues, "conflict");
      board.draw((x, y) => {
        const code = s.cells[y][x];
        const extra = { marks: marks.get(x + "," + y) || [] };
        if (a && code === COVERED) extra.p = a.probabilities[y][x];
        return codeLook(code, extra);
      });
      const box = q("analysis-result");
      if (a) {
        const h = s.result.hint; // null: counted, but too complex to explain
        const label = t("arrangements", { n: countText(a.arrangements), safe: a.safe.length, mine: a.mine.length });
        const words = h ? h.labelled : t("hint_too_complex");
        showMessage(box, { label, text: words });
        box.dataset.state = "ok";
      } else if (s.error) {
        // The mine total is the request's `mines`.
        showMessage(box, { text: app.errorText(s.error, { mines: "mine_total" }), kind: "error" });
        box.dataset.state = "error";
      } else {
        delete box.dataset.state;
      }
      markPending(box, s.busy);
    }

    q("load-paste").addEventListener("click", () => analyse(q("paste").value));
    q("editor-size").addEventListener("submit", (e) => {
      e.preventDefault();
      const side = (id) => Math.max(1, Math.min(app.meta.max_side, Number(q(id).value) || 8));
      empty(side("edit-width"), side("edit-height"));
    });
    // A total typed for a pasted text awaited replaces the text's own (one refused for its
    // total is asked again with the one typed).
    q("edit-mines").addEventListener("change", () => {
      if (s.paste) s.paste.total = true;
      schedule();
    });
    q("trust-flags").addEventListener("change", schedule);
    s.cells = Array.from({ length: s.height }, () => Array(s.width).fill(COVERED));

    return {
      render,
      show() { if (!s.result && !s.error) schedule(); },
      // The hint is worded by the server: asked again; an error is worded here. While an answer
      // is awaited, the position shown may not be the one asked for (a paste): that answer is
      // asked again when it comes (analyse()).
      language() { if (s.result && !s.busy) analyse(); else render(); },
    };
  },
};
