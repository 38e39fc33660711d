# SPDX-License-Identifier: GPL-3.0-or-later
"""Password hashing under a flood (issue 24, item 3): no more hashes at
once than cores, a bounded queue and 503 beyond it; a taken name refused
before hashing; registrations limited per address; a login for a missing
name as slow as one for an existing name; passwords counted in characters.
Meanwhile an honest client on another address is answered quickly and the
server's memory stays bounded."""

import statistics
import threading
import time

from serverlib import Server, Tally, address, percentile, together

t = Tally("auth")
srv = Server()
try:
    srv.register("alice", "alice's password")

    # A taken name is refused before hashing: as fast as a plain read.
    start = time.monotonic()
    status, _, _ = srv.request("POST", "/api/register", {"name": "ALICE", "password": "another password"},
                               source="127.0.0.9")
    took = time.monotonic() - start
    t.check("a taken name is 409", status == 409, status)
    t.check("a taken name is refused before hashing (%.0f ms)" % (took * 1000), took < 0.05)

    # Registrations from one address: SERVER_REGISTER_BURST (5) an hour.
    codes = [srv.request("POST", "/api/register", {"name": "r%d" % i, "password": "a good password"},
                         source="127.0.0.10")[0] for i in range(7)]
    t.check("5 registrations an hour from one address, then 429", codes == [201] * 5 + [429] * 2, codes)
    status, _, body = srv.request("POST", "/api/register", {"name": "r9", "password": "a good password"},
                                  source="127.0.0.10")
    t.check("the 429 says why", b"an hour" in body, body)
    t.check("another address may still register",
            srv.request("POST", "/api/register", {"name": "r10", "password": "a good password"},
                        source="127.0.0.11")[0] == 201)

    # Passwords are counted in characters, not bytes.
    emoji3 = "\U0001F600" * 3
    emoji200 = "\U0001F600" * 200
    t.check("3 emoji are too short a password",
            srv.request("POST", "/api/register", {"name": "e1", "password": emoji3}, source="127.0.0.12")[0] == 400)
    t.check("200 emoji are a valid password (200 characters, 800 bytes)",
            srv.request("POST", "/api/register", {"name": "e2", "password": emoji200}, source="127.0.0.12")[0] == 201)
    t.check("257 letters are too long",
            srv.request("POST", "/api/register", {"name": "e3", "password": "x" * 257}, source="127.0.0.12")[0] == 400)

    # A login for a missing name takes as long as one for an existing name.
    def login_ms(name, source):
        start = time.monotonic()
        status = srv.request("POST", "/api/login", {"name": name, "password": "not the password"}, source=source)[0]
        return (time.monotonic() - start) * 1000, status

    existing = [login_ms("alice", "127.0.0.13") for _ in range(4)]
    missing = [login_ms("nobody%d" % i, "127.0.0.13") for i in range(4)]
    e = statistics.median(ms for ms, _ in existing)
    m = statistics.median(ms for ms, _ in missing)
    t.check("wrong logins are 401", all(s == 401 for _, s in existing + missing), existing + missing)
    t.check("a missing name costs the time of an existing one (%.0f ms vs %.0f ms)" % (m, e), 0.6 < m / e < 1.6)

    # The flood: 128 registrations and 128 logins at once, in waves, from
    # 256 addresses, while an honest client reads its session.
    stop = threading.Event()
    codes = {}
    lock = threading.Lock()
    peak = [0.0]

    def flood(wave):
        def one(i):
            if i < 128:
                r = srv.request("POST", "/api/register", {"name": "f%d_%d" % (wave, i), "password": "flood password"},
                                source=address(i, 10 + 2 * wave), timeout=30)[0]
            else:
                r = srv.request("POST", "/api/login", {"name": "ghost%d" % i, "password": "flood password"},
                                source=address(i, 10 + 2 * wave), timeout=30)[0]
            with lock:
                codes[r] = codes.get(r, 0) + 1
            return r
        return together(256, one)

    def attacker():
        wave = 0
        while not stop.is_set() and wave < 20:
            flood(wave)
            wave += 1

    def watch_memory():
        while not stop.is_set():
            peak[0] = max(peak[0], srv.rss_mib())
            time.sleep(0.05)

    threads = [threading.Thread(target=attacker), threading.Thread(target=watch_memory)]
    for th in threads:
        th.start()
    time.sleep(0.5)
    honest = []
    for _ in range(100):
        start = time.monotonic()
        status = srv.request("GET", "/api/session", source="127.0.0.3")[0]
        honest.append(((time.monotonic() - start) * 1000, status))
        time.sleep(0.03)
    stop.set()
    for th in threads:
        th.join(timeout=120)
    p99 = percentile([ms for ms, _ in honest], 99)
    t.check("the honest client is always answered 200", all(s == 200 for _, s in honest), honest)
    t.check("the honest client's p99 under 300 ms during the flood (%.1f ms)" % p99, p99 < 300)
    t.check("the server's memory stays under 600 MiB (peak %.0f MiB)" % peak[0], peak[0] < 600)
    t.check("the flood was refused in part with 503 (hashing queue full): %s" % codes, codes.get(503, 0) > 0, codes)
    t.check("the flood was served in part: %s" % codes, codes.get(201, 0) + codes.get(401, 0) > 0, codes)
    print("auth: flood %s; honest p99 %.1f ms, median %.1f ms; peak memory %.0f MiB"
          % (codes, p99, statistics.median(ms for ms, _ in honest), peak[0]))
finally:
    srv.close()
t.done()
