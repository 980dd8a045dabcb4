// The Review view: a finished game, or a replay file, stepped through click by click, each
// click judged by the server (forced at a level, a needed guess with its odds, or a mistake: a
// guess while a safe cell could be proven) with the words of `mineproof review`, and the
// animated GIF the replay command makes, to download.
//
// The server reviews (GET /api/games/ID/review, POST /api/review for a file); each click of
// its answer lists the cells it opened with their numbers (`revealed`), so the board at any
// step is drawn here from the clicks before it, without the rules of the game. Its state is
// one object, `s`; render() draws the view from it.

import { ApiError } from "./api.js";
import { BoardView, COVERED, FLAG, cellName, codeLook, look } from "./board.js";
import { decimal, t } from "./i18n.js";
import { el, markPending, saved, showMessage } from "./util.js";

const TEMPLATE = `
  <div class="toolbar">
    <button id="review-last" type="button" data-i18n="review_last"></button>
    <label class="file-pick"><span data-i18n="replay_file"></span>
      <input id="replay-file" class="sr-only" type="file" accept=".avf,.mvf,.rmv,.evf,.json">
      <span class="file-button" data-i18n="choose_file" aria-hidden="true"></span>
      <span id="replay-name" data-i18n="no_file" aria-hidden="true"></span></label>
  </div>
  <div id="review-summary" class="message" role="status" hidden></div>
  <div id="review-steps" class="toolbar steps" hidden>
    <span class="step-buttons">
      <button id="step-first" type="button" data-i18n-label="step_first" data-i18n-title="step_first">\u00AB</button>
      <button id="step-prev" type="button" data-i18n-label="step_prev" data-i18n-title="step_prev">\u25C0</button>
      <input id="step" type="range" min="0" max="0" value="0" data-i18n-label="step_slider">
      <button id="step-next" type="button" data-i18n-label="step_next" data-i18n-title="step_next">\u25B6</button>
      <button id="step-last" type="button" data-i18n-label="step_last" data-i18n-title="step_last">\u00BB</button>
    </span>
    <span id="step-count"></span>
    <button id="download-gif" type="button" data-i18n="download_gif"></button>
  </div>
  <div class="board-wrap"><div id="review-board" class="board" data-i18n-label="review_board"></div></div>
  <div id="review-click" class="message review-click" aria-live="polite" hidden></div>
  <p id="review-empty" class="help" data-i18n="review_empty"></p>
`;

// A judgement's mark on the board (board.js names it for screen readers).
const MARKS = { start: "rv-forced", forced: "rv-forced", guess: "rv-guess", mistake: "rv-mistake" };

