"""The page's files: every string the page asks for exists in every language."""

from __future__ import annotations

import json
import re
from importlib import resources

from mineproof.explain import LANGUAGES
from mineproof.web.server import STATIC

STATIC_DIR = resources.files("mineproof.web").joinpath("static")


def _text(name: str) -> str:
    return STATIC_DIR.joinpath(name).read_text(encoding="utf-8")


def test_every_static_file_named_by_the_server_ships_in_the_package() -> None:
    for name in STATIC:
        assert STATIC_DIR.joinpath(name).is_file(), name


def test_every_language_has_every_string_with_the_same_placeholders() -> None:
    messages = json.loads(_text("i18n.json"))
    assert list(messages) == list(LANGUAGES)
    english = messages["en"]
    for lang, table in messages.items():
        assert table.keys() == english.keys(), lang
        for key, text in table.items():
            assert text.strip(), (lang, key)
            placeholders = set(re.findall(r"\{\w+\}", text))
            assert placeholders == set(re.findall(r"\{\w+\}", english[key])), (lang, key)


def test_every_key_the_page_uses_exists_and_none_is_unused() -> None:
    english = json.loads(_text("i18n.json"))["en"]
    used = set(re.findall(r'data-i18n(?:-title|-label)?="(\w+)"', _text("index.html")))
    used |= set(re.findall(r'\bt\("(\w+)"', _text("app.js")))
    assert used - english.keys() == set()
    assert english.keys() - used == set()
