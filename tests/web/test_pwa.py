"""The installable app without a browser: the web app manifest, its icons, the service worker's script and
the offline page (the browser side is in test_pwa_browser.py)."""

from __future__ import annotations

import struct

import pytest


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG file, read from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_opens_the_lobby_and_its_icons_exist(client):
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    assert "manifest-src 'self'" in response.headers["content-security-policy"]
    manifest = response.json()
    assert manifest["name"] == "The King Is Dead" and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert (manifest["lang"], manifest["dir"]) == ("de", "ltr")
    assert manifest["theme_color"] == "#23303f" and manifest["background_color"] == "#e9e0c8"  # style.css's
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), icon in icons.items():
        assert icon["type"] == "image/png"
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert "x".join(map(str, png_size(image.content))) == sizes


def test_the_service_worker_is_served_at_the_root_and_never_kept_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert "addEventListener(\"push\"" in response.text
    assert "worker-src 'self'" in response.headers["content-security-policy"]


@pytest.mark.parametrize(("lang", "retry"), [("en", "Try again"), ("fr", "Réessayer"), ("de", "Erneut versuchen")])
def test_the_offline_page_is_in_the_language_of_the_request(client, lang, retry):
    response = client.get("/offline", headers={"Accept-Language": lang})
    assert response.status_code == 200 and f'<html lang="{lang}"' in response.text
    assert retry in response.text and 'data-testid="offline"' in response.text


def test_every_page_links_the_manifest_and_registers_the_service_worker(client):
    for path in ("/", "/rules", "/learn", "/docs", "/nowhere", "/email/confirm?token=x", "/unsubscribe?token=x&kind=all"):
        text = client.get(path, headers={"Accept": "text/html"}).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in text, path
        assert '<meta name="theme-color" content="#23303f">' in text, path
        assert '<link rel="apple-touch-icon" href="/static/icons/maskable-512.png">' in text, path
        assert '<script type="module" src="/static/pwa.js"></script>' in text, path
