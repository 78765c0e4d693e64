"""Build the installable app's icons: src/kingisdead/web/static/icons/*.png from the site's own drawing.

The crown of static/favicon.svg is drawn into PNGs of the sizes the web app
manifest names: 192 and 512 pixels on the favicon's round slate field
(purpose "any": the round edge stays transparent), and a 512-pixel "maskable"
one on a full slate square whose crown keeps inside the central circle of 80 %
that every platform's mask leaves visible. Rendered by Debian's chromium
through Playwright (the tests' own browser: no image library is needed).

Usage: python tools/build_icons.py. The output is committed; the app and its tests only read it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "kingisdead" / "web" / "static"
OUTPUT = STATIC / "icons"
CHROMIUM = "/usr/bin/chromium"

MASKABLE_SCALE = 0.62
"""The crown's share of a maskable icon's side: its corners stay inside the 80 % safe circle."""


def drawings() -> dict[str, str]:
    """Each icon's file name and its SVG, from favicon.svg (a 32-unit square)."""
    favicon = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    field = re.search(r"<circle[^>]*/>", favicon)
    if field is None:
        raise SystemExit("favicon.svg has no round field (<circle>) to draw the icons from")
    crown = favicon[field.end():favicon.rindex("</svg>")]
    fill = re.search(r'fill="(#[0-9a-fA-F]{3,6})"', field.group())
    slate = fill.group(1) if fill else "#23303f"
    any_purpose = favicon
    offset = 16 * (1 - MASKABLE_SCALE)
    maskable = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
                f'<rect width="32" height="32" fill="{slate}"/>'
                f'<g transform="translate({offset:.2f} {offset:.2f}) scale({MASKABLE_SCALE})">{crown}</g></svg>')
    return {"icon-192.png": any_purpose, "icon-512.png": any_purpose, "maskable-512.png": maskable}


def render(svg: str, size: int, path: Path) -> None:
    """Draw ``svg`` into a ``size``-pixel square PNG at ``path`` (transparent where the drawing is)."""
    from playwright.sync_api import sync_playwright

    sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": size, "height": size})
        page.set_content(f'<body style="margin:0;background:transparent">{sized}</body>')
        page.locator("svg").screenshot(path=str(path), omit_background=True)
        browser.close()


def main() -> None:
    OUTPUT.mkdir(exist_ok=True)
    for name, svg in drawings().items():
        size = int(re.sub(r"\D", "", name))
        render(svg, size, OUTPUT / name)
        print(f"{OUTPUT / name}: {size}x{size}", file=sys.stderr)


if __name__ == "__main__":
    main()
