#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fits the weights of the chess evaluation (src/variants/chess/
# chess_weights.c; docs/engine.md, "Tuning"): Stockfish plays GAMES games
# against itself from openings of a few random plies, 4,000 nodes a move,
# in JOBS processes (bench/tune-positions.py keeps the quiet positions with
# Stockfish's score); bench/tune-features writes the terms of the
# evaluation of each; bench/tune-fit.py fits the weights to the scores and
# the table is written over chess_weights.c.  Measure the engine before
# keeping it (bench/match.sh --only reference --variants chess).
#
#   bench/tune-chess.sh [GAMES (1880)] [JOBS (2)]
# The committed table is GAMES 1880, JOBS 2 (process j seeds its openings
# with 11 j): 164,448 positions, about 20 minutes on 2 cores.
set -eu
cd "$(dirname "$0")/.."
games=${1:-1880} jobs=${2:-2}
./scripts/ensure-packages stockfish:/usr/games/stockfish python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py
make -s build/bench/tune-features
dir=build/tune
mkdir -p "$dir"
rm -f "$dir"/positions*
for j in $(seq 1 "$jobs"); do
    /usr/bin/python3 bench/tune-positions.py "$dir/positions.$j" $((games / jobs)) $((11 * j)) &
done
wait
for j in $(seq 1 "$jobs"); do cat "$dir/positions.$j"; done >"$dir/positions"
build/bench/tune-features <"$dir/positions" >"$dir/terms"
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/tune-fit.py "$dir/terms" 400 "$dir/weights.inc"
{
    sed -n '1,/^const ChessWeights CHESS_TUNED_WEIGHTS = {$/p' src/variants/chess/chess_weights.c
    cat "$dir/weights.inc"
    echo "};"
} >"$dir/chess_weights.c"
mv "$dir/chess_weights.c" src/variants/chess/chess_weights.c
echo "tune-chess.sh: wrote src/variants/chess/chess_weights.c ($(wc -l <"$dir/positions") positions)"
