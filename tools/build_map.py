"""Build each edition's board: src/kingisdead/web/static/editions/<name>/board.json.

Reads Natural Earth's coastline of Great Britain (public domain; see
../shared/data/maps/README.md), projects it (x = lon * cos 54.5°, y = -lat,
scaled), cuts it into the game's eight regions along the hand-chosen lines
below, simplifies the pieces as one coverage (so neighbours keep identical
shared borders) and writes, per region, its rings in SVG user units, with
everything else the drawing (static/board.js) needs that belongs to this
edition: the board's size and frame, each region's colour and the places of
its banner, pieces, control token, home shield, Crown token and last-move
marks, the places of the struggle-order track, the stock, the invaders' track
and the keys in the sea, the sea's labels, and the factions' colours and marks.

Both editions play on the same map graph (the second renames the regions,
Moray to Devon), so they share the geometry; what differs is in EDITIONS: the
regions' names (for the banners' widths), the factions' colours and marks, the
invaders (the first edition's Saxon tokens fill a track as regions fall to
them; the second's three instability discs start in France and leave it), the
seats' tokens (Crown tokens or negotiation discs) and the sea's labels.

Usage: python tools/build_map.py [GEOJSON] (needs the ``mapdata`` extra: shapely).
The output is committed; the app and its tests never need shapely.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Polygon, box, shape

ROOT = Path(__file__).resolve().parent.parent
SOURCE = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.exists()), ROOT.parent / "shared") \
    / "data" / "maps" / "great-britain-50m.geojson"
"""../shared from the main checkout, ../../shared from a worktree under wt/."""
OUTPUT = ROOT / "src" / "kingisdead" / "web" / "static" / "editions"
"""Each edition's board.json goes in its folder here."""

SCALE = 70.0
"""SVG units per degree of latitude."""
COS = math.cos(math.radians(54.5))
NORTH, SOUTH = 59.4, 49.8
"""Latitudes kept: Shetland is left out so the board stays compact."""
MIN_ISLAND = 2.0
"""Pieces smaller than this (square SVG units, after projection) are dropped."""
TOLERANCE = 1.1
"""Coverage simplification tolerance, SVG units."""
GRID = 0.5
"""Coordinates are snapped to this grid, SVG units."""

# Zones in (lon, lat), indexed like board.Region; each pair of zones shares its
# cut line vertex for vertex, and the zones tile the box [-9, 3] x [49, 61].
W, E, S, N = -9.0, 3.0, 49.0, 61.0
CAL_DIN = [(W, 55.15), (-6.0, 55.15), (-5.0, 55.4), (-4.85, 55.85), (-4.7, 55.96), (-4.3, 56.0),
           (-3.75, 56.05), (-3.4, 56.03), (-2.6, 56.12), (E, 56.15)]
DIN_DEVA = [(W, 54.55), (-5.0, 54.55), (-3.6, 54.85), (-3.05, 55.0), (-2.5, 54.9)]
DIN_EBO = [(-2.5, 54.9), (-1.4, 55.0), (E, 55.0)]
DEVA_EBO = [(-2.5, 54.9), (-2.3, 54.4), (-2.1, 53.8), (-1.9, 53.2)]
DEVA_CAE = [(W, 53.8), (-4.0, 53.5), (-3.25, 53.4), (-3.0, 53.2), (-2.8, 52.9)]
DEVA_RAT = [(-2.8, 52.9), (-1.9, 53.2)]
EBO_RAT = [(-1.9, 53.2), (-0.5, 53.0), (-0.3, 52.6)]
EBO_LON = [(-0.3, 52.6), (0.2, 52.85), (E, 53.0)]
CAE_RAT = [(-2.8, 52.9), (-3.1, 52.3), (-2.65, 51.85)]
CAE_AQU = [(W, 51.33), (-3.6, 51.33), (-3.05, 51.42), (-2.65, 51.6), (-2.65, 51.85)]
RAT_LON = [(-0.3, 52.6), (-1.0, 52.0), (-1.4, 51.6)]
RAT_AQU = [(-2.65, 51.85), (-1.4, 51.6)]
LON_AQU = [(-1.4, 51.6), (-1.3, 51.0), (-1.4, 50.8), (-1.5, S)]


def _rev(line):
    return list(reversed(line))


