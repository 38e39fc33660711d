#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where ttchess lost its chess games: each lost game of a match log read
again by Stockfish (docs/engine.md, "Strength").

Usage: read-losses.py LOG [NODES (300000)] [DROP (80)] [NAME (ttchess)]

LOG is a chess match's --log file of bench/match (one game a line:
WHITE|BLACK|RESULT|REASON|FEN|ACTIONS, FEN '-' for the start position).
For every game NAME lost, Stockfish scores the position before and after
each of NAME's moves at NODES nodes, from the mover's side; a move that
gives away DROP centipawns or more is listed with Stockfish's own choice
and the two scores.  A game lost by many such moves was lost on judgement,
one lost by a single large one on a blunder: which the engine needs,
its evaluation or its search, shows in the list.

Another game's log is read by Fairy-Stockfish: STOCKFISH names it and
UCI_VARIANT its name of the game, e.g. for chessgi-classic
STOCKFISH=/usr/games/fairy-stockfish UCI_VARIANT=chessgi.
"""
import os
import subprocess
import sys

MATE = 100000


class Stockfish:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variant:
            self.send("setoption name UCI_Variant value " + variant)
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 32")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, start):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("read-losses: Stockfish ended")
            if line.startswith(start):
                return line

    def score(self, fen, moves, nodes):
        """The score of the position after moves, for the side to move, and Stockfish's move."""
        start = "fen " + fen if fen else "startpos"
        self.send("position " + start + (" moves " + " ".join(moves) if moves else ""))
        self.send("go nodes %d" % nodes)
        score = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("read-losses: Stockfish ended")
            words = line.split()
            if words and words[0] == "info" and "score" in words:
                i = words.index("score")
                value = int(words[i + 2])
                score = value if words[i + 1] == "cp" else (MATE if value > 0 else -MATE)
            elif words and words[0] == "bestmove":
                return score, words[1] if len(words) > 1 else "(none)"


def main():
    if not 2 <= len(sys.argv) <= 5:
        sys.exit("usage: read-losses.py LOG [NODES] [DROP] [NAME]")
    log = sys.argv[1]
    try:
        nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 300000
        drop_min = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    except ValueError:
        sys.exit("read-losses: NODES and DROP are numbers (usage: read-losses.py LOG [NODES] [DROP] [NAME])")
    if nodes < 1:
        sys.exit("read-losses: NODES is at least 1")
    name = sys.argv[4] if len(sys.argv) > 4 else "ttchess"
    sf = Stockfish(os.environ.get("STOCKFISH", "/usr/games/stockfish"), os.environ.get("UCI_VARIANT", ""))
    read = lost = 0
    try:
        f = open(log)
    except OSError as e:
        sys.exit("read-losses: %s: %s" % (log, e.strerror))
    with f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("|")
            if len(fields) < 6:
                sys.exit("read-losses: line %d is not a game of a match log" % number)
            white, black, result, reason, fen, actions = fields[:6]
            read += 1
            fen = "" if fen == "-" else fen
            side = 0 if white == name else 1 if black == name else None
            if side is None or result != ("0-1" if side == 0 else "1-0"):
                continue
            lost += 1
            moves = actions.split()
            found = []
            # Who moves first: White from the start position, else the FEN's side.
            first = 1 if fen.split(" ")[1:2] == ["b"] else 0
            for k in range((side - first) % 2, len(moves), 2):
                before, best = sf.score(fen, moves[:k], nodes)
                after = -sf.score(fen, moves[:k + 1], nodes)[0]
                if before - after >= drop_min and abs(before) < MATE:
                    found.append("%d%s%s (Stockfish %s) %d -> %d" % (k // 2 + 1, "." if side == 0 else "...",
                                                                    moves[k], best, before, after))
            print("game %d, %s %s, %s %s, %d plies: %s" % (number, name, "White" if side == 0 else "Black", result,
                                                          reason, len(moves), "; ".join(found) or "no move lost "
                                                          "%d centipawns" % drop_min), flush=True)
    print("read-losses: %d games read, %d lost by %s" % (read, lost, name))
    if read == 0:
        sys.exit("read-losses: no game in %s" % log)


if __name__ == "__main__":
    main()
