# SPDX-License-Identifier: GPL-3.0-or-later
"""A finished game's rematch under races (issue 27): both players press
Rematch 25 times each at the same moment; the finished game's row version
lets one offer through and the opponent's press accepts it, so exactly one
new game starts, with the colours swapped, and every other press is refused
(409).  Meanwhile an honest player on another address reads its own game
and is answered quickly."""

import threading
import time

from serverlib import Server, Tally, address, percentile, together

t = Tally("rematch")
srv = Server()
try:
    alice = srv.register("alice")
    bob = srv.register("bob", source="127.0.0.2")
    carol = srv.register("carol", source="127.0.0.3")
    st, j = srv.json("POST", "/api/games", {"variant": "gifford", "color": "white", "opponent": "bob"}, cookie=alice)
    game = j["id"]
    st, _ = srv.json("POST", "/api/games/%s/accept" % game, cookie=bob, source="127.0.0.2")
    t.check("bob accepts the game", st == 200, st)
    st, _ = srv.json("POST", "/api/games/%s/actions" % game, {"action": "resign", "ply": 0}, cookie=alice)
    t.check("alice resigns: the game is over", st == 200, st)
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

    watcher = threading.Thread(target=watch)
    watcher.start()
    res = together(50, lambda i: srv.json("POST", "/api/games/%s/rematch" % game,
                                          cookie=alice if i % 2 else bob, source=address(i, 10))[0:2])
    stop.set()
    watcher.join()
    codes = sorted(set(r[0] for r in res if isinstance(r, tuple)))
    made = [r[1]["id"] for r in res if isinstance(r, tuple) and r[0] in (200, 201)]
    t.check("50 parallel presses: one offer made (got %d 201)" % sum(1 for r in res if r[0:1] == (201,)),
            sum(1 for r in res if isinstance(r, tuple) and r[0] == 201) == 1, codes)
    t.check("every press that succeeded names the same new game", len(set(made)) == 1, made)
    t.check("the others are refused with 409", all(r[0] in (200, 201, 409) for r in res if isinstance(r, tuple))
            and all(isinstance(r, tuple) for r in res), codes)
    st, j = srv.json("GET", "/api/games/%s/rematch" % game)
    t.check("the finished game names one rematch", st == 200 and j["rematch"] and j["rematch"]["id"] == made[0], j)
    st, j = srv.json("GET", "/api/games/%s" % made[0])
    t.check("the rematch has the colours swapped", j["white"]["name"] == "bob" and j["black"]["name"] == "alice", j)
    p99 = percentile([ms for ms, _ in honest], 99)
    t.check("the honest player is always answered 200", honest and all(s == 200 for _, s in honest), honest[:5])
    t.check("the honest player's p99 under 300 ms during the presses (%.1f ms)" % p99, p99 < 300)
finally:
    srv.close()
t.done()
