"""The web app's layout: routes read the app's objects through typed dependencies (one place reads
``app.state``), every router is in ``web/routes/``, and the answers' models are in the OpenAPI schema."""

from __future__ import annotations

import re
from pathlib import Path

from webtools import create, fresh_sqlite, human

from kingisdead.web.routes import deps

WEB = Path(__file__).resolve().parents[2] / "src" / "kingisdead" / "web"


def test_only_the_dependencies_read_app_state():
    readers = sorted(str(path.relative_to(WEB)) for path in WEB.rglob("*.py")
                     if path.name != "app.py" and re.search(r"app\.state|\[\"app\"\]\.state", path.read_text()))
    assert readers == ["routes/deps.py"]
    assert not re.search(r"=[^=\n]*app\.state", (WEB / "app.py").read_text())  # app.py only sets them


def test_every_router_is_in_routes_and_shared_by_the_apps():
    outside = sorted(str(path.relative_to(WEB)) for path in WEB.glob("*.py")
                     if re.search(r"\bAPIRouter\(", path.read_text()))
    assert outside == []
    # a plain APIRouter's routes would take no app's dependency overrides once shared (deps.shared_router)
    plain = sorted(path.name for path in (WEB / "routes").glob("*.py")
                   if path.name != "deps.py" and re.search(r"\bAPIRouter\(", path.read_text()))
    assert plain == []


def test_a_route_takes_the_app_object_its_dependency_gives(client):
    client.app.dependency_overrides[deps.public_url] = lambda: "https://kingisdead.example"
    try:
        game = create(client, [human(), human()], seed=4, claim=False)
    finally:
        client.app.dependency_overrides.clear()
    assert game["url"] == f"https://kingisdead.example/game/{game['id']}"
    assert game["seats"][1]["invite"].startswith(f"https://kingisdead.example/game/{game['id']}#token=")


def test_each_app_of_a_process_takes_its_own_dependency_overrides(client, tmp_path, migrated_sqlite):
    """The apps of a process share their routes (app.routers): an override reaches the app it was set on
    only."""
    from fastapi.testclient import TestClient

    from kingisdead.web import create_app

    other = create_app(f"sqlite:///{fresh_sqlite(migrated_sqlite, tmp_path / 'other.sqlite3')}")
    client.app.dependency_overrides[deps.public_url] = lambda: "https://kingisdead.example"
    try:
        with TestClient(other) as plain:
            assert create(client, [human(), human()], seed=4)["url"].startswith("https://kingisdead.example/")
            assert create(plain, [human(), human()], seed=4)["url"].startswith("http://localhost:8000/")
        lobbies = [route for app in (client.app, other) for route in app.routes if route.name == "lobby_page"]
        assert len(lobbies) == 2 and lobbies[0] is lobbies[1]  # one route object, held by both apps
    finally:
        client.app.dependency_overrides.clear()


def test_the_schema_describes_the_game_view_the_summary_and_the_errors(client):
    schema = client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    assert {"GameView", "TableView", "GameSummary", "ErrorBody"} <= set(models)
    assert {"table", "seats", "you", "move_number", "choices"} <= set(models["GameView"]["properties"])
    assert {"followers", "control", "courts", "hand", "result"} <= set(models["TableView"]["properties"])

    def answer(path: str, method: str, status: str) -> str:
        return str(schema["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"])

    assert "GameView" in answer("/api/games/{game_id}", "get", "200")
    assert "GameView" in answer("/api/games/{game_id}/moves", "post", "200")
    assert "GameList" in answer("/api/games", "get", "200")
    assert "GameSummary" in str(models["GameList"])
    assert "ErrorBody" in answer("/api/games/{game_id}", "get", "404")
