#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Engine games are served fairly (issue 24, item 6; docs/api.md, "Games
against the engine").

Three accounts open 90 level-10 engine games each (the engine moves
first, and thinks a second a move), one account after the other, so that
a single queue in the order of arrival would serve the third only after
the first two.  While they wait, a fourth player opens a level-1 game:

  - its first move comes within 3 s (a queue in order of arrival makes it
    wait behind all 270: tens of seconds);
  - in the 10 s after the flood, the three flooders have had moves in
    numbers within a factor of 2 of each other;
  - no flooder ever has more than SERVER_ENGINE_PER_PLAYER (3) games
    thinking: with the server's 12 workers free for them, any 4 first
    moves of one flooder are at least a search apart, as far as readings
    every 100 ms can tell (4 games thinking at once would answer within
    the same instant);
  - SIGTERM stops the server within 5 s with 250-odd searches to go, and
    a restart on the same database takes the waiting games up again.

Nothing new is exposed over HTTP: the moves are read from the players'
lists of games (GET /api/games), each polled every 100 ms."""

import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serverlib import TTCHESS, Server, Tally  # noqa: E402

WORKERS = 12            # more than the flooders may fill (3 x 3), so that the cap shows
PER_PLAYER = 3          # SERVER_ENGINE_PER_PLAYER
FLOODERS = 3
GAMES_EACH = 90
FLOOD_LEVEL = 10        # a second a move
SEARCH_S = 1.0          # ... less 5 ms, by the engine's clock (search.c, plan_time)
SEARCH_SLACK_S = 0.05
FOURTH_WAIT_S = 3.0
FAIRNESS_AFTER_S = 10.0
POLL_S = 0.1
STOP_S = 5.0


def server_args():
    """--engine-workers, and a registration limit that lets four accounts
    in where the server has that option."""
    args = ["--engine-workers", str(WORKERS)]
    out = subprocess.run([TTCHESS, "serve", "--help"], capture_output=True, text=True).stdout
    if "--registrations-per-hour" in out:
        args += ["--registrations-per-hour", "1000"]
    return args


def create_engine_game(srv, cookie, level):
    status, body = srv.json("POST", "/api/games", {"variant": "chess", "color": "black", "level": level},
                            cookie=cookie)
    if status != 201:
        sys.exit("FAIL: engine: could not create a game: %d %s" % (status, body))
    return body["id"]


class MovePoller(threading.Thread):
    """Polls one flooder's list of games and notes, for each game, when its
    first move (ply 1) was made, as an interval: after the sending of the
    last reading that did not show it, and before the reply of the first
    that did."""

    def __init__(self, srv, cookie):
        super().__init__(daemon=True)
        self.srv = srv
        self.cookie = cookie
        self.first_move = {}   # game id -> (made after, made before)
        self.last_sent = time.monotonic()   # before any of its games existed
        self.halt = threading.Event()
        self.errors = 0

    def poll_once(self):
        sent = time.monotonic()
        try:
            status, body = self.srv.json("GET", "/api/games", cookie=self.cookie)
        except OSError:
            self.errors += 1
            return
        seen = time.monotonic()
        if status != 200:
            self.errors += 1
            return
        for g in body["games"]:
            if g["ply"] >= 1 and g["id"] not in self.first_move:
                self.first_move[g["id"]] = (self.last_sent, seen)
        self.last_sent = sent

    def run(self):
        while not self.halt.is_set():
            self.poll_once()
            self.halt.wait(POLL_S)

    def moved_by(self, when):
        return sum(1 for _, seen in self.first_move.values() if seen <= when)

    def widest_look(self):
        """How long a move could have waited to be seen, at worst."""
        return max((seen - after for after, seen in self.first_move.values()), default=0.0)


def fourth_player_wait(srv, cookie):
    """Seconds from the creation reply of a level-1 game to its first move
    (polled every 50 ms, given up after 15 s)."""
    game = create_engine_game(srv, cookie, 1)
    created = time.monotonic()
    while time.monotonic() - created < 15:
        status, body = srv.json("GET", "/api/games/" + game)
        if status == 200 and body["ply"] >= 1:
            return time.monotonic() - created
        time.sleep(0.05)
    return float("inf")


def closest_four(moves):
    """The longest that 4 first moves of one player, the closest together
    that were seen, may have been apart.  With at most 3 games thinking at
    once, two of any 4 were searched one after the other, so 4 moves are
    at least a search apart (the bound never says less than the truth);
    4 games searched at once would be seen within one reading's interval."""
    m = sorted(moves, key=lambda interval: interval[1])
    spans = [m[k + PER_PLAYER][1] - min(after for after, _ in m[k:k + PER_PLAYER + 1])
             for k in range(len(m) - PER_PLAYER)]
    return min(spans) if spans else float("inf")