ZONES = [
    # Caledonia: north of the Clyde-Forth line
    [(W, N), (E, N)] + _rev(CAL_DIN),
    # Din Eidyn
    CAL_DIN + [(E, 55.0)] + _rev(DIN_EBO) + _rev(DIN_DEVA),
    # Eboracum
    DIN_EBO + EBO_LON[::-1] + _rev(EBO_RAT) + _rev(DEVA_EBO),
    # Deva
    DIN_DEVA + DEVA_EBO + _rev(DEVA_RAT) + _rev(DEVA_CAE),
    # Caerleon
    DEVA_CAE + CAE_RAT + _rev(CAE_AQU),
    # Ratae
    CAE_RAT[::-1] + DEVA_RAT + EBO_RAT + RAT_LON + _rev(RAT_AQU),
    # Londinium
    _rev(RAT_LON) + EBO_LON + [(E, S)] + _rev(LON_AQU),
    # Aquae Sulis
    CAE_AQU + RAT_AQU + LON_AQU + [(W, S)],
]

# Centre of each region's pieces, (lon, lat).
ANCHORS = [(-4.4, 57.3), (-3.4, 55.55), (-0.65, 54.3), (-2.65, 53.75), (-3.95, 52.2),
           (-1.4, 52.75), (0.1, 51.95), (-3.6, 50.85)]


SIZE = (480, 720)
"""The board, frame included, in SVG units: width / height between 0.62 and 0.72 so the table fits it."""
FRAME = 8
"""Width of the frame drawn around the board, SVG units."""
SHIFT = (6, 16)
"""Where the island's bounding box (with a 12-unit margin) starts on the board."""

COLOURS = ["#9fae86", "#b7a3bf", "#d3b77e", "#93b3aa", "#cf9f8a", "#c1bb86", "#d9b49c", "#a9a4c4"]
"""Each region's ink: muted, so the factions' pieces and tokens stand out on it; neighbours differ."""
BANNER = (0, -17)
PIECES = (0, 3)
FLAG = (0, 32)
PIECES_BOX = (-50, -6, 100, 30)
"""Room the pieces take around their centre, at most (four factions): x, y, width, height."""
MARKS_BOX = (34, 60)
"""A region's column of last-move badges: three rows of +n / -n, then the piece called to court."""

TRACK: dict[str, Any] = {"title": [404, 36], "card": [124, 30], "slots": [[342, 46 + i * 35] for i in range(8)]}
"""The struggle order: a column of 8 region cards in the North Sea (top-left of each card)."""
STOCK: dict[str, Any] = {"title": [58, 558], "piles": [[22, 614], [62, 614], [22, 676], [62, 676]]}
"""The common stock: one pile per faction (bottom-left of each pile's front cube)."""
KEY = [18, 334]
LOYALIST_KEY = [16, 16]
COMPASS = [428, 640]

EDITIONS: dict[str, dict[str, Any]] = {
    "first": {
        "names": ["Caledonia", "Din Eidyn", "Eboracum", "Deva", "Caerleon", "Ratae", "Londinium", "Aquae Sulis"],
        "banner_shift": {3: (-8, -2), 5: (2, 0), 6: (8, 3)},
        # Scots, Welsh, Romano-British, Mordred's Loyalists: colour, colour of a number on them, mark
        "factions": [
            {"colour": "#2f6fd0", "ink": "#ffffff", "mark": "saltire"},
            {"colour": "#c8362f", "ink": "#ffffff", "mark": "triangle"},
            {"colour": "#e3b21c", "ink": "#2b2410", "mark": "circle"},
            {"colour": "#3a3a3a", "ink": "#ffffff", "mark": "diamond"},
        ],
        # the Saxon tokens: each region that falls to them takes the next of 4 slots (centres); the fourth ends the game
        "invaders": {"colour": "#7d776c", "ink": "#fffbe9", "mark": "axes"},
        "invader_track": {"fill": "taken", "title": [442, 380], "slots": [[442, 404 + i * 38] for i in range(4)]},
        "seat_token": "crown",
        "sea_labels": [
            {"text": "Oceanus Germanicus", "x": 318, "y": 190, "angle": 90},
            {"text": "Mare Hibernicum", "x": 68, "y": 490, "angle": 0},
            {"text": "Mare Britannicum", "x": 290, "y": 702, "angle": 0},
        ],
    },
    "second": {
        "names": ["Moray", "Strathclyde", "Northumbria", "Lancaster", "Gwynedd", "Warwick", "Essex", "Devon"],
        "banner_shift": {3: (-26, -2), 5: (2, 0), 6: (8, 3)},  # Lancaster's long name clear of Northumbria's pieces
        # Scottish, Welsh, English (no Loyalists in this edition: the fourth is never drawn)
        "factions": [
            {"colour": "#2f6fd0", "ink": "#ffffff", "mark": "saltire"},
            {"colour": "#c8362f", "ink": "#ffffff", "mark": "triangle"},
            {"colour": "#e3b21c", "ink": "#2b2410", "mark": "cross"},
            {"colour": "#3a3a3a", "ink": "#ffffff", "mark": "diamond"},
        ],
        # the instability discs: 3 start in France (the slots, centres) and leave it, first slot first, for the
        # regions that become unstable; the third on the board ends the game
        "invaders": {"colour": "#4b4453", "ink": "#f3ecff", "mark": "bolt"},
        "invader_track": {"fill": "left", "title": [442, 398], "slots": [[442, 422 + i * 38] for i in range(3)]},
        "seat_token": "disc",
        "sea_labels": [
            {"text": "North Sea", "texts": {"fr": "Mer du Nord", "de": "Nordsee"}, "x": 318, "y": 190, "angle": 90},
            {"text": "Irish Sea", "texts": {"fr": "Mer d'Irlande", "de": "Irische See"}, "x": 68, "y": 490, "angle": 0},
            {"text": "English Channel", "texts": {"fr": "La Manche", "de": "Ärmelkanal"}, "x": 290, "y": 702,
             "angle": 0},
        ],
    },
}
"""What differs between the editions' boards. ``names`` only size the banners, ``banner_shift`` moves some off their neighbours' things (about 6.4 units a letter of
11-unit Georgia bold); ``fill`` says what a filled slot of the invaders' track is: a token taken ("taken") or a
disc still there ("left"); ``seat_token`` is the glyph of the players' tokens on the region cards; a sea label's
``texts`` gives it in other languages (the first edition's Latin names stay Latin)."""


