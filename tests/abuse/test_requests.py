# SPDX-License-Identifier: GPL-3.0-or-later
"""Requests (issue 24, items 1, 9 and 10; src/server/gate.c and http.c):
a 50 MiB Content-Length is refused at once without the body being read,
a chunked body is cut at the limit, an over-long request line, huge
headers, too many cookies, a malformed request line, another HTTP
version and HTTP/1.1 without Host are each answered by the server itself
with the security headers (never by a bare libmicrohttpd page), and so
is every other reply, with "Connection: close"; a body that does not all
come is answered 408.  The session cookie is Secure with an https
--origin.  A state-changing request needs this server's Origin or an API
token: without either, or with another site's Origin, it is 403; with a
token (POST /api/tokens) it is the token's player's, whatever the
cookie; a bad token is 401."""

import socket
import threading
import time

from serverlib import SECURITY_HEADERS, Server, Tally, connect, read_reply, status_of

REQUEST_TIMEOUT_S = 10          # SERVER_REQUEST_TIMEOUT_S
MAX_BODY = 16 * 1024            # SERVER_MAX_BODY
t = Tally("requests")


def exchange(port, data, source="127.0.0.1"):
    s = connect(port, source)
    try:
        s.sendall(data)
        return read_reply(s)
    finally:
        s.close()


def head_of(reply):
    return reply.split(b"\r\n\r\n", 1)[0].lower()


def answered(label, reply, status, text=None):
    """The reply has the status, every security header, Connection: close,
    and the text in its body."""
    head = head_of(reply)
    t.check("%s is %d" % (label, status), status_of(reply) == status, reply[:300])
    t.check("%s has the security headers" % label, all(h in head for h in SECURITY_HEADERS), head)
    t.check("%s says Connection: close" % label, b"\r\nconnection: close" in head, head)
    if text:
        t.check("%s says why" % label, text in reply, reply[-300:])


def body_never_sent(port, out):
    """A head announcing 100 bytes, and never the body."""
    s = connect(port, "127.0.0.40")
    start = time.monotonic()
    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"name\":")
    out["reply"] = read_reply(s, 2 * REQUEST_TIMEOUT_S)
    out["seconds"] = time.monotonic() - start
    s.close()


