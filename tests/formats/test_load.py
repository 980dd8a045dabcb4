"""Tests of mineproof.formats.load: reading files and recognising formats by their content."""

from __future__ import annotations

import errno
import io
import json
import sys
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.errors import (
    FORMAT_REASONS,
    ArgumentError,
    FormatError,
    FormatReason,
    NotFoundError,
)
from mineproof.formats import (
    format_grid,
    format_layout_text,
    format_mbf,
    load_layout,
    load_position,
    read_bytes,
)
from mineproof.position import Position

SHARED_POSITIONS = Path(__file__).resolve().parents[1] / "data" / "positions"


class _FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@st.composite
def layouts(draw: st.DrawFn, max_side: int = 12) -> Layout:
    """Draw a layout: any size up to ``max_side`` each side, any set of mined cells."""
    board = Board(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    return Layout(board, draw(st.integers(0, board.full_mask)))


# read_bytes


def test_read_bytes_file(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_bytes(b"1x1x0\n0")
    assert read_bytes(str(path)) == b"1x1x0\n0"


def test_read_bytes_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.txt"
    # The reason alone: the caller names the file (before: "cannot read PATH: ...", and the
    # command line named the file twice). Not found, not malformed: nothing was read.
    with pytest.raises(NotFoundError, match=r"^no such file$"):
        read_bytes(str(path))


def test_read_bytes_directory(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"^is a directory$"):
        read_bytes(str(tmp_path))


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
        (OSError(errno.EIO, "Input/output error"), "input/output error"),
    ],
)
def test_read_bytes_other_errors(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, error: OSError, reason: str
) -> None:
    # Simulated: the tests may run as root, who can read a file of mode 000.
    def fail(self: Path, *args: object, **kwargs: object) -> bytes:
        raise error

    monkeypatch.setattr(Path, "open", fail)
    with pytest.raises(FormatError, match=rf"^{reason}$"):
        read_bytes(str(tmp_path / "f"))


def test_read_bytes_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(b"\x03\x01\x00\x00"))
    assert read_bytes("-") == b"\x03\x01\x00\x00"


def test_read_bytes_stops_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An endless input (/dev/zero) ends in an error once past the limit, not in exhausted
    # memory; only the limit and one byte are read.
    path = tmp_path / "big"
    path.write_bytes(b"1" * 101)
    assert read_bytes(str(path), limit=101) == b"1" * 101
    with pytest.raises(FormatError, match="larger than 100 bytes"):
        read_bytes(str(path), limit=100)
    monkeypatch.setattr(sys, "stdin", _FakeStdin(b"\x00" * 11))
    with pytest.raises(FormatError, match="larger than 10 bytes"):
        read_bytes("-", limit=10)
    if Path("/dev/zero").exists():
        with pytest.raises(FormatError, match="larger than"):
            read_bytes("/dev/zero")


# load_position

POSITION = Position.parse("3x2x2\nH1F\n111")


def test_load_position_jsminesweeper_text() -> None:
    assert load_position(POSITION.text().encode()) == POSITION


def test_load_position_text_with_blank_lines_bom_and_crlf() -> None:
    data = b"\xef\xbb\xbf\r\n  3x2x2\r\nH1F\r\n111\r\n"
    assert load_position(data) == POSITION


def test_load_position_mines_override_header() -> None:
    position = load_position(POSITION.text().encode(), mines=1)
    assert position == Position(POSITION.board, POSITION.cells, 1)


def test_load_position_mines_override_checked() -> None:
    with pytest.raises(ArgumentError, match="more than the 2 covered cells") as raised:
        load_position(POSITION.text().encode(), mines=3)
    assert (raised.value.name, raised.value.allowed) == ("mines", (0, 2))


def test_load_position_grid() -> None:
    data = b"  \n" + format_grid(POSITION).encode()
    assert load_position(data, mines=2) == POSITION


def test_load_position_grid_needs_mines() -> None:
    # The mine total is missing, not malformed: an argument, named, for each caller to say how
    # to give it (the message spoke of the command line's option to the web app's users too).
    with pytest.raises(ArgumentError, match="no mine total") as raised:
        load_position(format_grid(POSITION).encode())
    assert raised.value.name == "mines" and raised.value.allowed is None


def test_load_position_malformed_text_keeps_its_place() -> None:
    with pytest.raises(FormatError, match=r"^line 3, column 2: unknown cell 'x'"):
        load_position(b"3x2x2\nH1F\n1x1")


