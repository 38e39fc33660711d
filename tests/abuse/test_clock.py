#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Time runs out (issue 24, item 7; docs/api.md, "Actions": time).

A live game whose clock reaches zero must end then, by the server's own
timer, although nobody acts: a player who flags has no reason to move.

  - live: a chess game with a 2-second clock between two players, two
    actions made, then nothing.  The event `time` arrives on the game's
    event stream within 1 s of the deadline (measured from the earliest
    moment the deadline can be: the second action's request sent, plus
    White's 2 s), never before it, with `0-1` and `white lost on time`;
    the opponent then sees the game over, and a move or a draw offer is
    refused as the game is over;
  - a draw: the same from a FEN where White has a pawn and Black a bare
    king: `1/2-1/2`, `white lost on time, but black cannot win`;
  - a request first: a correspondence game whose deadline is moved into
    the past behind the server's back (the timer still waits for the old
    one) is ended on time by the flagged player's next request, a draw
    offer, which gets the game over instead;
  - correspondence at start: a game of one day a move whose last action is
    moved two days back while the server is stopped ends on time as the
    server starts again.

Each check fails when its rule is broken: without the timer the first
two time out, without the check in the requests the third offer is
accepted, without the scan at start the last game stays active."""

import http.client
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serverlib import TTCHESS, Server, Tally  # noqa: E402

CLOCK_S = 2.0
LATE_S = 1.0            # the event arrives within this of the deadline
WAIT_S = CLOCK_S + 10   # how long a check waits for an event at most
DAY_MS = 86400000


def server_args():
    """A registration limit that lets the test's accounts in, where the
    server has that option."""
    out = subprocess.run([TTCHESS, "serve", "--help"], capture_output=True, text=True).stdout
    return ["--registrations-per-hour", "1000"] if "--registrations-per-hour" in out else []


class EventStream(threading.Thread):
    """Reads a game's event stream and notes when each event arrived."""

    def __init__(self, srv, game):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=WAIT_S + 30)
        self.conn.request("GET", "/api/games/%s/events" % game, headers={"Accept": "text/event-stream"})
        self.reply = self.conn.getresponse()
        self.events = []            # (arrival time, type, data)
        self.arrived = threading.Condition()
        self.start()

    def run(self):
        kind = None
        try:
            while True:
                line = self.reply.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind:
                    with self.arrived:
                        self.events.append((time.time(), kind, json.loads(line[6:])))
                        self.arrived.notify_all()
                    kind = None
        except (OSError, ValueError, http.client.HTTPException):
            return

    def wait_for(self, kind, timeout):
        """The first event of this type: (arrival time, data), or None."""
        end = time.time() + timeout
        with self.arrived:
            while True:
                for at, k, data in self.events:
                    if k == kind:
                        return at, data
                left = end - time.time()
                if left <= 0:
                    return None
                self.arrived.wait(left)

    def close(self):
        self.conn.close()


def create(srv, cookie, opponent, opponent_cookie, **fields):
    """A game of chess with White's cookie against the opponent named, who
    accepts the challenge (docs/api.md, "Challenges")."""
    body = {"variant": "chess", "color": "white", "opponent": opponent}
    body.update(fields)
    status, reply = srv.json("POST", "/api/games", body, cookie=cookie)
    if status != 201:
        sys.exit("FAIL: clock: could not create a game: %d %s" % (status, reply))
    game = reply["id"]
    if reply.get("challenge"):
        status, reply = srv.json("POST", "/api/games/%s/accept" % game, {}, cookie=opponent_cookie)
        if status != 200:
            sys.exit("FAIL: clock: could not accept the challenge: %d %s" % (status, reply))
    return game


def act(srv, cookie, game, action, ply):
    """Posts an action; (status, reply, time the request was sent)."""
    sent = time.time()
    status, reply = srv.json("POST", "/api/games/%s/actions" % game, {"action": action, "ply": ply, "reply": "brief"},
                             cookie=cookie)
    return status, reply, sent


def play(t, srv, game, moves):
    """Plays the moves in turn (White's cookie first); the time the last
    request was sent."""
    sent = 0
    for ply, (cookie, move) in enumerate(moves):
        status, reply, sent = act(srv, cookie, game, move, ply)
        t.check("%s is accepted" % move, status == 200, reply)
    return sent