def places(anchor: list[float], r: int, name: str, shift: dict[int, tuple[int, int]]) -> dict:
    """Where region ``r`` (called ``name``, its banner moved by ``shift[r]``)'s things go on the board, from its
    anchor (SVG units)."""
    x, y = anchor
    at = lambda d: [round(x + d[0], 1), round(y + d[1], 1)]  # noqa: E731
    width = round(len(name) * 6.4 + 34)
    bx, by = at(BANNER)
    bx, by = bx + shift.get(r, (0, 0))[0], by + shift.get(r, (0, 0))[1]
    return {
        "colour": COLOURS[r],
        "banner": {"x": bx, "y": by, "width": width},
        "pieces": at(PIECES),
        "control": at((0, 12)),
        "home": [round(bx + width / 2 + 9, 1), by],
        "crown": [round(bx - width / 2 + 2, 1), round(by - 16, 1)],
        "flag": at(FLAG),
    }


def _boxes(place: dict) -> list[tuple[float, ...]]:
    """What a region's marks must not cover: its banner (tails and seal included), pieces, shield, flag."""
    b = place["banner"]
    x, y = place["pieces"]
    boxes: list[tuple[float, ...]] = [(b["x"] - b["width"] / 2 - 9, b["y"] - 4, b["width"] + 18, 24),
             (x + PIECES_BOX[0], y + PIECES_BOX[1], PIECES_BOX[2], PIECES_BOX[3]),
             (place["home"][0] - 9, place["home"][1] - 10, 18, 21), (place["flag"][0] - 18, place["flag"][1] - 8, 36, 14)]
    return boxes


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def place_marks(all_places: list[dict], anchors: list[list[float]], furniture: list[tuple]) -> None:
    """Put each region's column of last-move badges nearest the side of its pieces, off every banner,
    piece, shield and flag, off the other regions' columns and off the sea's furniture."""
    taken = [box for place in all_places for box in _boxes(place)] + furniture
    for r, place in enumerate(all_places):
        ax, ay = anchors[r]
        wants = [(ax + 52, ay - 4), (ax - 52 - MARKS_BOX[0], ay - 4)]  # right of the pieces, else left
        spots = sorted(((ax + dx, ay + dy) for dx in range(-150, 151, 2) for dy in range(-70, 71, 2)),
                       key=lambda p: min(math.hypot(p[0] - x, (p[1] - y) * 1.5) for x, y in wants))
        for x, y in spots:
            box = (x, y, *MARKS_BOX)
            if FRAME < x and x + MARKS_BOX[0] < SIZE[0] - FRAME and not any(_overlap(box, other) for other in taken):
                place["marks"] = [round(x, 1), round(y, 1)]
                taken.append(box)
                break
        else:
            raise AssertionError(f"no room for region {r}'s last-move marks")


