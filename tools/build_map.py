"""Build the table's map of Britain: src/kingisdead/web/static/editions/first/board.json.

Reads Natural Earth's coastline of Great Britain (public domain; see
../shared/data/maps/README.md), projects it (x = lon * cos 54.5°, y = -lat,
scaled), cuts it into the game's eight regions along the hand-chosen lines
below, simplifies the pieces as one coverage (so neighbours keep identical
shared borders) and writes, per region, its rings in SVG user units.

Usage: python tools/build_map.py [GEOJSON] (needs the ``mapdata`` extra: shapely).
The output is committed; the app and its tests never need shapely.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import shapely
from shapely.geometry import MultiPolygon, Polygon, box, shape

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "data" / "maps" / "great-britain-50m.geojson"
OUTPUT = ROOT / "src" / "kingisdead" / "web" / "static" / "editions" / "first" / "board.json"

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

# Label and follower anchor of each region, (lon, lat).
ANCHORS = [(-4.4, 57.3), (-3.4, 55.55), (-0.95, 54.3), (-2.65, 53.75), (-3.85, 52.3),
           (-1.95, 52.6), (0.1, 51.95), (-3.6, 50.85)]


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


def build(source: Path) -> dict:
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
    x0, y0 = math.floor(min(xs)) - 12, math.floor(min(ys)) - 12
    shift = lambda p: [round(p[0] - x0, 1), round(p[1] - y0, 1)]  # noqa: E731
    return {
        "source": "Natural Earth 1:50m admin-0 (public domain), via world-atlas 2.0.2; built by tools/build_map.py",
        "size": [math.ceil(max(xs) - x0) + 12, math.ceil(max(ys) - y0) + 12],
        "regions": [[[shift(p) for p in ring] for ring in rings] for rings in regions],
        "anchors": [shift([round(v, 1) for v in project(lon, lat)]) for lon, lat in ANCHORS],
    }


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    board = build(source)
    OUTPUT.write_text(json.dumps(board, separators=(",", ":")) + "\n")
    points = sum(len(ring) for rings in board["regions"] for ring in rings)
    print(f"{OUTPUT.relative_to(ROOT)}: {points} points, {OUTPUT.stat().st_size} bytes, size {board['size']}")


if __name__ == "__main__":
    main()
