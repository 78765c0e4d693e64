"""The table's first paint and weight: what a player's browser loads and waits for before it can play.

Usage: PYTHONPATH=src python benchmarks/bench_table_paint.py [--runs 5] [--json]

A real `kingisdead serve` on loopback and Debian's whole chromium, headless, in two
viewports: a 1366x768 laptop, and a 390x844 phone (touch, 3x pixels) with its CPU slowed 4 times through the
DevTools protocol (Emulation.setCPUThrottlingRate). Each run opens a fresh browser context (cold cache) on the
table of the seat to move at the start of a 2-player game and measures:

- page weight: requests, bytes over the wire (headers included, with whatever compression the app serves to
  chromium's Accept-Encoding) and decoded bytes, per resource type (the DevTools protocol's Network events),
  until the table is interactive and the network is idle; the WebSocket's frames are counted apart;
- first paint and first contentful paint (the page's `paint` performance entries);
- time to interactive: from navigation start until ``body[data-turn=you]`` holds a playable hand card
  (``[data-testid=hand-card].playable``) and the next frame has been painted, measured in the page;
- one click while building a move: a playable hand card clicked, until the frame after it is painted
  (each playable card once per run, the move taken back between).

The reference, loaded the same way in the same run: the /rules page (a static page of the app with the same
style sheet), its weight, paints and load event; and for the click, an idle frame in the same throttled page.
Every figure is the median over ``--runs`` runs. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from webserver import start_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from webtools import CHROMIUM_ARGS, FULL_CHROMIUM, create, human  # noqa: E402 - the whole browser a player runs

VIEWPORTS: dict[str, dict[str, Any]] = {
    "laptop 1366x768": {"context": {"viewport": {"width": 1366, "height": 768}}, "throttle": 1},
    "phone 390x844, 4x slower CPU": {"context": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
                                                 "is_mobile": True, "has_touch": True}, "throttle": 4},
}
TIMEOUT_MS = 120_000
# Installed before the page's own scripts: the time (ms from navigation start) of the first painted frame in
# which the seat can click a hand card. A rAF callback runs before its frame is painted; a message posted from
# it runs after that paint.
READY = """(() => {
  window.__interactive = null;
  const painted = (then) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(null);
  });
  const ready = () => document.body && document.body.dataset.turn === 'you'
    && document.querySelector('[data-testid=hand-card].playable:not([disabled])');
  const watch = new MutationObserver(() => {
    if (window.__interactive === null && ready()) {
      watch.disconnect();
      painted(() => { window.__interactive = performance.now(); });
    }
  });
  watch.observe(document, { subtree: true, childList: true, attributes: true });
})();"""
PAINTS = """() => {
  const paints = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]));
  const nav = performance.getEntriesByType('navigation')[0];
  return { fp: paints['first-paint'], fcp: paints['first-contentful-paint'], load: nav.loadEventEnd,
           interactive: window.__interactive };
}"""
CLICK = """async (index) => {  // ms from the click on a playable hand card until the frame after it is painted
  const card = document.querySelectorAll('[data-testid=hand-card].playable')[index];
  const start = performance.now();
  card.click();
  await new Promise((done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = done;
    channel.port2.postMessage(null);
  }));
  return performance.now() - start;
}"""
IDLE = """async () => {  // the same wait with nothing changed: what a frame costs this page anyway
  await new Promise(requestAnimationFrame);
  const start = performance.now();
  await new Promise((done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = done;
    channel.port2.postMessage(null);
  }));
  return performance.now() - start;
}"""


class Traffic:
    """The page's requests as the DevTools protocol reports them: per requestId its type, bytes over the wire
    (headers included) and decoded body bytes; the WebSocket's frames (payload characters) apart."""

    def __init__(self, cdp: Any) -> None:
        self.kind: dict[str, str] = {}
        self.wire: dict[str, int] = {}
        self.decoded: dict[str, int] = defaultdict(int)
        self.failed: list[str] = []
        self.frames = [0, 0]  # frames, payload characters received
        cdp.on("Network.responseReceived", lambda e: self.kind.__setitem__(e["requestId"], e["type"]))
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.loadingFinished", lambda e: self.wire.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        cdp.on("Network.loadingFailed", lambda e: self.failed.append(e.get("errorText", "")))
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _data(self, event: dict[str, Any]) -> None:
        self.decoded[event["requestId"]] += int(event["dataLength"])

    def _frame(self, event: dict[str, Any]) -> None:
        self.frames[0] += 1
        self.frames[1] += len(event["response"]["payloadData"])

    def summary(self) -> dict[str, Any]:
        """{type: {requests, wire, decoded}} over the finished requests that crossed the network (not those the
        page's memory cache answered: the favicon for the tab), with "total", and "websocket"."""
        types: dict[str, dict[str, int]] = defaultdict(lambda: {"requests": 0, "wire": 0, "decoded": 0})
        for request, wire in self.wire.items():
            if not wire:
                continue
            for name in (self.kind.get(request, "Other"), "total"):
                types[name]["requests"] += 1
                types[name]["wire"] += wire
                types[name]["decoded"] += self.decoded.get(request, 0)
        return {**types, "websocket": {"frames": self.frames[0], "chars": self.frames[1]}}


