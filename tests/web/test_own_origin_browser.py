"""Everything the table, the lobby and /learn show is served by the app itself: no font, image, script or style
from another site, and no request that fails (Debian's headless chromium against a real server)."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
from webtools import create, human

# Installed before the page's scripts: what the Content-Security-Policy blocked (never requested, so never seen
# as a request).
BLOCKED = """window.__blocked = [];
document.addEventListener('securitypolicyviolation', (e) => window.__blocked.push(`${e.violatedDirective} ${e.blockedURI}`));"""
# Every address the page's style sheets name: @import, url() in any rule (fonts' src included).
STYLE_ADDRESSES = """() => {
  const found = [];
  const rulesOf = (sheet) => {  // another origin's sheet hides its rules: its own address is what counts
    try { return sheet.cssRules; } catch (e) { return []; }
  };
  const walk = (rules, base) => {
    for (const rule of rules) {
      if (rule instanceof CSSImportRule) {
        found.push(new URL(rule.href, base).href);
        if (rule.styleSheet) walk(rulesOf(rule.styleSheet), rule.styleSheet.href || base);
      }
      for (const m of rule.cssText.matchAll(/url\\(\\s*["']?([^"')]+)["']?\\s*\\)/g)) {
        if (!m[1].startsWith('data:')) found.push(new URL(m[1], base).href);
      }
      if (rule.cssRules) walk(rule.cssRules, base);
    }
  };
  for (const sheet of document.styleSheets) {
    if (sheet.href) found.push(sheet.href);
    walk(rulesOf(sheet), sheet.href || location.href);
  }
  return found;
}"""



def test_the_table_lobby_and_learn_load_only_from_the_app_and_nothing_fails(server, new_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human(), human()], seed=11)
        to_move = client.get(f"/api/games/{game['id']}").json()["table"]["to_move"]
    pages = {"table": f"/game/{game['id']}#token={game['seats'][to_move]['token']}", "lobby": "/", "learn": "/learn"}
    origin = urlsplit(server.url)
    page = new_page()
    page.add_init_script(BLOCKED)
    requested: list[str] = []
    broken: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.on("requestfailed", lambda r: broken.append(f"{r.failure} {r.url}"))
    for name, path in pages.items():
        page.goto(server.url + path)
        if name == "table":
            page.wait_for_selector("body[data-turn=you] [data-testid=hand-card].playable")
        page.wait_for_load_state("networkidle")
        addresses = [*requested, *page.evaluate(STYLE_ADDRESSES),
                     *page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")]
        elsewhere = sorted({a for a in addresses if urlsplit(a)[:2] != origin[:2]
                            and not (urlsplit(a).scheme == "ws" and urlsplit(a).netloc == origin.netloc)})
        assert not elsewhere, f"{name} loads from another origin: {elsewhere}"
        assert not page.evaluate("() => window.__blocked"), f"{name}: {page.evaluate('() => window.__blocked')}"
        assert not page.evaluate("() => [...document.fonts].filter((f) => f.status === 'error').map((f) => f.family)")
        if urlsplit(page.url).path != urlsplit(path).path:  # /learn goes on to its table: what it left is cut short
            broken[:] = [failure for failure in broken if not failure.startswith("net::ERR_ABORTED ")]
        assert not broken and not page.failed, f"{name}: {broken} {page.failed}"
        requested.clear()
