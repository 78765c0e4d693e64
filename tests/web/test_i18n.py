"""Interface languages: complete and fresh catalogs, negotiation, the language switch, translated answers."""

from __future__ import annotations

import pickle
import re
from random import Random
from typing import Any

import pytest
from webtools import auth, bot, create, human, wait_for

from kingisdead import GameState
from kingisdead import playout
from kingisdead.edition import EDITIONS
from kingisdead.moves import format_move, parse_move
from kingisdead.web.texts import EDITION_TEXTS, NotationText, notation_edition
from kingisdead.web.i18n import (
    LANGUAGES,
    Text,
    _,
    from_accept_language,
    localize,
    ngettext,
    problems,
    read_catalog,
    supported,
)
from kingisdead.web.views import describe_move, describe_struggle

STATIC_PAGES = ["/", "/rules", "/docs"]


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="(\w+)">', html)
    assert found, html[:200]
    return found.group(1)


# -- catalogs ------------------------------------------------------------------------------------

def test_the_catalogs_are_complete_and_fresh():
    """Extracting again finds no new text; fr and de translate every text (each plural form), nothing is
    fuzzy, placeholders match the English. Fix with `python tools/i18n.py update` and translating."""
    assert problems() == []


def test_the_catalogs_translate_something_in_every_language():
    for lang in LANGUAGES[1:]:
        catalog = read_catalog(lang)
        assert catalog.get("Your turn").string not in ("", "Your turn")
        assert len(catalog) > 300


def test_a_finished_tournament_is_masculine_in_french_a_finished_game_feminine():
    """French gives *tournoi* and *partie* different genders: the tournament's status has its own English text
    (static/tournaments.js, ``statusWords``), not the games' "finished"."""
    from importlib.resources import files

    source = (files("kingisdead") / "web" / "static" / "tournaments.js").read_text(encoding="utf-8")
    found = re.search(r'function statusWords\(.*?finished: t\("([^"]+)"\)', source, re.S)
    assert found, "statusWords names no text for a finished tournament"
    catalog = read_catalog("fr")
    assert (catalog.get(found.group(1)).string, catalog.get("finished").string) == ("terminé", "terminée")


def test_texts_are_english_strings_that_render_in_any_language():
    text = _("the {faction} take control", faction=_("Welsh"))
    assert text == "the Welsh take control" and isinstance(text, str)
    assert text.in_language("fr") == "les Gallois en prennent le contrôle"
    assert text.in_language("de") == "die Waliser übernehmen die Kontrolle"
    assert text.in_language("xx") == "the Welsh take control"
    many = ngettext("{n} region", "{n} regions", 1)
    assert (many, many.in_language("fr")) == ("1 region", "1 région")
    assert ngettext("{n} region", "{n} regions", 0).in_language("fr") == "0 région"  # French: 0 is singular
    assert ngettext("{n} region", "{n} regions", 0).in_language("de") == "0 Regionen"
    copied = pickle.loads(pickle.dumps(text))  # hints and analyses come back from worker processes
    assert isinstance(copied, Text) and copied.in_language("de") == text.in_language("de")
    assert localize({"a": [text, 3, None]}, "de") == {"a": ["die Waliser übernehmen die Kontrolle", 3, None]}


def test_every_bot_level_has_its_texts():
    """A level added to (or reworded in) the engine's ladder needs its label and description in views.LEVEL_TEXTS."""
    from kingisdead.bots.levels import LEVELS
    from kingisdead.web.views import LEVEL_TEXTS

    assert {name: level.description for name, level in LEVELS.items()} == \
        {name: str(texts[1]) for name, texts in LEVEL_TEXTS.items()}