def visit(browser: Any, url: str, setup: dict[str, Any], table: bool) -> dict[str, Any]:
    """One cold load of ``url`` in a fresh context: its traffic and paints; for the table, interactivity and
    the clicks. Raises playwright's TimeoutError if the table is not interactive within TIMEOUT_MS."""
    context = browser.new_context(**setup["context"])
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        traffic = Traffic(cdp)
        cdp.send("Network.enable")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": setup["throttle"]})
        page.add_init_script(READY)
        page.goto(url, wait_until="load")
        if table:
            page.wait_for_function("() => window.__interactive !== null", polling=50)
        page.wait_for_load_state("networkidle")
        figures: dict[str, Any] = {**page.evaluate(PAINTS), "traffic": traffic.summary(), "failed": traffic.failed}
        if table:
            clicks, idle = [], [page.evaluate(IDLE) for _ in range(10)]
            for index in range(page.locator("[data-testid=hand-card].playable").count()):
                clicks.append(page.evaluate(CLICK, index))
                while page.locator("[data-testid=back]").count():  # take the move back for the next card
                    page.click("[data-testid=back]")
                page.wait_for_selector("[data-testid=hand-card].playable")
            figures.update(click=statistics.median(clicks), idle=statistics.median(idle))
        return figures
    finally:
        context.close()


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the runs (per resource type for the traffic)."""
    figures: dict[str, Any] = {}
    for key in ("fp", "fcp", "load", "interactive", "click", "idle"):
        if all(r.get(key) is not None for r in runs):
            values = [r[key] for r in runs]
            figures[key], figures[f"{key}_range"] = statistics.median(values), (min(values), max(values))
    types = sorted({name for r in runs for name in r["traffic"]} - {"websocket"})
    figures["traffic"] = {name: {field: statistics.median(r["traffic"].get(name, {}).get(field, 0) for r in runs)
                                 for field in ("requests", "wire", "decoded")} for name in types}
    figures["websocket"] = {field: statistics.median(r["traffic"]["websocket"][field] for r in runs)
                            for field in ("frames", "chars")}
    figures["failed"] = sorted({f for r in runs for f in r["failed"]})
    return figures


def measure(url: str, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with httpx.Client(base_url=url) as client:
        game = create(client, [human(), human()], seed=11)
        to_move = client.get(f"/api/games/{game['id']}").json()["table"]["to_move"]
        encoding = client.get("/static/game.js", headers={"Accept-Encoding": "gzip, deflate, br"}).headers
    table = f"{url}/game/{game['id']}#token={game['seats'][to_move]['token']}"
    results: dict[str, Any] = {"static_encoding": encoding.get("content-encoding", "none")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, setup in VIEWPORTS.items():
                visit(browser, table, setup, True)  # warm up the server and the browser: not counted
                tables, rules = [], []
                for _ in range(runs):
                    tables.append(visit(browser, table, setup, True))
                    rules.append(visit(browser, f"{url}/rules", setup, False))
                results[name] = {"table": median_of(tables), "rules": median_of(rules)}
        finally:
            browser.close()
    return results


def kib(n: float) -> str:
    return f"{n / 1024:.1f} KiB"


def ms(figures: dict[str, Any], key: str) -> str:
    """The median in ms with the runs' range."""
    low, high = figures[f"{key}_range"]
    return f"{figures[key]:.0f} ms ({low:.0f}-{high:.0f})"


def report(figures: dict[str, Any], runs: int) -> None:
    print(f"machine: {figures['machine']}; median (range) of {runs} cold runs; the app serves static files with "
          f"Content-Encoding: {figures['static_encoding']}")
    for name, both in figures.items():
        if not isinstance(both, dict) or "table" not in both:
            continue
        table, rules = both["table"], both["rules"]
        print(f"\n{name}")
        print(f"  {'type':12} {'requests':>8} {'over the wire':>14} {'decoded':>12}")
        for kind, f in table["traffic"].items():
            print(f"  {kind:12} {f['requests']:>8.0f} {kib(f['wire']):>14} {kib(f['decoded']):>12}")
        ws = table["websocket"]
        print(f"  WebSocket frames until idle: {ws['frames']:.0f}, {kib(ws['chars'])} of text")
        t, r = table["traffic"]["total"], rules["traffic"]["total"]
        print(f"  reference /rules: {r['requests']:.0f} requests, {kib(r['wire'])} over the wire, "
              f"{kib(r['decoded'])} decoded; ratio table/rules {t['wire'] / r['wire']:.1f} over the wire")
        print(f"  first paint {ms(table, 'fp')}, first contentful paint {ms(table, 'fcp')}; /rules "
              f"{ms(rules, 'fcp')}, ratio {table['fcp'] / rules['fcp']:.1f}")
        print(f"  interactive (a playable hand card painted) {ms(table, 'interactive')}; /rules loaded "
              f"{ms(rules, 'load')}, ratio {table['interactive'] / rules['load']:.1f}")
        print(f"  a hand card clicked, until the next frame painted {ms(table, 'click')}; an idle frame "
              f"{ms(table, 'idle')}, ratio {table['click'] / table['idle']:.1f}")
        if table["failed"] or rules["failed"]:
            print(f"  failed requests: {table['failed'] + rules['failed']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads per page and viewport (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures: dict[str, Any] = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                                          f"{platform.platform()}"}
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3", {})
        try:
            figures.update(measure(url, args.runs))
        finally:
            process.terminate()
            process.wait(10)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures, args.runs)


if __name__ == "__main__":
    main()
