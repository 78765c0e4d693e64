"""The app's own files (/static: scripts, style sheet, edition data) travel gzipped, compressed once, to a browser
that accepts it; answers that may carry a seat's token or hand (the API) are not compressed (no secret beside text
an opponent chooses in a compressed answer: BREACH). /static serves files only: the pages' templates are not among them."""

from __future__ import annotations

from pathlib import Path

from webtools import create, human

from kingisdead.web.static_files import gzipped, minified

WEB = Path(__file__).resolve().parents[2] / "src" / "kingisdead" / "web"
STATIC = WEB / "static"


def test_static_files_are_gzipped_and_still_revalidate(client):
    for name in ("game.js", "style.css", "editions/first/board.json"):
        answer = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == "gzip", name
        assert int(answer.headers["content-length"]) < (STATIC / name).stat().st_size / 2
        expected = (STATIC / name).read_bytes() if name.endswith(".json") else served(name)
        assert answer.content == expected  # httpx decodes it
        assert "accept-encoding" in answer.headers["vary"].lower()
        again = client.get(f"/static/{name}", headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304
        since = client.get(f"/static/{name}", headers={"If-Modified-Since": answer.headers["last-modified"]})
        assert since.status_code == 304
    plain = client.get("/static/game.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == served("game.js")
    icon = client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": "gzip"})
    assert icon.status_code == 200 and "content-encoding" not in icon.headers  # a PNG is compressed already


def test_a_file_is_gzipped_once_then_served_from_memory(client):
    before = gzipped.cache_info()
    for _ in range(3):
        assert client.get("/static/board.js", headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == "gzip"
    after = gzipped.cache_info()
    assert after.misses - before.misses <= 1 and after.hits - before.hits >= 2


def served(name: str) -> bytes:
    return minified(str(STATIC / name), (STATIC / name).stat().st_mtime_ns, (STATIC / name).stat().st_size)


def test_scripts_and_style_sheets_travel_without_comments_or_layout(client):
    for name in ("game.js", "board.js", "style.css"):
        source = (STATIC / name).read_text()
        answer = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(
            "text/javascript" if name.endswith(".js") else "text/css")
        assert int(answer.headers["content-length"]) < 0.8 * len(source.encode()), name
        comment = "/*" if name.endswith(".css") else "\n// "
        assert comment in source and comment not in answer.text, name
    # A template literal holding what looks like a comment travels whole (rjsmin keeps it: see static_files.py).
    assert "`${proto}://${location.host}/api/games/${gameId}/ws?lang=" in client.get("/static/game.js").text


def test_answers_carrying_tokens_are_not_compressed(client):
    game = create(client, [human("Arthur"), human()], seed=3)
    answer = client.get(f"/api/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers


def test_static_serves_no_page_template(client):
    templates = sorted(path.name for path in (WEB / "templates").glob("*.html"))
    assert "index.html" in templates and "pwa-head.html" in templates
    assert not list(STATIC.glob("**/*.html"))  # every page is rendered, none is a file as it is
    for name in templates:
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 404, name
        assert "{{" not in answer.text and "{%" not in answer.text, name
    lobby = client.get("/", headers={"Accept-Language": "fr"})  # the same page, rendered
    assert lobby.status_code == 200 and '<html lang="fr">' in lobby.text and "{{" not in lobby.text
