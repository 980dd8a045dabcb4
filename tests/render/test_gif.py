"""The GIF encoder, checked against Pillow as an independent decoder and a strict LZW reader."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageSequence

from mineproof.render.gif import Frame, Rgb, encode_gif, lzw_compress


def decode(data: bytes) -> list[tuple[bytes, int]]:
    """Return each frame of a GIF as Pillow composes it (RGB bytes) with its duration in ms."""
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for frame in ImageSequence.Iterator(im):
            out.append((frame.convert("RGB").tobytes(), frame.info["duration"]))
    return out


def rgb_bytes(pixels: bytes, palette: list[Rgb]) -> bytes:
    return b"".join(bytes(palette[p]) for p in pixels)


def lzw_decode(data: bytes, min_code_size: int) -> tuple[bytes, int]:
    """A strict LZW reader: return the indices and how many clear codes the stream holds.

    Raises ``AssertionError`` on anything a GIF stream must not do (a code not yet in the
    table, a missing first clear, data after the end code).
    """
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    stream = int.from_bytes(data, "little")
    pos, size = 0, min_code_size + 1
    table: list[bytes] = []
    out = bytearray()
    clears = 0
    previous: bytes | None = None
    while True:
        assert pos + size <= len(data) * 8, "the stream ends without an end code"
        code = stream >> pos & ((1 << size) - 1)
        pos += size
        if code == clear:
            clears += 1
            table = [bytes([i]) for i in range(clear)] + [b"", b""]
            size, previous = min_code_size + 1, None
            continue
        assert table, "the stream must start with a clear code"
        if code == end:
            assert (len(data) * 8 - pos) < 8, "bytes after the end code"
            return bytes(out), clears
        if previous is None:
            assert code < clear, f"code {code} after a clear code is not a pixel"
            entry = table[code]
        else:
            assert code <= len(table), f"code {code} is not in a table of {len(table)}"
            entry = table[code] if code < len(table) else previous + previous[:1]
            if len(table) < 4096:
                table.append(previous + entry[:1])
        out += entry
        previous = entry
        if len(table) == 1 << size and size < 12:
            size += 1


def blocks(data: bytes) -> list[tuple[str, bytes]]:
    """Return the GIF's blocks after the header and global table as (kind, body): ``image``
    with its 9 descriptor bytes, or an extension (``control``, ``application``, ``comment``)
    with its sub-blocks joined."""
    flags = data[10]
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    kinds = {0xF9: "control", 0xFF: "application", 0xFE: "comment"}
    out: list[tuple[str, bytes]] = []
    while data[pos] != 0x3B:
        if data[pos] == 0x2C:
            out.append(("image", data[pos + 1 : pos + 10]))
            pos += 11  # the descriptor and the LZW minimum code size
            body = None
        else:
            assert data[pos] == 0x21, f"unknown block {data[pos]:#x} at {pos}"
            kind = kinds[data[pos + 1]]
            pos += 2
            body = bytearray()
        while data[pos]:
            if body is not None:
                body += data[pos + 1 : pos + 1 + data[pos]]
            pos += 1 + data[pos]
        pos += 1
        if body is not None:
            out.append((kind, bytes(body)))
    assert pos == len(data) - 1, "bytes after the trailer"
    return out


def rects(data: bytes) -> list[tuple[int, int, int, int]]:
    """Return (left, top, width, height) of every image in a GIF."""
    out = []
    for kind, body in blocks(data):
        if kind == "image":
            v = [int.from_bytes(body[i : i + 2], "little") for i in range(0, 8, 2)]
            out.append((v[0], v[1], v[2], v[3]))
    return out


@st.composite
def images(draw: st.DrawFn, max_side: int = 120) -> tuple[int, int, list[Rgb], bytes]:
    """A random image: its size, a palette of 1 to 256 colours, and its indices: noise, or runs
    of one colour (long repeated strings), from a seeded generator so large images are cheap."""
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    colours = draw(st.sampled_from([1, 2, 3, 4, 5, 16, 17, 100, 255, 256]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(colours)]
    keep = draw(st.sampled_from([0.0, 0.5, 0.9, 0.999]))
    pixels = bytearray()
    value = rng.randrange(colours)
    for _ in range(width * height):
        if rng.random() >= keep:
            value = rng.randrange(colours)
        pixels.append(value)
    return width, height, palette, bytes(pixels)


@settings(max_examples=60, deadline=None)
@given(images())
def test_a_still_image_round_trips_through_pillow(image: tuple[int, int, list[Rgb], bytes]) -> None:
    width, height, palette, pixels = image
    data = encode_gif(width, height, palette, [Frame(pixels, 7)])
    [(rgb, duration)] = decode(data)
    assert rgb == rgb_bytes(pixels, palette)
    assert duration == 70


@settings(max_examples=40, deadline=None)
@given(images(max_side=40), st.integers(0, 2**32), st.integers(1, 6))
def test_frames_round_trip_through_pillow(
    image: tuple[int, int, list[Rgb], bytes], seed: int, count: int
) -> None:
    width, height, palette, pixels = image
    rng = random.Random(seed)
    frames = [Frame(pixels, rng.randrange(0, 500))]
    for _ in range(count):
        changed = bytearray(frames[-1].pixels)
        for _ in range(rng.choice([0, 1, 5, width * height])):  # also none, also all
            changed[rng.randrange(width * height)] = rng.randrange(len(palette))
        frames.append(Frame(bytes(changed), rng.randrange(0, 500)))
    data = encode_gif(width, height, palette, iter(frames))
    decoded = decode(data)
    assert [d for _, d in decoded] == [f.delay * 10 for f in frames]
    for n, ((rgb, _), frame) in enumerate(zip(decoded, frames, strict=True)):
        assert rgb == rgb_bytes(bytes(frame.pixels), palette), f"frame {n}"


def test_a_full_code_table_is_cleared_and_decodes() -> None:
    rng = random.Random(7)
    width, height = 200, 100
    pixels = bytes(rng.randrange(256) for _ in range(width * height))
    palette = [(i, 255 - i, i // 2) for i in range(256)]
    codes = lzw_compress(pixels, 8)
    decoded, clears = lzw_decode(codes, 8)
    assert decoded == pixels
    assert clears >= 4  # the first, and one each time 4096 codes are used up
    data = encode_gif(width, height, palette, [Frame(pixels, 0)])
    assert decode(data)[0][0] == rgb_bytes(pixels, palette)


@settings(max_examples=60, deadline=None)
@given(images(max_side=90), st.integers(2, 8))
def test_lzw_codes_grow_and_clear_exactly_as_a_strict_reader_expects(
    image: tuple[int, int, list[Rgb], bytes], min_code_size: int
) -> None:
    pixels = bytes(p % (1 << min_code_size) for p in image[3])
    decoded, clears = lzw_decode(lzw_compress(pixels, min_code_size), min_code_size)
    assert decoded == pixels and clears >= 1


def test_lzw_of_nothing_is_a_clear_and_an_end() -> None:
    assert lzw_decode(lzw_compress(b"", 2), 2) == (b"", 1)


@pytest.mark.parametrize("min_code_size", [2, 3, 8])
def test_the_end_code_is_as_wide_as_the_reader_expects_at_every_length(
    min_code_size: int,
) -> None:
    # A run of one value adds a table entry every few codes, so every length of run up to a
    # few hundred ends once just before, at and after each growth of the code size.
    for n in range(400):
        assert lzw_decode(lzw_compress(bytes(n), min_code_size), min_code_size)[0] == bytes(n)
    rng = random.Random(min_code_size)
    noise = bytes(rng.randrange(1 << min_code_size) for _ in range(6000))
    for n in [*range(250, 270), *range(500, 530), *range(4080, 4110)]:
        assert lzw_decode(lzw_compress(noise[:n], min_code_size), min_code_size)[0] == noise[:n]


def test_later_frames_store_only_the_changed_rectangle() -> None:
    width, height = 50, 40
    first = bytes(width * height)
    second = bytearray(first)
    second[12 * width + 30] = 1  # (30, 12)
    second[20 * width + 7] = 2  # (7, 20)
    third = bytearray(second)
    third[5 * width + 44] = 3  # (44, 5)
    frames = [Frame(p, 5) for p in (first, bytes(second), bytes(third), bytes(third))]
    data = encode_gif(width, height, [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)], frames)
    assert rects(data) == [(0, 0, 50, 40), (7, 12, 24, 9), (44, 5, 1, 1), (0, 0, 1, 1)]
    kinds = [k for k, _ in blocks(data)]
    assert kinds == ["application"] + ["control", "image"] * 4


@settings(max_examples=40, deadline=None)
@given(images(max_side=40), st.integers(0, 2**32), st.integers(1, 6))
def test_frames_with_a_box_decode_as_given_from_one_buffer_drawn_over(
    image: tuple[int, int, list[Rgb], bytes], seed: int, count: int
) -> None:
    """A frame that says where it changed (its box, which may be larger than its changes) is
    stored as that box and decodes as given, even when every frame is a view of one buffer
    that the next overwrites (as a raster's frames are)."""
    width, height, palette, pixels = image
    rng = random.Random(seed)
    buffer = bytearray(pixels)
    wanted = [bytes(buffer)]

    def frames() -> Iterator[Frame]:
        yield Frame(memoryview(buffer), 7)
        for _ in range(count):
            left, top = rng.randrange(width), rng.randrange(height)
            w, h = rng.randint(1, width - left), rng.randint(1, height - top)
            for _ in range(rng.choice([0, 1, 5, w * h])):
                x, y = left + rng.randrange(w), top + rng.randrange(h)
                buffer[y * width + x] = rng.randrange(len(palette))
            wanted.append(bytes(buffer))
            yield Frame(memoryview(buffer), 7, (left, top, w, h))

    data = encode_gif(width, height, palette, frames())
    decoded = decode(data)
    assert len(decoded) == len(wanted)
    for n, ((rgb, _), want) in enumerate(zip(decoded, wanted, strict=True)):
        assert rgb == rgb_bytes(want, palette), f"frame {n}"


def test_a_box_is_stored_as_given_and_checked() -> None:
    width, height = 50, 40
    first = bytes(width * height)
    second = bytearray(first)
    second[12 * width + 30] = 1  # (30, 12), inside the box given
    palette = [(0, 0, 0), (255, 0, 0)]
    frames = [Frame(first, 5), Frame(bytes(second), 5, (20, 10, 16, 16))]
    assert rects(encode_gif(width, height, palette, frames)) == [(0, 0, 50, 40), (20, 10, 16, 16)]
    for box in [(40, 0, 11, 1), (0, 0, 0, 1), (-1, 0, 2, 2), (0, 39, 1, 2)]:
        with pytest.raises(ValueError, match="box"):
            encode_gif(width, height, palette, [Frame(first, 5), Frame(first, 5, box)])
    second[12 * width + 30] = 2  # a colour the palette lacks, inside the box: refused
    with pytest.raises(ValueError, match="colour 2"):
        encode_gif(
            width, height, palette, [Frame(first, 5), Frame(bytes(second), 5, (30, 12, 1, 1))]
        )


def test_loop_comment_and_header() -> None:
    frame = Frame(bytes(4), 3)
    data = encode_gif(2, 2, [(1, 2, 3)], [frame, frame], comment="30x16/99: won é")
    assert data.startswith(b"GIF89a") and data.endswith(b";")
    found = dict(blocks(data))
    assert found["application"] == b"NETSCAPE2.0\x01\x00\x00"
    assert found["comment"] == b"30x16/99: won ?"
    assert len(decode(data)) == 2
    with Image.open(io.BytesIO(data)) as im:
        assert im.info["loop"] == 0
    once = encode_gif(2, 2, [(1, 2, 3)], [frame], loop=None)
    assert "application" not in dict(blocks(once))
    with Image.open(io.BytesIO(encode_gif(2, 2, [(1, 2, 3)], [frame], loop=3))) as im:
        assert im.info["loop"] == 3


BAD: list[tuple[str, Callable[[], bytes]]] = [
    ("size", lambda: encode_gif(0, 1, [(0, 0, 0)], [Frame(b"", 0)])),
    ("palette", lambda: encode_gif(1, 1, [], [Frame(b"\0", 0)])),
    ("palette", lambda: encode_gif(1, 1, [(0, 0, 0)] * 257, [Frame(b"\0", 0)])),
    ("component", lambda: encode_gif(1, 1, [(0, 0, 256)], [Frame(b"\0", 0)])),
    ("at least one frame", lambda: encode_gif(1, 1, [(0, 0, 0)], [])),
    ("pixels", lambda: encode_gif(2, 1, [(0, 0, 0)], [Frame(b"\0", 0)])),
    ("colour 1", lambda: encode_gif(1, 1, [(0, 0, 0)], [Frame(b"\1", 0)])),
    ("delay", lambda: encode_gif(1, 1, [(0, 0, 0)], [Frame(b"\0", 65536)])),
    ("loop", lambda: encode_gif(1, 1, [(0, 0, 0)], [Frame(b"\0", 0)], loop=-1)),
    ("minimum code size", lambda: lzw_compress(b"", 9)),
    ("does not fit", lambda: lzw_compress(b"\4", 2)),
]


@pytest.mark.parametrize(("needle", "call"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_arguments_raise_value_error(needle: str, call: Callable[[], bytes]) -> None:
    with pytest.raises(ValueError, match=needle):
        call()
