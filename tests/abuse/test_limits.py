# SPDX-License-Identifier: GPL-3.0-or-later
"""Limits hold under races (issue 24, item 4): login failures, kibitz, game
creation and open challenges are counted in the same transaction (or under
one lock) as what they count, so that 60 or more requests sent at the same
moment never pass a limit, not even by one."""

from serverlib import Server, Tally, address, together

t = Tally("limits")
srv = Server()
try:
    alice = srv.register("alice")
    bob = srv.register("bob")
    srv.register("carol")

    # Logins: 60 wrong passwords for one account at once check at most 5.
    res = together(60, lambda i: srv.request("POST", "/api/login", {"name": "carol", "password": "wrong %d" % i},
                                             source=address(i))[0])
    checked = res.count(401)
    t.check("60 parallel wrong logins check exactly 5 passwords (got %d 401s; %s)" % (checked, sorted(set(map(str, res)))),
            checked == 5)
    t.check("the others are refused with 429", res.count(429) == 55, res)

    # Kibitz: 40 comments at once, 5 allowed in 30 s.
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white"}, cookie=alice)
    game = j["id"]
    res = together(40, lambda i: srv.request("POST", "/api/games/%s/kibitz" % game, {"text": "hi %d" % i},
                                             cookie=bob, source=address(i))[0])
    t.check("40 parallel kibitz posts: 5 accepted (got %d)" % res.count(201), res.count(201) == 5, res)
    st, j = srv.json("GET", "/api/games/%s/kibitz" % game)
    t.check("5 comments stored", len(j["kibitz"]) == 5, j)

    # Challenges: 60 at once from alice to bob, 20 may be open.
    res = together(60, lambda i: srv.request("POST", "/api/games", {"variant": "chess", "opponent": "bob"},
                                             cookie=alice, source=address(i))[0])
    t.check("60 parallel challenges: 20 made (got %d)" % res.count(201), res.count(201) == 20, res)
    t.check("the others 429", res.count(429) == 40, res)

    # Games: alice has 1 waiting game and 20 challenges; 160 creations at
    # once may make 79 more (100 unfinished games in all).
    res = together(160, lambda i: srv.request("POST", "/api/games", {"variant": "chess", "color": "white"},
                                              cookie=alice, source=address(i, 3))[0])
    t.check("160 parallel creations: 79 made, up to 100 unfinished (got %d)" % res.count(201),
            res.count(201) == 79, sorted(set(map(str, res))))
    st, j = srv.json("GET", "/api/games", cookie=alice)
    unfinished = [g for g in j["games"] if g["status"] in ("waiting", "active", "challenge")]
    t.check("alice has exactly 100 unfinished games", len(unfinished) == 100, len(unfinished))
finally:
    srv.close()
t.done()
