"""Exact counting of one component's mine arrangements, by number of mines.

The variables are boxes (sets of interchangeable cells): a box of ``s`` cells holding ``x``
mines stands for ``C(s, x)`` arrangements. Boxes are assigned one at a time in an order that
keeps few clues open; the state after each step is the number of mines each open clue has seen
so far. Partial assignments that reach the same state are merged (dynamic programming), so the
work grows with the number of states, not with the number of solutions: scattered frontiers of
hundreds of cells stay fast. A backward pass then gives, for every box, the exact weighted number
of mines it holds over all arrangements of the whole position.
"""

from __future__ import annotations

from math import comb

__all__ = ["ComponentCount"]

# Binomials for box sizes: a box lies inside one clue's neighbourhood, so it has at most 8 cells.
_C = [[comb(n, k) for k in range(n + 1)] for n in range(9)]

# A polynomial in the number of mines: (lowest mine count, coefficients from there on).
_Poly = tuple[int, list[int]]
# One step's moves from one state: (state, lowest x, next state for each x from there).
_Moves = tuple[tuple[int, ...], int, list[tuple[int, ...]]]


def _order(sizes: list[int], box_clues: list[list[int]], clue_boxes: list[list[int]]) -> list[int]:
    """Return an order of the boxes that keeps the set of open clues small.

    Starts at a box with the fewest clues, then always continues with the open clue that has
    the fewest unassigned boxes, taking its box that opens the fewest new clues.
    """
    n = len(sizes)
    left = [len(b) for b in clue_boxes]
    opened = [False] * len(clue_boxes)
    assigned = [False] * n
    active: set[int] = set()
    order: list[int] = []
    while len(order) < n:
        if active:
            clue = min(active, key=lambda c: (left[c], c))
            box = -1
            best = 0
            for b in clue_boxes[clue]:
                if assigned[b]:
                    continue
                score = 0
                for d in box_clues[b]:
                    if not opened[d]:
                        score += 16
                    elif left[d] == 1:
                        score -= 1
                if box < 0 or score < best:
                    box, best = b, score
        else:
            box = min((b for b in range(n) if not assigned[b]), key=lambda b: len(box_clues[b]))
        assigned[box] = True
        order.append(box)
        for d in box_clues[box]:
            opened[d] = True
            left[d] -= 1
            if left[d]:
                active.add(d)
            else:
                active.discard(d)
    return order


