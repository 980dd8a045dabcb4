"""The page's strings, in nine languages, from the gettext catalogs: the one source of every
text a person reads in the web app (the explanations come from the same catalogs).

English is the source text, marked with the message context ``page`` so that a short word of
the page ("Level", "Mines") never shares a translation with the explanations' own words.
``make catalogs`` extracts them from this file; the catalog tests fail when a language lacks
one. The page asks for its table with ``GET /api/strings?lang=xx`` and names each string by its
key; a string with ``{name}`` placeholders is filled in by the page.
"""

from __future__ import annotations

from functools import cache

from mineproof.explain import translations

__all__ = ["LANGUAGE_NAMES", "page_strings"]

LANGUAGE_NAMES = {
    "en": "English",
    "ko": "한국어",
    "ja": "日本語",
    "zh": "中文",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt": "Português",
    "ru": "Русский",
}
"""Each language's name in itself, as the language menu shows it."""


@cache
def page_strings(lang: str) -> dict[str, str]:
    """Return every string of the page in ``lang``, by key (the caller must not change it).

    Raises :class:`~mineproof.errors.MineproofError` for a language that is not one of the nine.
    """
    t = translations(lang)
    return {
        "play": t.pgettext("page", "Play"),
        "analysis": t.pgettext("page", "Analysis"),
        "statistics": t.pgettext("page", "Statistics"),
        "language": t.pgettext("page", "Language"),
        "level": t.pgettext("page", "Level"),
        "beginner": t.pgettext("page", "Beginner"),
        "intermediate": t.pgettext("page", "Intermediate"),
        "expert": t.pgettext("page", "Expert"),
        "custom": t.pgettext("page", "Custom"),
        "width": t.pgettext("page", "Width"),
        "height": t.pgettext("page", "Height"),
        "mines": t.pgettext("page", "Mines"),
        "guess_free": t.pgettext("page", "Guess-free board"),
        "new_game": t.pgettext("page", "New game"),
        "mines_left": t.pgettext("page", "Mines left"),
        "time": t.pgettext("page", "Time"),
        "hint": t.pgettext("page", "Hint"),
        "probabilities": t.pgettext("page", "Probabilities"),
        "tutor": t.pgettext("page", "Tutor"),
        "minefield": t.pgettext("page", "Minefield"),
        "play_help": t.pgettext(
            "page",
            "Left click opens, right click or a long press flags, a click on a satisfied number "
            "opens its neighbours. On a touch screen, drag to move around the board and pinch "
            "(or use the buttons) to zoom.",
        ),
        "paste_position": t.pgettext(
            "page", "Paste a position (JSMinesweeper text or an ms-toollib grid)"
        ),
        "load": t.pgettext("page", "Load"),
        "empty_board": t.pgettext("page", "Empty board"),
        "mine_total": t.pgettext("page", "Mine total"),
        "trust_flags": t.pgettext("page", "Trust flags"),
        "edit_help": t.pgettext(
            "page", "Click a cell to cycle: covered, 0 to 8, flag. Right click cycles back."
        ),
        "editor": t.pgettext("page", "Position editor"),
        "board_kind": t.pgettext("page", "Board"),
        "played": t.pgettext("page", "Played"),
        "won": t.pgettext("page", "Won"),
        "win_rate": t.pgettext("page", "Win rate"),
        "best_time": t.pgettext("page", "Best time"),
        "guesses_per_game": t.pgettext("page", "Guesses per game"),
        "no_stats": t.pgettext("page", "No finished games yet."),
        "won_short": t.pgettext("page", "Won!"),
        "lost_short": t.pgettext("page", "Lost"),
        "won_message": t.pgettext("page", "You cleared the board in {time} s."),
        "lost_message": t.pgettext("page", "You opened a mine. The mines are shown."),
        "tutor_message": t.pgettext("page", "That was a guess, but a safe cell could be proven."),
        "first_click": t.pgettext(
            "page", "Click any cell to start: the first click always opens an area."
        ),
        "game_over": t.pgettext("page", "The game is over. Start a new game."),
        # Counts as labels ("Arrangements: 1"): the page has no plural forms, and a label
        # reads right for any count in every language.
        "arrangements": t.pgettext(
            "page", "Arrangements: {n}. Safe in every one: {safe}. A mine in every one: {mine}."
        ),
        "guess_free_short": t.pgettext("page", "Guess-free"),
        "random_short": t.pgettext("page", "Random"),
        "error_offline": t.pgettext(
            "page",
            "The server does not answer. Is mineproof play still running? Your game is kept; try "
            "again once it is back.",
        ),
        "error_cancelled": t.pgettext("page", "Cancelled."),
        "error_busy": t.pgettext("page", "The server is busy. Try again in a moment."),
        "error_generation": t.pgettext(
            "page",
            "No guess-free board with these mines was found within the work allowed. Try another "
            "first cell, fewer mines, or a classic board.",
        ),
        "error_too_complex": t.pgettext(
            "page", "This position needs more work than the server allows for one answer."
        ),
        "hint_too_complex": t.pgettext(
            "page",
            "The counts are exact, but explaining a deduction here needs more work than the "
            "server allows for one answer.",
        ),
        "error_inconsistent": t.pgettext(
            "page",
            "No arrangement of mines fits these numbers: the outlined numbers contradict each "
            "other.",
        ),
        "error_inconsistent_one": t.pgettext(
            "page", "No arrangement of mines fits the outlined number: it cannot be satisfied."
        ),
        "error_inconsistent_total": t.pgettext(
            "page",
            "No arrangement of mines fits these numbers with this mine total: the outlined "
            "numbers need more mines, or fewer, than the total leaves.",
        ),
        "error_inconsistent_total_one": t.pgettext(
            "page",
            "No arrangement of mines fits this number with this mine total: the outlined number "
            "needs more mines, or fewer, than the total leaves.",
        ),
        "error_inconsistent_total_only": t.pgettext(
            "page", "No arrangement of mines fits this mine total with the flags trusted."
        ),
        "error_format": t.pgettext("page", "This text is not a position mineproof can read."),
        "error_format_at": t.pgettext(
            "page", "Line {line}, column {column}: this text is not a position mineproof can read."
        ),
        # What is wrong in a pasted text: a string for each of mineproof.errors.FORMAT_REASONS,
        # keyed format_ and the reason (a test checks that each has one).
        "format_not_a_position": t.pgettext(
            "page",
            "Paste JSMinesweeper text (a first line such as 30x16x99, then the rows, of 0 to 8, "
            "H and F) or an ms-toollib grid (a JSON list of rows of numbers).",
        ),
        "format_size_range": t.pgettext(
            "page", "A board's sides go from 1 to 255 cells, and its mine total from 0."
        ),
        "format_row_count": t.pgettext(
            "page",
            "The first line gives the board a height of {expected}, but the rows below make a "
            "height of {found}.",
        ),
        "format_row_length": t.pgettext(
            "page", "Row {row} has a width of {found}, where the first line gives {expected}."
        ),
        "format_cell_code": t.pgettext(
            "page",
            "“{code}” is not a cell: write 0 to 8 for an opened cell, H for a covered cell and "
            "F for a flag.",
        ),
        "format_grid_shape": t.pgettext(
            "page",
            "An ms-toollib grid is a JSON list of rows, each a list of numbers, with at least "
            "one cell.",
        ),
        "format_grid_row_length": t.pgettext(
            "page", "Row {row} of the grid has a width of {found}, where row 1 has {expected}."
        ),
        "format_grid_value": t.pgettext(
            "page",
            "Row {row}, column {column} of the grid: {value} is not a cell (0 to 8 for an "
            "opened cell, 10 for a covered cell, 11 for a flag).",
        ),
        "format_json": t.pgettext("page", "The grid is not valid JSON."),
        "error_range": t.pgettext("page", "{field}: choose a number from {lo} to {hi}."),
        # The browser's own check of a field with no upper bound, in the page's language.
        "error_at_least": t.pgettext("page", "{field}: choose a whole number of at least {lo}."),
        "error_not_found": t.pgettext("page", "No game has this address."),
        "error_store": t.pgettext(
            "page", "The server could not save this move, so it was not made."
        ),
        "error_move": t.pgettext("page", "This move is not allowed."),
        "error_other": t.pgettext("page", "The server answered with error {status}."),
        "error_other_said": t.pgettext(
            "page", "The server answered with error {status}: {message}"
        ),
        "error_board_small": t.pgettext(
            "page",
            "This board is too small: the first click opens the 3x3 cells around it and "
            "leaves no room for a mine. Make one side at least 4.",
        ),
        "error_paste_side": t.pgettext(
            "page", "The analysis board shows positions with sides of up to {hi} cells."
        ),
        "error_paste_long": t.pgettext(
            "page", "This text is too long: the analysis board reads at most {hi} characters."
        ),
        "error_language": t.pgettext(
            "page", "{language} could not be loaded: the page stays in this language."
        ),
        "generating": t.pgettext("page", "Drawing a guess-free board… {seconds} s"),
        "cancel": t.pgettext("page", "Cancel"),
        "cancelled_first_click": t.pgettext(
            "page", "Cancelled: the game has not started. Click a cell to try again."
        ),
        "confirm_new": t.pgettext(
            "page",
            "Leave the game in progress and start a new one? The game stays at its address; "
            "until you finish it, the statistics count it as lost.",
        ),
        "keep_playing": t.pgettext("page", "Keep playing"),
        "announce_open": t.pgettext("page", "{cell} opened. Cells uncovered: {count}."),
        "announce_nothing": t.pgettext("page", "Nothing opened at {cell}."),
        "announce_flag": t.pgettext("page", "{cell} flagged."),
        "announce_unflag": t.pgettext("page", "{cell} unflagged."),
        "announce_open_flags": t.pgettext(
            "page", "{cell} opened. Cells uncovered: {count}. Mines flagged for you: {flags}."
        ),
        "announce_lost": t.pgettext("page", "{cell} was a mine: game lost."),
        "announce_lost_flag": t.pgettext(
            "page", "{cell} has no mine: with strict flags, the game is lost."
        ),
        "hint_look": t.pgettext(
            "page",
            "Look at the outlined numbers: together they prove the next move.",
        ),
        "hint_look_guess": t.pgettext(
            "page",
            "Look at the outlined numbers: together they prove where mines are, but no safe "
            "cell, so a guess comes after.",
        ),
        "hint_again_reason": t.pgettext("page", "Press Hint again for the reason."),
        "hint_again_move": t.pgettext("page", "Press Hint again to see the move."),
        "hint_stage": t.pgettext("page", "Hint {n} of 3"),
        "zoom_in": t.pgettext("page", "Zoom in"),
        "zoom_out": t.pgettext("page", "Zoom out"),
        "zoom_fit": t.pgettext("page", "Fit the board"),
        "cell_covered": t.pgettext("page", "{cell}, covered"),
        "cell_probability": t.pgettext("page", "{cell}, covered, mine probability {p} %"),
        "cell_flag": t.pgettext("page", "{cell}, flagged"),
        "cell_number": t.pgettext("page", "{cell}, {n}"),
        "cell_mine": t.pgettext("page", "{cell}, mine"),
        "cell_exploded": t.pgettext("page", "{cell}, exploded mine"),
        "cell_wrong_flag": t.pgettext("page", "{cell}, wrong flag"),
        "mark_premise": t.pgettext("page", "outlined by the hint"),
        "mark_safe": t.pgettext("page", "safe, says the hint"),
        "mark_mine": t.pgettext("page", "a mine, says the hint"),
        "mark_safest": t.pgettext("page", "among the safest"),
        "mark_best": t.pgettext("page", "the best guess"),
        "keys": t.pgettext("page", "Keys"),
        "key_space": t.pgettext("page", "Space"),
        "key_enter": t.pgettext("page", "Enter"),
        "key_backspace": t.pgettext("page", "Backspace"),
        "key_move": t.pgettext("page", "move the cursor"),
        "key_open": t.pgettext("page", "open (on a satisfied number: its neighbours)"),
        "key_flag": t.pgettext("page", "flag or unflag"),
        "key_hint": t.pgettext("page", "hint (again: the reason, then the move)"),
        "key_probabilities": t.pgettext("page", "show or hide the probabilities"),
        "key_new": t.pgettext("page", "new game (asks first during a game)"),
        "key_zoom": t.pgettext("page", "zoom in, zoom out"),
        "key_tabs": t.pgettext("page", "on the tabs: the previous or next view"),
        "key_fit": t.pgettext("page", "fit the board"),
        # Rules and boards chosen when a game starts.
        "punish_guesses": t.pgettext("page", "Punish guesses"),
        "strict_flags": t.pgettext("page", "Strict flags"),
        "technique": t.pgettext("page", "Technique"),
        "technique_any": t.pgettext("page", "Any guess-free board"),
        "technique_gentle": t.pgettext("page", "Gentle (levels 1-2)"),
        "technique_level3": t.pgettext("page", "Needs level 3"),
        "technique_level4": t.pgettext("page", "Needs level 4"),
        "technique_total": t.pgettext("page", "Needs the mine total"),
        "gentle_start": t.pgettext("page", "Gentler start"),
        "modes_help": t.pgettext(
            "page",
            "Punish guesses: a guess made while a safe cell could be proven meets a mine. Strict "
            "flags: a flag where there is no mine loses the game. Gentler start: the first "
            "forced moves are made for you.",
        ),
        "lost_flag_message": t.pgettext(
            "page", "You flagged a cell with no mine: with strict flags, that loses."
        ),
        "postmortem": t.pgettext("page", "Post-mortem"),
        "mark_provable": t.pgettext("page", "could be proven safe"),
        "mark_fatal": t.pgettext("page", "lost the game"),
        # The review of a finished game or of a replay file.
        "review": t.pgettext("page", "Review"),
        "review_this": t.pgettext("page", "Review this game"),
        "review_last": t.pgettext("page", "Review the last finished game"),
        "replay_file": t.pgettext(
            "page", "Replay file (.avf, .mvf, .rmv, .evf, or a game mineproof recorded)"
        ),
        # The file picker's own button and words, which the browser says in its own language.
        "choose_file": t.pgettext("page", "Choose a file"),
        "no_file": t.pgettext("page", "No file chosen"),
        "review_empty": t.pgettext(
            "page", "Finish a game, or choose a replay file, to review it click by click."
        ),
        "review_board": t.pgettext("page", "Reviewed game"),
        "review_step": t.pgettext("page", "Click {n} of {total}"),
        "review_start": t.pgettext("page", "Before the first click"),
        "step_first": t.pgettext("page", "To the start"),
        "step_prev": t.pgettext("page", "Previous click"),
        "step_next": t.pgettext("page", "Next click"),
        "step_last": t.pgettext("page", "To the end"),
        "step_slider": t.pgettext("page", "Click shown"),
        "download_gif": t.pgettext("page", "Download GIF"),
        "review_flag": t.pgettext("page", "A flag on {cell}."),
        "review_unflag": t.pgettext("page", "The flag on {cell} removed."),
        "review_wrong_flag": t.pgettext("page", "A flag on {cell}, where there is no mine."),
        "mark_forced": t.pgettext("page", "a forced move"),
        "mark_guess": t.pgettext("page", "a needed guess"),
        "mark_mistake": t.pgettext("page", "a mistake"),
        "error_replay": t.pgettext("page", "This file is not a replay mineproof can read."),
        "error_replays_missing": t.pgettext(
            "page",
            "Reading this kind of replay needs ms-toollib on the server: pip install "
            "'mineproof[replays]'.",
        ),
        "error_upload_size": t.pgettext(
            "page", "This file is larger than the server reads ({size} KB at most)."
        ),
        "error_not_finished": t.pgettext("page", "Only a finished game can be reviewed."),
        # Statistics.
        "help_kind": t.pgettext("page", "Help"),
        "assisted": t.pgettext("page", "With hints"),
        "unassisted": t.pgettext("page", "Without help"),
        "abandoned": t.pgettext("page", "Abandoned"),
        "streak": t.pgettext("page", "Streak"),
        "best_streak": t.pgettext("page", "Best streak"),
        "custom_size": t.pgettext("page", "{width}x{height}, mines: {mines}"),
        "gentle_short": t.pgettext("page", "gentler start"),
        "times_chart": t.pgettext("page", "Winning times without help"),
        "chart_label": t.pgettext(
            "page",
            "{board}: winning times in seconds, in the order played (games: {n}); best {best} s",
        ),
        "chart_won": t.pgettext("page", "games won: {n}"),
        "stats_help": t.pgettext(
            "page",
            "Games where a hint or the probabilities were shown are counted apart, and only "
            "games without help have best times. A game left unfinished when another is "
            "started, or untouched for a day, counts as lost.",
        ),
    }
