// The Play view: a game against the server, which keeps the mine layout; this page only ever
// sees what the player has opened (the mines once the game is over). Every game has its own
// address, /?game=ID: a reload, a bookmark or a second tab opens that game.
//
// Its state is one object, `s`; every change goes through setGame() (a fresh view from the
// server) or an action, then render() draws the whole view from `s`. Words are drawn from
// descriptors at render time, so a language switch redraws everything in the new language.

import { BoardView, COVERED, FLAG, cellName, codeLook, look } from "./board.js";
import { STAGES, hintCells, hintMarks, hintWords, isGuess } from "./hint.js";
import { TECHNIQUE_NAMES, decimal, t, wordRange } from "./i18n.js";
import { el, saved, showMessage } from "./util.js";

const TEMPLATE = `
  <form id="new-game" class="toolbar">
    <label><span data-i18n="level">Level</span> <select id="level"></select></label>
    <span id="custom-size" hidden>
      <label><span data-i18n="width">Width</span> <input id="custom-width" type="number" value="20"></label>
      <label><span data-i18n="height">Height</span> <input id="custom-height" type="number" value="20"></label>
      <label><span data-i18n="mines">Mines</span> <input id="custom-mines" type="number" min="1" value="60"></label>
    </span>
    <label class="switch"><input id="guess-free" type="checkbox" checked> <span data-i18n="guess_free">Guess-free board</span></label>
    <label><span data-i18n="technique">Technique</span> <select id="technique"></select></label>
    <label class="switch"><input id="gentle-start" type="checkbox"> <span data-i18n="gentle_start">Gentler start</span></label>
    <label class="switch"><input id="punish" type="checkbox"> <span data-i18n="punish_guesses">Punish guesses</span></label>
    <label class="switch"><input id="strict" type="checkbox"> <span data-i18n="strict_flags">Strict flags</span></label>
    <button id="new" type="submit" data-i18n="new_game">New game</button>
  </form>
  <p class="help" data-i18n="modes_help"></p>
  <div class="status">
    <span class="counter"><span data-i18n="mines_left">Mines left</span> <span id="mines-left">0</span></span>
    <span id="state" class="state"></span>
    <span class="counter"><span data-i18n="time">Time</span> <span id="timer">0</span></span>
  </div>
  <div class="toolbar">
    <button id="hint" type="button" data-i18n="hint">Hint</button>
    <label class="switch"><input id="show-probabilities" type="checkbox"> <span data-i18n="probabilities">Probabilities</span></label>
    <label class="switch"><input id="tutor" type="checkbox" checked> <span data-i18n="tutor">Tutor</span></label>
  </div>
  <div class="board-wrap"><div id="board" class="board" data-i18n-label="minefield"></div></div>
  <div id="progress" class="progress" hidden>
    <progress aria-labelledby="progress-text"></progress> <span id="progress-text"></span>
    <button id="cancel" type="button" data-i18n="cancel"></button>
  </div>
  <div id="message" class="message" role="status" hidden></div>
  <div class="toolbar"><button id="review-this" type="button" data-i18n="review_this" hidden></button></div>
  <p class="help" data-i18n="play_help"></p>
  <h2 class="help" data-i18n="keys"></h2>
  <dl id="keys" class="keys help"></dl>
`;

// Every key of the page, as the help lists it: the keys (a string key names a translated key
// name) and what they do. The board handles the first ones (board.js), this view H, P and N,
// the tab list its arrows (main.js).
const SHORTCUTS = [
  [["\u2190", "\u2191", "\u2192", "\u2193"], "key_move"],
  [[{ name: "key_space" }, { name: "key_enter" }], "key_open"],
  [["F", { name: "key_backspace" }], "key_flag"],
  [["H"], "key_hint"],
  [["P"], "key_probabilities"],
  [["N"], "key_new"],
  [["+", "\u2212"], "key_zoom"],
  [["0"], "key_fit"],
  [["\u2190", "\u2192"], "key_tabs"],
];

