#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Positions for tuning the chess evaluation, labelled by Stockfish
(bench/tune-chess.sh; docs/engine.md, "Tuning").

Usage: tune-positions.py OUT GAMES SEED [NODES]   (appends to OUT)

Plays Stockfish against itself from openings of a few random plies, at a
fixed node count a move, and writes each quiet position it passes (side to
move not in check, Stockfish's best move not a capture, a score in
centipawns) as `FEN;score` with the score from White's side.
"""
import os
import random
import subprocess
import sys

# A game ends at this many plies, or once one side is this far ahead (the
# rest would teach only that a won game is won).
MAX_PLIES = 160
DECIDED_CP = 1500


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: tune-positions.py OUT GAMES SEED [NODES]")
    out_path, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 4000
    stockfish = os.environ.get("STOCKFISH", "/usr/games/stockfish")
    rng = random.Random(seed)
    sf = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): sf.stdin.write(s + "\n")
    def until(prefix):
        lines = []
        while True:
            l = sf.stdout.readline()
            if not l: raise SystemExit("stockfish ended")
            lines.append(l.rstrip("\n"))
            if l.startswith(prefix): return lines
    send("uci"); until("uciok")
    send("setoption name Threads value 1"); send("setoption name Hash value 16")
    send("isready"); until("readyok")
    kept = 0
    with open(out_path, "a") as out:
        for g in range(games):
            moves = []
            send("ucinewgame")
            opening = rng.randint(6, 10)
            for ply in range(MAX_PLIES):
                pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
                send(pos)
                # The opening: a few random plies, so that no two games
                # are alike; none of them is kept.
                if ply < opening:
                    send("go perft 1")
                    legal = [l.split(":")[0] for l in until("Nodes searched") if ":" in l and not l.startswith("Nodes")]
                    if not legal: break
                    moves.append(rng.choice(legal))
                    continue
                send("d")
                d = until("Checkers")
                fen = next(l[5:] for l in d if l.startswith("Fen: "))
                checkers = d[-1][len("Checkers:"):].strip()
                send("go nodes %d" % nodes)
                lines = until("bestmove")
                best = lines[-1].split()[1]
                if best == "(none)": break
                score = None
                for l in lines:
                    t = l.split()
                    if "score" in t:
                        i = t.index("score")
                        score = (t[i + 1], int(t[i + 2]))
                if score is None: break
                kind, v = score
                if kind == "mate": break
                white = fen.split()[1] == "w"
                cp = v if white else -v
                board = fen.split()[0]
                to = best[2:4]
                # Is the best move a capture?  Find the target square in the FEN.
                rows = board.split("/")
                f, r = ord(to[0]) - 97, int(to[1])
                row = rows[8 - r]; col = 0; target = "."
                for ch in row:
                    if ch.isdigit(): col += int(ch)
                    else:
                        if col == f: target = ch
                        col += 1
                if not checkers and target == "." and abs(cp) <= DECIDED_CP:
                    out.write("%s;%d\n" % (fen, cp)); kept += 1
                if abs(cp) > DECIDED_CP:
                    break
                moves.append(best)
            out.flush()
    send("quit")
    print("kept", kept, file=sys.stderr)

main()