@pytest.mark.parametrize("data", [b"hello\n", b"{}", b"30x16\nHHH", b"\x03\x02\x00\x01\x00\x00"])
def test_load_position_unrecognised(data: bytes) -> None:
    with pytest.raises(FormatError, match=r"JSMinesweeper text .* or an ms-toollib grid"):
        load_position(data)


@pytest.mark.parametrize(
    ("data", "reason", "details"),
    [
        (b"", "not-a-position", {}),
        (b"hello\n", "not-a-position", {}),
        (b"3x1x-1\nHHH", "size-range", {}),
        (b"0x3x1\nH", "size-range", {}),
        (b"256x1x1\n" + b"H" * 256, "size-range", {}),
        (b"3x1x1234567890\nHHH", "size-range", {}),
        (b"4x3x3\n01HH\n13HH\n", "row-count", {"expected": 3, "found": 2}),
        (b"4x3x3\n01HH\n13H\nHHHH", "row-length", {"row": 2, "expected": 4, "found": 3}),
        (b"4x1x1\n01?H", "cell-code", {"code": "?"}),
        (b"[[1, 10]\n [1, 11]]", "json", {}),
        (b"[[1, 10], {}]", "grid-shape", {}),
        (b"[[]]", "grid-shape", {}),
        (b"[[1, 10], [1]]", "grid-row-length", {"row": 2, "expected": 2, "found": 1}),
        (b'[[1, 10], [10, "x"]]', "grid-value", {"row": 2, "column": 2, "value": '"x"'}),
        (b"[[" + b"10," * 299 + b"10]]", "size-range", {}),
    ],
)
def test_load_position_names_the_reason_a_page_can_word(
    data: bytes, reason: FormatReason, details: dict[str, object]
) -> None:
    """Each way a pasted text can fail to be a position is named with the values it carries
    (the web page says it in its own language from them, not in the message's English)."""
    with pytest.raises(FormatError) as caught:
        load_position(data, 1)
    assert (caught.value.reason, caught.value.details) == (reason, details)
    assert tuple(details) == FORMAT_REASONS[reason]
    assert caught.value.to_json()["reason"] == reason


def test_every_format_reason_names_its_details() -> None:
    """The ``FormatReason`` type and the table of details name the same reasons (mypy checks
    only that each key of the table is a reason)."""
    assert set(get_args(FormatReason)) == set(FORMAT_REASONS)


def test_other_format_errors_name_no_reason() -> None:
    """Errors of layouts and recorded games are not a pasted position's: no page words them."""
    with pytest.raises(FormatError) as caught:
        load_layout(b"3x1x1\n*.x")
    assert (caught.value.reason, caught.value.details) == (None, {})


@pytest.mark.parametrize("data", [b"", b" \n\n"])
def test_load_position_empty(data: bytes) -> None:
    with pytest.raises(FormatError, match=r"^empty input: expected JSMinesweeper"):
        load_position(data)


def test_load_position_not_utf8() -> None:
    with pytest.raises(FormatError, match=r"not UTF-8 text \(bad byte at offset 6\)"):
        load_position(b"1x1x0\n\xff")


# load_layout


@given(layouts())
def test_load_layout_detects_mbf(layout: Layout) -> None:
    assert load_layout(format_mbf(layout)) == layout


@given(layouts())
def test_load_layout_detects_text(layout: Layout) -> None:
    assert load_layout(format_layout_text(layout).encode()) == layout


def test_load_layout_ascii_mbf() -> None:
    # Every byte is printable ASCII, but there is no WxHxM header: read as MBF.
    data = bytes([ord("2"), ord("2"), 0, 1, 1, 1])
    assert load_layout(data) == Layout.from_cells(Board(50, 50), [(1, 1)])


def test_load_layout_text_with_a_typo_reports_line_and_column() -> None:
    with pytest.raises(FormatError, match=r"^line 3, column 2: cell \(1, 1\): unknown character"):
        load_layout(b"3x2x1\n*..\n.o.")


def test_load_layout_bad_mbf() -> None:
    with pytest.raises(FormatError, match="should have 6 bytes, got 5"):
        load_layout(bytes([3, 2, 0, 1, 0]))