def stop_within(srv, limit):
    """SIGTERM; seconds until the server exited (inf when it did not
    within `limit`: it is then killed)."""
    start = time.monotonic()
    srv.proc.send_signal(signal.SIGTERM)
    try:
        srv.proc.wait(timeout=limit)
        took = time.monotonic() - start
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        srv.proc.wait()
        took = float("inf")
    srv.proc = None
    return took


def check_log(t, srv):
    """The log of the server just stopped (a restart writes it anew)."""
    log = srv.log()
    t.check("the server logged no crash or sanitizer report", "Sanitizer" not in log and "runtime error" not in log,
            log[-400:])


def main():
    t = Tally("engine")
    srv = Server(*server_args())
    try:
        names = ["flood%d" % i for i in range(FLOODERS)] + ["fourth"]
        cookies = [srv.register(n, source="127.0.0.%d" % (2 + i)) for i, n in enumerate(names)]
        flooders, fourth = cookies[:FLOODERS], cookies[FLOODERS]

        pollers = [MovePoller(srv, cookie) for cookie in flooders]
        for p in pollers:
            p.start()
        began = time.monotonic()
        for cookie in flooders:
            for _ in range(GAMES_EACH):
                create_engine_game(srv, cookie, FLOOD_LEVEL)
        flooded = time.monotonic()
        print("engine: %d level-%d games created in %.1f s" % (FLOODERS * GAMES_EACH, FLOOD_LEVEL, flooded - began),
              flush=True)

        wait = fourth_player_wait(srv, fourth)
        print("engine: the fourth player's first move came %.3f s after its game was created" % wait, flush=True)
        t.check("a fourth player's level-1 game is answered within %.0f s while 270 wait" % FOURTH_WAIT_S,
                wait < FOURTH_WAIT_S, "%.2f s" % wait)

        # The moves of the 10 s after the flood, while every flooder still
        # has games waiting (a queue in order of arrival spends them on
        # the last flooder alone, the first two being served already).
        time.sleep(max(0.0, flooded + FAIRNESS_AFTER_S - time.monotonic()))
        at_flood = [p.moved_by(flooded) for p in pollers]
        counts = [p.moved_by(flooded + FAIRNESS_AFTER_S) - a for p, a in zip(pollers, at_flood)]
        print("engine: moves made per flooder by the end of the flood: %s; in the %.0f s after it: %s"
              % (at_flood, FAIRNESS_AFTER_S, counts), flush=True)
        t.check("every flooder is served", min(counts) > 0, counts)
        t.check("the flooders are served within a factor of 2 of each other", max(counts) <= 2 * min(counts), counts)

        for p in pollers:
            p.halt.set()
            p.join()
        spans = [closest_four(p.first_move.values()) for p in pollers]
        print("engine: 4 first moves of one flooder are at least %s s apart (each seen within %.2f s)"
              % (["%.2f" % s for s in spans], max(p.widest_look() for p in pollers)), flush=True)
        t.check("no player has more than %d games thinking at once" % PER_PLAYER,
                min(spans) >= SEARCH_S - SEARCH_SLACK_S, spans)
        t.check("the game lists were read", sum(p.errors for p in pollers) == 0)

        moved_before = sum(len(p.first_move) for p in pollers)
        took = stop_within(srv, STOP_S)
        print("engine: SIGTERM with %d searches to go: stopped in %.2f s"
              % (FLOODERS * GAMES_EACH - moved_before, took), flush=True)
        t.check("SIGTERM stops the server within %.0f s while searches wait" % STOP_S, took < STOP_S, took)
        check_log(t, srv)

        # The games still waiting for the engine's first move are taken up
        # when the server starts again on the same database.
        srv.start()
        restarted = [MovePoller(srv, cookie) for cookie in flooders]
        for p in restarted:
            p.poll_once()
        before = [len(p.first_move) for p in restarted]

        def resumed(after):
            return all(a > b or b == GAMES_EACH for a, b in zip(after, before))

        deadline = time.monotonic() + 3 * SEARCH_S + 2
        after = before
        while time.monotonic() < deadline and not resumed(after):
            time.sleep(0.2)
            for p in restarted:
                p.poll_once()
            after = [len(p.first_move) for p in restarted]
        t.check("after a restart the engine moves again in every flooder's games", resumed(after), (before, after))
        took = stop_within(srv, STOP_S)
        t.check("SIGTERM stops the restarted server within %.0f s" % STOP_S, took < STOP_S, took)
        check_log(t, srv)
    finally:
        srv.close()
    t.done()


if __name__ == "__main__":
    main()
