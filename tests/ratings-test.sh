#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tests of the ratings (docs/api.md, "Ratings") against a server on a
# fresh database (TTCHESS_DB: a postgresql:// URL runs them on PostgreSQL,
# with a second server on the same database): rated games played to the
# end by resignation, agreed draw and time move both players' Glicko-2
# ratings by the amounts a few independent lines of Python compute; a
# casual game, an engine game ("rated": true refused with 422) and a rated
# game abandoned before 2 actions change nothing; each rating's history;
# the leaderboard (only players no longer provisional, best first, ?max=);
# 50 resignations sent at once to one rated game (half to each server on
# PostgreSQL) count it once; a player unknown is 404.
#
# Usage: TTCHESS=path/to/ttchess tests/ratings-test.sh   (default build/ttchess)

set -u
TTCHESS=${TTCHESS:-build/ttchess}
tmp=$(mktemp -d)
. "$(dirname "$0")/serve-lib.sh"
second_pid=
trap 'stop_server; [ -n "$second_pid" ] && kill "$second_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/static"
printf '<!doctype html><title>ttchess</title>\n' >"$tmp/static/index.html"
start_server "$tmp/static"
SECOND=$B
# On PostgreSQL, a second server on the same database takes half of the
# racing resignations.
case "${TTCHESS_DB:-}" in
postgres*)
    for try in 1 2 3 4 5 6; do
        port2=$((20000 + RANDOM % 20000))
        "$TTCHESS" serve --port "$port2" --db "$TTCHESS_DB" --static "$tmp/static" --registrations-per-hour 100000 \
            >"$tmp/serve2.log" 2>&1 &
        second_pid=$!
        for i in $(seq 50); do grep -q "ttchess serve: http" "$tmp/serve2.log" && break; sleep 0.1; done
        if grep -q "ttchess serve: http" "$tmp/serve2.log"; then SECOND=http://127.0.0.1:$port2; break; fi
        kill "$second_pid" 2>/dev/null; wait "$second_pid" 2>/dev/null; second_pid=
    done ;;
esac

B=$B SECOND=$SECOND python3 - <<'PY'
import http.cookiejar, json, math, os, sys, threading, time, urllib.error, urllib.request

B, SECOND = os.environ["B"], os.environ["SECOND"]
passed = failed = 0

def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what} {detail}")

