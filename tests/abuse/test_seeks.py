# SPDX-License-Identifier: GPL-3.0-or-later
"""Open challenges (seeks) under races (issue 27): a player's seeks are
counted in the transaction that writes one, so that 50 posted at the same
moment make exactly 3 (the limit); and one seek accepted by many players at
the same moment starts one game, with one of them seated."""

from serverlib import Server, Tally, address, together

t = Tally("seeks")
srv = Server()
try:
    alice = srv.register("alice")
    takers = [srv.register("taker%d" % i, source="127.0.0.%d" % (40 + i // 5)) for i in range(10)]

    res = together(50, lambda i: srv.request("POST", "/api/seeks", {"variant": "gifford", "days_per_move": 2},
                                             cookie=alice, source=address(i))[0])
    t.check("50 parallel seeks: 3 made (got %d)" % res.count(201), res.count(201) == 3, sorted(set(map(str, res))))
    t.check("the others 429", res.count(429) == 47, sorted(set(map(str, res))))
    st, j = srv.json("GET", "/api/lobby")
    mine = [s for s in j["seeks"] if s["from"] == "alice"]
    t.check("the lobby lists alice's 3 seeks", len(mine) == 3, j)

    seek = mine[0]["id"]
    res = together(50, lambda i: srv.request("POST", "/api/seeks/%s/accept" % seek, {}, cookie=takers[i % 10],
                                             source=address(i))[0])
    t.check("50 parallel accepts of one seek: one taken (got %d)" % res.count(200), res.count(200) == 1,
            sorted(set(map(str, res))))
    t.check("the others 409", res.count(409) == 49, sorted(set(map(str, res))))
    st, j = srv.json("GET", "/api/games/%s" % seek)
    seated = [j["white"], j["black"]]
    t.check("the game is active with alice and one taker", j["status"] == "active" and
            sum(1 for s in seated if s and s["name"].startswith("taker")) == 1, j.get("status"))
finally:
    srv.close()
t.done()