// The check boxes kept from visit to visit (util.js `saved`): their ids and the keys they are
// kept under. Those of a new game are kept when it is made, the others when they change.
const BOXES = [
  ["guess-free", "guess_free"], ["gentle-start", "gentle"], ["punish", "punish"], ["strict", "strict"],
  ["show-probabilities", "probabilities"], ["tutor", "tutor"],
];
const HELP_BOXES = ["show-probabilities", "tutor"];

// Milliseconds a move may take before the board shows that it is busy (it says so at once to
// screen readers, aria-busy); a first click's progress shows after as long.
const SLOW_MS = 300;

// Rounds of forced moves made for the player at a gentler start.
const GENTLE_ROUNDS = 2;

export const playView = {
  name: "play",
  tab: "play",
  create(app, panel) {
    panel.innerHTML = TEMPLATE;
    const q = (id) => panel.querySelector("#" + id);
    const s = {
      game: null,            // the server's view of the game
      clock: null,           // { elapsed, at }: the game's seconds at performance.now() `at`
      hint: null,            // the hint shown, for the game's position now
      hintStage: 0,          // how much of it is shown (hint.js: 1 where, 2 why, 3 what)
      hintPrefix: "",        // said before the hint's label (the tutor's words)
      probabilities: null,   // rows of mine probabilities of the position shown (box ticked)
      message: null,         // { label, key, vars, kind } or { error, figures? } or { hint: true }
      pending: null,         // { controller, since }: a first click whose board is being drawn
      moving: null,          // performance.now() when the move awaited was sent, or null
      queue: Promise.resolve(),
      reveal: false,         // bring the hint's cells into view at the next render
      revealWords: false,    // bring the words under the board into view at the next render
    };
    const board = new BoardView(q("board"), (action, x, y) => act(action, x, y));

    for (const [name] of Object.entries(app.meta.levels).concat([["custom"]])) {
      q("level").appendChild(el("option", { value: name, "data-i18n": name }, name));
    }
    for (const id of ["custom-width", "custom-height"]) {
      q(id).min = app.meta.min_side;
      q(id).max = app.meta.max_side;
    }
    wordRange(q("custom-width"), "width");
    wordRange(q("custom-height"), "height");
    wordRange(q("custom-mines"), "mines");
    for (const name of app.meta.techniques) {
      q("technique").appendChild(el("option", { value: name, "data-i18n": TECHNIQUE_NAMES[name] }, name));
    }
    // The settings are kept from visit to visit: those of a new game when it is made, the
    // boxes that help during a game when they change.
    const level = saved.get("level");
    if (level && level in app.meta.levels || level === "custom") q("level").value = level;
    for (const [id, key] of BOXES) {
      const kept = saved.get(key);
      if (kept !== null) q(id).checked = kept === "true";
    }
    if (app.meta.techniques.includes(saved.get("technique"))) q("technique").value = saved.get("technique");
    for (const id of ["custom-width", "custom-height", "custom-mines"]) {
      if (saved.get(id)) q(id).value = saved.get(id);
    }

    // --- state changes ------------------------------------------------------------------

    // Show the game `view`. The hint and the probabilities of another position are dropped:
    // `probabilities`, when given, are those of this one.
    function setGame(view, probabilities = null) {
      const same = s.game && s.game.id === view.id;
      if (!same || s.game.moves !== view.moves) {
        s.hint = null;
        s.probabilities = probabilities;
      }
      if (!same) {
        s.message = null;
        showSettings(view);
      }
      if (view.state === "won" || view.state === "lost") saved.set("finished", view.id);
      if (view.state === "lost" && (!same || !s.message)) s.message = lostMessage(view);
      s.game = view;
      s.clock = { elapsed: view.elapsed, at: performance.now() };
    }

    // Set the settings of a new game to those of the game `view` (opened by its address, a
    // reload or Back), so that the row above the board tells the game on it: its level, size,
    // kind of board and rules. A random board keeps the technique chosen: it has none.
    function showSettings(view) {
      if (!(view.level in app.meta.levels) && view.level !== "custom") return;
      q("level").value = view.level;
      if (view.level === "custom") {
        q("custom-width").value = view.width;
        q("custom-height").value = view.height;
        q("custom-mines").value = view.mines;
      }
      q("guess-free").checked = view.guess_free;
      if (view.guess_free && app.meta.techniques.includes(view.technique)) q("technique").value = view.technique;
      q("gentle-start").checked = view.reveal > 0;
      q("punish").checked = view.punish_guesses;
      q("strict").checked = view.strict_flags;
    }

    // Whether `view` is still the position shown. An answer asked for a position (a hint, the
    // probabilities) that comes once a move or another game replaced it is for a board no longer
    // on the screen: not shown.
    function current(view) {
      return s.game !== null && s.game.id === view.id && s.game.moves === view.moves;
    }

    function seconds() {
      if (!s.clock) return 0;
      if (!s.game || s.game.state !== "playing") return s.clock.elapsed;
      return s.clock.elapsed + (performance.now() - s.clock.at) / 1000;
    }

    function gameRequest() {
      const level = q("level").value;
      const guessFree = q("guess-free").checked;
      const body = {
        level,
        guess_free: guessFree,
        technique: guessFree ? q("technique").value : "any",
        reveal: q("gentle-start").checked ? GENTLE_ROUNDS : 0,
        punish_guesses: q("punish").checked,
        strict_flags: q("strict").checked,
      };
      if (level === "custom") {
        body.width = Number(q("custom-width").value);
        body.height = Number(q("custom-height").value);
        body.mines = Number(q("custom-mines").value);
      }
      return body;
    }

    // The game's address in the location bar (a new entry for a new game, so Back returns to
    // the one before).
    function address(view, push) {
      saved.set("game", view.id);
      const url = `${location.pathname}?game=${encodeURIComponent(view.id)}`;
      if (new URLSearchParams(location.search).get("game") === view.id) return;
      if (push) history.pushState({ game: view.id }, "", url);
      else history.replaceState({ game: view.id }, "", url);
    }

    async function newGame() {
      try {
        const view = await app.api("POST", "/api/games", gameRequest());
        saved.set("level", q("level").value);
        saved.set("technique", q("technique").value);
        for (const [id, key] of BOXES) if (!HELP_BOXES.includes(id)) saved.set(key, q(id).checked);
        if (view.level === "custom") {
          for (const id of ["custom-width", "custom-height", "custom-mines"]) saved.set(id, q(id).value);
        }
        setGame(view);
        address(view, true);
        s.message = null;
        // The board takes the keys, but the page does not scroll to it: a board taller than
        // the window would push Mines left and Time off its top.
        q("board").focus({ preventScroll: true });
      } catch (err) {
        s.message = { error: err, form: true };  // said of the settings: goes when they change
      }
      render();
      panel.querySelector(".status").scrollIntoView({ block: "nearest" });
    }

    async function load(id) {
      const view = await app.api("GET", `/api/games/${encodeURIComponent(id)}?lang=${app.lang()}`);
      setGame(view);
      address(view, false);
      render();
      await updateProbabilities();
    }

    // Open the game of the address, else the last one played, else a new one.
    async function resume() {
      const wanted = new URLSearchParams(location.search).get("game");
      for (const id of [wanted, saved.get("game")]) {
        if (!id) continue;
        try {
          await load(id);
          return;
        } catch (err) {
          if (err.status !== 404) throw err;
          if (id === wanted) {
            await newGame();
            s.message = { error: err };
            render();
            return;
          }
        }
      }
      await newGame();
    }

    // Another tab may have played this game meanwhile: look again when this one comes back.
    async function refresh() {
      if (!s.game || document.hidden) return;
      const asked = s.game;
      try {
        const view = await app.api("GET", `/api/games/${encodeURIComponent(asked.id)}?lang=${app.lang()}`);
        // A move made here meanwhile: the answer may be from before it.
        if (!current(asked)) return;
        if (view.moves !== s.game.moves || view.state !== s.game.state) {
          setGame(view);
          render();
          // Not awaited: a move that finds the game over refreshes it from within the queue of
          // moves, which the probabilities wait for.
          updateProbabilities();
        }
      } catch (err) {
        console.error(err);
      }
    }

    // Moves are sent one at a time, in the order played.
    function act(action, x, y) {
      s.queue = s.queue.then(() => move(action, x, y)).catch(() => {});
    }

    async function move(action, x, y) {
      const view = s.game;
      if (!view || view.state === "won" || view.state === "lost") return;
      const code = view.cells[y][x];
      let kind = action === "back" ? "flag" : action;
      if (kind === "open" && code === FLAG) return;
      if (kind === "open" && code > 0) kind = "chord";
      else if (kind === "open" && code === 0) return;
      if (kind === "flag" && code >= 0) return;
      const first = view.state === "new" && kind === "open";
      s.moving = performance.now();
      if (first) {
        s.pending = { controller: new AbortController(), since: s.moving };
        render();
      } else {
        renderBusy();
      }
      const slow = setTimeout(renderBusy, SLOW_MS);
      try {
        const result = await app.api(
          "POST", `/api/games/${view.id}/${kind}`, { x, y, lang: app.lang() },
          { signal: s.pending && s.pending.controller.signal },
        );
        s.pending = null;
        announce(view, result, kind, x, y);
        // The board and its probabilities are drawn at once. The move is made whatever becomes
        // of its figures: should they fail (the server busy, their work too complex), the board
        // after it is drawn without them, and their error said.
        let probabilities = null;
        let failed = null;
        if (result.state === "playing") {
          try {
            probabilities = await probabilitiesOf(view.id);
          } catch (err) {
            failed = err;
          }
        }
        setGame(result, probabilities);
        if (result.state === "won") {
          s.message = { label: "won_short", key: "won_message", vars: { time: decimal(result.elapsed, 1) } };
        } else if (result.state === "lost") {
          s.message = lostMessage(result);
        } else if (result.tutor && q("tutor").checked) {
          s.hint = result.tutor;
          s.hintStage = STAGES;  // the tutor shows the move that was missed, whole
          s.reveal = true;
          s.hintPrefix = "tutor_message";
          s.message = { hint: true, kind: "tutor", move: result.moves - 1 };  // the move it speaks of
        } else if (failed) {
          s.message = { error: failed, figures: true };
          s.revealWords = true;
        } else if (kind !== "flag") {
          s.message = null;
        }
        // Figures refused as the game is over: another tab ended it after this move.
        if (failed && failed.kind === "game-over") await refresh();
      } catch (err) {
        s.pending = null;
        if (err.kind === "game-over") await refresh();
        if (first && err.kind === "cancelled") s.message = { key: "cancelled_first_click" };
        else if (first && err.kind === "too-complex") s.message = { key: "error_generation", kind: "error" };
        else s.message = { error: err };
        s.revealWords = true;  // under a board taller than the window they would go unseen
      } finally {
        s.moving = null;
        clearTimeout(slow);
      }
      render();
    }

    // The words under the board after a loss: the post-mortem when the server has one.
    function lostMessage(view) {
      if (view.postmortem) return { postmortem: true, kind: "error" };
      const key = view.fatal_flag ? "lost_flag_message" : "lost_message";
      return { label: "lost_short", key, kind: "error" };
    }

    // Tell a screen reader what a move did (the live region; the clock is never announced): the
    // end of the game, or the cells it opened and the mines a gentler start flagged.
    function announce(before, after, kind, x, y) {
      const cell = cellName(x, y);
      if (after.state === "won") {
        app.announce(`${t("won_short")} ${t("won_message", { time: decimal(after.elapsed, 1) })}`);
      } else if (after.state === "lost" && after.fatal_flag) {
        app.announce(t("announce_lost_flag", { cell: cellName(...after.fatal_flag) }));
      } else if (after.state === "lost") {
        app.announce(t("announce_lost", { cell: after.exploded ? cellName(...after.exploded) : cell }));
      } else if (kind === "flag") {
        app.announce(t(after.cells[y][x] === FLAG ? "announce_flag" : "announce_unflag", { cell }));
      } else {
        const count = (view, which) => view.cells.reduce((n, row) => n + row.filter(which).length, 0);
        const opened = count(after, (c) => c >= 0) - count(before, (c) => c >= 0);
        const flags = count(after, (c) => c === FLAG) - count(before, (c) => c === FLAG);
        if (opened === 0 && flags === 0) {
          // A chord whose flags are not all placed, answered with the game as it was.
          app.announce(t("announce_nothing", { cell }));
          return;
        }
        app.announce(t(flags > 0 ? "announce_open_flags" : "announce_open", { cell, count: opened, flags }));
      }
    }

    // New game, by its button or N: asks first while a game is in progress.
    async function askNewGame() {
      if (s.game && s.game.state === "playing" && !(await app.confirm("confirm_new", "new_game", "keep_playing"))) {
        return;
      }
      await newGame();
    }

    // A hint is asked once the moves already made are answered (it is for the board they
    // lead to), and shown only if no move was made before it came.
    async function askHint() {
      await s.queue;
      const view = s.game;
      if (!view) return;
      if (view.state === "new") {
        s.message = { key: "first_click" };
      } else if (view.state !== "playing") {
        // The words of the game's end stay: a post-mortem wiped by a key press was lost until
        // the page was loaded again. The note goes to a screen reader.
        app.announce(t("game_over"));
        return;
      } else if (s.hint && !s.hintPrefix && s.message && s.message.hint) {
        // The same position: the next stage of the hint shown.
        s.hintStage = Math.min(STAGES, s.hintStage + 1);
        s.reveal = true;
      } else {
        try {
          const hint = await app.api("GET", `/api/games/${view.id}/hint?lang=${app.lang()}`);
          if (!current(view)) return;
          s.hint = hint;
          s.hintStage = isGuess(s.hint) ? STAGES : 1;
          s.hintPrefix = "";
          s.reveal = true;
          s.message = { hint: true };
        } catch (err) {
          if (!current(view)) return;
          s.message = { error: err };
        }
      }
      render();
    }

    // The probabilities follow the box, from game to game: ticked, every game in progress
    // shows them, from its first click on. The server counts each answer as help (a game shown
    // with them is played with help, as if the box had been ticked during it), so they are asked
    // for only while the box is ticked. It counts them once they are ready to be sent, and
    // counts none for a request whose client left before: unticking the box cancels the
    // requests in flight (`figuresAsked`), so figures unticked before they come are no help.
    const probabilitiesWanted = () => q("show-probabilities").checked;
    let figuresAsked = new AbortController();

    // Return the probabilities of game `id` as it is now, or null when the box is unticked (by
    // the time they come too: the request is then cancelled).
    async function probabilitiesOf(id) {
      if (!probabilitiesWanted()) return null;
      try {
        const path = `/api/games/${id}/probabilities`;
        const { probabilities } = await app.api("GET", path, undefined, { signal: figuresAsked.signal });
        return probabilitiesWanted() ? probabilities : null;
      } catch (err) {
        if (err.kind === "cancelled") return null;
        throw err;
      }
    }

    // The box was ticked or unticked: the figures, and what was said of their failure, go
    // (ticked, they are asked for again).
    async function toggleProbabilities() {
      saved.set("probabilities", probabilitiesWanted());
      s.probabilities = null;
      if (s.message && s.message.figures) s.message = null;
      if (!probabilitiesWanted()) {
        figuresAsked.abort();
        figuresAsked = new AbortController();
      }
      await updateProbabilities();
    }

    // Show the probabilities of the board when the box is ticked, then draw.
    async function updateProbabilities() {
      await askProbabilities();
      render();
    }

    // Ask for the probabilities of the board, once the moves already made are answered. An
    // answer that comes once the box is unticked is dropped; one that comes once a move changed
    // the board is for the board before: asked again for the board now (a move asks for them
    // itself).
    async function askProbabilities() {
      await s.queue;
      const view = s.game;
      if (!view || view.state !== "playing" || !probabilitiesWanted()) return;
      try {
        const probabilities = await probabilitiesOf(view.id);
        if (!current(view)) return askProbabilities();
        s.probabilities = probabilities;
      } catch (err) {
        if (!current(view)) return askProbabilities();
        s.message = { error: err, figures: true };
      }
    }

    // --- drawing ------------------------------------------------------------------------

    function cellLook(view, marks, mines, x, y) {
      const code = view.cells[y][x];
      const i = y * view.width + x;
      const extra = { marks: marks.get(x + "," + y) || [] };
      if (view.state === "won" || view.state === "lost") {
        const [ex, ey] = view.exploded || [-1, -1];
        if (x === ex && y === ey) return look("exploded");
        // A wrong flag keeps the post-mortem's tick: a flagged cell that could be proven safe
        // is one of the cells its words count.
        const [fx, fy] = view.fatal_flag || [-1, -1];
        if (x === fx && y === fy) return look("wrong-flag", { marks: ["fatal", ...extra.marks] });
        if (code === FLAG && !mines.has(i)) return look("wrong-flag", extra);
        if (code === COVERED && mines.has(i)) return look(view.state === "won" ? "flag" : "mine");
      } else if (s.probabilities && code === COVERED) {
        extra.p = s.probabilities[y][x];
      }
      return codeLook(code, extra);
    }

    // The post-mortem's marks: the cells that could be proven safe at the click that lost.
    function postmortemMarks(view) {
      const marks = new Map();
      for (const [x, y] of (view.postmortem && view.postmortem.safe_then) || []) marks.set(x + "," + y, ["provable"]);
      return marks;
    }

    // Make the board's window shorter when the hint's words under it would not fit on the
    // screen with it (a phone, a long explanation), down to a third of the screen: the hint's
    // cells are then zoomed into it (board.reveal). The window has its height again once the
    // hint goes.
    function roomForWords() {
      const wrap = board.wrap;
      wrap.style.maxHeight = "";
      const frame = wrap.getBoundingClientRect();
      const above = frame.top - board.bar.getBoundingClientRect().top;  // the zoom buttons
      const below = q("message").getBoundingClientRect().bottom - frame.bottom;  // to the words' end
      const room = window.innerHeight - above - below - 4;
      if (frame.height > room) wrap.style.maxHeight = `${Math.max(room, window.innerHeight / 3)}px`;
    }

    function renderBoard() {
      const view = s.game;
      board.resize(view.width, view.height);
      const marks = s.hint ? hintMarks(s.hint, s.hintStage) : postmortemMarks(view);
      const mines = new Set((view.mine_cells || []).map(([x, y]) => y * view.width + x));
      board.draw((x, y) => cellLook(view, marks, mines, x, y));
      if (!s.hint) board.wrap.style.maxHeight = "";
      if (s.reveal && s.hint) {
        roomForWords();
        board.reveal(hintCells(s.hint, s.hintStage));
        // The hint's words under the board on the screen too, the board's top kept on it.
        const words = q("message").getBoundingClientRect();
        const top = board.wrap.getBoundingClientRect().top;
        if (words.bottom > window.innerHeight && top > 0) {
          window.scrollBy(0, Math.min(words.bottom - window.innerHeight + 4, top));
        }
      }
      s.reveal = false;
      if (s.revealWords) q("message").scrollIntoView({ block: "nearest" });
      s.revealWords = false;
      const root = board.root;
      root.dataset.gameState = view.state;
      root.dataset.moves = view.moves;
      root.dataset.game = view.id;
    }

    function renderMessage() {
      const box = q("message");
      const m = s.message;
      box.dataset.stage = m && m.hint && s.hint ? s.hintStage : "";
      if (!m) showMessage(box);
      else if (m.error) showMessage(box, { text: app.errorText(m.error), kind: "error" });
      else if (m.hint && s.hint) {
        showMessage(box, { ...hintWords(s.hint, s.hintStage, s.hintPrefix && t(s.hintPrefix)), kind: m.kind });
      }
      else if (m.hint) showMessage(box);
      else if (m.postmortem && s.game && s.game.postmortem) {
        showMessage(box, { label: `${t("lost_short")} · ${t("postmortem")}`, text: s.game.postmortem.text, kind: m.kind });
      }
      else showMessage(box, { label: m.label ? t(m.label) : "", text: t(m.key, m.vars), kind: m.kind || "" });
    }

    function renderClock() {
      q("timer").textContent = Math.floor(seconds());
      const box = q("progress");
      // A first click answered within a moment shows no progress.
      const shown = s.pending !== null && performance.now() - s.pending.since > SLOW_MS;
      box.hidden = !shown;
      if (shown) {
        const secs = Math.floor((performance.now() - s.pending.since) / 1000);
        q("progress-text").textContent = t("generating", { seconds: secs });
      }
    }

    // The board awaiting a move is busy (aria-busy), and shows it once the move is slow.
    function renderBusy() {
      const root = board.root;
      root.setAttribute("aria-busy", String(s.moving !== null));
      const slow = s.moving !== null && performance.now() - s.moving >= SLOW_MS;
      if (slow) root.dataset.slow = "";
      else delete root.dataset.slow;
    }

    function renderKeys() {
      q("keys").replaceChildren(...SHORTCUTS.flatMap(([keys, what]) => [
        el("dt", {}, ...keys.flatMap((k, i) => [i ? " " : "", el("kbd", {}, typeof k === "string" ? k : t(k.name))])),
        el("dd", {}, t(what)),
      ]));
    }

    function render() {
      q("custom-size").hidden = q("level").value !== "custom";
      q("technique").disabled = !q("guess-free").checked;
      renderKeys();
      renderMessage();
      const view = s.game;
      if (!view) return;
      renderBoard();
      q("mines-left").textContent = view.state === "won" ? 0 : view.mines_left;
      const state = q("state");
      state.dataset.state = view.state;
      state.textContent = view.state === "won" ? t("won_short") : view.state === "lost" ? t("lost_short") : "";
      q("review-this").hidden = view.state !== "won" && view.state !== "lost";
      renderClock();
      renderBusy();
    }

    // --- wiring -------------------------------------------------------------------------

    // What was said of the settings of a new game goes once they change, or when the browser
    // refuses them itself (its own checks of the numbers: no request is sent, no answer says so).
    function settingsChanged() {
      if (s.message && s.message.form) s.message = null;
      render();
    }
    for (const type of ["input", "change"]) q("new-game").addEventListener(type, settingsChanged);
    q("new-game").addEventListener("invalid", settingsChanged, true);
    q("review-this").addEventListener("click", () => {
      if (s.game) app.review(s.game.id);
    });
    q("new-game").addEventListener("submit", (e) => { e.preventDefault(); askNewGame(); });
    q("hint").addEventListener("click", askHint);
    q("cancel").addEventListener("click", () => { if (s.pending) s.pending.controller.abort(); });
    q("show-probabilities").addEventListener("change", toggleProbabilities);
    q("tutor").addEventListener("change", () => saved.set("tutor", q("tutor").checked));
    q("board").addEventListener("keydown", (e) => {
      if (e.key === "h" || e.key === "H") askHint();
      else if (e.key === "n" || e.key === "N") askNewGame();
      else if (e.key === "p" || e.key === "P") {
        q("show-probabilities").checked = !q("show-probabilities").checked;
        toggleProbabilities();
      }
    });
    setInterval(renderClock, 250);
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("focus", refresh);
    window.addEventListener("popstate", () => {
      const id = new URLSearchParams(location.search).get("game");
      if (id && (!s.game || id !== s.game.id)) load(id).catch((err) => { s.message = { error: err }; render(); });
    });

    return {
      render,
      start: resume,
      // The language changed: the hint, the Tutor's word (on the move it spoke of, which asks
      // for no help) or a lost game's post-mortem is asked again in the new one, then all is
      // redrawn. An answer is taken only if the board is still the one it was asked for: a move
      // or a new game made meanwhile has put its own words in place.
      async language() {
        if (s.game && s.game.state === "lost") {
          const view = s.game;
          try {
            const again = await app.api("GET", `/api/games/${view.id}?lang=${app.lang()}`);
            if (current(view)) setGame(again);
          } catch (err) {
            if (current(view)) s.message = { error: err };
          }
        }
        const m = s.message;
        if (s.hint && s.game && s.game.state === "playing" && m && m.hint) {
          const view = s.game;
          const game = `/api/games/${view.id}`;
          try {
            if (m.kind === "tutor") {
              const again = await app.api("GET", `${game}/tutor?move=${m.move}&lang=${app.lang()}`);
              if (again.tutor && current(view)) s.hint = again.tutor;
            } else {
              const again = await app.api("GET", `${game}/hint?lang=${app.lang()}`);
              if (current(view)) s.hint = again;
            }
          } catch (err) {
            if (current(view)) s.message = { error: err };
          }
        }
        render();
      },
    };
  },
};