class Player:
    def __init__(self, name):
        self.name = name
        self.jar = http.cookiejar.CookieJar()
        self.open = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar)).open
        code, body = self.call("POST", "/api/register", {"name": name, "password": "password-" + name})
        assert code == 201, (code, body)

    def call(self, method, path, body=None, base=None):
        base = base or B
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Origin": base, "Content-Type": "application/json"})
        try:
            with self.open(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

def get(path):
    try:
        with urllib.request.urlopen(B + path, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")

# ---- Glicko-2, a few independent lines (Glickman's paper, tau 0.5) ----------
S = 173.7178
def glicko2(r, rd, vol, opp_r, opp_rd, score, tau=0.5):
    mu, phi, mu_j, phi_j = (r - 1500) / S, rd / S, (opp_r - 1500) / S, opp_rd / S
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (score - e)
    a = math.log(vol ** 2)
    f = lambda x: math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x)) / (2 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2
    A = a
    if delta ** 2 > phi ** 2 + v:
        Bv = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        Bv = a - k * tau
    fA, fB = f(A), f(Bv)
    while abs(Bv - A) > 1e-6:
        C = A + (A - Bv) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = Bv, fB
        else:
            fA /= 2
        Bv, fB = C, fC
    vol2 = math.exp(A / 2)
    phi_star = math.sqrt(phi ** 2 + vol2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    return S * (mu + phi2 ** 2 * g * (score - e)) + 1500, S * phi2, vol2

# What the test expects of each player: (variant, speed) -> [rating, rd, vol, games].
expected = {}
def rating_of(p, speed="correspondence"):
    return expected.setdefault((p.name, speed), [1500.0, 350.0, 0.06, 0])

def expect_result(white, black, score, speed="correspondence"):
    w, b = rating_of(white, speed), rating_of(black, speed)
    nw, nb = glicko2(*w[:3], b[0], b[1], score), glicko2(*b[:3], w[0], w[1], 1 - score)
    w[:3], b[:3] = nw, nb
    w[3] += 1
    b[3] += 1

def api_ratings(p):
    code, body = get(f"/api/users/{p.name}")
    assert code == 200, (code, body)
    return body["ratings"]

def check_ratings(what, *players):
    for p in players:
        got = api_ratings(p).get("chess", {})
        for (name, speed), (r, rd, vol, games) in expected.items():
            if name != p.name:
                continue
            want = {"rating": round(r), "rd": round(rd), "games": games, "provisional": rd > 110}
            check(f"{what}: {name}'s {speed} rating", got.get(speed) == want, f"got {got.get(speed)}, want {want}")
        speeds = {s for (n, s) in expected if n == p.name}
        check(f"{what}: {p.name} has ratings only where played", set(got) == speeds, f"got {sorted(got)}")

def new_game(white, black, rated=None, clock=None, creator=None):
    """A game between two players, white moving first, accepted."""
    body = {"variant": "chess", "opponent": black.name, "color": "white"}
    if rated is not None:
        body["rated"] = rated
    if clock:
        body["clock"] = clock
    code, made = white.call("POST", "/api/games", body)
    assert code == 201, (code, made)
    code, _ = black.call("POST", f"/api/games/{made['id']}/accept")
    assert code == 200, code
    return made["id"]

def act(p, game, action, ply, base=None):
    return p.call("POST", f"/api/games/{game}/actions", {"action": action, "ply": ply}, base)

def two_moves(white, black, game):
    assert act(white, game, "e4", 0)[0] == 200
    assert act(black, game, "e5", 1)[0] == 200

alice, bob, carol, dave, erin = (Player(n) for n in ("alice", "bob", "carol", "dave", "erin"))

# ---- A rated game by resignation; the state says "rated" -------------------------
g = new_game(alice, bob)
code, st = get(f"/api/games/{g}")
check("a game between two players is rated by default", st.get("rated") is True, st.get("rated"))
two_moves(alice, bob, g)
code, st = act(bob, g, "resign", 2)
check("bob resigns", code == 200 and st["status"] == "over", (code, st))
expect_result(alice, bob, 1)
check_ratings("after a resignation", alice, bob)
check("a new player's rating is provisional", api_ratings(bob)["chess"]["correspondence"]["provisional"] is True)

# ---- An agreed draw -----------------------------------------------------------------
g = new_game(bob, alice, rated=True)
two_moves(bob, alice, g)
check("a draw offered", act(bob, g, "offer-draw", 2)[0] == 200)
check("the draw accepted", act(alice, g, "accept-draw", 2)[0] == 200)
expect_result(bob, alice, 0.5)
check_ratings("after an agreed draw", alice, bob)

# ---- On time, live: a rating of its own speed --------------------------------------
g = new_game(alice, carol, clock={"minutes": 1 / 60})
two_moves(alice, carol, g)
for _ in range(100):
    code, st = get(f"/api/games/{g}")
    if st["status"] == "over":
        break
    time.sleep(0.1)
check("the live game ends on time", st["status"] == "over" and "time" in (st.get("reason") or ""), st.get("reason"))
# White (alice) is to move after two actions, and runs out of time.
expect_result(alice, carol, 0, "live")
check_ratings("after a flag", alice, carol)

# ---- What changes nothing ---------------------------------------------------------------
before = {p.name: api_ratings(p) for p in (alice, bob, carol)}
g = new_game(alice, bob, rated=False)
code, st = get(f"/api/games/{g}")
check("a casual game says so", st.get("rated") is False)
two_moves(alice, bob, g)
act(alice, g, "resign", 2)
code, body = alice.call("POST", "/api/games", {"variant": "chess", "level": 1, "rated": True})
check("an engine game cannot be rated", code == 422 and "engine" in body.get("error", ""), (code, body))
code, body = alice.call("POST", "/api/games", {"variant": "chess", "level": 1, "color": "white"})
code2, st = get(f"/api/games/{body['id']}")
check("an engine game is casual", code == 201 and st.get("rated") is False, (code, st.get("rated")))
act(alice, body["id"], "e4", 0)
for _ in range(100):
    if get(f"/api/games/{body['id']}")[1]["ply"] >= 2:
        break
    time.sleep(0.05)
act(alice, body["id"], "resign", 2)
code, body = alice.call("POST", "/api/games", {"variant": "chess", "opponent": "bob", "rated": "yes"})
check("rated is a boolean", code == 400, code)
g = new_game(alice, bob)
act(alice, g, "e4", 0)
code, st = act(alice, g, "resign", 1)
check("a rated game resigned after one action ends", code == 200 and st["status"] == "over")
g = new_game(bob, carol, clock={"minutes": 1 / 60})
act(bob, g, "e4", 0)
for _ in range(100):
    if get(f"/api/games/{g}")[1]["status"] == "over":
        break
    time.sleep(0.1)
check("a live game abandoned after one action ends on time", get(f"/api/games/{g}")[1]["status"] == "over")
after = {p.name: api_ratings(p) for p in (alice, bob, carol)}
check("casual, engine and abandoned games change no rating", before == after, f"{before} -> {after}")

# ---- History ------------------------------------------------------------------------------
code, body = get("/api/users/ALICE/rating-history?variant=chess&speed=correspondence")
hist = body["history"]
check("alice's history: two games", code == 200 and len(hist) == 2 and
      hist[-1]["rating"] == round(rating_of(alice)[0]) and set(hist[0]) == {"game", "at", "rating", "rd"}, (code, hist))
code, body = get("/api/users/alice/rating-history?variant=chess&speed=blitz")
check("a bad speed", code == 400 and "correspondence" in body["error"], (code, body))
code, body = get("/api/users/alice/rating-history?variant=nope&speed=live")
check("a bad variant", code == 400 and "chess" in body["error"], (code, body))
code, body = get("/api/users/nobody-here")
check("an unknown player", code == 404, code)
code, body = get("/api/users/Alice")
check("a player's name as registered", code == 200 and body["name"] == "alice" and "created" in body, body)

# ---- 50 resignations at once count once ----------------------------------------------------
g = new_game(dave, erin)
two_moves(dave, erin, g)
codes = []
def resign(i):
    who = dave if i % 2 else erin
    codes.append(act(who, g, "resign", 2, B if i % 4 < 2 else SECOND)[0])
threads = [threading.Thread(target=resign, args=(i,)) for i in range(50)]
for t in threads:
    t.start()
for t in threads:
    t.join()
st = get(f"/api/games/{g}")[1]
check("one of 50 resignations ends the game", codes.count(200) == 1 and st["status"] == "over",
      f"{sorted(set(codes))} {codes.count(200)}")
expect_result(dave, erin, 0 if st["result"].startswith("0-1") else 1)
check_ratings("after 50 resignations at once", dave, erin)
hist = get("/api/users/dave/rating-history?variant=chess&speed=correspondence")[1]["history"]
check("the race wrote one line of history", len(hist) == 1, hist)

# ---- The leaderboard: three players play until no longer provisional -----------------------
frank, gina, hugo = (Player(n) for n in ("frank", "gina", "hugo"))
plan = [(frank, gina, 1), (frank, gina, 0.5), (gina, hugo, 1), (gina, hugo, 0.5), (frank, hugo, 0.5), (hugo, frank, 0.5)]
for rnd in range(4):
    for w, b, score in plan:
        g = new_game(w, b)
        two_moves(w, b, g)
        if score == 1:
            act(b, g, "resign", 2)
        else:
            act(w, g, "offer-draw", 2)
            act(b, g, "accept-draw", 2)
        expect_result(w, b, score)
check_ratings("after 24 games", frank, gina, hugo)
code, board = get("/api/leaderboard/chess/correspondence")
names = [p["name"] for p in board["players"]]
want = sorted((n for (n, s), v in expected.items() if s == "correspondence" and v[1] <= 110),
              key=lambda n: -expected[(n, "correspondence")][0])
check("the leaderboard: players not provisional, best first", code == 200 and names == want and len(want) == 3,
      f"{names} want {want}")
check("the leaderboard's lines", set(board["players"][0]) == {"name", "rating", "rd", "games"}, board["players"][:1])
code, board = get("/api/leaderboard/chess/correspondence?max=2")
check("?max=2", [p["name"] for p in board["players"]] == want[:2], board)
code, body = get("/api/leaderboard/chess/correspondence?max=201")
check("?max= over 200", code == 400 and "200" in body["error"], (code, body))
code, body = get("/api/leaderboard/chess/live")
check("nobody yet on the live leaderboard", code == 200 and body["players"] == [], body)

print(f"ratings-test: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
