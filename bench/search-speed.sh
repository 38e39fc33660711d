#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Search speed of the engine against Stockfish, both single-threaded and
# in the same run: ttchess's own bench (16 positions of every game, each to
# its fixed depth) and Stockfish's bench (its own positions, 16 MB hash, one
# thread, depth 13).  The positions differ, so the figure to watch is the
# ratio of nodes per second in one run, not either number alone; ttchess's
# node count is the signature that goes in commit messages.  Then both
# engines search the same chess positions (the six of
# tests/data/perft-standard.txt), each for SEARCH_MS milliseconds (1000)
# over UCI, one thread, 16 MB hash: their nodes per second on the same
# positions, from each one's last "info ... nodes N ... time T".
#
# Usage: bench/search-speed.sh     (TTCHESS, STOCKFISH and SEARCH_MS may be set)
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

# uci_search COMMAND FEN: searches FEN for SEARCH_MS over UCI and prints
# "NODES MILLISECONDS" from the engine's last info line with both.  The
# input stays open until the search is over: Stockfish stops at the end
# of its input.
SEARCH_MS=${SEARCH_MS:-1000}
uci_search() {
    {
        printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n'
        printf 'ucinewgame\nposition fen %s\ngo movetime %d\n' "$2" "$SEARCH_MS"
        sleep "$(awk -v ms="$SEARCH_MS" 'BEGIN { print ms / 1000 + 1 }')"
        echo quit
    } | $1 2>/dev/null | awk '/^info / && / nodes / && / time / {
            for (i = 1; i < NF; i++) { if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1) }
        } END { print n + 0, t + 0 }'
}

echo "the same chess positions, ${SEARCH_MS} ms each, one thread:"
our_n=0 our_t=0 their_n=0 their_t=0
while IFS= read -r fen; do
    read -r n t <<<"$(uci_search "$TTCHESS engine" "$fen")"
    our_n=$((our_n + n)) our_t=$((our_t + t))
    read -r n t <<<"$(uci_search "$STOCKFISH" "$fen")"
    their_n=$((their_n + n)) their_t=$((their_t + t))
done < <(grep -v '^#' tests/data/perft-standard.txt | grep -v '^[[:space:]]*$' | cut -d';' -f1 | sed 's/[[:space:]]*$//')
if [ "$our_t" -le 0 ] || [ "$their_t" -le 0 ]; then
    echo "search-speed: an engine reported no search time (ttchess $our_t ms, Stockfish $their_t ms)" >&2
    exit 1
fi
awk -v on="$our_n" -v ot="$our_t" -v tn="$their_n" -v tt="$their_t" 'BEGIN {
    a = on * 1000 / ot; b = tn * 1000 / tt
    printf "  %-10s %12d nodes %10.0f nodes/s\n  %-10s %12d nodes %10.0f nodes/s\n", "ttchess", on, a, "Stockfish", tn, b
    printf "  ttchess searches at %.2f times Stockfish'"'"'s speed on the same positions\n", a / b }'
