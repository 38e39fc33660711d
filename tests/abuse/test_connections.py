# SPDX-License-Identifier: GPL-3.0-or-later
"""Connections (issue 24, item 1; src/server/gate.c): one address holding
a thousand idle connections and a thousand slow-header ones does not lock
other clients out (an honest client on 127.0.0.3 is answered with p99
under 300 ms), both with the default share per address and with the
largest one, where the gate itself holds a thousand connections; a slow
client is answered 408 and closed within SERVER_REQUEST_TIMEOUT_S and a
second; an address over its share gets a 429 with the security headers,
and its count lasts while a connection is served (a live stream) and
ends with its close; with --trust-proxy the address is X-Forwarded-For's
last one, and without it the header changes nothing."""

import resource
import socket
import threading
import time

from serverlib import Server, Tally, connect, has_security_headers, percentile, read_reply, status_of

REQUEST_TIMEOUT_S = 10          # SERVER_REQUEST_TIMEOUT_S
IDLE_FLOOD = 1100
SLOW_FLOOD = 1050
ATTACKER = "127.0.0.2"
HONEST = "127.0.0.3"
t = Tally("connections")

# The floods hold thousands of sockets on this side too.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
if hard < 2 * (IDLE_FLOOD + SLOW_FLOOD) + 200:
    print("connections: only %d files may be open; the floods need %d" % (hard, 2 * (IDLE_FLOOD + SLOW_FLOOD) + 200))


def honest_latencies(srv, count=100, pause=0.04):
    """GET /api/session from 127.0.0.3, one request after another: ms each
    (a failure counts as 10 s)."""
    out = []
    for _ in range(count):
        start = time.monotonic()
        try:
            status, _, _ = srv.request("GET", "/api/session", source=HONEST, timeout=10)
            ok = status == 200
        except OSError:
            ok = False
        out.append((time.monotonic() - start) * 1000 if ok else 10000)
        time.sleep(pause)
    return out


class Flood:
    """IDLE_FLOOD connections that send nothing and SLOW_FLOOD that send a
    request line, then a header line every 2 s, all from ATTACKER (the
    honest client's 100 requests take some 5 s: two lines or more fall
    among them)."""

    def __init__(self, port):
        self.idle, self.slow = [], []
        for _ in range(IDLE_FLOOD):
            self.idle.append(self.open(port))
        for _ in range(SLOW_FLOOD):
            s = self.open(port)
            if s:
                try:
                    s.send(b"GET /api/session HTTP/1.1\r\n")
                except OSError:
                    pass
            self.slow.append(s)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.drip)
        self.thread.start()

    @staticmethod
    def open(port):
        try:
            s = connect(port, ATTACKER, timeout=2)
            s.setblocking(False)
            return s
        except OSError:
            return None

    def drip(self):
        n = 0
        while not self.stop.wait(2):
            n += 1
            for s in self.slow:
                if s:
                    try:
                        s.send(b"X-Slow-%d: still coming\r\n" % n)
                    except OSError:
                        pass

    def replies(self):
        """How many connections were answered 429, and how many are still open."""
        refused = still_open = 0
        for s in self.idle + self.slow:
            if not s:
                continue
            try:
                data = s.recv(4096)
                if status_of(data) == 429 and has_security_headers(data):
                    refused += 1
                elif data == b"":
                    pass
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
        return refused, still_open

    def close(self):
        self.stop.set()
        self.thread.join()
        for s in self.idle + self.slow:
            if s:
                s.close()


