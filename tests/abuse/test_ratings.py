# SPDX-License-Identifier: GPL-3.0-or-later
"""Ratings under races (issue 29): both players send 25 resignations each
at the same moment to one rated game, with 50 readers of the longest
leaderboard (?max=200) and of the players' ratings beside them; one
resignation ends the game and the ratings are counted once (one game each,
one line of history each), every other resignation is refused (409).
Meanwhile an honest player on another address reads its own game and is
answered quickly."""

import threading
import time

from serverlib import Server, Tally, address, percentile, together

t = Tally("ratings")
srv = Server()
try:
    alice = srv.register("alice")
    bob = srv.register("bob", source="127.0.0.2")
    carol = srv.register("carol", source="127.0.0.3")
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white", "opponent": "bob"}, cookie=alice)
    game = j["id"]
    st, _ = srv.json("POST", "/api/games/%s/accept" % game, cookie=bob, source="127.0.0.2")
    t.check("bob accepts the rated game", st == 200, st)
    for ply, (who, src, move) in enumerate([(alice, "127.0.0.1", "e4"), (bob, "127.0.0.2", "e5")]):
        st, _ = srv.json("POST", "/api/games/%s/actions" % game, {"action": move, "ply": ply}, cookie=who, source=src)
        t.check("move %d" % (ply + 1), st == 200, st)
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white"}, cookie=carol, source="127.0.0.3")
    honest_game = j["id"]

    stop = threading.Event()
    honest = []

    def watch():
        while not stop.is_set():
            start = time.monotonic()
            status = srv.request("GET", "/api/games/%s" % honest_game, cookie=carol, source="127.0.0.3")[0]
            honest.append(((time.monotonic() - start) * 1000, status))
            time.sleep(0.02)

    def press(i):
        if i % 4 == 0:
            return ("board",) + tuple(srv.json("GET", "/api/leaderboard/chess/correspondence?max=200",
                                               source=address(i, 10))[0:1])
        if i % 4 == 1:
            return ("user",) + tuple(srv.json("GET", "/api/users/alice", source=address(i, 10))[0:1])
        who = alice if i % 8 < 4 else bob
        return ("resign",) + tuple(srv.json("POST", "/api/games/%s/actions" % game, {"action": "resign", "ply": 2},
                                            cookie=who, source=address(i, 10))[0:1])

    watcher = threading.Thread(target=watch)
    watcher.start()
    res = together(100, press)
    stop.set()
    watcher.join()
    resigns = [r[1] for r in res if isinstance(r, tuple) and r[0] == "resign"]
    reads = [r[1] for r in res if isinstance(r, tuple) and r[0] != "resign"]
    t.check("50 resignations: one ends the game, the others 409", resigns.count(200) == 1 and
            all(c in (200, 409) for c in resigns) and len(resigns) == 50, sorted(set(resigns)))
    t.check("50 reads of the leaderboard and ratings answered 200", len(reads) == 50 and all(c == 200 for c in reads),
            sorted(set(reads)))
    for name in ("alice", "bob"):
        st, j = srv.json("GET", "/api/users/%s" % name)
        games = j["ratings"]["chess"]["correspondence"]["games"]
        t.check("%s's rating counted the game once" % name, st == 200 and games == 1, j)
        st, j = srv.json("GET", "/api/users/%s/rating-history?variant=chess&speed=correspondence" % name)
        t.check("%s's history has one line" % name, st == 200 and len(j["history"]) == 1, j)
    p99 = percentile([ms for ms, _ in honest], 99)
    t.check("the honest player is always answered 200", honest and all(s == 200 for _, s in honest), honest[:5])
    t.check("the honest player's p99 under 300 ms during the race (%.1f ms)" % p99, p99 < 300)
finally:
    srv.close()
t.done()
