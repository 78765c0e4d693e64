"""Plain-http LAN mode (`serve --lan`) in Debian's headless chromium, on this machine's network address
(not loopback, which browsers count as secure): sign-in holds over http, and the lobby says what is not
protected. Without --lan the browser drops the Secure session cookie there."""

from __future__ import annotations

import socket

import pytest
from webtools import Server, fresh_sqlite

PASSWORD = "a long enough secret"


def network_address() -> str | None:
    """This machine's address on its network (the one a route to the outside leaves from), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.123", 9))  # no packet is sent: this only picks the interface
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture(scope="module")
def address() -> str:
    found = network_address()
    if found is None:
        pytest.skip("this machine has no network address besides loopback")
    return found


def sign_up_and_reload(browser, server: Server, name: str) -> tuple[str, bool]:
    """Sign up in a fresh browser, reload: (the account the page then shows, whether the LAN notice is shown)."""
    context = browser.new_context()
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.get_by_test_id("account-name").fill(name)
        page.get_by_test_id("account-password").fill(PASSWORD)
        with page.expect_response(lambda r: r.url.endswith("/api/account/sign-up")) as signed_up:
            page.get_by_test_id("sign-up").click()
        assert signed_up.value.status == 201  # the account exists either way; the browser decides on the cookie
        page.wait_for_load_state("networkidle")
        page.reload()
        page.wait_for_function("() => document.body?.dataset.account !== undefined")
        page.wait_for_load_state("networkidle")
        return page.evaluate("() => document.body.dataset.account"), page.get_by_test_id("lan-notice").is_visible()
    finally:
        context.close()


def test_sign_in_holds_over_plain_http_in_lan_mode_and_the_lobby_says_so(browser, address, tmp_path, migrated_sqlite):
    lan = Server(fresh_sqlite(migrated_sqlite, tmp_path / "lan.sqlite3"), host=address, args=("--lan",)).start()
    try:
        assert sign_up_and_reload(browser, lan, "Gawain") == ("Gawain", True)
    finally:
        lan.stop()
    secure = Server(fresh_sqlite(migrated_sqlite, tmp_path / "secure.sqlite3"), host=address).start()
    try:  # the default over plain http: the browser keeps no session, and no notice is shown
        assert sign_up_and_reload(browser, secure, "Gareth") == ("", False)
    finally:
        secure.stop()
