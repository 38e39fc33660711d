#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fits the weights of the chess evaluation to labelled positions.

Reads the terms bench/tune-features writes (`score phase i:n ...`, White's
side) and finds the middle- and end-game value of every weight that
makes the evaluation's expected result closest to the label's: both
scores go through the same logistic curve (a score of 400 cp is a 10:1
expectation) and their squared difference, averaged, is minimised by
Adam, full batch, from the weights of the evaluation every game shares
(material and the few terms; piece-square values from 0).  The
piece-square values and material overlap (a piece's material is the
mean of its square values), so the square values are held near 0 by a
small penalty, and the tables stay readable as "this square is better
than the piece's average".  Writes the weights as a C initializer of
ChessWeights and prints the loss before and after, on the positions fitted
and on every tenth one held out.
"""
import sys
import numpy as np

# The weights of ChessWeights (src/variants/eval.h) in the order of the
# structure, each with its count of Tapers: bench/tune-features numbers
# them so.
FIELDS = [("material", 7), ("mobility", 7), ("doubled_pawn", 1), ("isolated_pawn", 1),
          ("backward_pawn", 1), ("passed_pawn", 8), ("bishop_pair", 1), ("rook_open_file", 1),
          ("rook_half_open_file", 1), ("king_shield", 1), ("king_attack", 1), ("tempo", 1),
          ("king_open_file", 1), ("pawn_storm", 8), ("king_attackers", 8), ("pawn_threat", 1),
          ("knight_mobility", 9), ("bishop_mobility", 14), ("rook_mobility", 15), ("queen_mobility", 28),
          ("threat_by_minor", 7), ("threat_by_rook", 7), ("hanging", 1), ("zone_attack", 7),
          ("safe_check", 7), ("king_danger", 16), ("passed_free", 8), ("passed_own_king", 8),
          ("passed_enemy_king", 8), ("connected_pawn", 8), ("outpost", 7), ("bishop_pawns", 1)]
NAMES = ([name if size == 1 else "%s[%d]" % (name, i) for name, size in FIELDS for i in range(size)] +
         ["square[%d][%d]" % (t, s) for t in range(7) for s in range(64)])
# The tables by count, like the piece-square values, overlap with material
# (every knight has some count): held near 0 by the same small penalty.
PENALISED = ("square", "knight_mobility", "bishop_mobility", "rook_mobility", "queen_mobility")
N = len(NAMES)
SQUARE0 = NAMES.index("square[0][0]")

# The starting weights: CHESS_WEIGHTS (board_eval.c), the new terms 0, and
# the linear mobility 0 (held there: the tables by count replace it).
START = {
    "material": [(0, 0), (90, 110), (330, 310), (345, 330), (480, 540), (980, 1000), (0, 0)],
    "doubled_pawn": (-10, -22), "isolated_pawn": (-12, -14), "backward_pawn": (-6, -8),
    "passed_pawn": [(0, 0), (4, 12), (6, 18), (12, 32), (24, 56), (45, 95), (70, 140), (0, 0)],
    "bishop_pair": (30, 50), "rook_open_file": (25, 12), "rook_half_open_file": (12, 6),
    "king_shield": (12, 0), "king_attack": (-9, -2), "tempo": (12, 6),
}

# Weights that are not fitted: no piece of type 0, a king is not material,
# "no attackers" is the zero of the attackers' table, a storm pawn is at
# least a rank away, and a pawn never stands on the first or last rank.
def fixed(name):
    if name in ("material[0]", "material[6]", "passed_pawn[0]", "passed_pawn[7]", "king_attackers[0]",
                "pawn_storm[0]", "king_danger[0]"):
        return True
    if name.startswith("mobility["):
        return True
    if name.startswith("square[0]"):
        return True
    if name.startswith("square[1]"):
        s = int(name.split("[")[2][:-1])
        return s < 8 or s >= 56
    return False

def start_vector():
    w = np.zeros((N, 2))
    for i, name in enumerate(NAMES):
        base = name.split("[")[0]
        if base not in START: continue
        v = START[base]
        if "[" in name and base != "square":
            v = v[int(name.split("[")[1][:-1])]
        w[i] = v
    return w

def read(path):
    rows, cols, vals, y, ph = [], [], [], [], []
    with open(path) as f:
        for r, line in enumerate(f):
            t = line.split()
            y.append(float(t[0])); ph.append(float(t[1]))
            for item in t[2:]:
                i, n = item.split(":")
                if int(i) >= N:
                    sys.exit("tune-fit.py: weight %s on line %d: FIELDS (%d weights) is not eval.h's ChessWeights"
                             % (i, r + 1, N))
                rows.append(r); cols.append(int(i)); vals.append(float(n))
    X = np.zeros((len(y), N), dtype=np.float32)
    X[rows, cols] = vals
    return X, np.array(y, dtype=np.float32), np.array(ph, dtype=np.float32) / 24.0

def expect(cp):
    return (1.0 / (1.0 + np.power(10.0, -cp / 400.0))).astype(np.float32)

def evaluate(X, ph, w):
    both = X @ w.astype(np.float32)
    return both[:, 0] * ph + both[:, 1] * (1.0 - ph)

def loss(X, y, ph, w):
    return float(np.mean((expect(evaluate(X, ph, w)) - expect(y)) ** 2))

# A weight whose term differs between the sides in fewer than this share
# of the positions keeps its starting value: a handful of positions would
# set it to whatever suits them (Adam moves a rare weight as fast as a
# common one).
RARE = 0.005

# The tables by count (mobility, king danger) run into counts that few
# positions reach: a queen that goes to 25 squares, a king under the
# heaviest attack.  Fixed at their start, 0, such an entry would undo the
# entries below it (a worse attack valued as none), so each takes instead
# the value of the nearest common entry of its table, below it where
# there is one.
TABLES_BY_COUNT = ("knight_mobility", "bishop_mobility", "rook_mobility", "queen_mobility", "king_danger")

def ties(seen):
    tie = {}
    for base, size in FIELDS:
        if base not in TABLES_BY_COUNT: continue
        first = NAMES.index("%s[0]" % base)
        common = [i for i in range(size) if seen[first + i] and not fixed(NAMES[first + i])]
        for i in range(size):
            if not common or seen[first + i] or fixed(NAMES[first + i]): continue
            nearest = min(common, key=lambda c: (abs(c - i), c > i))
            tie[first + i] = first + nearest
    return tie

def untie(w, tie):
    for j, k in tie.items():
        w[j] = w[k]
    return w

def fit(X, y, ph, w, steps, rate, square_penalty, tie):
    X = X.copy()
    for j, k in tie.items():
        X[:, k] += X[:, j]
        X[:, j] = 0
    seen = (X != 0).sum(axis=0) >= RARE * len(y)
    free = np.array([0.0 if fixed(n) or not seen[i] else 1.0 for i, n in enumerate(NAMES)])[:, None]
    print("fitting %d of %d weights (the rest fixed, or rarer than %.1f %% of the positions)"
          % (int(free.sum()), N, 100 * RARE), file=sys.stderr)
    squares = np.array([1.0 if n.split("[")[0] in PENALISED else 0.0 for n in NAMES])[:, None]
    m = np.zeros_like(w); v = np.zeros_like(w)
    target = expect(y)
    for step in range(1, steps + 1):
        e = evaluate(X, ph, w)
        p = expect(e)
        # d loss / d e, per position: the logistic curve's slope at e.
        g = (2.0 * (p - target) * p * (1.0 - p) * np.log(10.0) / 400.0 / len(y)).astype(np.float32)
        grad = (X.T @ np.stack([g * ph, g * (1.0 - ph)], axis=1)).astype(np.float64)
        grad += square_penalty * squares * w / len(y) * 1e-3
        grad *= free
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w = w - rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-12)
        if step % 100 == 0:
            print("step %d loss %.6f" % (step, loss(X, y, ph, w)), file=sys.stderr)
    return untie(w, tie)

def write_c(w, out):
    groups = {}
    for i, name in enumerate(NAMES):
        base = name.split("[")[0]
        groups.setdefault(base, []).append((name, i))
    lines = []
    for base, items in groups.items():
        if base == "square":
            rows = []
            for t in range(7):
                vals = ", ".join("{ %d, %d }" % tuple(np.rint(w[SQUARE0 + t * 64 + s])) for s in range(64))
                rows.append("        { %s }," % vals)
            lines.append("    .square = {\n%s\n    }," % "\n".join(rows))
        elif len(items) == 1:
            lines.append("    .%s = { %d, %d }," % ((base,) + tuple(np.rint(w[items[0][1]]))))
        else:
            vals = ", ".join("{ %d, %d }" % tuple(np.rint(w[i])) for _, i in items)
            lines.append("    .%s = { %s }," % (base, vals))
    lines.append("    .square_tables = true,")
    lines.append("    .extended_terms = true,")
    out.write("\n".join(lines) + "\n")

def main():
    if len(sys.argv) != 4:
        sys.exit("usage: tune-fit.py TERMS STEPS OUT.inc")
    X, y, ph = read(sys.argv[1])
    hold = np.arange(len(y)) % 10 == 0
    w0 = start_vector()
    Xf, yf, pf = X[~hold], y[~hold], ph[~hold]
    Xh, yh, phh = X[hold], y[hold], ph[hold]
    print("positions %d fitted, %d held out" % (len(yf), len(yh)), file=sys.stderr)
    print("start: fitted %.6f held out %.6f" % (loss(Xf, yf, pf, w0), loss(Xh, yh, phh, w0)), file=sys.stderr)
    tie = ties((Xf != 0).sum(axis=0) >= RARE * len(yf))
    print("%d rare entries of the tables by count take a common entry's value" % len(tie), file=sys.stderr)
    w = fit(Xf, yf, pf, w0.copy(), int(sys.argv[2]), 1.0, 1.0, tie)
    print("fitted: fitted %.6f held out %.6f" % (loss(Xf, yf, pf, w), loss(Xh, yh, phh, w)), file=sys.stderr)
    wr = np.rint(w)
    print("rounded: held out %.6f" % loss(Xh, yh, phh, wr), file=sys.stderr)
    with open(sys.argv[3], "w") as out:
        write_c(w, out)

main()
