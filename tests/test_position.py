"""Position: what its parser takes."""

from __future__ import annotations

import pytest

from mineproof.position import Position


@pytest.mark.parametrize("text", [b"3x1x1\n1H1", bytearray(b"3x1x1\n1H1"), None])
def test_parse_says_it_takes_str(text: object) -> None:
    # Before, for bytes: "a bytes-like object is required, not 'str'" (backwards).
    with pytest.raises(TypeError, match=r"^Position\.parse takes str, not \w+ \(for bytes: decode"):
        Position.parse(text)  # type: ignore[arg-type]
    assert Position.parse("3x1x1\n1H1").mines == 1
