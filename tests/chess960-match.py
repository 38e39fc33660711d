#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Chess960 games of ttchess against Stockfish, refereed by Stockfish.

Both players and the referee run with UCI_Chess960 on.  Each game starts
from a Chess960 start position given by its standard number (SP 0-959);
half of them are set up in Shredder-FEN (HAha), half in X-FEN (KQkq).
Before each move the referee Stockfish lists the legal moves of the
position (`position fen ... moves ...`, `go perft 1`), and ttchess lists
its own the same way: the two lists must be the same, and the move the
player answers must be among them.  A game ends by checkmate, stalemate,
the fifty-move rule, threefold repetition (judged from the referee's
FEN) or the move cap.

Usage: tests/chess960-match.py TTCHESS [STOCKFISH] [GAMES] [MOVETIME_MS]
Exits 1 on an illegal move, a difference in the legal moves, an engine
that fails, or fewer games played than asked for.
"""
import os
import select
import subprocess
import sys
import time

# The start positions played, by their standard numbers (518 is chess's).
START_NUMBERS = [0, 77, 191, 255, 347, 431, 518, 612, 777, 959]
MOVE_CAP = 160          # plies; a game that reaches it is a draw
ANSWER_SECONDS = 20     # the longest any engine may take to answer


def start_rank(number):
    """The back rank of Chess960 start position `number` (Scharnagl's numbering)."""
    rank = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    empty = [i for i in range(8) if rank[i] is None]
    rank[empty[queen]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    empty = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[empty[k]] = "N"
    for i, piece in zip([i for i in range(8) if rank[i] is None], "RKR"):
        rank[i] = piece
    return "".join(rank)


def start_fen(number, shredder):
    rank = start_rank(number)
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    if shredder:
        files = "".join("ABCDEFGH"[i] for i in reversed(rooks))
        castling = files + files.lower()
    else:
        castling = "KQkq"
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {castling} - 0 1"


class Engine:
    """A UCI engine on pipes; every answer awaited with a time limit."""

    def __init__(self, name, argv):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        # Read by hand: select() cannot see lines a buffered reader holds.
        self.pending = b""
        self.send("uci")
        self.wait_for(lambda line: line == "uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done):
        """The lines up to and including the first for which done() holds."""
        lines = []
        deadline = time.monotonic() + ANSWER_SECONDS
        fd = self.proc.stdout.fileno()
        while True:
            while b"\n" in self.pending:
                raw, self.pending = self.pending.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                lines.append(line)
                if done(line):
                    return lines
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise RuntimeError(f"{self.name} did not answer within {ANSWER_SECONDS} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError(f"{self.name} ended (exit status {self.proc.poll()})")
            self.pending += chunk

    def ready(self):
        self.send("isready")
        self.wait_for(lambda line: line == "readyok")

    def set_position(self, fen, moves):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def legal_moves(self, fen, moves):
        """The moves `go perft 1` lists, as a set."""
        self.set_position(fen, moves)
        self.send("go perft 1")
        lines = self.wait_for(lambda line: line.startswith("Nodes searched"))
        return {line.split(":")[0] for line in lines if line.endswith(": 1")}

    def best_move(self, fen, moves, movetime):
        self.set_position(fen, moves)
        self.send(f"go movetime {movetime}")
        lines = self.wait_for(lambda line: line.startswith("bestmove"))
        return lines[-1].split()[1]

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def referee_state(referee, fen, moves):
    """The referee's FEN of the position and whether the side to move is in check."""
    referee.set_position(fen, moves)
    referee.send("d")
    lines = referee.wait_for(lambda line: line.startswith("Checkers:"))
    position = next(line[5:] for line in lines if line.startswith("Fen: "))
    in_check = lines[-1].split(":", 1)[1].strip() != ""
    return position, in_check


def is_castling(position, move):
    """Does the move (king takes own rook) castle in the referee's FEN?"""
    board = {}
    for r, row in enumerate(position.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    king, rook = board.get(move[:2], ""), board.get(move[2:4], "")
    return king in "Kk" and king and rook == ("R" if king == "K" else "r")


def play_game(number, index, engines, referee, movetime, tally):
    """Plays one game; returns its result line, or raises on a broken rule.
    tally["castlings"] counts the castlings played."""
    fen = start_fen(number, shredder=index % 2 == 0)
    white, black = (engines[0], engines[1]) if index % 2 == 0 else (engines[1], engines[0])
    for e in engines + [referee]:
        e.send("ucinewgame")
        e.ready()
    moves, seen = [], {}
    ttchess = engines[0]
    while True:
        legal = referee.legal_moves(fen, moves)
        ours = ttchess.legal_moves(fen, moves)
        if ours != legal:
            raise RuntimeError(f"SP {number} after '{' '.join(moves)}': ttchess lists "
                               f"{sorted(ours ^ legal)} differently from the referee")
        position, in_check = referee_state(referee, fen, moves)
        key = " ".join(position.split()[:4])
        seen[key] = seen.get(key, 0) + 1
        if not legal:
            return ("0-1" if len(moves) % 2 == 0 else "1-0") + " checkmate" if in_check else "1/2-1/2 stalemate"
        if int(position.split()[4]) >= 100:
            return "1/2-1/2 fifty moves"
        if seen[key] >= 3:
            return "1/2-1/2 repetition"
        if len(moves) >= MOVE_CAP:
            return "1/2-1/2 move cap"
        mover = white if len(moves) % 2 == 0 else black
        move = mover.best_move(fen, moves, movetime)
        if move not in legal:
            raise RuntimeError(f"SP {number}: {mover.name} played the illegal move {move} after "
                               f"'{' '.join(moves)}' (legal: {' '.join(sorted(legal))})")
        tally["castlings"] += is_castling(position, move)
        moves.append(move)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: chess960-match.py TTCHESS [STOCKFISH] [GAMES] [MOVETIME_MS]")
    ttchess = sys.argv[1]
    stockfish = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/stockfish"
    games = int(sys.argv[3]) if len(sys.argv) > 3 else len(START_NUMBERS)
    movetime = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    if not os.access(stockfish, os.X_OK):
        sys.exit(f"chess960-match: no Stockfish at {stockfish}")
    engines = [Engine("ttchess", [ttchess, "engine"]), Engine("Stockfish", [stockfish])]
    referee = Engine("referee Stockfish", [stockfish])
    for e in engines + [referee]:
        e.send("setoption name UCI_Chess960 value true")
        e.send("setoption name Threads value 1")
        e.ready()
    played, score, begun, tally = 0, 0.0, time.monotonic(), {"castlings": 0}
    try:
        for index in range(games):
            number = START_NUMBERS[index % len(START_NUMBERS)]
            result = play_game(number, index, engines, referee, movetime, tally)
            played += 1
            ours_white = index % 2 == 0
            score += {"1-0": 1.0 if ours_white else 0.0, "0-1": 0.0 if ours_white else 1.0}.get(result[:3], 0.5)
            print(f"game {index + 1}: SP {number} ({start_rank(number)}), ttchess "
                  f"{'white' if ours_white else 'black'}: {result}")
    except RuntimeError as e:
        print(f"chess960-match: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    finally:
        for e in engines + [referee]:
            e.close()
    if played < games:
        print(f"chess960-match: FAILED: only {played} of {games} games were played", file=sys.stderr)
        sys.exit(1)
    print(f"chess960-match: {played} Chess960 games against Stockfish, every move legal by the referee and "
          f"the legal moves the same as its at every position, {tally['castlings']} castlings; ttchess scored "
          f"{score:g}/{played} "
          f"({time.monotonic() - begun:.0f} s)")


if __name__ == "__main__":
    main()
