"""What the table's redraws cost the browser over a game: script, style, layout, paint and raster time.

Usage: PYTHONPATH=src python benchmarks/bench_table_redraws.py [--turns 10] [--json]

A real `kingisdead serve` on loopback and Debian's whole chromium, headless, a
1366x800 laptop. The seat plays ``--turns`` turns against the random bot by clicking as a person would (a card
and the first offered choice of each step, or a pass, then Confirm), while chromium's trace records the
renderer's work (its ``devtools.timeline`` events) and a MutationObserver counts the nodes inserted into each
panel of the page (the map, the action bar, the log...).

The reference, in the same run and the same browser: the table drawn once from scratch (the page reloaded
until its hand can be played). The figures to read are each kind of work per turn and its ratio to that whole
first drawing: a turn should cost a fraction of drawing the table anew. The renderer's raster (software, as
chromium runs here) is what a redraw of a large area costs.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from webserver import start_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from webtools import CHROMIUM_ARGS, FULL_CHROMIUM, bot, create, human  # noqa: E402 - the whole browser a player runs

KINDS = {"FunctionCall": "script", "UpdateLayoutTree": "style", "Layout": "layout", "Paint": "paint",
         "RasterTask": "raster"}
"""The trace events summed, by the name this benchmark gives them."""
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
COUNT_INSERTS = """
window.__inserted = {};
new MutationObserver((records) => {
  for (const record of records) {
    let panel = record.target;
    while (panel && !panel.id) panel = panel.parentElement;
    const name = panel ? panel.id : "(page)";
    for (const node of record.addedNodes) {
      window.__inserted[name] = (window.__inserted[name] || 0) + 1 + (node.querySelectorAll ? node.querySelectorAll("*").length : 0);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""
"""Installed before the page's scripts: nodes inserted per panel (the closest ancestor with an id)."""


def play_turn(page: Any, with_card: bool) -> None:
    """One move by clicking, as tests/web/test_browser.py plays: a card and its first choices, or a pass."""
    before = int(page.get_attribute("body", "data-move"))
    playable = page.locator("[data-testid=hand-card].playable")
    if with_card and playable.count():
        playable.first.click()
        page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
        while not page.locator("[data-testid=confirm]").count():
            steps = page.locator(".crumbs span").count()
            page.locator("[data-testid=choice]").first.click()
            page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps, polling=50)
    else:
        page.click("[data-testid=pass]")
    page.click("[data-testid=confirm]")
    page.wait_for_function("n => ['you', 'over'].includes(document.body.dataset.turn) && +document.body.dataset.move > n + 1",
                           arg=before, timeout=60_000, polling=50)


def traced(browser: Any, page: Any, action: Any) -> dict[str, float]:
    """Run ``action()`` under chromium's trace: milliseconds of each of KINDS, and the wall time."""
    browser.start_tracing(page=page, categories=CATEGORIES)
    started = time.perf_counter()
    action()
    wall = time.perf_counter() - started
    events = json.loads(browser.stop_tracing())["traceEvents"]
    totals: dict[str, float] = collections.Counter()
    for event in events:
        if event.get("ph") == "X" and event.get("name") in KINDS:
            totals[KINDS[event["name"]]] += event.get("dur", 0) / 1000
    return {**{kind: totals[kind] for kind in KINDS.values()}, "wall": wall * 1000}


def measure(url: str, turns: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with httpx.Client(base_url=url) as client:
        game = create(client, [human("Guinevere"), bot("random")], seed=193)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1366, "height": 800}, reduced_motion="reduce")
            context.add_init_script(COUNT_INSERTS)
            page = context.new_page()
            page.goto(f"{url}/game/{game['id']}#token={game['seats'][0]['token']}")
            page.wait_for_selector("[data-testid=hand-card].playable")
            page.evaluate("() => { window.__inserted = {}; }")
            played = []

            def play() -> None:
                while len(played) < turns and page.get_attribute("body", "data-turn") == "you":
                    play_turn(page, with_card=len(played) % 2 == 0)
                    played.append(1)

            busy = traced(browser, page, play)
            inserted = page.evaluate("() => window.__inserted")
            def draw_anew() -> None:
                page.reload()
                page.wait_for_function("() => ['you', 'wait', 'over'].includes(document.body.dataset.turn)"
                                       " && document.querySelector('#map .region')")
                page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")

            anew = traced(browser, page, draw_anew)
        finally:
            browser.close()
    return {"turns": len(played), "busy": busy, "drawn_anew": anew,
            "inserted": dict(sorted(inserted.items(), key=lambda item: -item[1]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10, help="turns the seat plays (default 10)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3", {})
        try:
            figures = measure(url, args.turns)
        finally:
            process.terminate()
            process.wait(30)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    turns, busy, anew = figures["turns"], figures["busy"], figures["drawn_anew"]
    print(f"{turns} turns against the random bot in {busy['wall'] / 1000:.1f} s; reference: the table drawn anew once")
    print(f"  {'ms':<12}{'per turn':>10}{'drawn anew':>12}{'ratio':>8}")
    for kind in KINDS.values():
        ratio = busy[kind] / turns / anew[kind] if anew[kind] else float("inf")
        print(f"  {kind:<12}{busy[kind] / turns:>10.1f}{anew[kind]:>12.1f}{ratio:>8.2f}")
    print("  nodes inserted per turn: " + ", ".join(f"{name} {n / turns:.0f}" for name, n in figures["inserted"].items()))


if __name__ == "__main__":
    main()