def check_flag(t, srv, stream, deadline, result, reason, what):
    """The time event: within LATE_S after the deadline, not before it, with this result."""
    got = stream.wait_for("time", WAIT_S)
    if not t.check("%s: the time event arrives" % what, got is not None, "none within %.0f s" % WAIT_S):
        return
    at, data = got
    late = at - deadline
    print("clock: %s: the time event came %.3f s after the earliest deadline" % (what, late), flush=True)
    t.check("%s: the event arrives within %.1f s of the deadline" % (what, LATE_S), late <= LATE_S,
            "%.3f s late" % late)
    t.check("%s: the event does not come before the deadline" % what, late >= -0.05, "%.3f s early" % -late)
    t.check("%s: the result is %s %s" % (what, result, reason),
            data.get("result") == result and data.get("reason") == reason, data)


def live_loss(t, srv, alice, bob):
    game = create(srv, alice, "bob", bob, clock={"minutes": CLOCK_S / 60.0, "increment": 0})
    stream = EventStream(srv, game)
    sent = play(t, srv, game, [(alice, "e4"), (bob, "e5")])
    # White's clock started with its first action and did not run while
    # Black thought: it runs out 2 s after Black's move reached the server.
    check_flag(t, srv, stream, sent + CLOCK_S, "0-1", "white lost on time", "live")
    stream.close()
    status, state = srv.json("GET", "/api/games/%s" % game, cookie=bob)
    t.check("live: the opponent sees the game over on time",
            status == 200 and state["status"] == "over" and state["reason"] == "white lost on time"
            and state["clock"]["white_ms"] == 0, state if status != 200 else state["status"])
    status, reply, _ = act(srv, alice, game, "Nf3", 2)
    t.check("live: the flagged side cannot move after", status == 409 and "over" in reply.get("error", ""), reply)
    status, reply, _ = act(srv, bob, game, "offer-draw", 2)
    t.check("live: nobody offers a draw after", status == 409, reply)


def live_draw(t, srv, alice, bob):
    # White has a pawn, Black a bare king: Black could not win.
    game = create(srv, alice, "bob", bob, clock={"minutes": CLOCK_S / 60.0, "increment": 0},
                  fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    stream = EventStream(srv, game)
    sent = play(t, srv, game, [(alice, "e3"), (bob, "Kd7")])
    check_flag(t, srv, stream, sent + CLOCK_S, "1/2-1/2", "white lost on time, but black cannot win", "bare king")
    stream.close()


def move_back(db, game, ms):
    """Moves the game's last action `ms` into the past, behind the server's back."""
    con = sqlite3.connect(db, timeout=10)
    with con:
        con.execute("UPDATE games SET last_action_at = last_action_at - ? WHERE id = ?", (ms, game))
    con.close()


def request_first(t, srv, alice, bob):
    game = create(srv, alice, "bob", bob, days_per_move=1)
    play(t, srv, game, [(alice, "e4"), (bob, "e5")])
    move_back(srv.db, game, 2 * DAY_MS)
    # The timer waits for the deadline it was told, a day from now: the
    # flagged player's own request must end the game first.
    status, reply, _ = act(srv, alice, game, "offer-draw", 2)
    t.check("a request after the flag ends the game on time instead",
            status == 200 and reply.get("status") == "over" and reply.get("reason") == "white lost on time", reply)
    # The game's history: its moves and the end, no offer.
    stream = EventStream(srv, game)
    stream.wait_for("time", 2)
    kinds = [k for _, k, _ in stream.events]
    t.check("... and offers nothing", "offer-draw" not in kinds and kinds[-1:] == ["time"], kinds)
    stream.close()


def correspondence_at_start(t, srv, alice, bob):
    game = create(srv, alice, "bob", bob, days_per_move=1)
    play(t, srv, game, [(alice, "d4"), (bob, "d5")])
    srv.stop()
    move_back(srv.db, game, 2 * DAY_MS)
    srv.start()
    end = time.time() + WAIT_S
    state = {}
    while time.time() < end:
        status, state = srv.json("GET", "/api/games/%s" % game, cookie=bob)
        if status == 200 and state["status"] == "over":
            break
        time.sleep(0.1)
    t.check("correspondence: a deadline passed while the server was stopped ends the game at start",
            state.get("status") == "over" and state.get("result") == "0-1"
            and state.get("reason") == "white lost on time", {k: state.get(k) for k in ("status", "result", "reason")})
    stream = EventStream(srv, game)
    got = stream.wait_for("time", 2)
    t.check("correspondence: with its time event", got is not None and got[1].get("reason") == "white lost on time",
            got)
    stream.close()


def main():
    t = Tally("clock")
    srv = Server(*server_args())
    try:
        alice, bob = srv.register("alice"), srv.register("bob")
        live_loss(t, srv, alice, bob)
        live_draw(t, srv, alice, bob)
        request_first(t, srv, alice, bob)
        correspondence_at_start(t, srv, alice, bob)
    finally:
        if t.failed:
            print(srv.log()[-2000:])
        srv.close()
    t.done()


if __name__ == "__main__":
    main()