@pytest.mark.parametrize("data", [b"", b"\n", b"\xef\xbb\xbf", b"# only a comment\n"])
def test_load_layout_empty_says_what_is_expected(data: bytes) -> None:
    # Before, empty data was read as MBF: "MBF data has 0 bytes, fewer than the 4-byte header".
    with pytest.raises(FormatError, match=r"^empty input: expected layout text \(a 'WxHxM' line"):
        load_layout(data)


_BOARD = "9x3x2\n*........\n.........\n........*"
_VIEW = "9x3x2\nH10000000\nH10000111\nHH00001HH"


def test_load_layout_skips_comments_and_a_bom() -> None:
    expected = Layout.from_cells(Board(9, 3), [(0, 0), (8, 2)])
    text = f"# board 1 (seed 7): opening start at (4, 1)\n{_BOARD}\n"
    assert load_layout(text.encode()) == expected  # before: "MBF data for 25,199 mines ..."
    assert load_layout(b"\xef\xbb\xbf" + _BOARD.encode()) == expected
    # generate --reveal: the player's view after the layout is not part of it
    revealed = f"{text}# the board as the player gets it, first moves made:\n{_VIEW}\n"
    assert load_layout(revealed.encode()) == expected


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (b"hello\n", r"^line 1: not a layout: expected a 'WxHxM' line"),
        (b"3x1x1\n1H1\n", r"^line 2, column 1: cell \(0, 0\): unknown character '1'"),
        (f"{_BOARD}\n# x\nnot this".encode(), r"^line 6: not a layout: expected a 'WxHxM' line"),
        (b'{"width": 2}', r"^line 1: not a board of generate: expected a JSON object with"),
        (b'{"width": 2', r"^line 1, column 12: line 1: not a board of generate: expected a comma"),
        (
            b'{"width": 2, "height": 1, "mines": 1, "layout": ["*x"]}',
            r"^line 1: the board's layout: line 2, column 2: cell \(1, 0\): unknown character",
        ),
    ],
)
def test_load_layout_text_that_is_no_layout_says_so(data: bytes, pattern: str) -> None:
    with pytest.raises(FormatError, match=pattern):
        load_layout(data)


# the shared benchmark positions


def _shared_files() -> list[Path]:
    files = sorted(SHARED_POSITIONS.glob("*.jsonl"))
    assert files, f"no *.jsonl files in {SHARED_POSITIONS}"
    return files


def test_shared_positions_round_trip() -> None:
    count = 0
    for path in _shared_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            record = json.loads(line)
            where = f"{path.name}:{n} ({record['id']})"
            position = Position.parse(record["position"])
            assert position.text() == record["position"], where
            assert position.mines == record["mines"], where
            assert Position.parse(position.text()) == position, where
            assert load_position(record["position"].encode()) == position, where
            grid = format_grid(position).encode()
            assert load_position(grid, mines=record["mines"]) == position, where
            count += 1
    assert count > 0


@pytest.mark.parametrize("part", [0, 1, 2])
def test_a_header_number_of_thousands_of_digits_is_one_error(part: int) -> None:
    # Python refuses to read an int of over 4,300 digits (a ValueError, not a FormatError):
    # the header is refused first, naming the line and the number.
    numbers = ["3", "1", "1"]
    numbers[part] = "9" * 4400
    text = "\n" + "x".join(numbers) + "\n1H1\n"
    name = ("width", "height", "mine total")[part]
    pattern = rf"^line 2: the header's {name} has 4,400 digits: no board is that large"
    with pytest.raises(FormatError, match=pattern):
        load_position(text.encode())
    with pytest.raises(FormatError, match=pattern):
        load_layout(text.replace("1H1", "*..").encode())


def test_leading_zeros_are_not_digits_too_many() -> None:
    assert load_position(b"0000000000003x1x1\n1H1").width == 3


def test_load_position_mines_replace_a_header_total_too_large() -> None:
    # The total given is the one checked: the header's, replaced, is not an error.
    position = load_position(b"2x2x9\n1H\nHH\n", mines=1)
    assert (position.mines, position.covered_count) == (1, 3)
    with pytest.raises(ArgumentError, match="the mine total 9 is more than the 3 covered cells"):
        load_position(b"2x2x9\n1H\nHH\n")


def test_load_position_refuses_text_with_a_pointer_to_the_parser() -> None:
    with pytest.raises(TypeError, match=r"Position\.parse"):
        load_position("3x1x1\nH1H")  # type: ignore[arg-type]
