// A hint of the API on the board and in words, shown in stages.
//
// A hint in play may take several steps (mines first, then a cell to open); each step has its
// premises (the numbers that prove it), the cells it proves safe or mined, and its text. It is
// shown in three stages, one more at each press of Hint: 1. the premises are outlined (where to
// look); 2. the reason is given (the steps' texts); 3. the conclusion is marked on the board
// (cells ticked safe, mines marked). When nothing is forced the hint names the safest cells
// and the `best` player's pick, its probability and why, at once (stage 3); when its steps
// prove only mines, that guess comes after them (`guess_text`, at stage 3), and stage 1 says
// so: such steps prove no move.

import { t } from "./i18n.js";

export const STAGES = 3;

export function hintSteps(hint) {
  return hint.steps && hint.steps.length ? hint.steps : [hint];
}

// Whether the hint is a guess (nothing forced): shown whole at once.
export function isGuess(hint) {
  return hint.level === 0;
}

// Return the marks the hint draws at `stage`: a Map from "x,y" to the classes of the cell.
export function hintMarks(hint, stage = STAGES) {
  const marks = new Map();
  const add = (cells, cls) => {
    for (const [x, y] of cells || []) {
      const key = x + "," + y;
      if (!marks.has(key)) marks.set(key, []);
      marks.get(key).push(cls);
    }
  };
  for (const step of hintSteps(hint)) {
    add(step.premises, "premise");
    if (stage >= STAGES) {
      add(step.safe, "hint-safe");
      add(step.mine, "hint-mine");
    }
  }
  if (stage >= STAGES) {
    add(hint.safest, "safest");
    if (hint.best) add([hint.best.cell], "best");
  }
  return marks;
}

// Return the cells the hint shows at `stage` (to bring them into view).
export function hintCells(hint, stage = STAGES) {
  return [...hintMarks(hint, stage).keys()].map((key) => key.split(",").map(Number));
}

// Whether the hint's steps prove only mines, and so end in a guess (its words, `guess_text`).
export function endsInGuess(hint) {
  return !isGuess(hint) && Boolean(hint.guess_text);
}

// Return the hint's words at `stage`: { label, text }, the text as lines (util.js showMessage);
// `prefix` is said first (the tutor's). The label names the first step's level of technique;
// each step is a line of its own, a later step's led by its own level's label, as the command
// line prints them.
export function hintWords(hint, stage = STAGES, prefix = "") {
  const steps = hintSteps(hint);
  // A later step's label and text in a row, as its language writes them (the server's).
  const reason = steps.map((step, n) => (n === 0 ? step.text : step.labelled));
  if (isGuess(hint) || prefix) {
    return { label: [prefix, hint.label].filter(Boolean).join(" "), text: reason };
  }
  const label = `${t("hint_stage", { n: stage })} · ${hint.label}`;
  if (stage === 1) {
    const look = endsInGuess(hint) ? "hint_look_guess" : "hint_look";
    return { label, text: `${t(look)} ${t("hint_again_reason")}` };
  }
  if (stage === 2) return { label, text: [...reason, t("hint_again_move")] };
  // Steps that prove only mines end in a guess: its words follow them.
  return { label, text: endsInGuess(hint) ? [...reason, hint.guess_text] : reason };
}