def project(lon: float, lat: float) -> tuple[float, float]:
    return lon * COS * SCALE, -lat * SCALE


def projected(geom):
    return shapely.transform(geom, lambda xy: xy * [COS * SCALE, -SCALE])


def polygons(geom) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for part in getattr(geom, "geoms", []) for g in polygons(part)]


def build(source: Path, edition: str) -> dict:
    """The board.json of ``edition`` (a key of EDITIONS) from the coastline in ``source``."""
    spec = EDITIONS[edition]
    data = json.loads(source.read_text())
    land = shapely.union_all([shape(f["geometry"]) for f in data["features"]])
    land = land.intersection(box(W, SOUTH, E, NORTH))
    zones = [Polygon(z) for z in ZONES]
    assert all(z.is_valid for z in zones), [i for i, z in enumerate(zones) if not z.is_valid]
    assert abs(shapely.union_all(zones).area - (E - W) * (N - S)) < 1e-6, "zones must tile the box"
    pieces = [projected(land.intersection(z)) for z in zones]
    pieces = [MultiPolygon([p for p in polygons(g) if p.area >= MIN_ISLAND]) for g in pieces]
    simple = shapely.coverage_simplify(pieces, TOLERANCE)
    simple = [shapely.set_precision(g, GRID) for g in simple]
    xs, ys = [], []
    regions = []
    for geom in simple:
        rings = []
        for poly in polygons(geom):
            poly = shapely.geometry.polygon.orient(poly)
            for ring in [poly.exterior, *poly.interiors]:
                coords = [[round(x, 1), round(y, 1)] for x, y in ring.coords[:-1]]
                if len(coords) >= 3:
                    rings.append(coords)
                    xs += [c[0] for c in coords]
                    ys += [c[1] for c in coords]
        regions.append(rings)
    x0, y0 = math.floor(min(xs)) - 12 - SHIFT[0], math.floor(min(ys)) - 12 - SHIFT[1]
    shift = lambda p: [round(p[0] - x0, 1), round(p[1] - y0, 1)]  # noqa: E731
    assert max(xs) - x0 < SIZE[0] - FRAME and max(ys) - y0 < SIZE[1] - FRAME, "the island must fit in the frame"
    anchors = [shift([round(v, 1) for v in project(lon, lat)]) for lon, lat in ANCHORS]
    all_places = [places(anchor, r, spec["names"][r], spec["banner_shift"]) for r, anchor in enumerate(anchors)]
    banners = [_boxes(place)[0] for place in all_places]
    clash = [(a, b) for a in range(8) for b in range(8) if a != b and any(_overlap(banners[a], box) for box in _boxes(all_places[b]))]
    assert not clash, f"banners over another region's banner, pieces, shield or flag: {clash}"
    card_w, card_h = TRACK["card"]
    furniture = [(x - 10, y, card_w + 10, card_h) for x, y in TRACK["slots"]] + \
        [(x - 15, y - 15, 30, 30) for x, y in spec["invader_track"]["slots"]] + [(KEY[0], KEY[1], 110, 95)] + \
        [(x - 4, y - 44, 44, 48) for x, y in STOCK["piles"]] + [(LOYALIST_KEY[0], LOYALIST_KEY[1], 190, 56)] + \
        [(COMPASS[0] - 30, COMPASS[1] - 44, 60, 76)]
    place_marks(all_places, anchors, furniture)
    return {
        "edition": edition,
        "source": "Natural Earth 1:50m admin-0 (public domain), via world-atlas 2.0.2; built by tools/build_map.py",
        "size": list(SIZE),
        "frame": FRAME,
        "regions": [[[shift(p) for p in ring] for ring in rings] for rings in regions],
        "places": all_places,
        "factions": spec["factions"],
        "invaders": spec["invaders"],
        "track": TRACK,
        "stock": STOCK,
        "invader_track": spec["invader_track"],
        "seat_token": spec["seat_token"],
        "key": KEY,
        "loyalist_key": LOYALIST_KEY,
        "compass": COMPASS,
        "sea_labels": spec["sea_labels"],
    }


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    for edition in EDITIONS:
        board = build(source, edition)
        output = OUTPUT / edition / "board.json"
        output.write_text(json.dumps(board, separators=(",", ":")) + "\n")
        points = sum(len(ring) for rings in board["regions"] for ring in rings)
        print(f"{output.relative_to(ROOT)}: {points} points, {output.stat().st_size} bytes, size {board['size']}")


if __name__ == "__main__":
    main()
