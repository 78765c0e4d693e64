"""The installable app in Debian's chromium (the whole browser, headless): chromium finds the site installable, the service worker
shows a pushed "your turn" (handed to it through the DevTools protocol: a real subscription needs the browser
vendor's push service, out of reach here), and a page opened offline shows the site's own offline page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from webtools import CHROMIUM_ARGS, FULL_CHROMIUM, launched_browser

PUSHED = {"kind": "turn", "title": "Your turn", "body": "Game abc123: it is your move.", "url": "/game/abc123",
          "game": "abc123", "tag": "game-abc123"}
"""A push message as the server sends it (docs/web.md, "Notifications")."""


@pytest.fixture(scope="module")
def browser(playwright: Any, playwrights: Any) -> Any:
    """The whole chromium, not the tests' headless shell: the shell shows no notification and installs nothing."""
    return launched_browser(playwrights, FULL_CHROMIUM)



def controlled(page: Any) -> None:
    """Wait until the service worker is active and controls ``page`` (it claims the page that registered it)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_chromium_finds_the_site_installable_opening_on_the_lobby(server, browser, tmp_path):
    # A profile on disk: chromium never offers to install from an incognito one (a new_context() is)
    context = browser.browser_type.launch_persistent_context(tmp_path / "profile", executable_path=FULL_CHROMIUM,
                                                             args=CHROMIUM_ARGS)
    page = context.pages[0] if context.pages else context.new_page()
    try:
        page.goto(server.url + "/")
        controlled(page)
        devtools = context.new_cdp_session(page)
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        manifest = devtools.send("Page.getAppManifest")
    finally:
        context.close()
    assert errors == []
    assert manifest["errors"] == [] and manifest["url"] == server.url + "/manifest.webmanifest"
    assert json.loads(manifest["data"])["start_url"] == "/"


INSTALL_OFFER = """() => {
  const offer = new Event("beforeinstallprompt", { cancelable: true });
  offer.prompt = () => { window.__prompted = (window.__prompted || 0) + 1; return Promise.resolve(); };
  dispatchEvent(offer);
  return offer.defaultPrevented;
}"""
"""Chromium's offer to install the site (its beforeinstallprompt event), with a prompt() that records its calls."""


def test_the_lobby_offers_to_install_the_app_when_the_browser_can(server, new_page):
    page = new_page(url=server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=install-app]").count() == 0  # nothing offered before the browser can
    assert page.evaluate(INSTALL_OFFER)  # the lobby keeps the offer for its button, not the browser's banner
    install = page.get_by_test_id("install-app")
    assert install.is_visible() and install.inner_text() == "Install the app"
    page.evaluate(INSTALL_OFFER)  # offered again: still one button
    assert page.locator("[data-testid=install-app]").count() == 1
    install.click()
    assert page.evaluate("() => window.__prompted") == 1  # the browser's own install dialog is asked for
    assert page.locator("[data-testid=install-app]").count() == 0


def test_a_pushed_turn_is_shown_as_a_notification_that_names_the_game(server, new_page):
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.goto(server.url + "/rules")
    controlled(page)
    devtools = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    devtools.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    devtools.send("ServiceWorker.enable")
    for _attempt in range(100):  # the registrations are told as events
        site = [r for r in registrations if r["scopeURL"] == server.url + "/" and not r["isDeleted"]]
        if site:
            break
        page.wait_for_timeout(50)
    [registration] = site
    devtools.send("ServiceWorker.deliverPushMessage", {"origin": server.url, "registrationId":
                                                        registration["registrationId"], "data": json.dumps(PUSHED)})
    shown = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        for (let tries = 0; tries < 300; tries++) {  // the worker shows it as the push event runs: wait for it
            const shown = await registration.getNotifications();
            if (shown.length) return shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}));
            await new Promise((wake) => setTimeout(wake, 50));
        }
        return [];
    }""")
    assert shown == [{"title": PUSHED["title"], "body": PUSHED["body"], "tag": "game-abc123",
                      "data": {"url": "/game/abc123"}}]


KEPT_OFFLINE_LANGUAGE = """async () => {  // the language of the offline page the worker keeps, once it is there
    for (let tries = 0; tries < 300; tries++) {
        const kept = await caches.match("/offline");
        const lang = kept && /<html lang="(\\w+)"/.exec(await kept.text());
        if (lang && lang[1] === document.documentElement.lang) return lang[1];
        await new Promise((wake) => setTimeout(wake, 50));
    }
    return null;
}"""


def test_offline_a_page_of_the_site_says_so_in_the_page_language(server, new_page):
    page = new_page(locale="fr-FR")
    page.goto(server.url + "/")
    controlled(page)
    assert page.evaluate(KEPT_OFFLINE_LANGUAGE) == "fr"
    # The player picks German (the language cookie): the worker fetches the offline page again, in German
    page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    page.reload()
    assert page.evaluate(KEPT_OFFLINE_LANGUAGE) == "de"
    page.context.set_offline(True)
    try:
        page.goto(server.url + "/rules#setup")
        assert page.get_by_test_id("offline").is_visible()
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.get_by_test_id("try-again").inner_text() == "Erneut versuchen"
        # its own files ("?offline") come from the worker's cache: the style sheet is there
        assert page.evaluate("() => [...document.styleSheets].some((sheet) => sheet.cssRules.length > 0)")
    finally:
        page.context.set_offline(False)
    with page.expect_navigation():  # "Try again" reloads the address that failed, its #fragment kept
        page.get_by_test_id("try-again").click()
    assert page.url == server.url + "/rules#setup" and page.get_by_test_id("offline").count() == 0
    assert page.locator("main h1").count() == 1


def test_a_page_whose_requests_get_no_answer_says_so_and_leaves_no_script_error(server, new_page):
    # The lobby's first list of games and its refresh every 5 s get no answer (as offline, or a connection dropped
    # under load): the page says the server cannot be reached, in its language; an uncaught "Failed to fetch"
    # would fail the test (new_page fails on any uncaught script error)
    page = new_page(locale="de-DE")
    page.route("**/api/games*", lambda route: route.abort("internetdisconnected"))
    page.goto(server.url + "/")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == ("Der Server ist nicht erreichbar: Prüfe deine Verbindung und versuche es dann "
                                  "erneut.")
    assert page.errors == []


PUSH_KEY = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"
"""A VAPID public key (an uncompressed P-256 point, base64url), as GET /api/account/notifications gives it."""


def test_the_device_switch_says_why_this_browser_cannot_subscribe(server, new_page):
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=server.url)
    view = {"email": None, "email_confirmed": False, "digest": True, "clock": True, "ended": False, "mail": False,
            "push_key": PUSH_KEY, "push_devices": 0}
    page.route("**/api/account/notifications", lambda route: route.fulfill(json=view))  # the server's push on
    page.goto(server.url + "/")
    page.get_by_test_id("account-name").fill("Gawain")
    page.get_by_test_id("account-password").fill("a long enough secret")
    page.get_by_test_id("sign-up").click()
    switch = page.get_by_test_id("push-switch")
    assert not switch.is_checked()
    switch.click()
    # Headless chromium has no push service to subscribe with: the browser's reason is said, the switch stays off
    message = page.get_by_test_id("push-message")
    message.filter(has_text="This browser could not subscribe to notifications: ").wait_for()
    assert not switch.is_checked() and not switch.is_disabled()