srv = Server()
other = None
try:
    port = srv.port
    slow = {}
    slow_thread = threading.Thread(target=body_never_sent, args=(port, slow))
    slow_thread.start()

    # ---- A body too large, refused before it comes ------------------------------
    for expect in (b"", b"Expect: 100-continue\r\n"):
        s = connect(port)
        start = time.monotonic()
        s.sendall(b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + expect +
                  b"Content-Length: 52428800\r\n\r\n")
        # The body is never sent: the reply must come without it.
        reply = read_reply(s, 3)
        took = time.monotonic() - start
        s.close()
        label = "a 50 MiB Content-Length%s" % (" with Expect: 100-continue" if expect else "")
        answered(label, reply, 413, b"16 KiB at most")
        t.check("%s is refused at once, the body unsent (%.0f ms)" % (label, took * 1000), took < 1.0)

    # A client that pushes its 50 MiB body regardless: it is refused, and
    # the server stops reading long before the end.
    s = connect(port)
    s.sendall(b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 52428800\r\n\r\n")
    sent = 0
    s.settimeout(0.2)
    try:
        while sent < 52428800:
            sent += s.send(b"x" * 65536)
    except (socket.timeout, BrokenPipeError, ConnectionResetError):
        pass
    reply = read_reply(s, 2)
    s.close()
    t.check("a 50 MiB body pushed regardless is 413", status_of(reply) == 413, reply[:100])
    t.check("the server stopped taking it early (%d KiB of 51200 went out)" % (sent // 1024), sent < 16 * 1024 * 1024)

    # ---- Chunked bodies --------------------------------------------------------------
    chunked_head = (b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:%d\r\n"
                    b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" % port)
    s = connect(port)
    s.sendall(chunked_head)
    reply = b""
    chunks = 0
    s.settimeout(0.3)
    for chunks in range(1, 9):
        try:
            s.sendall(b"1000\r\n" + b"a" * 4096 + b"\r\n")
        except OSError:
            break
        try:
            reply = s.recv(65536)
            if reply:
                break
        except socket.timeout:
            pass
    reply += read_reply(s, 2)
    s.close()
    answered("a chunked body past 16 KiB", reply, 413, b"16 KiB at most")
    t.check("the chunked body is cut at the limit (refused at chunk %d of 4 KiB, never the last chunk)" % chunks,
            chunks == 4 or chunks == 5, chunks)
    reply = exchange(port, chunked_head + b"5000\r\n")
    answered("a chunk announcing 20 KiB", reply, 413)
    body = b'{"name":"chunky","password":"a good password"}'
    reply = exchange(port, chunked_head + b"%x\r\n%s\r\n" % (len(body) - 10, body[:-10]) +
                     b"a;piece=2\r\n" + body[-10:] + b"\r\n0\r\n\r\n")
    answered("a chunked body within the limit", reply, 201)

    # ---- Heads the server refuses itself ------------------------------------------------
    answered("a request line of 5000 bytes", exchange(port, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
             414, b"4096 bytes at most")
    answered("a request line of 100 KiB",
             exchange(port, b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"), 414)
    answered("a header of 9000 bytes", exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 +
                                                b"\r\n\r\n"), 431, b"8 KiB at most")
    answered("200 header lines", exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\n" +
                                          b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n"), 431)
    answered("150 cookies", exchange(port, b"GET /api/session HTTP/1.1\r\nHost: x\r\nCookie: " +
                                     b"; ".join(b"c%d=1" % i for i in range(150)) + b"\r\n\r\n"), 431,
             b"100 at most")
    answered("150 query arguments", exchange(port, b"GET /api/session?" + b"&".join(b"a%d" % i for i in range(150)) +
                                             b" HTTP/1.1\r\nHost: x\r\n\r\n"), 414)
    answered("a malformed request line", exchange(port, b"GET/api/session HTTP/1.1\r\nHost: x\r\n\r\n"), 400,
             b"METHOD TARGET HTTP/1.1")
    answered("a request line of garbage", exchange(port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"), 400)
    answered("HTTP/1.1 without Host", exchange(port, b"GET /api/session HTTP/1.1\r\n\r\n"), 400, b"Host")
    answered("HTTP/2.0", exchange(port, b"GET /api/session HTTP/2.0\r\nHost: x\r\n\r\n"), 505)
    answered("a bare LF", exchange(port, b"GET /api/session HTTP/1.1\nHost: x\n\n"), 400, b"CR LF")
    answered("a space before a colon", exchange(port, b"GET /api/session HTTP/1.1\r\nHost : x\r\n\r\n"), 400)
    answered("a folded header", exchange(port, b"GET /api/session HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n"), 400)
    answered("a bad Content-Length", exchange(port, b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n"),
             400)
    answered("two Content-Lengths", exchange(port, b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
                                                   b"Content-Length: 2\r\n\r\nab"), 400)
    answered("Content-Length with chunks", exchange(port, b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1"
                                                          b"\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 400)
    answered("an unknown transfer coding",
             exchange(port, b"POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"), 501)
    s = connect(port)
    s.sendall(b"GET /api/session HTTP/1.1\r\nHost: x\r\n")
    s.shutdown(socket.SHUT_WR)
    answered("a head cut short by the client's close", read_reply(s), 400, b"before the request was complete")
    s.close()

    # What the gate lets through is served as usual, at the limits too.
    answered("GET /api/session", exchange(port, b"GET /api/session HTTP/1.1\r\nHost: x\r\n\r\n"), 200)
    answered("HTTP/1.0 without Host", exchange(port, b"GET /api/session HTTP/1.0\r\n\r\n"), 200)
    answered("98 tiny cookies", exchange(port, b"GET /api/session HTTP/1.1\r\nHost: x\r\nCookie: " +
                                         b";".join(b"c" for _ in range(98)) + b"\r\n\r\n"), 200)
    answered("100 query arguments", exchange(port, b"GET /api/session?" + b"&".join(b"a" for _ in range(100)) +
                                             b" HTTP/1.1\r\nHost: x\r\n\r\n"), 200)
    answered("a head of almost 8 KiB", exchange(port, b"GET /api/session HTTP/1.1\r\nHost: x\r\nX-Big: " +
                                                b"b" * 8100 + b"\r\n\r\n"), 200)
    answered("a 404", exchange(port, b"GET /api/nothing HTTP/1.1\r\nHost: x\r\n\r\n"), 404)

    # ---- A body that does not all come ----------------------------------------------------
    slow_thread.join()
    answered("a body that never comes", slow["reply"], 408, b"within 10 seconds")
    t.check("... answered within %d s + 1 s (%.1f s)" % (REQUEST_TIMEOUT_S, slow["seconds"]),
            slow["seconds"] <= REQUEST_TIMEOUT_S + 1, slow["seconds"])

    # ---- Origin and API tokens ---------------------------------------------------------------
    account = {"name": "olga", "password": "a good password"}
    status, _, body = srv.request("POST", "/api/register", account, origin=False)
    t.check("a POST without Origin is 403", status == 403, body)
    t.check("... and says to use an API token", b"API token" in body and b"Tokens" in body, body)
    status, _, body = srv.request("POST", "/api/register", account, headers={"Origin": "http://evil.example"})
    t.check("a POST with another site's Origin is 403", status == 403 and b"another site" in body, body)
    status, headers, body = srv.request("POST", "/api/register", account)
    t.check("a POST with the server's Origin is accepted", status == 201, body)
    cookie = headers.get("Set-Cookie", "")
    t.check("the cookie is not Secure over http", "Secure" not in cookie, cookie)
    cookie = cookie.split(";")[0]
    status, _, body = srv.request("DELETE", "/api/games", cookie=cookie, origin=False)
    t.check("a DELETE without Origin is 403", status == 403, body)

    status, _, body = srv.request("POST", "/api/tokens", {"label": "a bot"}, cookie=cookie)
    if status == 404:
        print("requests: SKIPPED the API token checks: POST /api/tokens answers 404 (not built yet)", flush=True)
    else:
        import json
        t.check("a token is made (POST /api/tokens)", status == 201 and b'"token"' in body, body)
        token = json.loads(body)["token"]
        bearer = {"Authorization": "Bearer " + token}
        status, _, body = srv.request("POST", "/api/games", {"variant": "chess"}, origin=False, headers=bearer)
        t.check("a POST with the token and no Origin is accepted", status == 201, body)
        status, _, body = srv.request("POST", "/api/games", {"variant": "chess"}, origin=False,
                                      headers=dict(bearer, Origin="http://evil.example"))
        t.check("a POST with the token is accepted whatever its Origin", status == 201, body)
        status, _, body = srv.request("GET", "/api/session", headers=bearer)
        t.check("GET /api/session with the token is its player's", status == 200 and b'"olga"' in body, body)
        other_cookie = srv.register("pavel", source="127.0.0.41")
        status, _, body = srv.request("GET", "/api/session", cookie=other_cookie, headers=bearer)
        t.check("the token wins over another player's cookie", status == 200 and b'"olga"' in body, body)
        for bad in ("0" * 32, "not a token", ""):
            status, _, body = srv.request("POST", "/api/games", {"variant": "chess"}, origin=False,
                                          headers={"Authorization": "Bearer " + bad})
            t.check("a bad token (%r) is 401" % bad, status == 401 and b"not valid" in body, body)
        status, _, body = srv.request("GET", "/api/session", headers={"Authorization": "Bearer " + "f" * 32})
        t.check("a bad token is 401 on a GET too", status == 401, body)

    # ---- The Secure cookie ------------------------------------------------------------------------
    other = Server("--origin", "https://example.org")
    status, headers, body = other.request("POST", "/api/register", {"name": "quinn", "password": "a good password"},
                                          headers={"Origin": "https://example.org"})
    t.check("with an https --origin, its Origin is accepted", status == 201, body)
    cookie = headers.get("Set-Cookie", "")
    t.check("with an https --origin, the session cookie is Secure", "; Secure" in cookie, cookie)
    status, headers, body = other.request("POST", "/api/login", {"name": "quinn", "password": "a good password"})
    t.check("... on a login too (from the server's own origin)", status == 200 and
            "; Secure" in headers.get("Set-Cookie", ""), headers)
finally:
    srv.close()
    if other:
        other.close()
t.done()