export const reviewView = {
  name: "review",
  tab: "review",
  create(app, panel) {
    panel.innerHTML = TEMPLATE;
    const q = (id) => panel.querySelector("#" + id);
    const s = {
      chosen: null,   // what was chosen last: a source, or a promise of one (a file being read)
      source: null,   // what the review shown is of: { game: id } or { file: { name, data } }
      review: null,   // the server's review of `source`
      step: 0,        // clicks of that review shown: 0 before the first click
      message: null,  // an error to show, { error } or { key, vars }
      ticket: 0,      // only the answer for what was chosen last is shown
      busy: false,    // an answer is awaited: what is shown is not yet what was chosen
    };
    const board = new BoardView(q("review-board"), () => {});

    // --- loading ------------------------------------------------------------------------

    // Show the review of `chosen`, a source or a promise of one (a file being read). The ticket
    // is taken at the choice: a file still being read, or an answer still awaited, is of what
    // was chosen before (another game or file, or the same in another language) and dropped
    // whenever it comes, so a slow one never replaces this one. Until this one comes, the review
    // shown stays as it was, its step too (it can still be stepped through), marked as stale
    // (data-state "pending", aria-busy); then this one replaces it from its start, or at the
    // same step when it is the same review again (in another language).
    async function load(chosen) {
      const ticket = ++s.ticket;
      s.chosen = chosen;
      s.busy = true;
      markPending(q("review-summary"), true);
      let source = null;
      try {
        source = await chosen;
        if (ticket !== s.ticket) return;
        const review = await ask(source);
        if (ticket !== s.ticket) return;
        const step = source === s.source ? Math.min(s.step, review.clicks.length) : 0;
        Object.assign(s, { source, review, step, message: null, busy: false });
      } catch (err) {
        if (ticket !== s.ticket) return;
        Object.assign(s, { source, review: null, step: 0, message: { error: err }, busy: false });
      }
      render();
    }

    // Return the server's review of `source`, in the page's language.
    function ask(source) {
      if (source.game) {
        return app.api("GET", `/api/games/${encodeURIComponent(source.game)}/review?lang=${app.lang()}`);
      }
      return app.api("POST", "/api/review", { ...source.file, lang: app.lang() });
    }

    function open(id) {
      return load({ game: id });
    }

    function readFile(file) {
      return new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
    }

    // Return the source of a replay file, once read; a file larger than the server reads is
    // refused here, as the server would refuse it (413).
    async function readReplay(file) {
      if (file.size > app.meta.max_upload) {
        throw new ApiError(413, { kind: "request", error: `the replay is over ${app.meta.max_upload} bytes` });
      }
      return { file: { name: file.name, data: await readFile(file) } };
    }

    // The file picker's words are the page's (the browser's own follow its language): the
    // name of the file chosen replaces "No file chosen".
    async function upload() {
      const file = q("replay-file").files[0];
      const name = q("replay-name");
      if (file) {
        name.removeAttribute("data-i18n");
        name.textContent = file.name;
        await load(readReplay(file));
      }
    }

    // The animation: a link for a game of the server, a download of the answer for a file.
    async function downloadGif() {
      let url;
      let name;
      if (s.source.game) {
        url = `/api/games/${encodeURIComponent(s.source.game)}/review.gif`;
        name = `mineproof-${s.source.game}.gif`;
      } else {
        const response = await fetch("/api/review.gif", {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(s.source.file),
        });
        if (!response.ok) {
          s.message = { key: "error_replay" };
          render();
          return;
        }
        url = URL.createObjectURL(await response.blob());
        name = s.source.file.name.replace(/\.[^.]*$/, "") + ".gif";
      }
      const link = el("a", { href: url, download: name, hidden: true });
      panel.appendChild(link);
      link.click();
      link.remove();
      if (url.startsWith("blob:")) setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }

    // --- drawing ------------------------------------------------------------------------

    // The board after the first `step` clicks: cell codes as the API's (-1 covered, -2 flag).
    function cellsAt(step) {
      const { width, height } = s.review.board;
      const cells = Array.from({ length: height }, () => new Array(width).fill(COVERED));
      for (const click of s.review.clicks.slice(0, step)) {
        const [x, y] = click.cell;
        if (click.action === "flag") cells[y][x] = FLAG;
        else if (click.action === "unflag") cells[y][x] = COVERED;
        for (const [cx, cy, n] of click.revealed) cells[cy][cx] = n;
      }
      return cells;
    }

    function clickMark(click) {
      if (click.judgement) return MARKS[click.judgement] || null;
      return click.wrong ? "rv-mistake" : null;
    }

    function renderBoard() {
      const review = s.review;
      const { width, height } = review.board;
      board.resize(width, height);
      const cells = cellsAt(s.step);
      const clicks = review.clicks;
      const current = s.step ? clicks[s.step - 1] : null;
      const end = s.step === clicks.length;
      const outcome = review.summary.outcome;
      const mines = new Set(review.mine_cells.map(([x, y]) => y * width + x));
      const exploded = current && current.exploded;
      board.draw((x, y) => {
        const code = cells[y][x];
        const marks = [];
        if (current && current.cell[0] === x && current.cell[1] === y) {
          const mark = clickMark(current);
          if (mark) marks.push(mark);
        }
        if (exploded && exploded[0] === x && exploded[1] === y) return look("exploded", { marks });
        if (end && outcome !== "unfinished") {
          const mine = mines.has(y * width + x);
          if (code === FLAG && !mine) return look("wrong-flag", { marks });
          if (code === COVERED && mine) return look(outcome === "won" ? "flag" : "mine", { marks });
        }
        return codeLook(code, { marks });
      });
      if (current) board.reveal([current.cell]);
    }

    function clickWords(click) {
      if (click.judgement) return click.text;
      const cell = cellName(...click.cell);
      if (click.wrong) return t("review_wrong_flag", { cell });
      return t(click.action === "flag" ? "review_flag" : "review_unflag", { cell });
    }

    function render() {
      const review = s.review;
      const empty = !review;
      q("review-steps").hidden = empty;
      q("review-board").parentElement.hidden = empty;
      board.bar.hidden = empty;
      q("review-empty").hidden = !empty || Boolean(s.message);
      q("review-last").disabled = !saved.get("finished");
      const summary = q("review-summary");
      if (s.message && s.message.error) showMessage(summary, { text: errorWords(s.message.error), kind: "error" });
      else if (s.message) showMessage(summary, { text: t(s.message.key, s.message.vars), kind: "error" });
      else if (review) showMessage(summary, { label: t("review"), text: review.summary.text });
      else showMessage(summary);
      markPending(summary, s.busy);
      if (empty) {
        showMessage(q("review-click"));
        return;
      }
      const total = review.clicks.length;
      const slider = q("step");
      slider.max = total;
      slider.value = s.step;
      // Said by the slider (its value's words), not announced on its own: the click's words,
      // a live region, already follow each step.
      const where = s.step ? t("review_step", { n: s.step, total }) : t("review_start");
      q("step-count").textContent = where;
      slider.setAttribute("aria-valuetext", where);
      const current = s.step ? review.clicks[s.step - 1] : null;
      const words = q("review-click");
      if (current) {
        const when = current.time === null ? "" : ` · ${decimal(current.time, 2)} s`;
        showMessage(words, { label: `#${current.number}${when}`, text: clickWords(current) });
      } else {
        showMessage(words);
      }
      renderBoard();
      const root = board.root;
      root.dataset.step = s.step;
      root.dataset.clicks = total;
    }

    // The words of an error: a replay file's own, else the page's for the API's errors.
    function errorWords(err) {
      const d = err.data || {};
      if (err.kind === "format" && s.source && s.source.file) return t("error_replay");
      if (err.kind === "argument" && d.name === "ms-toollib") return t("error_replays_missing");
      if (err.kind === "argument" && d.name === "state") return t("error_not_finished");
      if (err.status === 413) return t("error_upload_size", { size: Math.floor(app.meta.max_upload / 1000) });
      return app.errorText(err);
    }

    function go(step) {
      if (!s.review) return;
      s.step = Math.max(0, Math.min(s.review.clicks.length, step));
      render();
    }

    // --- wiring -------------------------------------------------------------------------

    q("review-last").addEventListener("click", () => {
      const id = saved.get("finished");
      if (id) open(id);
    });
    q("replay-file").addEventListener("change", upload);
    q("step-first").addEventListener("click", () => go(0));
    q("step-prev").addEventListener("click", () => go(s.step - 1));
    q("step-next").addEventListener("click", () => go(s.step + 1));
    q("step-last").addEventListener("click", () => go(Infinity));
    q("step").addEventListener("input", () => go(Number(q("step").value)));
    q("download-gif").addEventListener("click", () => { if (s.source) downloadGif(); });

    return {
      render,
      open,
      show() {
        if (!s.chosen && saved.get("finished")) open(saved.get("finished"));
        else render();
      },
      // The language changed: the server words what was chosen last again.
      async language() {
        if (s.chosen) await load(s.chosen);
        else render();
      },
    };
  },
};