def slow_client(port, source, out):
    """A request line, then a header line every 2 s: the time until the
    server answers and closes, and its reply."""
    s = connect(port, source)
    start = time.monotonic()
    s.sendall(b"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    reply = b""
    s.settimeout(2)
    for i in range(2 * REQUEST_TIMEOUT_S):
        try:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
            continue
        except socket.timeout:
            pass
        except ConnectionResetError:
            break
        try:
            s.sendall(b"X-Slow-%d: a line every 2 s\r\n" % i)
        except OSError:
            break
    out["seconds"] = time.monotonic() - start
    out["reply"] = reply
    s.close()


def idle_client(port, source, out):
    """A connection that sends nothing at all."""
    s = connect(port, source)
    start = time.monotonic()
    out["reply"] = read_reply(s, 2 * REQUEST_TIMEOUT_S)
    out["seconds"] = time.monotonic() - start
    s.close()


def flood_round(srv, label, expect_held):
    """A flood from ATTACKER, the honest client meanwhile; then what the
    attacker got."""
    flood = Flood(srv.port)
    lat = honest_latencies(srv)
    p99 = percentile(lat, 99)
    t.check("%s: the honest client's p99 under the flood is %.1f ms (< 300 ms; median %.1f ms)"
            % (label, p99, percentile(lat, 50)), p99 < 300, sorted(lat)[-5:])
    print("connections: %s: honest client p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d requests"
          % (label, percentile(lat, 50), p99, max(lat), len(lat)), flush=True)
    refused, still_open = flood.replies()
    total = IDLE_FLOOD + SLOW_FLOOD
    t.check("%s: the attacker's connections beyond its share are answered 429 with the security headers "
            "(%d of %d)" % (label, refused, total), refused >= total - expect_held - 50, (refused, still_open))
    t.check("%s: the attacker holds at most its share open (%d <= %d)" % (label, still_open, expect_held),
            still_open <= expect_held, still_open)
    flood.close()


servers = []


def start(*args):
    srv = Server(*args)
    servers.append(srv)
    return srv


try:
    # ---- The flood, with the default share (32) --------------------------------
    srv = start()
    slow, idle = {}, {}
    watchers = [threading.Thread(target=slow_client, args=(srv.port, "127.0.0.4", slow)),
                threading.Thread(target=idle_client, args=(srv.port, "127.0.0.5", idle))]
    for w in watchers:
        w.start()
    flood_round(srv, "default share", 32)

    # The slow and the idle client ran through the flood: each is answered
    # 408 and closed within the time limit and a second.
    for w in watchers:
        w.join()
    for name, got in (("a slow-header client", slow), ("an idle client", idle)):
        t.check("%s is answered 408 with the security headers" % name,
                status_of(got["reply"]) == 408 and has_security_headers(got["reply"]), got["reply"][:200])
        t.check("%s is closed within %d s + 1 s (%.1f s)" % (name, REQUEST_TIMEOUT_S, got["seconds"]),
                REQUEST_TIMEOUT_S - 1 <= got["seconds"] <= REQUEST_TIMEOUT_S + 1, got["seconds"])
    t.check("after the flood the server answers", srv.request("GET", "/api/session", source=HONEST)[0] == 200)
    srv.close()

    # ---- The flood, with the largest share: the gate holds a thousand ------------
    srv = start("--max-connections-per-address", "1024")
    flood_round(srv, "share of 1024", 1024)
    t.check("after the second flood the server answers", srv.request("GET", "/api/session", source=HONEST)[0] == 200)
    srv.close()

    # ---- The share of one address ------------------------------------------------
    srv = start("--max-connections-per-address", "4")
    cookie = srv.register("alice", source="127.0.0.20")
    status, game = srv.json("POST", "/api/games", {"variant": "chess"}, cookie=cookie, source="127.0.0.20")
    t.check("a game to follow", status == 201, game)
    events = ("GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n" % game["id"]).encode()

    def stream(source, forwarded=None):
        """A live stream held open: the socket and the reply's head."""
        s = connect(srv.port, source)
        s.sendall(events + (b"X-Forwarded-For: %s\r\n" % forwarded.encode() if forwarded else b"") + b"\r\n")
        s.settimeout(5)
        head = b""
        try:
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        return s, head

    held = [stream("127.0.0.21") for _ in range(4)]
    t.check("4 live streams from one address", all(status_of(h) == 200 for _, h in held), [h[:40] for _, h in held])
    s, reply = stream("127.0.0.21")
    reply += read_reply(s, 2)
    s.close()
    t.check("a 5th connection from that address is 429 with the security headers",
            status_of(reply) == 429 and has_security_headers(reply), reply[:300])
    t.check("the 429 says why", b"at most 4 connections at once from one address" in reply, reply[-200:])
    s = connect(srv.port, "127.0.0.21")
    reply = read_reply(s, 2)
    s.close()
    t.check("an idle connection over the share is refused at once", status_of(reply) == 429, reply[:100])
    t.check("another address is served meanwhile", srv.request("GET", "/api/session", source="127.0.0.22")[0] == 200)
    held.pop()[0].close()
    served = 0
    for _ in range(30):
        time.sleep(0.1)
        status = srv.request("GET", "/api/session", source="127.0.0.21")[0]
        if status == 200:
            served += 1
            break
    t.check("a closed stream gives its place back within 3 s", served == 1)
    for s, _ in held:
        s.close()
    srv.close()

    # ---- X-Forwarded-For, with and without --trust-proxy ---------------------------
    for trusted in (True, False):
        args = ["--max-connections-per-address", "2"] + (["--trust-proxy"] if trusted else [])
        srv = start(*args)
        cookie = srv.register("bob", source="127.0.0.30")
        status, game = srv.json("POST", "/api/games", {"variant": "chess"}, cookie=cookie, source="127.0.0.30")
        events = ("GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n" % game["id"]).encode()
        proxy = "127.0.0.31"
        held = [stream(proxy, "198.51.100.7") for _ in range(2)]
        t.check("two streams through the proxy for 198.51.100.7", all(status_of(h) == 200 for _, h in held))

        def one(forwarded):
            headers = {"X-Forwarded-For": forwarded} if forwarded else {}
            return srv.request("GET", "/api/session", source=proxy, headers=headers)[0]

        if trusted:
            t.check("--trust-proxy: a third connection for 198.51.100.7 is 429",
                    one("203.0.113.1, 198.51.100.7") == 429)
            t.check("--trust-proxy: another client behind the proxy is served", one("198.51.100.8") == 200)
            t.check("--trust-proxy: the proxy's own request is counted under its address", one(None) == 200)
            t.check("--trust-proxy: an X-Forwarded-For that is no address is 400", one("nonsense") == 400)
        else:
            t.check("without --trust-proxy: X-Forwarded-For is ignored (the proxy's address is full)",
                    one("198.51.100.8") == 429)
            t.check("without --trust-proxy: another address is served whatever it claims",
                    srv.request("GET", "/api/session", source="127.0.0.32",
                                headers={"X-Forwarded-For": "198.51.100.7"})[0] == 200)
        for s, _ in held:
            s.close()
        srv.close()
finally:
    for server in servers:
        server.close()
t.done()
