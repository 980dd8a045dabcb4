"""The page's files: what the server serves, and every string the page asks for in every
language (the strings come from the gettext catalogs, whose completeness tests/explain checks;
here: the page names no string that does not exist, and every string is used)."""

from __future__ import annotations

import io
import re
from importlib import resources
from importlib.resources.abc import Traversable

from babel.messages.extract import extract_python
from babel.messages.pofile import read_po

from mineproof.errors import FORMAT_REASONS
from mineproof.explain import LANGUAGES
from mineproof.explain.text import LOCALES
from mineproof.web.games import LEVELS
from mineproof.web.server import STATIC
from mineproof.web.strings import LANGUAGE_NAMES, page_strings

STATIC_DIR = resources.files("mineproof.web").joinpath("static")

# How the page names a string: data-i18n="key" (and -label, -title) in markup, t("key") in
# code, and the descriptors the views keep (key: "k", label: "k", tab: "k", ...).
USES = re.compile(
    r'data-i18n(?:-title|-label)?="(\w+)"'
    r"|(?<![\w.])t\(\"(\w+)\""
    r'|\b(?:key|label|tab|prefix|hintPrefix|help)\s*[:=]\s*"(\w+)"'
    r'|"data-i18n(?:-label|-title)?": "(\w+)"'
)


def _files(folder: Traversable, prefix: str = "") -> dict[str, Traversable]:
    found: dict[str, Traversable] = {}
    for entry in folder.iterdir():
        if entry.is_dir():
            found |= _files(entry, prefix + entry.name + "/")
        else:
            found[prefix + entry.name] = entry
    return found


def _page_text() -> str:
    files = _files(STATIC_DIR)
    return "\n".join(
        files[name].read_text(encoding="utf-8") for name in files if name.endswith((".js", ".html"))
    )


def test_every_file_of_the_page_is_served_with_its_type() -> None:
    files = _files(STATIC_DIR)
    assert set(STATIC) == set(files)
    assert STATIC["index.html"] == "text/html; charset=utf-8"
    assert STATIC["js/main.js"] == "text/javascript; charset=utf-8"
    assert all(STATIC[n] == "text/javascript; charset=utf-8" for n in files if n.endswith(".js"))


def test_the_page_loads_its_code_as_modules_from_its_own_files() -> None:
    html = STATIC_DIR.joinpath("index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts == ['<script type="module" src="/static/js/main.js">']
    assert "<style" not in html and " style=" not in html and "onclick" not in html
    for name, file in _files(STATIC_DIR).items():
        if name.endswith(".js"):
            for target in re.findall(r'^import .* from "([^"]+)";', file.read_text(), re.M):
                assert target.startswith("./") and "js/" + target[2:] in STATIC, (name, target)


def test_every_key_the_page_uses_exists_and_none_is_unused() -> None:
    english = page_strings("en")
    text = _page_text()
    used = {key for groups in USES.findall(text) for key in groups if key}
    assert used - english.keys() == set()
    # Unused: named nowhere in the page's code (the level menu names the levels of /api/meta;
    # errorText names the string of a format error by its reason, "format_" and the reason).
    assert '"format_" + d.reason.replaceAll("-", "_")' in text
    reasons = {"format_" + reason.replace("-", "_") for reason in FORMAT_REASONS}
    named = set(re.findall(r'"(\w+)"', text)) | set(LEVELS) | reasons
    assert english.keys() - named == set()


def test_every_language_has_every_string_with_the_same_placeholders() -> None:
    english = page_strings("en")
    assert list(LANGUAGE_NAMES) == list(LANGUAGES)
    for lang in LANGUAGES:
        table = page_strings(lang)
        assert table.keys() == english.keys(), lang
        for key, text in table.items():
            assert text.strip(), (lang, key)
            placeholders = set(re.findall(r"\{\w+\}", text))
            assert placeholders == set(re.findall(r"\{\w+\}", english[key])), (lang, key)
            if lang != "en" and len(english[key]) > 12:
                assert text != english[key], f"{lang}: {key!r} is not translated"


def test_every_page_string_is_in_the_catalog_template() -> None:
    """The catalogs were extracted after the last change to the page's strings (else a new
    string would be English in every language without a test noticing)."""
    source = resources.files("mineproof.web").joinpath("strings.py").read_bytes()
    keywords = {"pgettext": ((1, "c"), 2)}
    found = {
        (message[0], message[1])
        for _, _, message, _ in extract_python(io.BytesIO(source), keywords, [], {})
        if isinstance(message, tuple)
    }
    template = read_po(io.BytesIO((LOCALES / "mineproof.pot").read_bytes()))
    extracted = {(m.context, m.id) for m in template if m.context == "page"}
    assert len(found) == len(page_strings("en"))
    assert found == extracted


def test_counts_in_the_page_words_read_right_for_one() -> None:
    # The page has no plural forms: a count of one must not read "1 mines", "1 minas", ...
    wrong = re.compile(
        r"\b1 (mines|minas|Minen|cells|cases|casas|casillas|Felder|arrangements|"
        r"formas|façons|maneiras|winning times|temps|tiempos|tempos|Siegeszeiten)\b"
    )
    for lang in LANGUAGES:
        words = page_strings(lang)
        shown = [
            words["arrangements"].format(n=1, safe=1, mine=1),
            words["custom_size"].format(width=9, height=9, mines=1),
            words["chart_label"].format(board="9x9", n=1, best="5.0"),
        ]
        assert not any(wrong.search(text) for text in shown), (lang, shown)
