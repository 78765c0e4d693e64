"""The site on the internet: Debian's nginx in front with TLS (deploy/nginx-kingisdead.conf, this very
file), a real `kingisdead serve` behind it on loopback, a certificate made here by openssl for the name
``localhost``. Signing in, a move over the WebSocket through the proxy, client addresses from
X-Forwarded-For only from nginx, and the file's hardening: other names refused, no version shown, no
query string logged, a slow body cut by the server's deadline for a whole request."""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from webtools import Server, bot, free_port, human, wait_for

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx-kingisdead.conf"
PASSWORD = "a long enough secret"
NAME = "localhost"
"""The site's name in the test (a name, not an address: browsers and httpx send it in the TLS handshake)."""
REQUEST_TIMEOUT = 4
"""Seconds: the server's deadline for a whole request in this test (4 rather than 10 to keep it short)."""


def make_certificate(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={NAME}",
                    "-addext", f"subjectAltName=DNS:{NAME}", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(https URL of nginx, the server behind it, the certificate to trust, nginx's http port, its folder)."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("Debian's nginx is not installed (./dev test installs it)")
    home = tmp_path_factory.mktemp("proxy")
    cert, key = make_certificate(home)
    https_port, http_port = free_port(), free_port()
    server = Server(home / "games.sqlite3", bot_delay=0.0,
                    args=("--trusted-proxies", "127.0.0.1", "--public-url", f"https://{NAME}:{https_port}",
                          "--request-timeout", str(REQUEST_TIMEOUT)),
                    env={"KINGISDEAD_LIMIT_SIGN_IN": "1/minute"}).start()
    site_conf = (DEPLOY.read_text()
                 .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{server.port};")
                 .replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
                 .replace("listen 80", f"listen 127.0.0.1:{http_port}")
                 .replace("/etc/letsencrypt/live/kings.example.org/fullchain.pem", str(cert))
                 .replace("/etc/letsencrypt/live/kings.example.org/privkey.pem", str(key))
                 .replace("/var/log/nginx/access.log", str(home / "access.log"))
                 .replace("kings.example.org", NAME))
    (home / "site.conf").write_text(site_conf)
    temp = "".join(f"{kind}_temp_path {home}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (home / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\npid {home}/nginx.pid;\nerror_log {home}/error.log;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\naccess_log off;\n{temp}include {home}/site.conf;\n}}\n")
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(home), "-c",
                              str(home / "nginx.conf")], stderr=subprocess.PIPE)
    url = f"https://{NAME}:{https_port}"

    def up() -> bool:
        if nginx.poll() is not None:
            raise RuntimeError(f"nginx exited: {nginx.stderr.read().decode() if nginx.stderr else ''}")
        try:
            return httpx.get(f"{url}/api/meta", verify=trusting(cert), timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    try:
        wait_for(up, 30, "nginx")
        yield url, server, cert, http_port, home
    finally:
        nginx.terminate()
        nginx.wait(10)
        server.stop()


def trusting(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


def client_from(address: str, cert: Path, base_url: str) -> httpx.Client:
    """A client whose connections come from ``address`` (any 127.x.y.z is this machine's loopback)."""
    return httpx.Client(base_url=base_url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address, verify=trusting(cert)))


def test_sign_in_and_play_over_the_websocket_through_the_proxy(site):
    from websockets.sync.client import connect

    url, _server, cert, http_port, _home = site
    plain = httpx.get(f"http://{NAME}:{http_port}/lobby?x=1", follow_redirects=False)
    assert plain.status_code == 301 and plain.headers["location"] == f"https://{NAME}/lobby?x=1"
    with client_from("127.0.0.2", cert, url) as http:
        assert http.post("/api/account/sign-up", json={"name": "Percival", "password": PASSWORD}).status_code == 201
        assert http.get("/api/account").json()["name"] == "Percival"  # the Secure cookie came back over https
        created = http.post("/api/games", json={"players": 2, "seats": [human(), bot("random")], "seed": 3})
        assert created.status_code == 201, created.text
        game = created.json()
        assert game["url"].startswith(url)
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
        context = trusting(cert)
        address = url.replace("https://", "wss://") + f"/api/games/{game['id']}/ws"
        with connect(address, ssl=context, additional_headers={"Cookie": cookie, "Origin": url}) as socket:
            first = json.loads(socket.recv(timeout=30))
            assert first["type"] == "state" and first["game"]["you"] == 0  # the seat, by the session cookie
            socket.send(json.dumps({"type": "move", "move": "pass", "move_number": 0}))
            numbers = []
            while len(numbers) < 2:
                message = json.loads(socket.recv(timeout=60))
                if message["type"] == "state":
                    numbers.append(message["game"]["move_number"])
            assert numbers == [1, 2]  # our pass, then the bot's answer pushed through the proxy
        assert http.get(f"/api/games/{game['id']}").json()["move_number"] >= 2


def wrong_password(http: httpx.Client, **headers: str) -> int:
    return http.post("/api/account/sign-in", json={"name": "nobody", "password": "wrong password"},
                     headers=headers).status_code


def test_client_addresses_come_from_x_forwarded_for_only_through_the_proxy(site):
    url, server, cert, _, _home = site
    # Through nginx: each client counts as itself (a wrong password allowed once a minute per address).
    with client_from("127.0.0.3", cert, url) as third, client_from("127.0.0.4", cert, url) as fourth:
        assert wrong_password(third) == 401
        assert wrong_password(third) == 429
        assert wrong_password(fourth, **{"X-Forwarded-For": "127.0.0.9"}) == 401  # not nginx's own address
        assert wrong_password(fourth, **{"X-Forwarded-For": "127.0.0.9"}) == 429  # nor the one it claims
    with client_from("127.0.0.9", cert, url) as ninth:
        assert wrong_password(ninth) == 401
    # Straight to the server from elsewhere: a forged X-Forwarded-For changes nothing.
    with client_from("127.0.0.5", cert, server.url) as direct:
        assert wrong_password(direct, **{"X-Forwarded-For": "10.1.1.1"}) == 401
        assert wrong_password(direct, **{"X-Forwarded-For": "10.2.2.2"}) == 429


def test_without_trusted_proxies_no_forwarded_header_is_believed(tmp_path):
    """uvicorn on its own believes X-Forwarded-For from 127.0.0.1; `serve` believes it from no one unless told."""
    server = Server(tmp_path / "games.sqlite3", env={"KINGISDEAD_LIMIT_SIGN_IN": "1/minute"}).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as direct:  # from 127.0.0.1
            assert wrong_password(direct, **{"X-Forwarded-For": "10.1.1.1"}) == 401
            assert wrong_password(direct, **{"X-Forwarded-For": "10.2.2.2"}) == 429  # the same client
    finally:
        server.stop()


def test_other_names_get_no_answer_and_no_redirect(site):
    """A Host that is not the site's gets the connection closed (444), not a redirect to that name; a TLS
    handshake for another name, or for none, is refused, so the certificate is not shown to a scan."""
    _url, _server, cert, http_port, _home = site
    with pytest.raises(httpx.RemoteProtocolError):  # closed with no answer at all
        httpx.get(f"http://127.0.0.1:{http_port}/", headers={"Host": "evil.example"}, follow_redirects=False)
    https_port = int(_url.rsplit(":", 1)[1])
    for name in ("evil.example", None):
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with socket.create_connection(("127.0.0.1", https_port), timeout=10) as raw:
            with pytest.raises(ssl.SSLError):
                context.wrap_socket(raw, server_hostname=name).close()


def test_no_version_shown_and_no_query_string_logged(site):
    url, _server, cert, _http_port, home = site
    with httpx.Client(base_url=url, verify=trusting(cert), timeout=30) as http:
        answer = http.get("/unsubscribe", params={"token": "SECRET-IN-THE-QUERY", "kind": "all"})
        missing = http.get("/no-such-page/")
    assert answer.headers["server"] == "nginx" and missing.headers["server"] == "nginx"
    log = home / "access.log"
    wait_for(lambda: "/unsubscribe" in log.read_text(), 10, "the access log's line")
    assert "SECRET-IN-THE-QUERY" not in log.read_text()


def test_a_slow_body_is_cut_by_the_servers_deadline_for_a_whole_request(site):
    """nginx times each read of a body, not the whole; passed on as it comes, a body sent a byte a second
    falls under the server's deadline (here 4 s) and gets 408, long before the 100 s it would take."""
    url, _server, cert, _http_port, _home = site
    https_port = int(url.rsplit(":", 1)[1])
    context = trusting(cert)
    with socket.create_connection(("127.0.0.1", https_port), timeout=30) as raw:
        with context.wrap_socket(raw, server_hostname=NAME) as tls:
            tls.sendall(f"POST /api/games HTTP/1.1\r\nHost: {NAME}:{https_port}\r\nContent-Type: application/json"
                        "\r\nContent-Length: 100\r\n\r\n".encode())
            started, answer = time.monotonic(), b""
            tls.settimeout(1.0)
            for _ in range(100):
                try:
                    tls.sendall(b" ")
                except OSError:
                    break  # closed after the answer
                try:
                    answer += tls.recv(4096)
                except TimeoutError:
                    continue
                if answer:
                    break
            waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert waited < 3 * REQUEST_TIMEOUT  # nginx's own per-read timeout (10 s) never fires: a byte comes each second
