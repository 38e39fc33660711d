# SPDX-License-Identifier: GPL-3.0-or-later
"""The PGN export under slow readers (issue 29): 50 clients, each on an
address of its own, ask for a player's 10,000 games as one PGN file and
read it a kilobyte every half second.  The export reads a page of games,
gives the database's connection back, and only then writes: so the 50
hold none of the pool's 8 SQLite connections while they dawdle, and an
honest player beside them reads players' pages and a game, answered
quickly; and a full download at the end has every game."""

import socket
import sqlite3
import threading
import time

from serverlib import Server, Tally, address, percentile, together

GAMES = 10000
t = Tally("export")
srv = Server()
try:
    srv.register("alice")
    srv.register("bob")
    carol = srv.register("carol", source="127.0.0.3")
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white"}, cookie=carol, source="127.0.0.3")
    honest_game = j["id"]
    # The games, written straight into the database (the API would take
    # minutes to play them): finished, 8 plies each.
    db = sqlite3.connect(srv.db, timeout=30)
    ids = dict(db.execute("SELECT name, id FROM users"))
    moves = [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3"), ("b8c6", "Nc6"),
             ("f1b5", "Bb5"), ("a7a6", "a6"), ("b5a4", "Ba4"), ("g8f6", "Nf6")]
    with db:
        for i in range(GAMES):
            gid = "x%015d" % i
            db.execute("INSERT INTO games(id, variant, white, black, creator, invited, base_ms, inc_ms, days_per_move,"
                       " engine_level, white_ms, black_ms, last_action_at, status, result, reason, draw_offer,"
                       " takeback_offer, kibitz, to_move, declared, created) VALUES (?, 'chess', ?, ?, ?, 0, 0, 0, 3,"
                       " 0, 0, 0, ?, 'over', '1-0', 'black resigns', 0, 0, 1, 0, '1-0 black resigns', ?)",
                       (gid, ids["alice"], ids["bob"], ids["alice"], 1_700_000_000_000 + i, 1_700_000_000_000 + i))
            db.executemany("INSERT INTO actions(game_id, ply, coord, human, at) VALUES (?, ?, ?, ?, 0)",
                           [(gid, p + 1, c, h) for p, (c, h) in enumerate(moves)])
    db.close()

    stop = threading.Event()
    honest = []

    def watch():
        paths = ["/api/users/alice/games?max=5", "/api/games/%s" % honest_game, "/api/users/bob/stats"]
        k = 0
        while not stop.is_set():
            start = time.monotonic()
            status = srv.request("GET", paths[k % 3], cookie=carol, source="127.0.0.3")[0]
            honest.append(((time.monotonic() - start) * 1000, status))
            k += 1
            time.sleep(0.02)

    def slow_reader(i):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(10)
        s.bind((address(i, 20), 0))
        s.connect(("127.0.0.1", srv.port))
        s.sendall(b"GET /api/users/alice/games.pgn HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        got = b""
        try:
            for _ in range(12):
                got += s.recv(1024)
                time.sleep(0.5)
        finally:
            s.close()
        return got

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.3)
    res = together(50, slow_reader)
    stop.set()
    watcher.join()
    ok = [r for r in res if isinstance(r, bytes) and r.startswith(b"HTTP/1.1 200") and b"[Event " in r]
    t.check("the 50 slow readers each got the start of the PGN (%d did)" % len(ok), len(ok) == 50,
            [r for r in res if not isinstance(r, bytes)][:3])
    p99 = percentile([ms for ms, _ in honest], 99)
    print("export: the honest player's median %.1f ms, p99 %.1f ms, max %.1f ms" % (
        percentile([ms for ms, _ in honest], 50), p99, max(ms for ms, _ in honest)), flush=True)
    t.check("the honest player is always answered 200 (%d requests)" % len(honest),
            len(honest) > 20 and all(s == 200 for _, s in honest), honest[:5])
    t.check("the honest player's p99 under 300 ms beside the slow readers (%.1f ms)" % p99, p99 < 300)
    start = time.monotonic()
    st, headers, body = srv.request("GET", "/api/users/alice/games.pgn", timeout=60)
    t.check("a full download afterwards has every game (%.1f s)" % (time.monotonic() - start),
            st == 200 and body.count(b"[Event ") == GAMES, (st, body.count(b"[Event ")))
finally:
    srv.close()
t.done()
