// A hint of the API on the board and in words. A hint in play may take several steps (mines
// first, then a cell to open); each step has its premises (the numbers that prove it), the
// cells it proves safe or mined, and its text. When nothing is forced the hint names the
// safest cells instead.

export function hintSteps(hint) {
  return hint.steps && hint.steps.length ? hint.steps : [hint];
}

// Return the marks the hint draws on the board: a Map from "x,y" to the classes of the cell.
export function hintMarks(hint) {
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
    add(step.safe, "hint-safe");
    add(step.mine, "hint-mine");
  }
  add(hint.safest, "safest");
  return marks;
}

// Return the hint's words: { label, text } (the first step's text, then each later step's
// label and text).
export function hintWords(hint, prefix = "") {
  const steps = hintSteps(hint);
  const label = [prefix, hint.label].filter(Boolean).join(" ");
  const text = steps.map((step, n) => (n === 0 ? step.text : `${step.label} ${step.text}`)).join(" ");
  return { label, text };
}