def test_moves_and_struggles_in_words_in_each_language():
    move = describe_move(parse_move("Crown Dev<>Lon *Lon +Ebo:W"))
    assert move == "Crown: swaps Deva and Londinium, crowns Londinium; calls a Welsh follower from Eboracum to court"
    assert move.in_language("fr") == ("Couronne : échange Deva et Londinium, couronne Londinium ; appelle à la cour "
                                      "un partisan des Gallois depuis Eboracum")
    assert move.in_language("de") == ("Krone: tauscht Deva und Londinium, krönt Londinium; ruft einen Anhänger der "
                                      "Waliser aus Eboracum an den Hof")
    struggle = describe_struggle(3, [3, 3, 0, 0], 4)
    assert struggle.in_language("de") == "Deva: Schotten 3, Waliser 3 — Gleichstand, die Sachsen nehmen sie ein"


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_notation_is_written_in_the_pages_words_and_reads_back(lang: str):
    """The first edition's notation on a French or German page: the cards by their names there, the factions by
    the first letter of theirs; each language's words are unambiguous (parse_move reads every move back)."""
    first = EDITIONS["first"]
    words = notation_edition(first, lang)
    assert words.region_codes == first.region_codes  # proper names
    assert len(set(words.card_words)) == 7 and all(" " not in w for w in words.card_words)
    assert len(set(words.faction_codes)) == 4 and all(len(c) == 1 and c.isascii() for c in words.faction_codes)
    assert words.card_words == tuple(str(name.in_language(lang)) for name in EDITION_TEXTS["first"].cards)
    rng = Random(5)
    for seed in range(6):
        state = GameState.new(2 + seed % 3, "mordred" if seed % 2 else "standard", seed)
        while not state.is_over():
            moves = state.legal_moves()
            for move in rng.sample(moves, min(20, len(moves))):
                shown = NotationText(move, first)
                assert str(shown) == format_move(move, first)  # what the API reads
                assert parse_move(shown.in_language(lang), words) == move
            state.apply(rng.choice(moves))
    crown = NotationText(parse_move("Crown Cal<>Din *Cal +Cal:S"), first)
    assert crown.in_language("fr") == "Couronne Cal<>Din *Cal +Cal:E"
    assert crown.in_language("de") == "Krone Cal<>Din *Cal +Cal:S"
    assert pickle.loads(pickle.dumps(crown)).in_language("fr") == "Couronne Cal<>Din *Cal +Cal:E"  # compute workers
    second = EDITIONS["second"]  # its names stay English, and so does its notation
    assert notation_edition(second, lang) is second


# -- negotiation -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "expected"), [
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
    ("de-AT,de;q=0.9", "de"),
    ("es, de;q=0.5, fr;q=0.4", "de"),
    ("en-GB, fr;q=0.9", "en"),
    ("es, pt", None),
    ("fr;q=0, de;q=0.1", "de"),
    ("*", None),
    ("", None),
    ("fr;q=abc, de", "de"),
])
def test_accept_language_negotiation(header: str, expected: str | None):
    assert from_accept_language(header) == expected


def test_supported_codes():
    assert [supported(c) for c in ("fr", "FR", "de-CH", "en_GB", "es", "", None, "x" * 99, "🙂")] == \
        ["fr", "fr", "de", "en", None, None, None, None, None]


def test_pages_follow_accept_language_and_the_cookie_wins(client: Any):
    for path in STATIC_PAGES:
        assert lang_of(client.get(path, headers={"Accept-Language": "de-DE,de;q=0.9"}).text) == "de"
        assert lang_of(client.get(path, headers={"Accept-Language": "es"}).text) == "en"
    page = client.get("/", headers={"Accept-Language": "fr"}).text
    assert "Créer la partie" in page and "Create game" not in page
    client.cookies.set("lang", "de")
    assert lang_of(client.get("/", headers={"Accept-Language": "fr"}).text) == "de"
    client.cookies.set("lang", "klingon")  # a cookie no language matches is ignored
    assert lang_of(client.get("/", headers={"Accept-Language": "fr"}).text) == "fr"
    rules_page = client.get("/rules", headers={"Accept-Language": "de"}).text
    assert "Regelübersicht" in rules_page and "Wie die Partie endet" in rules_page
    vary = client.get("/api/meta").headers["vary"]
    assert "Accept-Language" in vary and "Cookie" in vary  # shared caches keep one copy per language
    missing = client.get("/game/nope", headers={"Accept-Language": "fr", "Accept": "text/html"})
    assert missing.status_code == 404 and "Page ou partie introuvable" in missing.text


