"""A small GIF89a encoder: a global palette, LZW, looping animation, changed rectangles only.

:func:`encode_gif` writes frames of palette indices as an animated GIF89a. Every frame after the
first is stored as the smallest rectangle that holds all its changed pixels (drawn over the
previous frame: disposal "do not dispose"), so a long animation in which each frame changes a
little stays small. Each frame has its own delay (a graphic control extension, in hundredths of
a second); a NETSCAPE2.0 application extension makes the animation loop.

The image data is compressed by :func:`lzw_compress`: variable-length codes from
``min_code_size + 1`` up to 12 bits, a clear code first, and a clear code (with a fresh table)
each time the table is full at 4096 codes. Standard library only; the same input gives the same
bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Frame", "Rgb", "encode_gif", "lzw_compress"]

Rgb = tuple[int, int, int]

_MAX_CODES = 4096  # GIF codes are at most 12 bits
_MAX_SIDE = 0xFFFF
_MAX_DELAY = 0xFFFF
_RUN = 16  # pixels compared at once where a row changed: a cell's width at scale 1


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of an animation: ``pixels`` are palette indices, row by row, and ``delay`` is
    how long the frame shows, in hundredths of a second (0 to 65535).

    ``box``, when given, is ``(left, top, width, height)`` of a rectangle outside which every
    pixel is as in the frame before (a :class:`~mineproof.render.raster.BoardRaster`'s
    ``box``): the encoder then looks inside it only, so a frame of a big board that changes a
    little costs little; ``None``: the frames are compared, pixel by pixel. The encoder reads
    ``pixels`` before it asks for the next frame, so they may be a view of a buffer that the
    next frame overwrites."""

    pixels: bytes | bytearray | memoryview
    delay: int
    box: tuple[int, int, int, int] | None = None


