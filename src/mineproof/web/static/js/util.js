// Small helpers shared by the modules: element lookup and creation, the saved settings.

export const $ = (id) => document.getElementById(id);

// Return a new element: el("button", { class: "x", type: "button" }, "text", child, ...).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// The player's settings, kept in localStorage (nothing breaks when it is unavailable).
export const saved = {
  get: (k) => { try { return localStorage.getItem("mineproof." + k); } catch { return null; } },
  set: (k, v) => { try { localStorage.setItem("mineproof." + k, v); } catch { /* private mode */ } },
};

// Mark `box` as showing what is not yet the answer awaited (`busy`): data-state "pending"
// (dimmed by the style sheet) and aria-busy. When nothing is awaited, a "pending" state is
// dropped and any other (the view's own) kept.
export function markPending(box, busy) {
  if (busy) box.dataset.state = "pending";
  else if (box.dataset.state === "pending") delete box.dataset.state;
  box.setAttribute("aria-busy", String(busy));
}

// Show a message in `box`: a bold label, then the text, a string or lines (each a paragraph of
// its own); `kind` styles it ("error", "tutor"). An empty message hides the box.
export function showMessage(box, { label = "", text = "", kind = "" } = {}) {
  const lines = (Array.isArray(text) ? text : [text]).filter(Boolean);
  box.className = "message" + (kind ? " " + kind : "");
  box.replaceChildren();
  if (label) box.appendChild(el("span", { class: "label" }, label));
  if (lines.length === 1) box.appendChild(document.createTextNode(lines[0]));
  else box.append(...lines.map((line) => el("p", { class: "line" }, line)));
  box.hidden = !label && !lines.length;
}