def test_the_switch_persists_and_the_account_language_wins(client: Any):
    client.base_url = "https://testserver"  # the session cookie is Secure: sent back over https only
    client.cookies.set("lang", "fr")
    assert client.get("/api/i18n").json()["language"] == "fr"
    assert client.get("/api/i18n").json()["language"] == "fr"  # kept: the cookie is the browser's choice
    assert client.post("/api/account/sign-up", json={"name": "Gwen", "password": "correct horse"}).status_code == 201
    assert client.get("/api/i18n").json()["language"] == "fr"  # no saved language yet: the cookie decides
    changed = client.patch("/api/account", json={"language": "de"})
    assert changed.status_code == 200, changed.text
    assert client.get("/api/i18n").json()["language"] == "de"  # the account's language wins over the cookie
    assert lang_of(client.get("/rules").text) == "de"
    client.patch("/api/account", json={"language": None})
    assert client.get("/api/i18n").json()["language"] == "fr"


def test_the_catalog_endpoint(client: Any):
    answer = client.get("/api/i18n/de")
    assert answer.status_code == 200
    messages = answer.json()["messages"]
    assert messages["Your turn"] == "Du bist am Zug"
    assert messages["{n} card left"] == ["{n} Karte übrig", "{n} Karten übrig"]
    assert client.get("/api/i18n/de", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    assert client.get("/api/i18n/en").json()["messages"] == {}
    refused = client.get("/api/i18n/xx", headers={"Accept-Language": "fr"})
    assert refused.status_code == 404
    assert refused.json() == {"error": "unknown_language", "detail": "pas de langue d'interface xx (il y a en, fr et de)"}


# -- answers in the request's language ----------------------------------------------------------------

def test_an_error_in_french_and_in_german(client: Any):
    game = create(client, [human(), human()])
    second = game["seats"][1]["token"]
    refused = client.post(f"/api/games/{game['id']}/moves", json={"move": "pass"},
                          headers={**auth(second), "Accept-Language": "fr"})
    assert refused.status_code == 409
    assert refused.json() == {"error": "not_your_turn", "detail": "ce n'est pas votre tour : c'est au joueur 1 de jouer"}
    invalid = client.post("/api/games", json={"players": 9, "seats": []}, headers={"Accept-Language": "de"})
    assert invalid.status_code == 422
    assert invalid.json()["detail"].startswith("players: Eingabe muss kleiner oder gleich 4 sein")
    two = client.post("/api/games", json={"players": 9, "variant": "x", "seats": []}, headers={"Accept-Language": "fr"})
    assert " ; " in two.json()["detail"] and "; " not in two.json()["detail"].replace(" ; ", ""), two.json()
    assert client.get("/api/games/nope", headers={"Accept-Language": "de"}).json()["detail"] == "keine Partie 'nope'"
    with client.websocket_connect(f"/api/games/{game['id']}/ws", headers={"Accept-Language": "de"}) as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "auth", "token": second})
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "move", "move": "pass"})
        error = socket.receive_json()
        assert error == {"type": "error", "error": "not_your_turn", "detail": "du bist nicht am Zug: Spieler 1 ist am Zug"}


def test_a_socket_speaks_the_language_in_its_url_whatever_its_handshake_says(client: Any):
    # Chromium 148 sends the page's Accept-Language on HTTP requests but en-US on the WebSocket handshake:
    # the page names its language in the socket's URL, which wins over the handshake's headers.
    game = create(client, [human(), human()])
    second = game["seats"][1]["token"]
    for lang, expected in (("fr", "ce n'est pas votre tour : c'est au joueur 1 de jouer"),
                           ("de", "du bist nicht am Zug: Spieler 1 ist am Zug")):
        with client.websocket_connect(f"/api/games/{game['id']}/ws?lang={lang}",
                                      headers={"Accept-Language": "en-US,en;q=0.9"}) as socket:
            assert socket.receive_json()["type"] == "state"
            socket.send_json({"type": "auth", "token": second})
            assert socket.receive_json()["type"] == "state"
            socket.send_json({"type": "move", "move": "pass"})
            assert socket.receive_json()["detail"] == expected
    with client.websocket_connect(f"/api/games/{game['id']}/ws?lang=xx",  # not a language: the headers decide
                                  headers={"Accept-Language": "de"}) as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "auth", "token": second})
        socket.receive_json()
        socket.send_json({"type": "move", "move": "pass"})
        assert socket.receive_json()["detail"] == "du bist nicht am Zug: Spieler 1 ist am Zug"


