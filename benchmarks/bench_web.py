"""Load the web app's API with many games played at once; report the latency per endpoint.

Starts ``mineproof play`` on a free loopback port with a temporary data folder (a process of
its own, so the players' threads do not share the server's interpreter lock), or uses the
server at ``--url``. Then ``--games`` threads each create a guess-free game and play it to the
end on one kept-alive connection, as the page does: the first click at the centre, then every
round ``/probabilities`` (and a hint every ``--hint-every`` rounds), flagging the proven mines
and opening the proven safe cells. The connections are opened one after the other before the
games start together, or all at once with ``--burst``.

With ``--heavy N``, N more clients send heavy requests for as long as the games last, one after
the other: first clicks on a dense 100x100 board (6,000 mines: no guess-free board exists, the
server works until its limit) and analyses of a pasted 100x100 position with a large frontier.
A probe asks ``GET /api/meta`` every 20 ms meanwhile, on its own connection: the latency of a
trivial request under that load (median, p99, max).

With ``--memory-games N``, after the load N more games of mixed sizes (beginner, intermediate,
expert, custom 50x50 and 100x100, some guess-free, some random) are started by 8 clients and
played a few rounds each, most left unfinished; the resident memory of the server and of its
worker processes is reported before and after them.

Prints per endpoint the requests and the median, p90 and max latency in milliseconds, then the
total requests, requests per second over the wall time, errors (statuses other than 2xx and
failed connections), games won, the heavy requests by status, the probe's latencies, the
memory, and the server's CPU time when this script started it.

Usage: python benchmarks/bench_web.py [--games 50] [--level mix] [--hint-every 3]
                                      [--burst] [--heavy 4] [--memory-games 1000]
                                      [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mineproof.board import Board, Layout
from mineproof.position import Position

LEVELS = ("beginner", "intermediate", "expert")
COVERED = -1


def _p90(values: list[float]) -> float:
    return _quantile(values, 0.9)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _tree(root: int) -> list[int]:
    """Return process ``root`` and all its descendants (the worker processes; Linux ``/proc``)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children[ppid].append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _tree_rss(root: int) -> tuple[int, int]:
    """Return the resident memory in bytes of process ``root`` and its descendants, and how
    many processes that is."""
    total, count = 0, 0
    for pid in _tree(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    count += 1
        except OSError:
            continue
    return total, count


def _tree_cpu(root: int) -> float:
    """Return the CPU seconds used by process ``root`` and its descendants, with the children
    they have reaped (workers killed or replaced)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in _tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / ticks


def big_position(seed: int = 1) -> str:
    """Return a 100x100 position with 1,600 mines whose opened cells (safe ones, in 2x2
    blocks of a checkerboard) leave a frontier of thousands of cells: about half a second of
    analysis and as much for its hint."""
    board = Board(100, 100)
    layout = Layout.random(board, 1600, random.Random(seed))
    numbers = layout.numbers()
    cells = [
        numbers[i] if (x // 2 + y // 2) % 2 == 0 and not layout.is_mine(i) else -1
        for y in range(100)
        for x in range(100)
        for i in (board.index(x, y),)
    ]
    return Position(board, tuple(cells), 1600).text()


class Failed(Exception):
    """A request that failed: an error status or a broken connection."""


class Player:
    """One player on one kept-alive connection, recording each request's latency."""

    def __init__(self, host: str, port: int, log: dict[str, list[float]], errors: list[str]):
        self.host = host
        self.port = port
        self.log = log
        self.errors = errors
        self.conn = http.client.HTTPConnection(host, port, timeout=120)

    def request(self, name: str, method: str, path: str, data: Any = None) -> dict[str, Any]:
        body = None if data is None else json.dumps(data).encode()
        headers = {"Host": f"{self.host}:{self.port}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            self.errors.append(f"{name}: {exc!r}")
            raise Failed(name) from exc
        self.log[name].append(time.perf_counter() - start)
        if not 200 <= response.status < 300:
            self.errors.append(f"{name}: {response.status} {payload[:120]!r}")
            raise Failed(name)
        data = json.loads(payload)
        assert isinstance(data, dict)
        return data

    def status(self, method: str, path: str, data: Any = None) -> int:
        """Send one request and return its status (0 for a broken connection), the answer
        read and dropped."""
        body = None if data is None else json.dumps(data).encode()
        headers = {"Host": f"{self.host}:{self.port}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            return 0
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status

    def move(self, game_id: str, kind: str, x: int, y: int) -> dict[str, Any]:
        return self.request(kind, "POST", f"/api/games/{game_id}/{kind}", {"x": x, "y": y})

    def play(self, level: str, hint_every: int) -> str:
        """Play one guess-free game to its end; return its final state."""
        view = self.request("POST /api/games", "POST", "/api/games", {"level": level})
        game_id = view["id"]
        view = self.move(game_id, "open", view["width"] // 2, view["height"] // 2)
        rounds = 0
        while view["state"] == "playing":
            rounds += 1
            safe: set[tuple[int, int]] = set()
            mines: set[tuple[int, int]] = set()
            if hint_every and rounds % hint_every == 1 % hint_every:
                found = self.request("hint", "GET", f"/api/games/{game_id}/hint")
                safe |= {(x, y) for x, y in found["safe"]}
                mines |= {(x, y) for x, y in found["mine"]}
            found = self.request("probabilities", "GET", f"/api/games/{game_id}/probabilities")
            safe |= {(x, y) for x, y in found["safe"]}
            mines |= {(x, y) for x, y in found["mine"]}
            for x, y in sorted(mines):
                if view["cells"][y][x] == COVERED:
                    view = self.move(game_id, "flag", x, y)
            todo = sorted((x, y) for x, y in safe if view["cells"][y][x] == COVERED)
            if not todo:
                self.errors.append(f"game {game_id}: nothing proven safe on a guess-free board")
                return "stuck"
            for x, y in todo:
                if view["state"] == "playing" and view["cells"][y][x] == COVERED:
                    view = self.move(game_id, "open", x, y)
        self.request("view", "GET", f"/api/games/{game_id}")
        return str(view["state"])


def _start_server() -> tuple[subprocess.Popen[str], str, str]:
    """Start ``mineproof play`` on a free port; return the process, its URL, its data dir."""
    data = tempfile.mkdtemp(prefix="bench-web-")
    command = [sys.executable, "-m", "mineproof.cli", "play", "--port", "0"]
    command += ["--no-browser", "--quiet", "--data", data]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://\S+:(\d+)/", line)
    if found is None:
        process.kill()
        raise SystemExit(f"bench_web: mineproof play did not start: {line!r}")
    return process, f"http://127.0.0.1:{found.group(1)}/", data


def heavy_client(player: Player, k: int, stop: threading.Event, outcomes: Counter[str]) -> None:
    """Send heavy requests one after the other until ``stop``: dense first clicks (even ``k``)
    or analyses of :func:`big_position` (odd ``k``); count them by kind and status."""
    text = big_position(k)
    while not stop.is_set():
        if k % 2 == 0:
            game = {"level": "custom", "width": 100, "height": 100, "mines": 6000}
            try:
                view = player.request("heavy create", "POST", "/api/games", game)
            except Failed:
                continue
            status = player.status("POST", f"/api/games/{view['id']}/open", {"x": 50, "y": 50})
            outcomes[f"dense first click {status}"] += 1
        else:
            status = player.status("POST", "/api/analyze", {"text": text})
            outcomes[f"big analysis {status}"] += 1
        if status in (0, 503):
            time.sleep(0.5)  # a refused client waits a little, as Retry-After asks


def probe(host: str, port: int, stop: threading.Event, times: list[float]) -> None:
    """Ask ``GET /api/meta`` every 20 ms until ``stop``; record each latency."""
    conn = http.client.HTTPConnection(host, port, timeout=120)
    headers = {"Host": f"{host}:{port}"}
    while not stop.is_set():
        start = time.perf_counter()
        try:
            conn.request("GET", "/api/meta", headers=headers)
            conn.getresponse().read()
        except (OSError, http.client.HTTPException):
            conn.close()
            times.append(float("inf"))
            continue
        times.append(time.perf_counter() - start)
        stop.wait(0.02)
    conn.close()


MIXED = [
    {"level": "beginner"},
    {"level": "intermediate"},
    {"level": "expert"},
    {"level": "custom", "width": 50, "height": 50, "mines": 400},
    {"level": "custom", "width": 100, "height": 100, "mines": 1500, "guess_free": False},
    {"level": "intermediate", "guess_free": False},
]
"""The sizes of the games of ``--memory-games``, in turn."""


def memory_games(host: str, port: int, count: int, errors: list[str]) -> int:
    """Start ``count`` games of :data:`MIXED` sizes from 8 clients, each played for up to
    three rounds of proven moves (most are left unfinished); return how many were started."""
    started = 0
    lock = threading.Lock()
    todo = list(range(count))

    def client() -> None:
        nonlocal started
        player = Player(host, port, defaultdict(list), errors)
        while True:
            with lock:
                if not todo:
                    break
                k = todo.pop()
            try:
                view = player.request("create", "POST", "/api/games", MIXED[k % len(MIXED)])
                game_id = view["id"]
                view = player.move(game_id, "open", view["width"] // 2, view["height"] // 2)
                with lock:
                    started += 1
                for _ in range(3):
                    if view["state"] != "playing":
                        break
                    found = player.request("p", "GET", f"/api/games/{game_id}/probabilities")
                    safe = [(x, y) for x, y in found["safe"] if view["cells"][y][x] == COVERED]
                    if not safe:
                        break
                    for x, y in safe[:20]:
                        if view["state"] == "playing" and view["cells"][y][x] == COVERED:
                            view = player.move(game_id, "open", x, y)
            except Failed:
                player.conn.close()
                player.conn = http.client.HTTPConnection(host, port, timeout=120)
        player.conn.close()

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return started


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once")
    parser.add_argument(
        "--level", choices=[*LEVELS, "mix"], default="mix", help="mix: beginner and intermediate"
    )
    parser.add_argument(
        "--hint-every", type=int, default=3, help="a hint every N rounds (0: never)"
    )
    parser.add_argument("--burst", action="store_true", help="open every connection at once")
    parser.add_argument("--heavy", type=int, default=0, help="clients sending heavy requests")
    parser.add_argument(
        "--memory-games", type=int, default=0, help="games of mixed sizes played after the load"
    )
    parser.add_argument("--url", help="a running server (default: start mineproof play)")
    args = parser.parse_args()

    process = None
    url = args.url
    if url is None:
        process, url, data = _start_server()
        print(f"server: mineproof play, data in {data}")
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    levels = [
        args.level if args.level != "mix" else ("beginner", "intermediate")[k % 2]
        for k in range(args.games)
    ]
    log: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    players = [Player(host, port, log, errors) for _ in range(args.games)]
    if not args.burst:
        for player in players:
            player.request("GET /api/meta", "GET", "/api/meta")
        log.clear()  # the connections are open; only the games are measured
    states: list[str] = []
    start = threading.Barrier(args.games + 1)
    memory_before = _tree_rss(process.pid) if process is not None else None

    def run(k: int) -> None:
        start.wait()
        try:
            states.append(players[k].play(levels[k], args.hint_every))
        except Failed:
            states.append("failed")

    stop = threading.Event()
    outcomes: Counter[str] = Counter()
    heavy_errors: list[str] = []
    background = [
        threading.Thread(
            target=heavy_client,
            args=(Player(host, port, defaultdict(list), heavy_errors), k, stop, outcomes),
        )
        for k in range(args.heavy)
    ]
    probed: list[float] = []
    if args.heavy:
        background.append(threading.Thread(target=probe, args=(host, port, stop, probed)))
    for thread in background:
        thread.start()
    if args.heavy:
        time.sleep(2.0)  # the heavy requests are under way before the games start
    threads = [threading.Thread(target=run, args=(k,)) for k in range(args.games)]
    for thread in threads:
        thread.start()
    start.wait()
    t0 = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0
    stop.set()
    for thread in background:
        thread.join()
    for player in players:
        player.conn.close()

    started = 0
    memory_after = None
    if args.memory_games:
        started = memory_games(host, port, args.memory_games, errors)
        memory_after = _tree_rss(process.pid) if process is not None else None

    cpu = None
    if process is not None:
        cpu = _tree_cpu(process.pid)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)

    mix = ", ".join(f"{levels.count(level)} {level}" for level in LEVELS if level in levels)
    print(
        f"{args.games} games at once ({mix}), hint every {args.hint_every} rounds, "
        f"connections {'in a burst' if args.burst else 'opened one by one'}, "
        f"{args.heavy} heavy clients"
    )
    print(f"{'endpoint':<18} {'requests':>8} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    total = 0
    for name in sorted(log):
        times = [t * 1000 for t in log[name]]
        total += len(times)
        print(
            f"{name:<18} {len(times):>8} {statistics.median(times):>10.1f} "
            f"{_p90(times):>8.1f} {max(times):>8.1f}"
        )
    won = states.count("won")
    print(f"total requests: {total} in {wall:.2f} s = {total / wall:.0f} requests/s")
    print(f"errors: {len(errors)}; games won: {won} of {args.games}")
    if args.heavy:
        print("heavy requests: " + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())))
        ms = [t * 1000 for t in probed]
        print(
            f"GET /api/meta under load: {len(ms)} requests, median {statistics.median(ms):.1f} "
            f"ms, p99 {_quantile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        )
    if memory_before is not None:
        rss, count = memory_before
        print(f"memory before the games: {rss / 2**20:.0f} MiB in {count} processes")
    if memory_after is not None:
        rss, count = memory_after
        print(
            f"memory after {started} more games of mixed sizes: {rss / 2**20:.0f} MiB "
            f"in {count} processes"
        )
    if cpu is not None:
        print(f"server CPU time: {cpu:.2f} s")
    for error in errors[:5]:
        print(f"  {error}")
    return 0 if not errors and won == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
