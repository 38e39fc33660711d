# SPDX-License-Identifier: GPL-3.0-or-later
"""Creation is validated (issue 24, item 8): a start position where the
game is already over is 422 with the reason; clocks, increments and days
per move within their ranges, anything else 400 with the range."""

from serverlib import Server, Tally

t = Tally("creation")
srv = Server()
try:
    alice = srv.register("alice")

    def create(body):
        body = dict(body)
        body.setdefault("variant", "chess")
        body.setdefault("color", "white")
        return srv.json("POST", "/api/games", body, cookie=alice)

    mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    st, j = create({"fen": mate})
    t.check("a mate at the start is 422 with the reason", st == 422 and
            j["error"] == "the game is already over in this position: checkmate", (st, j))
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    st, j = create({"fen": stalemate})
    t.check("a stalemate at the start is 422", st == 422 and "already over" in j["error"] and "stalemate" in j["error"],
            (st, j))
    st, j = create({"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"})
    t.check("a playable position is accepted", st == 201, (st, j))

    for clock, ok in [({"minutes": 1e-300}, False), ({"minutes": 0}, False), ({"minutes": -1}, False),
                      ({"minutes": 180}, True), ({"minutes": 180.01}, False), ({"minutes": 1 / 60.0}, True),
                      ({"minutes": 0.5 / 60}, False), ({"minutes": 5, "increment": 180}, True),
                      ({"minutes": 5, "increment": 181}, False), ({"minutes": 5, "increment": -1}, False),
                      ({"minutes": "5"}, False), ({"minutes": 1e308}, False)]:
        st, j = create({"clock": clock})
        t.check("clock %s %s" % (clock, "accepted" if ok else "refused with the range"),
                st == 201 if ok else (st == 400 and "at most 180" in j["error"]), (st, j))
    for days, ok in [(0, False), (1, True), (30, True), (31, False), (1.5, False), (-3, False)]:
        st, j = create({"days_per_move": days})
        t.check("days per move %s %s" % (days, "accepted" if ok else "refused"),
                st == 201 if ok else (st == 400 and "1 to 30" in j["error"]), (st, j))
    st, j = create({"clock": {"minutes": 1e-300}})
    st, j2 = srv.json("GET", "/api/games", cookie=alice)
    t.check("no game without a clock was made", all(g["kind"] in ("live", "correspondence") for g in j2["games"]))
finally:
    srv.close()
t.done()
