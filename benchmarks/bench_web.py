"""Load the web app's API with many games played at once; report the latency per endpoint.

Starts ``mineproof play`` on a free loopback port with a temporary data folder (a process of
its own, so the players' threads do not share the server's interpreter lock), or uses the
server at ``--url``. Then ``--games`` threads each create a guess-free game and play it to the
end on one kept-alive connection, as the page does: the first click at the centre, then every
round ``/probabilities`` (and a hint every ``--hint-every`` rounds), flagging the proven mines
and opening the proven safe cells. The connections are opened one after the other before the
games start together, or all at once with ``--burst``.

Prints per endpoint the requests and the median, p90 and max latency in milliseconds, then the
total requests, requests per second over the wall time, errors (statuses other than 2xx and
failed connections), games won, and the server's CPU time when this script started it.

Usage: python benchmarks/bench_web.py [--games 50] [--level mix] [--hint-every 3]
                                      [--burst] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from typing import Any
from urllib.parse import urlsplit

LEVELS = ("beginner", "intermediate", "expert")
COVERED = -1


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


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

    def run(k: int) -> None:
        start.wait()
        try:
            states.append(players[k].play(levels[k], args.hint_every))
        except Failed:
            states.append("failed")

    threads = [threading.Thread(target=run, args=(k,)) for k in range(args.games)]
    for thread in threads:
        thread.start()
    start.wait()
    t0 = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0

    for player in players:
        player.conn.close()
    cpu = None
    if process is not None:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime

    mix = ", ".join(f"{levels.count(level)} {level}" for level in LEVELS if level in levels)
    print(
        f"{args.games} games at once ({mix}), hint every {args.hint_every} rounds, "
        f"connections {'in a burst' if args.burst else 'opened one by one'}"
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
    if cpu is not None:
        print(f"server CPU time: {cpu:.2f} s")
    for error in errors[:5]:
        print(f"  {error}")
    return 0 if not errors and won == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
