"""The knobs of the ``best`` strategy, in one frozen value, so that a variant can be played on
the same games as the default and compared game by game (``benchmarks/bench_player.py``).

:data:`DEFAULT` is what ``mineproof bench``, ``mineproof hint`` and the web app use; every
other value exists to be measured against it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

__all__ = ["DEFAULT", "GuessConfig"]


@dataclass(frozen=True, slots=True)
class GuessConfig:
    """How the ``best`` strategy weighs its guesses.

    ``cut_off``: candidates must have at least this share of the best chance to be safe;
    ``candidates``: at most this many cells some clue sees; ``off_edge_all``: weigh every cell no
    clue sees when there are at most this many; ``off_edge_most``: weigh at most this many of
    them (a board of many numbers each beside cells no clue sees, a lattice, had thousands;
    an expert game has at most about 30); ``endgame_arrangements``: the exact search of
    the end game runs from this many arrangements down; ``endgame_budget``: the splits of a set
    of arrangements that search may make; ``pseudo``: take a pseudo 50/50 (a cell that is
    safe or the mine of a 50/50 no number can decide) before weighing other guesses (see
    :mod:`mineproof.play.pseudo`); ``opening_corner``: while only corners' numbers are open,
    open another corner (see :func:`~mineproof.play.player.opening_corner`); ``influenced``:
    also weigh the cells below the cut-off that the board's likelier 50/50s in waiting lift
    within it (see :func:`~mineproof.play.player._influenced`); ``regions``: play first the
    best cell of a region no cell outside it can ever decide (see
    :func:`~mineproof.play.player.isolated_region`); ``chains``: take first an unavoidable 50/50
    of any length (see :mod:`mineproof.play.fifty`), not only an isolated pair; ``living``:
    weigh the move after a guess among living cells only (see
    :func:`~mineproof.play.lookahead.next_safety`); ``enablers``: a cell's long-term risk
    also counts the likelier 50/50s in waiting its mine would close; ``progress_bonus``: raise
    a weight by this share of the chance the cell's number proves more cells safe than its
    being safe does (JSMinesweeper's 0.001 breaks near ties).
    """

    cut_off: float = 0.9
    candidates: int = 12
    off_edge_all: int = 30
    off_edge_most: int = 60
    endgame_arrangements: int = 1000
    endgame_budget: int = 100_000
    pseudo: bool = True
    opening_corner: bool = True
    influenced: bool = True
    regions: bool = True
    chains: bool = True
    living: bool = True
    enablers: bool = True
    progress_bonus: float = 0.01

    @classmethod
    def parse(cls, text: str) -> GuessConfig:
        """Return :data:`DEFAULT` with the ``name=value`` pairs of ``text`` (comma-separated).

        >>> GuessConfig.parse("endgame_arrangements=1000").endgame_arrangements
        1000

        Raises ``ValueError`` naming an unknown knob or a value of the wrong kind.
        """
        kinds = {f.name: f.type for f in fields(cls)}
        changes: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, sep, value = item.partition("=")
            if not sep or name not in kinds:
                raise ValueError(f"unknown knob {item!r}: expected one of {', '.join(kinds)}")
            kind = kinds[name]
            try:
                if kind == "bool":
                    if value not in ("0", "1", "true", "false"):
                        raise ValueError(value)
                    changes[name] = value in ("1", "true")
                else:
                    changes[name] = float(value) if kind == "float" else int(value)
            except ValueError:
                raise ValueError(f"{name} takes a {kind}, not {value!r}") from None
        return replace(DEFAULT, **changes)  # type: ignore[arg-type]


DEFAULT = GuessConfig()
"""The ``best`` strategy as played everywhere."""
