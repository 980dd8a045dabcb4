"""Playing games when guesses cannot be avoided, and benchmarks of many games in parallel."""

from mineproof.play.bench import BenchRequest, BenchSummary, game_rng, run_bench, wilson
from mineproof.play.fifty import unavoidable_fifty_fifties
from mineproof.play.player import (
    RULES,
    STRATEGIES,
    BestGuess,
    GameResult,
    GuessReason,
    LookaheadWhy,
    Outcome,
    Rules,
    Strategy,
    best_guess,
    choose_guess,
    deal,
    lookahead_why,
    opening_chance,
    play_game,
    play_on,
)

__all__ = [
    "RULES",
    "STRATEGIES",
    "BenchRequest",
    "BenchSummary",
    "BestGuess",
    "GameResult",
    "GuessReason",
    "LookaheadWhy",
    "Outcome",
    "Rules",
    "Strategy",
    "best_guess",
    "choose_guess",
    "deal",
    "game_rng",
    "lookahead_why",
    "opening_chance",
    "play_game",
    "play_on",
    "run_bench",
    "unavoidable_fifty_fifties",
    "wilson",
]