class ComponentCount:
    """The arrangements of one component, counted by number of mines.

    ``sizes[b]`` is the number of cells of box ``b``; ``clue_boxes[c]`` lists the boxes clue
    ``c`` sees and ``counts[c]`` its number of mines; ``max_mines`` caps the mines counted.
    After construction ``weights[k]`` is the number of arrangements with ``k`` mines (all zero
    when the clues cannot hold together).
    """

    def __init__(
        self,
        sizes: list[int],
        clue_boxes: list[list[int]],
        counts: list[int],
        max_mines: int,
    ) -> None:
        self.sizes = sizes
        box_clues: list[list[int]] = [[] for _ in sizes]
        for c, boxes in enumerate(clue_boxes):
            for b in boxes:
                box_clues[b].append(c)
        self.order = _order(sizes, box_clues, clue_boxes)
        self._forward(box_clues, clue_boxes, counts, max_mines)

    def _forward(
        self,
        box_clues: list[list[int]],
        clue_boxes: list[list[int]],
        counts: list[int],
        max_mines: int,
    ) -> None:
        capacity = [sum(self.sizes[b] for b in boxes) for boxes in clue_boxes]
        layout: list[int] = []
        table: dict[tuple[int, ...], _Poly] = {(): (0, [1])}
        self.tables: list[dict[tuple[int, ...], _Poly]] = [table]
        self.moves: list[list[_Moves]] = []
        for box in self.order:
            size = self.sizes[box]
            binom = _C[size]
            new = [d for d in box_clues[box] if d not in layout]
            full = layout + new
            touched = []
            for d in box_clues[box]:
                capacity[d] -= size
                touched.append((full.index(d), counts[d], capacity[d]))
            keep = [p for p, d in enumerate(full) if d not in box_clues[box] or capacity[d]]
            # Positions, in the next state, of the clues this box touches that stay open.
            bumped = [q for q, p in enumerate(keep) if full[p] in box_clues[box]]
            layout = [full[p] for p in keep]
            pad = (0,) * len(new)
            nxt: dict[tuple[int, ...], _Poly] = {}
            step_moves: list[_Moves] = []
            for state, (lo, coeffs) in table.items():
                vals = state + pad
                x_lo = 0
                x_hi = size if size < max_mines - lo else max_mines - lo
                for p, cnt, cap in touched:
                    need = cnt - vals[p]
                    if need < x_hi:
                        x_hi = need
                    if need - cap > x_lo:
                        x_lo = need - cap
                if x_lo > x_hi:
                    continue
                base = [vals[p] for p in keep]
                targets = []
                for x in range(x_lo, x_hi + 1):
                    if bumped:
                        v = base[:]
                        for q in bumped:
                            v[q] += x
                        key = tuple(v)
                    else:
                        key = tuple(base)
                    targets.append(key)
                    room = max_mines - lo - x + 1
                    mult = binom[x]
                    if mult == 1 and room >= len(coeffs):
                        add = coeffs  # polynomials are never changed in place: sharing is safe
                    else:
                        add = [c * mult for c in coeffs[:room]]
                    cur = nxt.get(key)
                    if cur is None:
                        nxt[key] = (lo + x, add)
                    else:
                        nxt[key] = _add(cur, (lo + x, add))
                step_moves.append((state, x_lo, targets))
            self.moves.append(step_moves)
            table = nxt
            self.tables.append(table)
        final = table.get(())
        self.weights: list[int] = []
        if final is not None:
            lo, coeffs = final
            self.weights = [0] * lo + coeffs

    def box_mines(self, w: list[int]) -> list[int]:
        """Return per box the weighted number of mines it holds over all arrangements.

        Each arrangement of this component with ``k`` mines counts with weight ``w[k]`` (the
        number of ways the rest of the position completes it), and contributes its box's mine
        count times that weight. Dividing by the box size gives, per cell, the number of
        arrangements of the whole position with a mine in that cell.
        """
        sizes = self.sizes
        result = [0] * len(sizes)
        final = self.tables[-1].get(())
        if final is None:
            return result
        lo, coeffs = final
        later: dict[tuple[int, ...], _Poly] = {(): (lo, _slice(w, lo, len(coeffs)))}
        for step in range(len(self.order) - 1, -1, -1):
            box = self.order[step]
            size = sizes[box]
            binom = _C[size]
            table = self.tables[step]
            here: dict[tuple[int, ...], _Poly] = {}
            expected = 0
            for state, x_lo, targets in self.moves[step]:
                flo, fco = table[state]
                length = len(fco)
                acc = [0] * length
                live = False
                for j, key in enumerate(targets):
                    nxt = later.get(key)
                    if nxt is None:
                        continue
                    x = x_lo + j
                    vlo, vco = nxt
                    off = flo + x - vlo
                    seg = vco[off : off + length]
                    mult = binom[x]
                    if x:
                        expected += x * mult * sum(f * v for f, v in zip(fco, seg, strict=False))
                    for a, v in enumerate(seg):
                        if v:
                            acc[a] += mult * v
                            live = True
                if live:
                    here[state] = (flo, acc)
            result[box] = expected
            later = here
        return result


def _slice(w: list[int], lo: int, length: int) -> list[int]:
    """Return ``w[lo : lo + length]`` padded with zeros to ``length``."""
    part = w[lo : lo + length]
    return part + [0] * (length - len(part))


def _add(a: _Poly, b: _Poly) -> _Poly:
    """Return the sum of two polynomials in the number of mines."""
    alo, aco = a
    blo, bco = b
    lo = min(alo, blo)
    hi = max(alo + len(aco), blo + len(bco))
    out = [0] * (hi - lo)
    for i, c in enumerate(aco, alo - lo):
        out[i] += c
    for i, c in enumerate(bco, blo - lo):
        out[i] += c
    return lo, out
