# SPDX-License-Identifier: GPL-3.0-or-later
#
# The players of tests/tournament-test.sh: an arena and a round-robin
# played through the HTTP API, the standings counted here by hand and
# compared with the server's.  Arguments: the server's base URL and the
# length of its arena minute in ms.
import http.cookiejar
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request

BASE = sys.argv[1]
MINUTE_MS = int(sys.argv[2])
failures = []
passed = 0


def check(what, ok, detail=""):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(f"{what}: {detail}")
        print(f"FAIL: {what}: {detail}", flush=True)


class Player:
    def __init__(self, name):
        self.name = name
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(BASE + path, data=data, method=method, headers={"Origin": BASE})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


def register(name):
    p = Player(name)
    status, body = p.call("POST", "/api/register", {"name": name, "password": "tournament-pass"})
    assert status == 201, (status, body)
    return p


def arena_points(sheet):
    """lichess's arena count, written again here: 2 a win, 1 a draw, 0 a
    loss; after two wins in a row every game counts double until one
    that is not a win."""
    points, wins = 0, 0
    for letter in sheet:
        double = 2 if wins >= 2 else 1
        if letter == "W":
            points, wins = points + 2 * double, wins + 1
        elif letter == "D":
            points, wins = points + double, 0
        else:
            wins = 0
    return points, wins


suffix = "%04d" % random.randrange(10000)
players = {f"p{i}": register(f"p{i}x{suffix}") for i in range(1, 7)}
by_name = {p.name: key for key, p in players.items()}
p1 = players["p1"]
visitor = Player("visitor")

# ---- Refusals ---------------------------------------------------------------
arena_body = {"kind": "arena", "name": "Friday arena", "variant": "chess", "clock": {"minutes": 5, "increment": 0},
              "minutes": 1, "starts_in": 2}
status, _ = visitor.call("POST", "/api/tournaments", arena_body)
check("a visitor creates no tournament", status == 401, status)
for bad, why in [({**arena_body, "kind": "swiss"}, "kind"), ({**arena_body, "minutes": 0}, "minutes"),
                 ({**arena_body, "minutes": 721}, "minutes"), ({**arena_body, "name": ""}, "name"),
                 ({**arena_body, "name": "x" * 61}, "name"), ({**arena_body, "variant": "nope"}, "variant"),
                 ({**arena_body, "starts_in": 31 * 86400}, "starts"),
                 ({k: v for k, v in arena_body.items() if k != "clock"}, "clock")]:
    status, body = p1.call("POST", "/api/tournaments", bad)
    check(f"a bad {why} is refused", status == 400 and why in body["error"], (status, body))

# ---- The arena ----------------------------------------------------------------
status, created = p1.call("POST", "/api/tournaments", arena_body)
check("p1 creates an arena", status == 201 and created["url"] == f"/tournaments/{created['id']}", (status, created))
tid = created["id"]
path = f"/api/tournaments/{tid}"
for key in ["p2", "p3", "p4", "p5", "p6"]:
    status, body = players[key].call("POST", path + "/join")
    check(f"{key} joins", status == 200 and body["status"] == "joined", (status, body))
status, body = players["p2"].call("POST", path + "/join")
check("joining twice", status == 409, status)
status, body = players["p6"].call("POST", path + "/withdraw")
check("p6 withdraws", status == 200 and body["status"] == "withdrawn", (status, body))
status, body = players["p6"].call("POST", path + "/join")
check("p6 joins again", status == 200, status)
status, lists = visitor.call("GET", "/api/tournaments")
check("the list shows it upcoming", any(t["id"] == tid and t["players"] == 6 for t in lists["upcoming"]), lists)

# The live stream, read by a thread for the test's length.
stream_lines = []


def read_stream():
    try:
        with urllib.request.urlopen(BASE + path + "/events", timeout=120) as r:
            for raw in r:
                stream_lines.append(raw.decode())
    except Exception:
        pass


threading.Thread(target=read_stream, daemon=True).start()


def state():
    status, body = visitor.call("GET", path)
    assert status == 200, (status, body)
    return body


def side_of(game, key):
    return "white" if game["white"] == players[key].name else "black"


others = [0]   # games ended that p1 did not play
plies = {}     # the games in which White has moved: their ply


def act(key, game, action):
    return players[key].call("POST", f"/api/games/{game['id']}/actions",
                             {"action": action, "ply": plies.get(game["id"], 0)})