def test_views_and_options_in_the_request_language(client: Any):
    game = create(client, [human(), bot("random")], variant="mordred", first_player=1)
    token = game["seats"][0]["token"]
    wait_for(lambda: client.get(f"/api/games/{game['id']}").json()["log"], what="the bot's first move")
    german = client.get(f"/api/games/{game['id']}", headers={**auth(token), "Accept-Language": "de"}).json()
    english = client.get(f"/api/games/{game['id']}").json()
    assert german["log"][0]["text"] != english["log"][0]["text"]  # "passt", "Krone: tauscht …", …
    # the notation the API reads stays; the one shown is in the page's words
    assert german["log"][0]["notation"] == english["log"][0]["notation"] == english["log"][0]["shown_notation"]
    played = parse_move(english["log"][0]["notation"])
    assert german["log"][0]["shown_notation"] == format_move(played, notation_edition(EDITIONS["first"], "de"))
    french = client.get(f"/api/games/{game['id']}", headers={**auth(token), "Accept-Language": "fr"}).json()
    assert french["choices"]["shown_codes"]["cards"][0] == "Couronne"
    assert french["choices"]["shown_codes"]["factions"] == ["E", "G", "R", "L"]
    assert french["choices"]["codes"]["cards"][0] == "Crown"  # the move sent
    options = client.post(f"/api/games/{game['id']}/options", json={"steps": []},
                          headers={**auth(token), "Accept-Language": "fr"}).json()
    assert options["prompt"] == "Jouez une carte de votre main, ou passez"
    assert {o["label"] for o in options["options"] if o["kind"] == "pass"} == {"passer"}
    meta = client.get("/api/meta", headers={"Accept-Language": "fr"}).json()
    assert meta["factions"] == ["Écossais", "Gallois", "Romano-Bretons", "Loyalistes"]
    assert meta["card_keys"][0] == "Crown" and meta["cards"][0] == "Couronne"
    assert meta["regions"][6]["name"] == "Londinium"  # region names are proper names


def test_a_finished_game_explained_in_german(client: Any):
    game = create(client, [human(), human()], seed=5)
    state, rng = GameState.new(2, "standard", 5), Random(5)
    for number in range(10_000):
        if state.is_over():
            break
        seat = state.player
        move = playout.play_random(state, rng)
        played = client.post(f"/api/games/{game['id']}/moves", json={"move": str(move), "move_number": number},
                             headers=auth(game["seats"][seat]["token"]))
        assert played.status_code == 200, played.text
    english = client.get(f"/api/games/{game['id']}").json()["table"]["explanation"]
    german = client.get(f"/api/games/{game['id']}", headers={"Accept-Language": "de"}).json()["table"]["explanation"]
    assert german["headline"] != english["headline"]
    assert german["headline"].startswith(("Krönung", "Die Sachsen fallen ein", "Mordreds Aufstand"))
    assert [s["kind"] for s in german["steps"]] == [s["kind"] for s in english["steps"]]
    assert all(a["text"] != b["text"] for a, b in zip(german["steps"], english["steps"], strict=True))
    assert german["players"][0]["courts"].keys() == {"Scots", "Welsh", "Romano-British"}  # keys stay the engine's


def test_the_struggle_line_and_card_effects_in_french_and_german(client: Any):
    game = create(client, [human(), bot("random")], seed=7)
    token = game["seats"][0]["token"]
    french = client.get(f"/api/games/{game['id']}", headers={**auth(token), "Accept-Language": "fr"}).json()["table"]
    assert french["struggle"]["lead"] == "Les Gallois mènent en Caerleon avec 3 contre 1 pour les Écossais."
    assert french["struggle"]["all_pass"] == "si tout le monde passe maintenant, Caerleon revient aux Gallois."
    german = client.get(f"/api/games/{game['id']}", headers={**auth(token), "Accept-Language": "de"}).json()["table"]
    assert german["struggle"]["all_pass"] == "wenn jetzt alle passen, geht Caerleon an die Waliser."
    assert german["card_effects"][4]["text"] == "Schotten: setze zwei Anhänger der Schotten in Din Eidyn (neben Land der Schotten)."
