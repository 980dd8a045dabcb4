"""Time the page's answer to a click on a big board with the probabilities shown, in Chromium.

Serves the web app in this process (a temporary data folder), opens the page in Debian's
headless Chromium at 1280x800, starts a random custom board (``--size``, ``--mines``), opens
its centre, ticks Probabilities, then clicks ``--clicks`` cells the probabilities prove safe,
one after the other. For each click it measures the wall time from the click to the board
showing the move (the move and the new probabilities fetched, the board redrawn), and counts
the cells whose element changed. Prints the median and the worst time and the median number of
cells redrawn. A random layout, so each run clicks other cells; compare medians.

Usage: python benchmarks/bench_page.py [--size 100] [--mines 1000] [--clicks 10]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from from_tests import load
from playwright.sync_api import sync_playwright

from mineproof.web import App, Games, Store
from mineproof.web.server import allowed_hosts, make_server, serve_in_thread

WATCH = load("tests/web/test_browser.py").WATCH_CELLS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--mines", type=int, default=1000)
    parser.add_argument("--clicks", type=int, default=10)
    args = parser.parse_args()
    store = Store(Path(tempfile.mkdtemp()))
    server = make_server(App(Games(store), allowed_hosts("127.0.0.1")), "127.0.0.1", 0, True)
    stop = serve_in_thread(server)
    times: list[float] = []
    redrawn: list[int] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            page.wait_for_selector("body[data-ready=true]")
            page.select_option("#level", "custom")
            page.fill("#custom-width", str(args.size))
            page.fill("#custom-height", str(args.size))
            page.fill("#custom-mines", str(args.mines))
            page.set_checked("#guess-free", False)
            page.click("#new")
            page.wait_for_function("document.querySelector('#board').dataset.gameState === 'new'")
            centre = args.size // 2
            page.click(f'#board .cell[data-x="{centre}"][data-y="{centre}"]')
            page.wait_for_function("document.querySelector('#board').dataset.moves === '1'")
            page.check("#show-probabilities")
            page.wait_for_selector("#board .cell .p")
            for _ in range(args.clicks):
                safe = page.evaluate(
                    "() => { const p = [...document.querySelectorAll("
                    "'#board .cell[data-state=covered] .p')].find((s) => s.textContent === '0');"
                    " return p ? p.parentElement.id : null; }"
                )
                if safe is None or page.get_attribute("#board", "data-game-state") != "playing":
                    break
                moves = int(page.get_attribute("#board", "data-moves") or 0)
                page.evaluate(WATCH)
                start = time.perf_counter()
                page.click(f"#{safe}")
                page.wait_for_function(
                    f"Number(document.querySelector('#board').dataset.moves) > {moves}",
                    polling="raf",
                )
                times.append(time.perf_counter() - start)
                redrawn.append(page.evaluate("window.touched.size"))
            browser.close()
    finally:
        stop()
        store.close()
    if not times:
        raise SystemExit("bench_page: no cell was proven safe after the first click; run again")
    print(
        f"{args.size}x{args.size}/{args.mines}, {len(times)} clicks with probabilities: "
        f"median {1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms, "
        f"median {statistics.median(redrawn):.0f} cells redrawn"
    )


if __name__ == "__main__":
    main()