def finish(game, sheets, index):
    """Ends a game by the test's rule and writes each side's letter: p1
    wins every game it plays; of the others, the first and every third
    is an agreed draw, the rest won by Black."""
    white, black = by_name[game["white"]], by_name[game["black"]]
    if "p1" not in (white, black):
        others[0] += 1
    if "p1" in (white, black):
        loser = black if white == "p1" else white
        status, _ = act(loser, game, "resign")
        won = "p1"
    elif others[0] % 3 == 1:
        s1, _ = act(white, game, "offer-draw")
        status, _ = act(black, game, "accept-draw")
        status = status if s1 == 200 else s1
        won = None
    else:
        status, _ = act(white, game, "resign")
        won = black
    check(f"game {index} ends", status == 200, status)
    for key in (white, black):
        sheets[key] += "D" if won is None else "W" if won == key else "L"


time.sleep(2.5)
s = state()
check("the arena runs at its start", s["status"] == "running", s["status"])
sheets = {key: "" for key in players}
finished = 0
deadline = time.time() + 60
while time.time() < deadline:
    s = state()
    active = [g for g in s["games"] if g["status"] == "active"]
    if finished + len(active) >= 20 or s["status"] != "running":
        break
    if not active:
        time.sleep(0.1)
        continue
    oldest = active[-1]
    finish(oldest, sheets, finished)
    finished += 1
    time.sleep(0.35)
check("20 games are played or in play", finished + len(active) >= 20, (finished, len(active)))

# No immediate rematch: each player's consecutive games have two opponents.
games = list(reversed(state()["games"]))
for key, p in players.items():
    opponents = [g["black"] if g["white"] == p.name else g["white"] for g in games if p.name in (g["white"], g["black"])]
    check(f"{key} never meets the same player twice in a row", all(a != b for a, b in zip(opponents, opponents[1:])),
          opponents)

# The games in play wait for the end, started: a game whose first move
# does not come within half an arena minute ends as White's loss on time.
time.sleep(0.5)
for g in state()["games"]:
    if g["status"] == "active":
        status, _ = act(by_name[g["white"]], g, "e4")
        check("White starts a game left for the end", status == 200, status)
        plies[g["id"]] = 1

# The end: no game is paired after it, and the games in play count when
# they end.
while state()["status"] == "running" and time.time() < deadline + 60:
    time.sleep(0.2)
s = state()
check("the arena finishes at its time", s["status"] == "finished", s["status"])
in_play = [g for g in s["games"] if g["status"] == "active"]
count_at_end = len(s["games"])
for g in in_play:
    finish(g, sheets, finished)
    finished += 1
time.sleep(0.5)
s = state()
check("no game is paired after the end", len(s["games"]) == count_at_end, (len(s["games"]), count_at_end))
check("every game of the arena is over", all(g["status"] == "over" for g in s["games"]), s["games"])
check("at least 20 games", finished >= 20 and len(s["games"]) == finished, (finished, len(s["games"])))

# The standings, by hand.
expected = {}
for key, sheet in sheets.items():
    points, streak = arena_points(sheet)
    expected[players[key].name] = (points, streak, sheet)
got = {e["name"]: (e["score"], e["streak"], e["sheet"]) for e in s["standings"]}
check("the standings are the hand count", got == expected, f"\n got {got}\n expected {expected}")
scores = [e["score"] for e in s["standings"]]
check("the standings are ranked by score", scores == sorted(scores, reverse=True), scores)
check("p1 is first, on fire", s["standings"][0]["name"] == p1.name and s["standings"][0]["fire"], s["standings"][0])
check("a draw was played", any("D" in sheet for sheet in sheets.values()), sheets)
check("a streak was doubled", any(points != sum(2 if c == "W" else 1 if c == "D" else 0 for c in sheet)
                                   for points, _, sheet in expected.values()), expected)
print(f"arena: {finished} games; standings {[(e['name'], e['score'], e['sheet']) for e in s['standings']]}")

time.sleep(0.5)
events = [json.loads(line[6:]) for line in stream_lines if line.startswith("data: ")]
check("the stream sent the standings", events and events[-1]["standings"] == s["standings"],
      events[-1]["standings"] if events else "no event")

# ---- A game never started ---------------------------------------------------------
# Two players paired in an arena, neither moves: half an arena minute
# after the pairing White has lost on time, and the two are not paired
# again with each other.
q1, q2 = register(f"q1x{suffix}"), register(f"q2x{suffix}")
status, created = q1.call("POST", "/api/tournaments", {**arena_body, "name": "Idle", "starts_in": 0})
qpath = f"/api/tournaments/{created['id']}"
q2.call("POST", qpath + "/join")
started = time.time()
while time.time() < started + 10 and not visitor.call("GET", qpath)[1]["games"]:
    time.sleep(0.1)