def lzw_compress(data: bytes, min_code_size: int) -> bytes:
    """Return ``data`` (palette indices) as GIF LZW codes packed least significant bit first.

    The result starts with a clear code and ends with the end-of-information code; it is not yet
    cut into sub-blocks. Codes start at ``min_code_size + 1`` bits and grow to 12; when the
    table is full (4096 codes) a clear code is written and the table starts again. Raises
    ``ValueError`` when ``min_code_size`` is outside 2..8 or a value of ``data`` does not fit it.

    >>> lzw_compress(bytes([0, 0, 0, 0]), 2).hex()
    '8451'
    """
    if not 2 <= min_code_size <= 8:
        raise ValueError(f"LZW minimum code size {min_code_size} is outside 2..8")
    clear = 1 << min_code_size
    bad = _at_least(data, clear)
    if bad is not None:
        raise ValueError(f"pixel value {bad} does not fit {min_code_size} bits")
    end = clear + 1
    out = bytearray()
    size = min_code_size + 1
    acc, bits = clear, size  # bits not yet written, the oldest lowest: the clear code first
    # The table maps (code of a string) << 8 | (next index) to the code of the longer string;
    # the single indices are the codes 0..clear-1 and need no entry.
    table: dict[int, int] = {}
    next_code = end + 1
    if not data:
        acc |= end << bits
        return acc.to_bytes((bits + size + 7) // 8, "little")
    prefix = data[0]
    for k in data[1:]:
        key = prefix << 8 | k
        code = table.get(key)
        if code is not None:
            prefix = code
            continue
        acc |= prefix << bits
        bits += size
        if bits >= 32:  # flush whole bytes now and then, not after every code
            n = bits >> 3
            out += (acc & ((1 << (n << 3)) - 1)).to_bytes(n, "little")
            acc >>= n << 3
            bits -= n << 3
        if next_code < _MAX_CODES:
            table[key] = next_code
            # The decoder adds each entry one code later than the encoder, so the codes grow
            # once the entry just added no longer fits: after code 2**size itself is added.
            if next_code == 1 << size:
                size += 1
            next_code += 1
        else:  # the table is full: say so, and start a fresh one
            acc |= clear << bits
            bits += size
            table.clear()
            size = min_code_size + 1
            next_code = end + 1
        prefix = k
    acc |= prefix << bits
    bits += size
    # The decoder adds one more entry on reading that last code: the end code is as wide as
    # the codes after that entry would be.
    if next_code == 1 << size and size < 12:
        size += 1
    acc |= end << bits
    bits += size
    out += acc.to_bytes((bits + 7) // 8, "little")
    return bytes(out)


def encode_gif(
    width: int,
    height: int,
    palette: Sequence[Rgb],
    frames: Iterable[Frame],
    *,
    loop: int | None = 0,
    comment: str | None = None,
) -> bytes:
    """Return an animated GIF89a of ``frames`` (each ``width * height`` palette indices).

    ``palette`` (1 to 256 colours) becomes the global colour table, padded with black to a power
    of two. The first frame is stored whole; each later one as the rectangle of pixels that
    differ from the frame before (one pixel when none does), or as its ``box`` when it has one
    (see :class:`Frame`), drawn over it. ``loop`` is how many
    times the animation repeats (0: for ever; ``None``: no NETSCAPE2.0 extension, play once).
    ``comment``, when given, is stored in a comment extension (as ASCII, other characters
    become ``?``). ``frames`` may be a generator: only the previous frame is kept.

    Raises ``ValueError`` for a side outside 1..65535, an empty or too large palette, a colour
    component outside 0..255, no frames, a frame of the wrong length, a box outside the image,
    an index outside the palette among the pixels stored (those of the first frame, and of each
    later one inside its rectangle), a delay outside 0..65535, or a ``loop`` outside 0..65535.
    """
    if not (1 <= width <= _MAX_SIDE and 1 <= height <= _MAX_SIDE):
        raise ValueError(f"image size {width}x{height} is outside 1..65535")
    if not 1 <= len(palette) <= 256:
        raise ValueError(f"a GIF palette has 1 to 256 colours, not {len(palette)}")
    if any(len(c) != 3 or not all(0 <= v <= 255 for v in c) for c in palette):
        raise ValueError("every palette colour must be three components in 0..255")
    if loop is not None and not 0 <= loop <= 0xFFFF:
        raise ValueError(f"loop count {loop} is outside 0..65535")
    # A free index after the colours, when there is one, marks a later frame's unchanged pixels
    # as transparent: runs of it compress far better than the old pixels they leave in place.
    transparent = len(palette) if len(palette) < 256 else None
    depth = max(1, (len(palette) - (transparent is None)).bit_length())  # bits per index, 1..8
    min_code_size = max(2, depth)
    table = bytearray()
    for colour in palette:
        table += bytes(colour)
    table += bytes(3 * (1 << depth) - len(table))

    out = bytearray(b"GIF89a")
    # Logical screen: global colour table present, colour resolution 8 bits, its size.
    out += _u16(width) + _u16(height) + bytes([0xF0 | (depth - 1), 0, 0]) + table
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + _u16(loop) + b"\x00"
    if comment is not None:
        out += b"\x21\xfe" + _sub_blocks(comment.encode("ascii", "replace"))
    size = width * height
    previous: bytearray | None = None  # the picture so far, changed where each frame stores
    for n, frame in enumerate(frames):
        pixels = frame.pixels
        if len(pixels) != size:
            raise ValueError(f"frame {n} has {len(pixels)} pixels, not {width}x{height}")
        if not 0 <= frame.delay <= _MAX_DELAY:
            raise ValueError(f"frame {n} delay {frame.delay} is outside 0..65535")
        if previous is None:
            left, top, w, h = 0, 0, width, height
        else:
            box = frame.box or _changed(previous, pixels, width)
            left, top, w, h = box
            if not (left >= 0 and top >= 0 and 1 <= w <= width - left and 1 <= h <= height - top):
                raise ValueError(f"frame {n} box {box} is not inside {width}x{height}")
        # The pixels stored, row by row: only they are checked, the others are those of a frame
        # checked before.
        stored = b"".join(
            pixels[y * width + left : y * width + left + w] for y in range(top, top + h)
        )
        bad = _at_least(stored, len(palette))
        if bad is not None:
            raise ValueError(f"frame {n} uses colour {bad} of a {len(palette)}-colour palette")
        # Graphic control extension: disposal 1 (leave the frame for the next to draw over),
        # the delay, and for a later frame the transparent index.
        if previous is None:
            rect = stored
            previous = bytearray(stored)
            out += b"\x21\xf9\x04\x04" + _u16(frame.delay) + b"\x00\x00"
        else:
            rect = _rectangle(previous, stored, width, (left, top, w, h), transparent)
            for r in range(h):
                at = (top + r) * width + left
                previous[at : at + w] = stored[r * w : (r + 1) * w]
            if transparent is None:
                out += b"\x21\xf9\x04\x04" + _u16(frame.delay) + b"\x00\x00"
            else:
                out += b"\x21\xf9\x04\x05" + _u16(frame.delay) + bytes([transparent, 0])
        out += b"\x2c" + _u16(left) + _u16(top) + _u16(w) + _u16(h) + b"\x00"
        out.append(min_code_size)
        out += _sub_blocks(lzw_compress(rect, min_code_size))
    if previous is None:
        raise ValueError("an animation needs at least one frame")
    out += b"\x3b"
    return bytes(out)


def _at_least(data: bytes, limit: int) -> int | None:
    """Return a value of ``data`` that is ``limit`` or more, or ``None`` when there is none
    (``bytes.translate`` deletes the good values in C, faster than ``max``)."""
    rest = data.translate(None, bytes(range(min(limit, 256))))
    return rest[0] if rest else None


def _u16(value: int) -> bytes:
    """Return ``value`` as two little-endian bytes."""
    return value.to_bytes(2, "little")


def _sub_blocks(data: bytes) -> bytes:
    """Return ``data`` cut into sub-blocks of at most 255 bytes, each after its length, and the
    empty block that ends them."""
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i : i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


def _rectangle(
    before: bytearray,
    stored: bytes,
    width: int,
    rect: tuple[int, int, int, int],
    transparent: int | None,
) -> bytes:
    """Return ``stored``, the pixels of a frame inside ``rect`` (left, top, width, height) row
    by row, with each pixel that equals ``before``'s (the picture, ``width`` wide, it is drawn
    over) replaced by ``transparent`` (unless ``None``). Rows, then runs of :data:`_RUN`
    pixels, that are unchanged are replaced whole."""
    if transparent is None:
        return stored
    left, top, w, h = rect
    rows = []
    clear = bytes([transparent]) * w
    for r in range(h):
        at = (top + r) * width + left
        new, old = stored[r * w : (r + 1) * w], before[at : at + w]
        if new == old:
            new = clear
        else:
            runs = []
            for k in range(0, w, _RUN):
                a, b = new[k : k + _RUN], old[k : k + _RUN]
                if a == b:
                    runs.append(clear[: len(a)])
                else:
                    pairs = zip(a, b, strict=True)
                    runs.append(bytes(transparent if u == v else u for u, v in pairs))
            new = b"".join(runs)
        rows.append(new)
    return b"".join(rows)


def _changed(
    before: bytearray, after: bytes | bytearray | memoryview, width: int
) -> tuple[int, int, int, int]:
    """Return ``(left, top, width, height)`` of the smallest rectangle holding every pixel in
    which ``after`` differs from ``before``; the top-left pixel when none does.

    The differences are found by XOR of the frames read as big integers, so the work per frame
    is done in C, not pixel by pixel.
    """
    diff = int.from_bytes(before, "big") ^ int.from_bytes(after, "big")
    if not diff:
        return 0, 0, 1, 1
    n = len(after)
    first = n - (diff.bit_length() + 7) // 8  # first differing byte, from the start
    last = n - 1 - ((diff & -diff).bit_length() - 1) // 8  # the last one
    top, bottom = first // width, last // width
    left, right = width, -1
    for y in range(top, bottom + 1):
        row = int.from_bytes(before[y * width : (y + 1) * width], "big") ^ int.from_bytes(
            after[y * width : (y + 1) * width], "big"
        )
        if row:
            left = min(left, width - (row.bit_length() + 7) // 8)
            right = max(right, width - 1 - ((row & -row).bit_length() - 1) // 8)
    return left, top, right - left + 1, bottom - top + 1
