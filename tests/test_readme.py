"""The README's examples: each command shown with its output prints that output today.

An example is a line ``$ command`` in a fenced block of README.md, its output the lines after
it up to the next ``$`` line or the end of the block. ``...`` in the output stands for any text
(part of a line, or whole lines). Commands whose output depends on the machine or on another
process (timings, a server, a folder written elsewhere) are left out, each with its reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

LEFT_OUT = {
    "mineproof play": "starts a server",
    "mineproof bench": "prints timings",
    "--out ": "writes a folder, read by the next example",
    "head -1 ": "reads the folder the example before wrote",
    "--jobs 100000": "the bound depends on the machine's CPUs",
    "ring.txt": "a file the example describes, not one in the repository",
}


def examples(text: str) -> list[tuple[str, str]]:
    """Return (command, output) for each ``$`` line in the fenced blocks of ``text``."""
    found: list[tuple[str, str]] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S):
        command: str | None = None
        output: list[str] = []
        for line in [*block.splitlines(), "$ "]:
            if line.startswith("$ "):
                if command:
                    found.append((command, "\n".join(output)))
                command, output = line[2:].strip(), []
            elif command is not None:
                output.append(line)
    return found


def checked(text: str) -> list[tuple[str, str]]:
    """Return the examples of ``text`` that run here: ``mineproof`` commands, none left out."""
    return [
        (command, output)
        for command, output in examples(text)
        if "mineproof " in command
        and " # " not in command
        and not any(part in command for part in LEFT_OUT)
    ]


def matches(expected: str, got: str) -> bool:
    """Return whether ``got`` is ``expected`` with each ``...`` standing for any text, and any
    run of white space (a README line wrapped for reading) for any other run."""
    pattern = ".*?".join(re.escape(_spaced(part)) for part in expected.split("..."))
    return re.fullmatch(pattern, _spaced(got), flags=re.S) is not None


def _spaced(text: str) -> str:
    """Return ``text`` with each run of white space one space, none at either end."""
    return " ".join(text.split())


def test_the_matching_reads_elisions_as_any_text() -> None:
    assert matches("a [1, ...] b\n...\nend", "a [1, 2, 3] b\nx\ny\nend\n")
    assert not matches("a [1, ...] b", "a [1, 2] c")
    assert not matches("24 steps", "29 steps")
    assert matches('{"a": 1,\n     "b": [...]}', '{"a": 1, "b": [2, 3]}')


def test_the_examples_are_found() -> None:
    text = "x\n```\n$ mineproof a\nout\n...\n$ printf 'q' | mineproof b\n```\n$ not in a block\n"
    assert examples(text) == [("mineproof a", "out\n..."), ("printf 'q' | mineproof b", "")]
    assert len(checked(README.read_text())) >= 10


@pytest.mark.parametrize(
    ("command", "output"), checked(README.read_text()), ids=lambda v: v[:60] if v else ""
)
def test_each_example_prints_what_the_readme_shows(command: str, output: str) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env.pop("COLUMNS", None)
    run = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    got = run.stdout + run.stderr
    assert matches(output, got), f"$ {command}\n--- the README shows:\n{output}\n--- got:\n{got}"
