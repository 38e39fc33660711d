# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/tournament-multi-test.sh's players: two servers, A and B, on one
# PostgreSQL database.  Arguments: A's and B's base URLs.
import http.cookiejar
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request

A, B = sys.argv[1], sys.argv[2]
failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}: {detail}", flush=True)


class Player:
    def __init__(self, name):
        self.name = name
        # Cookies are kept per host, not per port: a session made on A is
        # sent to B as well, and B knows it (one database).
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, base, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method, headers={"Origin": base})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


suffix = "%04d" % random.randrange(10000)
one, two = Player(f"m1x{suffix}"), Player(f"m2x{suffix}")
for p, base in ((one, A), (two, B)):
    status, _ = p.call(base, "POST", "/api/register", {"name": p.name, "password": "tournament-pass"})
    check(f"{p.name} registers", status == 201, status)
status, created = one.call(A, "POST", "/api/tournaments",
                           {"kind": "arena", "name": "Two servers", "variant": "chess",
                            "clock": {"minutes": 5}, "minutes": 1, "starts_in": 1})
check("an arena is created on A", status == 201, (status, created))
path = f"/api/tournaments/{created['id']}"
status, _ = two.call(B, "POST", path + "/join")
check("m2 joins through B", status == 200, status)

lines = []


def read_stream():
    try:
        with urllib.request.urlopen(B + path + "/events", timeout=60) as r:
            for raw in r:
                lines.append((time.time(), raw.decode()))
    except Exception:
        pass


threading.Thread(target=read_stream, daemon=True).start()


def on(base):
    return json.loads(urllib.request.urlopen(base + path, timeout=10).read())


deadline = time.time() + 15
while time.time() < deadline and not on(A)["games"]:
    time.sleep(0.1)
game = on(A)["games"][0] if on(A)["games"] else None
check("the arena pairs its two players", game is not None, on(A))
loser = one if game and game["white"] == one.name else two
ended = time.time()
status, _ = loser.call(A, "POST", f"/api/games/{game['id']}/actions", {"action": "resign", "ply": 0})
check("the game ends through A", status == 200, status)
winner = two if loser is one else one
seen = None
while time.time() < ended + 3 and seen is None:
    standings = on(B)["standings"]
    if any(e["name"] == winner.name and e["score"] == 2 for e in standings):
        seen = time.time() - ended
    time.sleep(0.02)
check("B's standings show the game ended on A", seen is not None, on(B)["standings"])
streamed = None
while time.time() < ended + 3 and streamed is None:
    for at, line in list(lines):
        if line.startswith("data: "):
            d = json.loads(line[6:])
            if any(e["name"] == winner.name and e["score"] == 2 for e in d["standings"]):
                streamed = at - ended
                break
    time.sleep(0.02)
check("B's live stream sends it within a second", streamed is not None and streamed < 1.0, streamed)
print(f"tournament-multi-test: B's standings after {seen}, its stream after {streamed} s; {len(failures)} failed")
sys.exit(1 if failures else 0)
