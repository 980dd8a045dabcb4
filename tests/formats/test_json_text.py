"""Tests of mineproof.formats.json_text: malformed JSON described in plain English, in place."""

from __future__ import annotations

import json
import json.decoder
import json.scanner

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mineproof.errors import FormatError
from mineproof.formats import describe_json_error, read_json


def _pure_python_decoder() -> json.JSONDecoder:
    """Return a decoder that uses json's pure-Python parser (some of its messages add the
    character at fault, and its places may differ from the C parser's)."""
    decoder = json.JSONDecoder()
    decoder.parse_string = json.decoder.py_scanstring  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder


DECODERS = [json.JSONDecoder(), _pure_python_decoder()]


def _error(text: str, decoder: json.JSONDecoder) -> json.JSONDecodeError:
    with pytest.raises(json.JSONDecodeError) as caught:
        decoder.decode(text)
    return caught.value


BROKEN = [
    ('{"a": 1} x', "unexpected text after the end of the JSON value", 1, 10),
    ("[1,\n ]", "expected a JSON value (a number, string, list or object)", 2, 2),
    ('{"a": tru}', "expected a JSON value (a number, string, list or object)", 1, 7),
    ("[1 2]", "expected a comma between items", 1, 4),
    ("{'a': 1}", "expected a key in double quotes", 1, 2),
    ('{"a" 1}', "expected a colon after a key", 1, 6),
    ('["abc', "a string is not closed", 1, 2),
    ('["a\nb"]', "a control character (such as a newline) inside a string", 1, 4),
    ('["\\x"]', "an invalid backslash escape in a string", 1, 3),
    ('["\\u12"]', "an invalid \\u escape in a string (expected 4 hex digits)", 1, 4),
]


@pytest.mark.parametrize("decoder", DECODERS, ids=["c", "python"])
@pytest.mark.parametrize(("text", "plain", "line", "column"), BROKEN)
def test_each_message_in_plain_english(
    decoder: json.JSONDecoder, text: str, plain: str, line: int, column: int
) -> None:
    assert describe_json_error(_error(text, decoder)) == plain


@given(st.text(alphabet='[]{}",:\\ \n\t01-.eEtrufalsn\x01', max_size=12))
def test_every_message_the_parsers_give_is_known(text: str) -> None:
    for decoder in DECODERS:
        try:
            decoder.decode(text)
        except json.JSONDecodeError as error:
            assert describe_json_error(error) != error.msg, error.msg
        else:
            assume(False)


def test_an_unknown_message_passes_through() -> None:
    error = json.JSONDecodeError("Something new", "[1]", 1)
    assert describe_json_error(error) == "Something new"


@pytest.mark.parametrize(("text", "plain", "line", "column"), BROKEN)
def test_read_json_keeps_the_place(text: str, plain: str, line: int, column: int) -> None:
    with pytest.raises(FormatError) as caught:
        read_json(text, "not a thing", "a JSON object")
    assert str(caught.value) == f"line {line}, column {column}: not a thing: {plain}"
    assert (caught.value.line, caught.value.column) == (line, column)


@pytest.mark.parametrize("text", ["", " \n\t\r\n", b"", b"\n"])
def test_empty_input_names_what_was_expected(text: str | bytes) -> None:
    with pytest.raises(FormatError) as caught:
        read_json(text, "not a thing", "a JSON object")
    assert str(caught.value) == "not a thing: empty input: expected a JSON object"
    assert caught.value.line is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": "\xff"}'.encode("latin-1"), "not UTF-8 text (bad byte at offset 7)"),
        ("[1" + "0" * 5000 + "]", "a number has thousands of digits"),
        ("[" * 100_000, "lists or objects nested too deeply"),
    ],
    ids=["not-utf-8", "huge-number", "deep-nesting"],
)
def test_what_the_parser_refuses_otherwise_is_one_line(text: str | bytes, problem: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_json(text, "not a thing", "a JSON object")
    assert str(caught.value) == f"not a thing: {problem}"


def test_bytes_in_utf_16_are_read() -> None:
    assert read_json('{"a": [1]}'.encode("utf-16"), "not a thing", "a JSON object") == {"a": [1]}
