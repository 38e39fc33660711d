#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Search speed of the engine against Stockfish, both single-threaded and
# in the same run: ttchess's own bench (16 positions of every game, each to
# its fixed depth) and Stockfish's bench (its own positions, 16 MB hash, one
# thread, depth 13).  The positions differ, so the figure to watch is the
# ratio of nodes per second in one run, not either number alone; ttchess's
# node count is the signature that goes in commit messages.
#
# Usage: bench/search-speed.sh     (TTCHESS and STOCKFISH may be set)
set -euo pipefail

cd "$(dirname "$0")/.."
./scripts/ensure-packages stockfish:/usr/games/stockfish
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
if [ -z "${TTCHESS:-}" ]; then
    make -s BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess
    TTCHESS=build-bench/ttchess
fi

ours=$("$TTCHESS" bench)
our_nodes=$(printf '%s\n' "$ours" | sed -n 's/^Nodes searched: //p')
our_nps=$(printf '%s\n' "$ours" | sed -n 's/^Nodes\/second: //p')
# Stockfish writes its bench summary on standard error.
theirs=$("$STOCKFISH" bench 16 1 13 2>&1 >/dev/null)
their_nodes=$(printf '%s\n' "$theirs" | sed -n 's/^Nodes searched *: *//p')
their_nps=$(printf '%s\n' "$theirs" | sed -n 's/^Nodes\/second *: *//p')
if [ -z "$our_nps" ] || [ -z "$their_nps" ]; then
    echo "search-speed: could not read a bench summary (ttchess: '$our_nps', Stockfish: '$their_nps')" >&2
    exit 1
fi

echo "engine search, one thread:"
printf '  %-10s %12s nodes %10s nodes/s\n' ttchess "$our_nodes" "$our_nps" Stockfish "$their_nodes" "$their_nps"
awk -v a="$our_nps" -v b="$their_nps" 'BEGIN { printf "  ttchess searches at %.2f times Stockfish'"'"'s speed\n", a / b }'
