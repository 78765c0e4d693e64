"""Every click instant: what building a move costs at the table, against asking the server at each click.

Usage: PYTHONPATH=src python benchmarks/bench_instant.py [--games 10] [--latency 400] [--json]

Three parts:

1. The choices sent with a position (web/choices.py): bytes raw and gzipped, and the time to make them,
   with the time of the legal-move listing itself as the reference (same process), at the start of a
   2-, 3- and 4-player game and over every position of ``--games`` seeded random 2-player games.
2. Clicks per move for each card over the same positions: the card, each step with more than one
   choice (a single choice is taken for the player), and Confirm; a pass is one click.
3. Time per click in Debian's whole chromium, headless, against a real server on loopback, with no added
   latency and with ``--latency`` ms added to every API request (a Playwright route that waits): from
   the click to the next frame with the new choices on screen. The reference, measured in the same page,
   is what each click cost before: a POST /api/games/{id}/options round trip for the same steps.

Sends traffic to loopback only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from random import Random
from typing import Any

import httpx
from webserver import start_server

from kingisdead import GameState
from kingisdead import playout
from kingisdead.board import CARD_NAMES
from kingisdead.building import choice_table
from kingisdead.web.choices import choices_view
from kingisdead.web.i18n import localize

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from webtools import CHROMIUM_ARGS, FULL_CHROMIUM, create, human  # noqa: E402 - the whole browser a player runs

MAX_MOVES = 400  # no game comes near this: a bound for the loop
CLICK = """async ([selector, index]) => {  // [ms until the page has the new choices, ms until the next frame]
  const before = document.querySelectorAll('.crumbs span').length;
  const start = performance.now();
  document.querySelectorAll(selector)[index].click();
  while (document.querySelectorAll('.crumbs span').length === before && !document.querySelector('[data-testid=confirm]')) {
    await new Promise(requestAnimationFrame);
  }
  const shown = performance.now() - start;
  await new Promise(requestAnimationFrame);
  return [shown, performance.now() - start];
}"""
IDLE = """async () => {  // a frame with nothing changed: what the machine's frames cost anyway
  await new Promise(requestAnimationFrame);
  const start = performance.now();
  await new Promise(requestAnimationFrame);
  return performance.now() - start;
}"""
ASK = """async ([id, token, steps]) => {  // what a click cost before: the options of the steps so far, from the server
  const start = performance.now();
  const answer = await fetch(`/api/games/${id}/options`, { method: 'POST', body: JSON.stringify({ steps }),
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
  await answer.json();
  await new Promise(requestAnimationFrame);
  return performance.now() - start;
}"""


def positions(games: int) -> list[GameState]:
    """Every position of ``games`` seeded random 2-player games."""
    found = []
    for seed in range(games):
        state, rng = GameState.new(2, "standard", seed, 0), Random(seed)
        for _ in range(MAX_MOVES):
            if state.is_over():
                break
            found.append(state.copy())
            state = state.apply(playout.sample_move(state, rng))
    return found


def payload_figures(states: list[GameState]) -> dict[str, Any]:
    def measure(state: GameState) -> tuple[int, int, float, float]:
        start = time.perf_counter()
        state.legal_moves()
        listing = time.perf_counter() - start
        start = time.perf_counter()
        view = choices_view(state)
        made = time.perf_counter() - start
        raw = json.dumps(localize(view, "en"), ensure_ascii=False, separators=(",", ":")).encode()
        return len(raw), len(gzip.compress(raw)), made, listing

    measure(GameState.new(2, "standard", 0, 0))  # warm up: the first listing of a process pays for more
    starts = {players: measure(GameState.new(players, "standard", 1, 0)) for players in (2, 3, 4)}
    over = [measure(s) for s in states]
    return {
        "start": {p: {"raw": r, "gzip": g, "ms": m * 1e3, "listing_ms": lst * 1e3} for p, (r, g, m, lst) in starts.items()},
        "games": {"positions": len(over), "raw_mean": statistics.mean(r for r, *_ in over),
                  "raw_max": max(r for r, *_ in over), "gzip_mean": statistics.mean(g for _, g, *_ in over),
                  "gzip_max": max(g for _, g, *_ in over), "ms_mean": statistics.mean(m for *_, m, _ in over) * 1e3,
                  "listing_ms_mean": statistics.mean(lst for *_, lst in over) * 1e3},
    }


def card_clicks(entries: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]) -> list[int]:
    """Clicks for each move of a card (one court call for each action): the card, each step with more than one
    choice (a single choice is taken for the player), each court step with more than one choice, Confirm."""
    offered: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for spelling, _ in entries:
        for step in range(len(spelling)):
            offered[spelling[:step]].add(spelling[step])
    clicks = []
    for spelling, courts in entries:
        base = 2 + sum(len(offered[spelling[:step]]) > 1 for step in range(len(spelling)))
        regions = {r for r, _ in courts}
        for region, _faction in courts or ((None, None),):
            factions = sum(r == region for r, _ in courts)
            clicks.append(base + (len(regions) > 1) + (factions > 1))
    return clicks


def click_figures(states: list[GameState]) -> dict[str, Any]:
    counts: dict[str, list[int]] = defaultdict(list)
    for state in states:
        for card, entries in choice_table(state).items():
            counts[CARD_NAMES[card]].extend(card_clicks(entries))
    figures = {name: {"min": min(v), "mean": statistics.mean(v), "max": max(v)} for name, v in counts.items()}
    figures["pass"] = {"min": 1, "mean": 1, "max": 1}
    return figures


def browser_figures(url: str, latency_ms: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    results: dict[str, Any] = {}
    with httpx.Client(base_url=url) as client, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS)
        for latency in (0, latency_ms):
            game = create(client, [human(), human()], seed=11)
            tokens = [seat["token"] for seat in game["seats"]]
            page = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
            if latency:
                page.route("**/api/**", lambda route: (time.sleep(latency / 1000), route.continue_()))
            page.goto(f"{url}/game/{game['id']}#token={tokens[0]}")
            page.wait_for_selector("[data-testid=pass]", timeout=60_000)
            ours, asked = [], []
            idle = [page.evaluate(IDLE) for _ in range(20)]
            cards = page.eval_on_selector_all("[data-testid=hand-card].playable", "cs => cs.map(c => +c.dataset.card)")
            for card in cards:
                index = cards.index(card)
                ours.append(page.evaluate(CLICK, ["[data-testid=hand-card].playable", index]))
                for _ in range(12):  # a move has at most 8 steps
                    if page.locator("[data-testid=confirm]").count():
                        break
                    ours.append(page.evaluate(CLICK, ["[data-testid=choice]", 0]))
                while page.locator("[data-testid=back]").count():
                    page.click("[data-testid=back]")
            state = GameState.new(2, "standard", 11, 0)
            for card in cards:  # the same moves, each step asked of the server as the table did before
                builder = state.builder()
                builder.choose(next(c for c in builder.options() if c.kind == "card" and c.value == card))
                while not builder.complete:
                    steps = [{"kind": c.kind, "value": c.value} for c in builder.steps]
                    asked.append(page.evaluate(ASK, [game["id"], tokens[0], steps]))
                    builder.choose(builder.options()[0])
            results[str(latency)] = {
                "clicks": len(ours), "shown_ms": statistics.median(c[0] for c in ours),
                "shown_max_ms": max(c[0] for c in ours), "frame_ms": statistics.median(c[1] for c in ours),
                "frame_max_ms": max(c[1] for c in ours), "asked_ms": statistics.median(asked),
                "asked_max_ms": max(asked), "idle_frame_ms": statistics.median(idle)}
            page.context.close()
        browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--latency", type=int, default=400, help="ms added to every API request")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    states = positions(args.games)
    figures: dict[str, Any] = {"machine": platform.platform(), "payload": payload_figures(states),
                               "clicks": click_figures(states)}
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3", {})
        try:
            figures["browser"] = browser_figures(url, args.latency)
        finally:
            process.terminate()
            process.wait(10)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    payload = figures["payload"]
    print("choices sent with a position (English):")
    for players, f in payload["start"].items():
        print(f"  {players}-player start: {f['raw']} B raw, {f['gzip']} B gzipped; made in {f['ms']:.1f} ms "
              f"(legal-move listing {f['listing_ms']:.1f} ms, ratio {f['ms'] / f['listing_ms']:.1f})")
    g = payload["games"]
    print(f"  {g['positions']} positions of {args.games} games: {g['raw_mean']:.0f} B raw (max {g['raw_max']}), "
          f"{g['gzip_mean']:.0f} B gzipped (max {g['gzip_max']}); made in {g['ms_mean']:.1f} ms "
          f"(listing {g['listing_ms_mean']:.1f} ms, ratio {g['ms_mean'] / g['listing_ms_mean']:.1f})")
    print("clicks per move (the card, each real choice, Confirm) over every move of every position:")
    for name, f in figures["clicks"].items():
        print(f"  {name:12} min {f['min']:.1f}  mean {f['mean']:.1f}  max {f['max']:.1f}")
    print("time per click in chromium, median (max): until the page has the next choices, until the next frame;")
    print("the reference, what each click waited for before the same redraw: the server's options for the same steps")
    for latency, f in figures["browser"].items():
        print(f"  +{latency} ms latency, {f['clicks']} clicks: {f['shown_ms']:.1f} ms ({f['shown_max_ms']:.1f}), "
              f"{f['frame_ms']:.1f} ms ({f['frame_max_ms']:.1f}); asking the server {f['asked_ms']:.1f} ms "
              f"({f['asked_max_ms']:.1f}); ratio {(f['asked_ms'] + f['frame_ms']) / f['frame_ms']:.1f} "
              f"(before, about the server's answer and the redraw, to now); an idle frame {f['idle_frame_ms']:.1f} ms")


if __name__ == "__main__":
    main()
