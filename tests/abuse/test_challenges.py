# SPDX-License-Identifier: GPL-3.0-or-later
"""Challenges, not seats (issue 24, item 5): naming a player makes a
challenge they accept or decline; until accepted it cannot be played and
does not count toward their limits; a challenger has at most 20 open; a
player may block a name.  Engine games and link invitations work as before."""

from serverlib import Server, Tally

t = Tally("challenges")
srv = Server()
try:
    victim = srv.register("victim", source="127.0.0.20")
    attackers = [srv.register("att%d" % i, source="127.0.0.%d" % (21 + i // 5)) for i in range(5)]
    friend = srv.register("friend", source="127.0.0.30")

    # 5 players send 20 challenges each: 100 games name the victim.
    for a in attackers:
        for i in range(20):
            st, j = srv.json("POST", "/api/games", {"variant": "chess", "opponent": "victim"}, cookie=a)
            if st != 201:
                break
        t.check("20 challenges made", st == 201 and j.get("challenge") is True, (st, j))
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "opponent": "victim"}, cookie=attackers[0])
    t.check("a 21st open challenge is 429", st == 429 and "20" in j["error"], (st, j))
    st, j = srv.json("GET", "/api/games", cookie=victim)
    t.check("the victim sees 100 challenges received", len(j["challenges"]) == 100, len(j.get("challenges", [])))
    t.check("a challenge says who sends it, the variant and time",
            {"id", "variant", "from", "color", "time"} <= set(j["challenges"][0]), j["challenges"][0])
    t.check("challenges received are not the victim's games", len(j["games"]) == 0, j["games"])
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white"}, cookie=victim)
    t.check("the victim can still create a game", st == 201, (st, j))
    own = j["id"]

    # A challenge cannot be played before it is accepted.
    st, j = srv.json("GET", "/api/games", cookie=attackers[0])
    sent = [g["id"] for g in j["games"] if g["status"] == "challenge"]
    t.check("the challenger sees their challenges as such", len(sent) == 20, j["games"][:2])
    g1, g2, g3 = sent[0], sent[1], sent[2]
    st, j = srv.json("GET", "/api/games/%s" % g1)
    me = "white" if j["white"] and j["white"]["name"] == "att0" else "black"
    st, j = srv.json("POST", "/api/games/%s/actions" % g1, {"action": "e4", "ply": 0}, cookie=attackers[0])
    t.check("no action before the challenge is accepted", st in (403, 409), (st, j))
    st, j = srv.json("POST", "/api/games/%s/accept" % g1, cookie=friend)
    t.check("only the challenged player accepts", st == 403, (st, j))
    st, j = srv.json("POST", "/api/games/%s/accept" % g1, cookie=attackers[0])
    t.check("the challenger cannot accept their own challenge", st == 403, (st, j))
    st, j = srv.json("POST", "/api/games/%s/accept" % g1, cookie=victim)
    t.check("the victim accepts", st == 200, (st, j))
    st, j = srv.json("GET", "/api/games/%s" % g1, cookie=victim)
    t.check("an accepted challenge is active with the victim seated",
            j["status"] == "active" and j["you"] in ("white", "black"), j.get("status"))
    st, j = srv.json("POST", "/api/games/%s/accept" % g1, cookie=victim)
    t.check("accepting twice is 409", st == 409, (st, j))

    # Declined and withdrawn.
    st, j = srv.json("POST", "/api/games/%s/decline" % g2, cookie=victim)
    t.check("the victim declines", st == 200, (st, j))
    st, j = srv.json("GET", "/api/games/%s" % g2)
    t.check("a declined challenge says so", j["status"] == "declined" and "declined by victim" in (j.get("reason") or ""), j.get("reason"))
    st, j = srv.json("POST", "/api/games/%s/decline" % g3, cookie=attackers[0])
    t.check("the challenger withdraws", st == 200, (st, j))
    st, j = srv.json("GET", "/api/games/%s" % g3)
    t.check("a withdrawn challenge says so", "withdrawn by att0" in (j.get("reason") or ""), j.get("reason"))
    st, j = srv.json("POST", "/api/games/%s/accept" % g3, cookie=victim)
    t.check("a withdrawn challenge cannot be accepted", st == 409, (st, j))

    # The block list.
    st, j = srv.json("POST", "/api/blocks", {"name": "att1"}, cookie=victim)
    t.check("block a player", st == 201, (st, j))
    st, j = srv.json("GET", "/api/blocks", cookie=victim)
    t.check("the block list", j == {"blocked": ["att1"]}, j)
    st, j = srv.json("GET", "/api/games", cookie=attackers[1])
    for g in [g for g in j["games"] if g["status"] == "challenge"][:1]:
        srv.json("POST", "/api/games/%s/decline" % g["id"], cookie=attackers[1])
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "opponent": "victim"}, cookie=attackers[1])
    t.check("blocked: 403 'does not accept challenges from you'", st == 403 and "does not accept" in j["error"], (st, j))
    st, j = srv.json("DELETE", "/api/blocks/att1", cookie=victim)
    t.check("unblock", st == 200, (st, j))
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "opponent": "victim"}, cookie=attackers[1])
    t.check("after unblocking, challenges come again", st == 201, (st, j))
    st, j = srv.json("POST", "/api/blocks", {"name": "nobody-here"}, cookie=victim)
    t.check("blocking a missing name is 404", st == 404, (st, j))

    # Engine games and link invitations as before.
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "level": 1, "color": "white"}, cookie=friend)
    t.check("an engine game starts at once", st == 201 and not j.get("challenge"), (st, j))
    st, j = srv.json("GET", "/api/games/%s" % j["id"])
    t.check("... active", j["status"] == "active", j["status"])
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white"}, cookie=friend)
    invite = j["invite_url"].split("invite=")[1]
    st, j2 = srv.json("POST", "/api/games/%s/join" % j["id"], {"invite": invite}, cookie=victim)
    t.check("a link invitation is joined at once", st == 200, (st, j2))
finally:
    srv.close()
t.done()