paired = time.time()
time.sleep(MINUTE_MS / 2000 + 1.5)
q = visitor.call("GET", qpath)[1]
check("an idle game is paired", len(q["games"]) == 1, q["games"])
check("the idle game is lost by White on time", q["games"] and q["games"][0]["status"] == "over" and
      q["games"][0]["result"] == "0-1", q["games"])
st, game = visitor.call("GET", f"/api/games/{q['games'][0]['id']}") if q["games"] else (0, {})
check("... with the reason time", "time" in (game.get("reason") or ""), game.get("reason"))
points = {e["name"]: e["score"] for e in q["standings"]}
black_name = q["games"][0]["black"] if q["games"] else None
check("the idle game's Black scores 2", black_name and points.get(black_name) == 2, points)

# ---- A round-robin by correspondence ------------------------------------------
robin_body = {"kind": "round-robin", "name": "Club round-robin", "variant": "chess", "days_per_move": 3,
              "players": [players["p2"].name, players["p3"].name], "starts_in": 1}
status, body = players["p4"].call("POST", "/api/tournaments", {**robin_body, "clock": {"minutes": 5}})
check("a round-robin has no live clock", status == 400, status)
status, body = players["p4"].call("POST", "/api/tournaments", {**robin_body, "players": ["p%d" % i for i in range(10)]})
check("a round-robin has 10 players at most", status == 400 and "1 to 9" in body["error"], (status, body))
status, body = players["p4"].call("POST", "/api/tournaments", {**robin_body, "players": ["no-such-player"]})
check("a round-robin's players exist", status == 400, status)
status, created = players["p4"].call("POST", "/api/tournaments", robin_body)
check("p4 creates a round-robin", status == 201, (status, created))
rpath = f"/api/tournaments/{created['id']}"
status, _ = players["p5"].call("POST", rpath + "/join")
check("an uninvited player cannot join", status == 409, status)
for key in ["p2", "p3"]:
    status, _ = players[key].call("POST", rpath + "/join")
    check(f"{key} accepts", status == 200, status)
time.sleep(1.6)
status, r = visitor.call("GET", rpath)
check("the round-robin has started with 6 games", r["status"] == "running" and len(r["games"]) == 6, r)
pairs = {(g["white"], g["black"]) for g in r["games"]}
check("every pair plays once with each colour", len(pairs) == 6, pairs)
status, _ = players["p2"].call("POST", rpath + "/withdraw")
check("no leaving a round-robin once started", status == 409, status)
# p4 wins both games against p2, draws both with p3; p3 and p2 win one each.
name = {k: players[k].name for k in players}
for g in r["games"]:
    w, b = by_name[g["white"]], by_name[g["black"]]
    if {w, b} == {"p4", "p2"}:
        loser = "p2"
        players[loser].call("POST", f"/api/games/{g['id']}/actions", {"action": "resign", "ply": 0})
    elif {w, b} == {"p4", "p3"}:
        players[w].call("POST", f"/api/games/{g['id']}/actions", {"action": "offer-draw", "ply": 0})
        players[b].call("POST", f"/api/games/{g['id']}/actions", {"action": "accept-draw", "ply": 0})
    else:
        players[w].call("POST", f"/api/games/{g['id']}/actions", {"action": "resign", "ply": 0})
status, r = visitor.call("GET", rpath)
table = [(e["name"], e["score"], e["sb"]) for e in r["standings"]]
# By hand: p4 3 points (SB 2 x p2's 1 + 2 x 1/2 x p3's 2 = 4), p3 2 (SB 2 x
# 1/2 x 3 + 1 = 4), p2 1 (SB p3's 2 = 2).
check("the round-robin's standings and Sonneborn-Berger", table == [(name["p4"], 3, 4), (name["p3"], 2, 4),
                                                                      (name["p2"], 1, 2)], table)
check("the round-robin ends with its last game", r["status"] == "finished", r["status"])

# ---- The limit of open tournaments ----------------------------------------------
codes = [players["p5"].call("POST", "/api/tournaments", {**arena_body, "starts_in": 3600})[0] for _ in range(4)]
check("a player may have 3 open tournaments", codes == [201, 201, 201, 429], codes)

print(f"tournament-test: {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
