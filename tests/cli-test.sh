#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tests of the command-line contract of ttchess: perft, moves, status, help,
# and every kind of bad input.  Other tools (perft checkers, GUIs, scripts)
# rely on this contract, so the output is checked to the character:
#   - success: exit status 0 and exactly the documented output;
#   - bad input: exit status 2, nothing on standard output, and exactly one
#     line on standard error, starting with "error: ".
# Every run has a time limit: a hang is a failure, not a stuck test suite.
#
# Usage: TTCHESS=path/to/ttchess tests/cli-test.sh   (default build/ttchess)

set -u

TTCHESS=${TTCHESS:-build/ttchess}
LIMIT=10
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

START_FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
START_MOVES="a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4"

# ---------------------------------------------------------------------------
# Running and judging

# Runs ttchess with the arguments; leaves stdout in $tmp/out, stderr in
# $tmp/err and the exit status in RC.  Standard input is closed so that a
# command waiting for input fails instead of hanging.
run() {
    timeout "$LIMIT" "$TTCHESS" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    RC=$?
}

ok() {
    passed=$((passed + 1))
}

# Reports a failed check with what was expected and what came out.
bad() {
    local name=$1 why=$2
    failed=$((failed + 1))
    echo "FAIL: $name: $why" >&2
    echo "  --- stdout:" >&2
    head -n 20 "$tmp/out" | sed 's/^/  | /' >&2
    echo "  --- stderr:" >&2
    head -n 5 "$tmp/err" | sed 's/^/  | /' >&2
}

# The exit status must be the expected one; a timeout is named as such.
status_is() {
    local name=$1 want=$2
    if [ "$RC" -eq 124 ]; then
        bad "$name" "timed out after ${LIMIT}s"
        return 1
    fi
    if [ "$RC" -ne "$want" ]; then
        bad "$name" "exit status $RC, expected $want"
        return 1
    fi
    return 0
}

# Does the file hold exactly the text (as lines, with a final newline; an
# empty text means an empty file)?
file_is() {
    local file=$1 text=$2
    if [ -z "$text" ]; then
        [ ! -s "$file" ]
    else
        printf '%s\n' "$text" | cmp -s - "$file"
    fi
}

# Do the two files hold the same text, and is it not empty?  Two empty
# outputs (both commands failed) are no round trip.
same_nonempty() {
    [ -s "$1" ] && cmp -s "$1" "$2"
}

# Does the file hold exactly N lines starting "[Timeline"?
timelines_are() {
    [ "$(grep -c '^\[Timeline' "$1")" -eq "$2" ]
}

# expect_stdout NAME TEXT ARGS...: exit 0 and stdout exactly TEXT.
expect_stdout() {
    local name=$1 text=$2
    shift 2
    run "$@"
    status_is "$name" 0 || return
    if ! file_is "$tmp/out" "$text"; then
        bad "$name" "stdout is not: $text"
        return
    fi
    ok
}

# expect_moves NAME "m1 m2 ..." ARGS...: exit 0 and stdout holds exactly
# these moves, one a line, in any order.
expect_moves() {
    local name=$1 moves=$2
    shift 2
    run "$@"
    status_is "$name" 0 || return
    local want got
    want=$(printf '%s\n' "$moves" | tr ' ' '\n' | sort)
    got=$(sort "$tmp/out")
    if [ "$want" != "$got" ]; then
        bad "$name" "moves differ from: $moves"
        return
    fi
    ok
}

# expect_nodes NAME N ARGS...: exit 0 and the last stdout line is exactly
# "Nodes searched: N".
expect_nodes() {
    local name=$1 nodes=$2
    shift 2
    run "$@"
    status_is "$name" 0 || return
    if [ "$(tail -n 1 "$tmp/out")" != "Nodes searched: $nodes" ]; then
        bad "$name" "last line is not 'Nodes searched: $nodes'"
        return
    fi
    ok
}

# expect_error NAME MESSAGE ARGS...: exit 2, empty stdout, and stderr one
# line starting with "error: ".  MESSAGE is that whole line, or its start
# when it ends in '*'.
expect_error() {
    local name=$1 message=$2
    shift 2
    run "$@"
    status_is "$name" 2 || return
    if [ -s "$tmp/out" ]; then
        bad "$name" "stdout is not empty"
        return
    fi
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ "$(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ')" != '\n' ]; then
        bad "$name" "stderr is not exactly one line"
        return
    fi
    local line
    line=$(cat "$tmp/err")
    case $line in
    "error: "*) ;;
    *)
        bad "$name" "stderr does not start with 'error: '"
        return
        ;;
    esac
    if [ "${message%\*}" != "$message" ]; then
        case $line in
        "${message%\*}"*) ;;
        *)
            bad "$name" "stderr does not start with: ${message%\*}"
            return
            ;;
        esac
    elif [ "$line" != "$message" ]; then
        bad "$name" "stderr is not: $message"
        return
    fi
    ok
}

# expect_help NAME FIRST_LINE ARGS...: exit 0, help on stdout whose first
# line is FIRST_LINE (or starts with it when it ends in '*'), nothing on
# stderr.
expect_help() {
    local name=$1 first=$2 line
    shift 2
    run "$@"
    status_is "$name" 0 || return
    line=$(head -n 1 "$tmp/out")
    if [ "${first%\*}" != "$first" ]; then
        case $line in "${first%\*}"*) ;; *) line="(not $first)" ;; esac
        first=$line
    fi
    if [ "$line" != "$first" ] || [ ! -s "$tmp/out" ]; then
        bad "$name" "help does not begin with: $first"
        return
    fi
    if [ -s "$tmp/err" ]; then
        bad "$name" "stderr is not empty"
        return
    fi
    ok
}

# ---------------------------------------------------------------------------
# perft

perft_counts() {
    expect_stdout "perft 1 prints only the count" "Nodes searched: 20" perft 1
    expect_nodes "perft 3" 8902 perft 3
    expect_nodes "perft 4" 197281 perft 4
    expect_nodes "perft --variant chess" 400 perft --variant chess 2
    expect_nodes "perft --variant=chess" 400 perft --variant=chess 2
    expect_nodes "perft --fen kiwipete 2" 2039 perft --fen "$KIWIPETE" 2
    expect_nodes "perft --fen=FEN" 2812 perft --fen="$POSITION3" 3
    expect_nodes "perft options after the depth" 2812 perft 3 --fen "$POSITION3"
    expect_nodes "perft --fen start position" 8902 perft --fen "$START_FEN" 3
    expect_nodes "perft four-field FEN" 2039 perft --fen "${KIWIPETE% 0 1}" 2
    # Counts after moves, cross-checked with Stockfish's perft.
    expect_nodes "perft --moves coordinates" 600 perft --moves "e2e4" 2
    expect_nodes "perft --moves depth 3" 23193 perft --moves "e2e4 e7e5 g1f3" 3
    expect_nodes "perft --moves SAN" 23193 perft --moves "e4 e5 Nf3" 3
    expect_nodes "perft --moves numbered" 23193 perft --moves "1. e4 e5 2. Nf3" 3
    expect_nodes "perft --moves numbers glued" 23193 perft --moves "1.e4 1...e5 2.Nf3" 3
    expect_nodes "perft --moves= form" 29 perft --moves="e2e4 e7e5 g1f3" 1
    expect_nodes "perft --moves with castling" 1133 perft --moves "e4 e5 Qh5 Nc6 Bc4 Nf6" 2
    expect_nodes "perft --moves empty" 20 perft --moves "" 1
    # After O-O-O and Kg2: Kc1 to b1 b2 c2 d2, Rd1 to d2..d8 and e1..h1.
    expect_nodes "perft --moves on a FEN" 15 perft --fen "8/8/8/8/8/8/8/R3K2k w Q - 0 1" --moves "e1c1 h1g2" 1
    # A mated side has no moves: perft 1 is 0.
    expect_nodes "perft of a mate" 0 perft --moves "f3 e5 g4 Qh4#" 1
    expect_nodes "perft depth 20 of a mate" 0 perft --moves "f3 e5 g4 Qh4#" 20
}

# --divide: one "move: count" line per legal move, a blank line, then the
# total; the counts add up to the total.
check_divide() {
    local name=$1 moves=$2 total=$3
    shift 3
    run perft --divide "$@"
    status_is "$name" 0 || return
    local lines last blank listed sum
    lines=$(wc -l <"$tmp/out")
    last=$(tail -n 1 "$tmp/out")
    blank=$(tail -n 2 "$tmp/out" | head -n 1)
    listed=$(head -n $((lines - 2)) "$tmp/out")
    if [ "$last" != "Nodes searched: $total" ] || [ -n "$blank" ]; then
        bad "$name" "does not end with a blank line and 'Nodes searched: $total'"
        return
    fi
    if [ "$(printf '%s\n' "$listed" | grep -cvE '^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$')" -ne 0 ]; then
        bad "$name" "a divide line is not 'move: count'"
        return
    fi
    if [ "$(printf '%s\n' "$listed" | cut -d: -f1 | sort)" != "$(printf '%s\n' "$moves" | tr ' ' '\n' | sort)" ]; then
        bad "$name" "the divided moves are not the legal moves"
        return
    fi
    sum=$(printf '%s\n' "$listed" | awk -F': ' '{ s += $2 } END { print s }')
    if [ "$sum" != "$total" ]; then
        bad "$name" "the counts add up to $sum, not $total"
        return
    fi
    ok
}

perft_divide() {
    check_divide "perft --divide 1" "$START_MOVES" 20 1
    check_divide "perft --divide 2" "$START_MOVES" 400 2
    # Each start move has 20 replies.
    run perft --divide 2
    if status_is "perft --divide 2 lines" 0; then
        if [ "$(grep -c ': 20$' "$tmp/out")" -eq 20 ] && grep -qx 'e2e4: 20' "$tmp/out"; then ok; else
            bad "perft --divide 2 lines" "expected 20 lines 'move: 20'"
        fi
    fi
    # Kiwipete: counts of single moves, cross-checked with Stockfish.
    run perft --divide --fen "$KIWIPETE" 2
    if status_is "perft --divide kiwipete" 0; then
        if grep -qx 'e1g1: 43' "$tmp/out" && grep -qx 'e1c1: 43' "$tmp/out" && grep -qx 'd5e6: 46' "$tmp/out" &&
            grep -qx 'e2a6: 36' "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = "Nodes searched: 2039" ] &&
            [ "$(grep -cE '^[a-h][1-8][a-h][1-8]: ' "$tmp/out")" -eq 48 ]; then ok; else
            bad "perft --divide kiwipete" "e1g1: 43, e1c1: 43, d5e6: 46, e2a6: 36 and 48 lines expected"
        fi
    fi
    # Promotions are divided in coordinate form with the piece letter.
    check_divide "perft --divide promotions" \
        "a7a8q a7a8r a7a8b a7a8n a7b8q a7b8r a7b8b a7b8n e1d1 e1d2 e1e2 e1f1 e1f2" 13 \
        --fen "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1" 1
}

# ---------------------------------------------------------------------------
# moves

moves_lists() {
    expect_moves "moves of the start" "$START_MOVES" moves
    expect_moves "moves after 1.e4" \
        "a7a6 a7a5 b7b6 b7b5 c7c6 c7c5 d7d6 d7d5 e7e6 e7e5 f7f6 f7f5 g7g6 g7g5 h7h6 h7h5 b8a6 b8c6 g8f6 g8h6" \
        moves --moves "e4"
    # En passant refused by the horizontal pin; the pawn may still push.
    expect_moves "moves, pinned en passant" "a5a4 a5a6 a5b6 b5b6" moves --fen "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1"
    expect_moves "moves, en passant" "e1d1 e1d2 e1e2 e1f1 e1f2 e5d6 e5e6" moves --fen "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    expect_moves "moves, promotions" "a7a8q a7a8r a7a8b a7a8n a7b8q a7b8r a7b8b a7b8n e1d1 e1d2 e1e2 e1f1 e1f2" \
        moves --fen "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    # Castling is written as the king's move.
    expect_moves "moves, castling" \
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 h1g1 h1f1 e1d1 e1d2 e1e2 e1f2 e1f1 e1g1 e1c1" \
        moves --fen "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    # A game that is over has no moves to list.
    expect_stdout "moves after checkmate" "" moves --moves "f3 e5 g4 Qh4"
    expect_stdout "moves in stalemate" "" moves --fen "k7/8/1Q6/8/8/8/8/7K b - - 0 1"
    expect_stdout "moves after threefold repetition" "" moves --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    expect_stdout "moves after fifty moves" "" moves --fen "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80" --moves "Rh2"
    expect_stdout "moves with insufficient material" "" moves --fen "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"
}

# ---------------------------------------------------------------------------
# status

status_lines() {
    expect_stdout "status ongoing" "ongoing" status
    expect_stdout "status ongoing after moves" "ongoing" status --moves "e4 e5 Qh5 Nc6 Bc4 Nf6"
    expect_stdout "status 1-0 checkmate" "1-0 checkmate" status --moves "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"
    expect_stdout "status 0-1 checkmate" "0-1 checkmate" status --moves "1. f3 e5 2. g4 Qh4#"
    expect_stdout "status 0-1 checkmate, coordinates" "0-1 checkmate" status --moves "f2f3 e7e5 g2g4 d8h4"
    expect_stdout "status checkmate from a FEN (two kings: gifford)" "0-1 checkmate" \
        status --variant gifford --fen "4k3/8/8/8/8/8/8/r3K2K w - - 0 1"
    expect_stdout "status stalemate" "1/2-1/2 stalemate" status --fen "k7/8/1Q6/8/8/8/8/7K b - - 0 1"
    expect_stdout "status stalemate after a move" "1/2-1/2 stalemate" \
        status --fen "k7/8/8/1Q6/8/8/8/7K w - - 0 1" --moves "Qb6"
    expect_stdout "status threefold repetition" "1/2-1/2 threefold repetition" \
        status --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    expect_stdout "status twofold is ongoing" "ongoing" status --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
    expect_stdout "status fifty-move rule" "1/2-1/2 fifty-move rule" \
        status --fen "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80" --moves "Rh2"
    expect_stdout "status 99 plies is ongoing" "ongoing" status --fen "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80"
    expect_stdout "status insufficient material" "1/2-1/2 insufficient material" \
        status --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    expect_stdout "status insufficient after a capture" "1/2-1/2 insufficient material" \
        status --fen "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1" --moves "Kxe2"
    expect_stdout "status bishops of opposite colours" "ongoing" status --fen "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1"
}

# ---------------------------------------------------------------------------
# help

help_texts() {
    # The general help names the program on its first line.
    expect_help "help" "ttchess*" help
    expect_help "--help" "ttchess*" --help
    expect_help "-h" "ttchess*" -h
    expect_help "no command" "ttchess*"
    expect_help "help perft" "usage: ttchess perft [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" help perft
    expect_help "perft --help" "usage: ttchess perft [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" perft --help
    expect_help "perft -h" "usage: ttchess perft [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" perft -h
    expect_help "help moves" "usage: ttchess moves [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" help moves
    expect_help "moves --help" "usage: ttchess moves [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" moves --help
    expect_help "help status" "usage: ttchess status [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" help status
    expect_help "status --help" "usage: ttchess status [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" status --help
}

# ---------------------------------------------------------------------------
# Bad input

bad_commands_and_options() {
    expect_error "unknown command" "error: unknown command 'frobnicate' (see 'ttchess help')" frobnicate
    expect_error "unknown command in help" "error: unknown command 'frobnicate' (see 'ttchess help')" help frobnicate
    expect_error "a depth for a command" "error: unknown command '5' (see 'ttchess help')" 5
    expect_error "unknown option" "error: unknown option '--frob' (see 'ttchess perft --help')" perft --frob 3
    expect_error "unknown short option" "error: unknown option '-x' (see 'ttchess moves --help')" moves -x
    expect_error "--divide is perft's" "error: unknown option '--divide' (see 'ttchess status --help')" status --divide
    expect_error "--divide takes no value" "error: unknown option '--divide=1' (see 'ttchess perft --help')" \
        perft --divide=1 2
    expect_error "option prefix" "error: unknown option '--fenx' (see 'ttchess perft --help')" perft --fenx 1
    expect_error "stray argument to moves" "error: unexpected argument '3' (see 'ttchess moves --help')" moves 3
    expect_error "stray argument to status" "error: unexpected argument 'now' (see 'ttchess status --help')" status now
    expect_error "missing --fen value" "error: --fen needs a value" perft 3 --fen
    expect_error "missing --moves value" "error: --moves needs a value" perft 1 --moves
    expect_error "missing --variant value" "error: --variant needs a value" moves --variant
    expect_error "missing --fen value (status)" "error: --fen needs a value" status --fen
}

bad_fens() {
    expect_error "FEN: bad piece letter" "error: bad FEN: 'x' is not a piece letter" \
        perft --fen "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 1
    expect_error "FEN: not a FEN" "error: bad FEN: 'a' is not a piece letter" perft --fen "bad" 1
    expect_error "FEN: rank too long" "error: bad FEN: rank 7 has more than 8 squares" \
        moves --fen "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    expect_error "FEN: rank too short" "error: bad FEN: rank 7 has 7 squares, not 8" \
        status --fen "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    expect_error "FEN: too many ranks" "error: bad FEN: more than 8 ranks" perft --fen "8/8/8/8/8/8/8/8/8 w - - 0 1" 1
    expect_error "FEN: too few ranks" "error: bad FEN: the board needs 8 ranks of 8 squares" \
        perft --fen "8/8/8/8/8/8/4K2k w - - 0 1" 1
    expect_error "FEN: bad side" "error: bad FEN: the side to move must be 'w' or 'b'" \
        perft --fen "4k3/8/8/8/8/8/8/4K3 x - - 0 1" 1
    expect_error "FEN: bad castling" "error: bad FEN: castling rights must be '-' or letters from 'KQkq'" \
        perft --fen "r3k2r/8/8/8/8/8/8/R3K2R w KQkz - 0 1" 1
    # Rights the board does not fit are refused, in every variant (they share the reader).
    for v in chess chessgi-classic chessgi gifford travelers vangog; do
        expect_error "FEN: castling without its pieces ($v)" \
            "error: bad FEN: the castling right 'K' needs the white king on e1 and a white rook on h1" \
            status --variant "$v" --fen "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"
    done
    expect_error "FEN: castling without its rook" \
        "error: bad FEN: the castling right 'q' needs the black king on e8 and a black rook on a8" \
        status --fen "4k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    expect_error "FEN: bad en passant" \
        "error: bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" \
        perft --fen "4k3/8/8/8/8/8/8/4K3 w - e4 0 1" 1
    expect_error "FEN: bad move number" "error: bad FEN: the move number must be a whole number from 1 to 60000" \
        perft --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 0" 1
    expect_error "FEN: pawn on the last rank" "error: bad FEN: a pawn stands on the first or last rank" \
        perft --fen "4k2P/8/8/8/8/8/8/4K3 w - - 0 1" 1
    expect_error "FEN: trailing junk" "error: bad FEN: unexpected text after the move number" \
        perft --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 1 junk" 1
    expect_error "FEN: empty" "error: bad FEN: it is empty" perft --fen "" 1
    expect_error "FEN: empty (--fen=)" "error: bad FEN: it is empty" status --fen=
}

bad_moves() {
    # The index counts the moves of --moves, not the move numbers.
    expect_error "illegal SAN" "error: move 3 (Nf6): no knight can reach f6" perft --moves "e4 e5 Nf6" 1
    expect_error "illegal SAN, numbered" "error: move 3 (Nf6): no knight can reach f6" \
        perft --moves "1. e4 e5 2. Nf6" 1
    expect_error "illegal SAN, glued number" "error: move 3 (2.Nf6): no knight can reach f6" \
        status --moves "1.e4 e5 2.Nf6"
    expect_error "illegal coordinates" "error: move 1 (e2e5): the pawn on e2 cannot move to e5" moves --moves "e2e5"
    expect_error "empty square" "error: move 2 (e2e3): there is no piece on e2" moves --moves "e2e4 e2e3"
    expect_error "wrong colour" "error: move 1 (e7e5): the pawn on e7 is not yours: white is to move" \
        moves --moves "e7e5"
    expect_error "pinned piece" "error: move 1 (Bd3): moving the bishop on e2 would leave the white king in check" \
        perft --fen "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1" --moves "Bd3" 1
    expect_error "king into check" "error: move 1 (Kd2): moving the king on e1 would leave the white king in check" \
        perft --fen "4k3/8/8/8/8/8/8/3rK3 w - - 0 1" --moves "Kd2" 1
    expect_error "castling through pieces" \
        "error: move 1 (O-O): white cannot castle kingside: there are pieces between the king and the rook" \
        moves --moves "O-O"
    expect_error "castling through check" \
        "error: move 1 (O-O): white cannot castle: the king would pass through or land on an attacked square" \
        moves --fen "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1" --moves "O-O"
    expect_error "castling in check" "error: move 1 (e1c1): white cannot castle while in check" \
        moves --fen "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1" --moves "e1c1"
    expect_error "ambiguous SAN" \
        "error: move 7 (Nf3): ambiguous: more than one knight can reach f3 (from g1 and d4); name the one to move" \
        moves --moves "Nc3 Nc6 Nb5 Nb4 Nd4 Nd5 Nf3"
    expect_error "promotion without piece" "error: move 9 (a7b8): a pawn reaching b8 must promote: add q, r, b or n (a7b8q)" \
        moves --moves "a2a4 b7b5 a4b5 a7a6 b5a6 c7c6 a6a7 c6c5 a7b8"
    expect_error "move after the end" "error: move 8 (Ke7): the game is over (1-0 checkmate)" \
        status --moves "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7 Ke7"
    # Malformed moves.
    expect_error "malformed move" "error: move 2 (zz): 'zz' is not a move in coordinate form (e2e4) or SAN (Nf3)" \
        perft --moves "e2e4 zz" 1
    expect_error "off-board square" \
        "error: move 1 (e9e5): 'e9e5' is not a move in coordinate form (e2e4) or SAN (Nf3)" \
        perft --moves "e9e5" 1
    expect_error "promotion to a king" \
        "error: move 1 (a7a8k): 'a7a8k' is not a move in coordinate form (e2e4) or SAN (Nf3)" \
        moves --fen "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1" --moves "a7a8k"
    expect_error "only punctuation" "error: move 1 (!!): '!!' is not a move" status --moves "!!"
}

bad_depths() {
    local depth
    for depth in 0 -1 21 100 abc 3x 1.5 "" " 3" +3 99999999999999999999; do
        expect_error "bad depth '$depth'" "error: bad depth '$depth': give a whole number from 1 to 20" perft "$depth"
    done
    expect_error "missing depth" "error: perft needs a depth (e.g. 'ttchess perft 5')" perft
    expect_error "missing depth after options" "error: perft needs a depth (e.g. 'ttchess perft 5')" \
        perft --fen "$KIWIPETE" --divide
    expect_error "two depths" "error: more than one depth given ('3')" perft 2 3
}

bad_variants() {
    expect_error "unknown variant" "error: unknown variant 'nope' (known: *" perft --variant nope 1
    expect_error "unknown variant (moves)" "error: unknown variant 'Chess' (known: *" moves --variant Chess
    expect_error "empty variant" "error: unknown variant '' (known: *" status --variant=
}

# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# Gifford's Time Travel Chess through the same contract, plus the records.

SAMPLE=tests/data/gifford-sample.sheets
G_START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -/- 0/0"

gifford_commands() {
    expect_nodes "gifford perft 1" 80 perft --variant gifford 1
    expect_nodes "gifford perft 2" 6400 perft --variant gifford 2
    expect_nodes "gifford perft 3" 529709 perft --variant gifford 3
    expect_nodes "gifford perft from its FEN" 80 perft --variant gifford --fen "$G_START" 1
    expect_stdout "gifford status" "ongoing" status --variant gifford
    expect_stdout "gifford mate" "0-1 checkmate" status --variant gifford --moves "f3 e5 g4 Qh4"
    # A forced arrival: the only actions are the pawn's placements.
    run moves --variant gifford --moves "d2>3 e5 c3 d5"
    if status_is "gifford forced arrival" 0; then
        if grep -qv '^P@' "$tmp/out" || [ "$(wc -l <"$tmp/out")" -ne 33 ]; then
            bad "gifford forced arrival" "expected 33 placements P@.. only"
        else ok; fi
    fi
    run moves --variant gifford
    if status_is "gifford moves" 0; then
        if grep -qx 'f1>11' "$tmp/out" && grep -qx 'e1>2' "$tmp/out" && [ "$(wc -l <"$tmp/out")" -eq 80 ]; then ok
        else bad "gifford moves" "expected 80 actions with f1>11 and e1>2"; fi
    fi
    expect_error "gifford refusal names the rule" \
        "error: move 1 (c2>5): c2 is not next to a white king" moves --variant gifford --moves "c2>5"
    expect_error "gifford arrival conflict" \
        "error: move 3 (e2>9): white already has an arrival at move 9" status --variant gifford --moves "d2>9 e5 e2>9"
    expect_error "gifford bad FEN" "error: bad FEN: white has two arrivals at move 12" \
        status --variant gifford --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 10 P12,N12/- 0/0"
}

gifford_records() {
    if [ ! -r "$SAMPLE" ]; then
        bad "gifford sample" "cannot read $SAMPLE"
        return
    fi
    run replay --variant gifford "$SAMPLE"
    if status_is "replay sample" 0; then
        if [ "$(tail -n 1 "$tmp/out")" = "0-1 white king lost in time" ] && [ "$(grep -c '^\[Timeline' "$tmp/out")" -eq 3 ]; then ok
        else bad "replay sample" "expected three timelines and '0-1 white king lost in time' last"; fi
    fi
    # Sheets -> PGN -> sheets, and the PGN replays to the same result.
    run export --sheets --variant gifford "$SAMPLE"; cp "$tmp/out" "$tmp/a.sheets"
    run export --pgn --variant gifford "$SAMPLE"; cp "$tmp/out" "$tmp/a.pgn"
    if grep -qF '[Variant "Time Travel Chess (Gifford)"]' "$tmp/a.pgn"; then ok; else bad "export pgn" "no Variant tag"; fi
    if grep -qF '{the black bishop [Bb] due at move 5 is lost in time}' "$tmp/a.pgn"; then ok
    else bad "export pgn" "the bishop lost in time is not noted"; fi
    run export --sheets "$tmp/a.pgn"
    if timelines_are "$tmp/a.sheets" 3 && same_nonempty "$tmp/out" "$tmp/a.sheets"; then ok
    else bad "pgn round trip" "sheets from the PGN differ, or are not the sample's three timelines"; fi
    run export --pgn --variant gifford "$tmp/a.sheets"
    if grep -qF '[Variant "Time Travel Chess (Gifford)"]' "$tmp/a.pgn" && same_nonempty "$tmp/out" "$tmp/a.pgn"; then ok
    else bad "sheets round trip" "PGN from the written sheets differs, or is not the sample's"; fi
    run replay "$tmp/a.pgn"
    if [ "$(tail -n 1 "$tmp/out")" = "0-1 white king lost in time" ]; then ok; else bad "replay pgn" "wrong result"; fi
    printf '[Timeline 1]\n1. e4  |  e5\n2. Nf6\n' >"$tmp/bad.sheets"
    expect_error "replay bad sheet" \
        "error: $tmp/bad.sheets: timeline 1, move 2 (white, Nf6): no knight can reach f6" \
        replay --variant gifford "$tmp/bad.sheets"
    expect_error "replay missing file" "error: cannot open '$tmp/none.pgn'" replay "$tmp/none.pgn"
    expect_error "export without a format" "error: export needs exactly one of --pgn, --sheets and --gc" export "$SAMPLE"
    expect_help "replay help" "usage: ttchess replay*" replay --help
    # A file of ten games is read whole: replay reports each game's result,
    # export writes them all, and what it writes reads back the same.
    : >"$tmp/ten.pgn"
    for n in 1 2 3 4 5 6 7 8 9 10; do
        if [ $((n % 2)) = 1 ]; then printf '[Round "%s"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 %s 1-0\n\n' "$n" "$([ $n = 1 ] && echo Nc6 || echo d6)"
        else printf '[Round "%s"]\n\n1. d4 {%s} d5 *\n\n' "$n" "$n"; fi >>"$tmp/ten.pgn"
    done
    run replay "$tmp/ten.pgn"
    if status_is "replay ten games" 0 && [ "$(grep -c '^\[Timeline 1\]$' "$tmp/out")" = 10 ] &&
        [ "$(grep -c '^1-0 result recorded in the game file$' "$tmp/out")" = 5 ] &&
        [ "$(grep -c '^ongoing$' "$tmp/out")" = 5 ]; then ok
    else bad "replay ten games" "expected ten games, five won by white and five going on"; fi
    run export --pgn "$tmp/ten.pgn"; cp "$tmp/out" "$tmp/ten2.pgn"
    if status_is "export ten games" 0 && [ "$(grep -c '^\[Round ' "$tmp/ten2.pgn")" = 10 ] &&
        grep -qF '[Round "10"]' "$tmp/ten2.pgn"; then ok
    else bad "export ten games" "expected ten games written"; fi
    run export --pgn "$tmp/ten2.pgn"
    if status_is "export ten games again" 0 && same_nonempty "$tmp/out" "$tmp/ten2.pgn"; then ok
    else bad "export ten games again" "the exported file does not read back the same"; fi
    # Comments, clocks, evaluations and NAGs are kept through export, once each.
    printf '[Event "notes"]\n\n{start} 1. e4 {[%%clk 0:05:00]} $1 e5 {[%%clk 0:04:58] [%%eval 0.3]} 2. Nf3 ; to the line end\nNc6 $2 (2... d6) *\n' >"$tmp/notes.pgn"
    run export --pgn "$tmp/notes.pgn"; cp "$tmp/out" "$tmp/notes2.pgn"
    if status_is "export keeps comments and clocks" 0 &&
        [ "$(sed -n '/^$/,$p' "$tmp/notes2.pgn" | tr '\n' ' ')" = ' {start} 1. e4 {[%clk 0:05:00]} $1 e5 {[%clk 0:04:58] [%eval 0.3]} 2. Nf3 { to the line end} 2... Nc6 $2 *  ' ]; then ok
    else bad "export keeps comments and clocks" "$(tr '\n' ' ' <"$tmp/notes2.pgn")"; fi
    run export --pgn "$tmp/notes2.pgn"
    if status_is "export keeps comments once" 0 && same_nonempty "$tmp/out" "$tmp/notes2.pgn"; then ok
    else bad "export keeps comments once" "a second export changed the file"; fi
    printf '1. e4 e5 *\n\n1. e4 Ke7 *\n' >"$tmp/second-bad.pgn"
    run replay "$tmp/second-bad.pgn"
    if status_is "replay names the bad game" 2 && file_is "$tmp/err" "error: $tmp/second-bad.pgn, game 2: move 2 (Ke7): no king can reach e7" &&
        [ "$(tail -n 1 "$tmp/out")" = ongoing ]; then ok
    else bad "replay names the bad game" "expected the first game, then the second's error with its number"; fi
    expect_help "export help" "usage: ttchess export*" export --help
}

# ---------------------------------------------------------------------------
# Rule options, the variant list, positions that cannot arise, several ends
# at once, damaged records, records that start from a FEN.

options_and_variants() {
    run variants
    if status_is "variants" 0; then
        if grep -qx 'chess  Standard' "$tmp/out" && grep -qx 'gifford  Time Travel Chess (Gifford)' "$tmp/out" &&
            grep -q -- '--option forward=10  (1 to 31)' "$tmp/out" && grep -q -- '--option back=5 ' "$tmp/out" &&
            grep -q -- '--option back-travels=2 ' "$tmp/out"; then ok
        else bad "variants" "expected both variants and Gifford's three options with their defaults"; fi
    fi
    expect_error "variants takes no argument" "error: unexpected argument 'x' (see 'ttchess variants --help')" variants x
    # forward=8: a send to move 10 is refused, one to move 9 allowed.
    # forward=8: six men can go to moves 2 to 9 (48 sends) beside 20 moves.
    expect_nodes "gifford forward=8 perft 1" 68 perft --variant gifford --option forward=8 1
    expect_error "forward=8 refuses move 11" \
        "error: move 3 (f1>11): a piece travels at most 8 moves forward: choose a move from 3 to 10" \
        status --variant gifford --option forward=8 --moves "e4 e5 f1>11"
    expect_stdout "forward=8 allows move 10" "ongoing" status --variant gifford --option=forward=8 --moves "e4 e5 f1>10"
    expect_error "back-travels=0" "error: move 3 (e1<1@e3): backward travels are not allowed in this game (back-travels=0)" \
        status --variant gifford --option back-travels=0 --moves "e4 e5 e1<1@e3"
    expect_stdout "back-travels=1 allows one" "ongoing" \
        status --variant gifford --option back-travels=1 --moves "e4 e5 e1<1@e3"
    expect_error "unknown option" "error: gifford has no option 'sideways' (its options: forward, back, back-travels)" \
        moves --variant gifford --option sideways=3
    expect_error "option out of range" "error: bad option 'forward=40': forward is a whole number from 1 to 31" \
        moves --variant gifford --option forward=40
    expect_error "option without a value" "error: --option needs name=value (e.g. --option forward=8)" \
        moves --variant gifford --option forward
    expect_error "chess has no options" "error: chess has no options (given 'forward=3')" moves --option forward=3
}

impossible_positions() {
    expect_error "chess: side not to move in check" \
        "error: bad FEN: black is in check, but white is to move (that position cannot arise)" \
        moves --fen "4k3/4R3/8/8/8/8/8/7K w - - 0 1"
    expect_error "chess: no king" "error: bad FEN: white has 0 kings, and chess needs exactly one king a side" \
        status --fen "4k3/8/8/8/8/8/8/8 w - - 0 1"
    expect_error "chess: 16 kings" "error: bad FEN: white has 16 kings, and chess needs exactly one king a side" \
        status --fen "4k3/8/8/8/8/8/KKKKKKKK/KKKKKKKK w - - 0 1"
    expect_error "en passant square without its pawn" \
        "error: bad FEN: the en passant square d6 needs the black pawn that has just moved past it on d5" \
        moves --fen "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"
    expect_error "gifford: side not to move in check" \
        "error: bad FEN: black is in check, but white is to move (that position cannot arise)" \
        moves --variant gifford --fen "4k3/4R3/8/8/8/8/8/7K w - - 0 1"
    expect_error "gifford: no king anywhere" "error: bad FEN: black has no king, neither on the board nor arriving" \
        status --variant gifford --fen "8/8/8/8/8/8/8/4K3 w - - 0 1"
    expect_stdout "gifford: a king arriving is a king" "ongoing" \
        status --variant gifford --fen "8/8/8/8/8/8/4P3/4K3 w - - 0 1 -/K2 0/0"
    expect_stdout "gifford: several kings" "ongoing" status --variant gifford --fen "4k3/8/8/8/8/8/P7/K3K2K w - - 0 1"
}

several_ends() {
    expect_stdout "dead position before the fifty-move rule (gifford)" "1/2-1/2 insufficient material" \
        status --variant gifford --fen "4k3/8/8/8/8/8/8/4K3 w - - 100 60"
    expect_stdout "dead position before the fifty-move rule (chess)" "1/2-1/2 insufficient material" \
        status --fen "4k3/8/8/8/8/8/8/4K3 w - - 100 60"
    expect_stdout "checkmate before the fifty-move rule" "0-1 checkmate" \
        status --fen "4k3/8/8/8/8/8/5PPP/3r2K1 w - - 100 60"
    expect_stdout "fifty-move rule before repetition" "1/2-1/2 fifty-move rule" \
        status --fen "4k3/8/8/8/8/8/8/R3K3 w - - 96 60" --moves "Ra2 Kd8 Ra1 Ke8"
}

damaged_and_fen_records() {
    # An arrival lost in time, then a pawn move: "[Bw] c3" is the move c3.
    run export --sheets --variant gifford <(printf '[Timeline 1]\n1. Bf1>3  |  c6\n2. d4  |  Qa5+\n3. c3\n')
    cp "$tmp/out" "$tmp/lost.sheets"
    run replay --variant gifford "$tmp/lost.sheets"
    if status_is "lost arrival before a pawn move" 0 && grep -qx '3. \[Bw\] c3' "$tmp/out"; then ok
    else bad "lost arrival before a pawn move" "'3. [Bw] c3' does not read back"; fi
    printf '\f\v[Timeline 1]\n1. e4\n' >"$tmp/ff.sheets"
    expect_stdout "sheets after a form feed" "$(printf '[Timeline 1]\n1. e4\nongoing')" replay "$tmp/ff.sheets"
    printf '[Timeline1\n1K/ /Back\n[Timeline2\n' >"$tmp/damaged.sheets"
    expect_error "damaged sheet: no crash" \
        "error: $tmp/damaged.sheets: timeline 1, move 1 (white, K/ /Back): *" \
        replay --variant gifford "$tmp/damaged.sheets"
    # A game from a FEN keeps its start in both records.
    local fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 20 -/- 0/0"
    printf 'O-O\nO-O-O\ng1>22\nRd2\nsave %s\nquit\n' "$tmp/fen.pgn" >"$tmp/fen.in"
    timeout "$LIMIT" "$TTCHESS" play --variant gifford --fen "$fen" --ascii <"$tmp/fen.in" >"$tmp/out" 2>"$tmp/err"
    run export --sheets "$tmp/fen.pgn"; cp "$tmp/out" "$tmp/fen.sheets"
    if grep -qF "[FEN \"$fen\"]" "$tmp/fen.sheets" && grep -qF "21. K(g1)// to 22" "$tmp/fen.sheets"; then ok
    else bad "sheets keep the FEN" "no [FEN] line, or the game is not all there"; fi
    run export --pgn --variant gifford "$tmp/fen.sheets"; cp "$tmp/out" "$tmp/fen2.pgn"
    run export --sheets "$tmp/fen2.pgn"
    if status_is "sheets from a FEN replay" 0 && grep -qF "[FEN \"$fen\"]" "$tmp/fen2.pgn" && same_nonempty "$tmp/out" "$tmp/fen.sheets"; then ok
    else bad "sheets from a FEN replay" "sheets -> PGN -> sheets changed the record"; fi
    # Options travel with the records.
    printf 'e4\ne5\nf1>9\nsave %s\nquit\n' "$tmp/opt.pgn" >"$tmp/opt.in"
    timeout "$LIMIT" "$TTCHESS" play --variant gifford --option forward=8 --ascii <"$tmp/opt.in" >"$tmp/out" 2>"$tmp/err"
    if grep -qF '[Options "forward=8"]' "$tmp/opt.pgn"; then ok; else bad "PGN keeps the options" "no [Options] tag"; fi
    run export --sheets "$tmp/opt.pgn"
    if grep -qF '[Options "forward=8"]' "$tmp/out"; then ok; else bad "sheets keep the options" "no [Options] line"; fi
    expect_error "options of the file are the game's rules" \
        "error: $tmp/opt.pgn: move 3 (Bf1>9): a piece travels at most 6 moves forward: choose a move from 3 to 8" \
        replay --option forward=6 "$tmp/opt.pgn"
}

# ---------------------------------------------------------------------------
# van Gog's Time Travel Chess: the coordinate forms, the status lines, perft,
# end, refusals and records.

vangog_commands() {
    expect_nodes "vangog perft 1" 3444 perft --variant vangog 1
    expect_nodes "vangog perft 2" 11037472 perft --variant vangog 2
    expect_nodes "vangog-past perft 1" 3410 perft --variant vangog-past 1
    expect_nodes "vangog-past perft 2" 10814510 perft --variant vangog-past 2
    expect_nodes "vangog-future perft 1" 54 perft --variant vangog-future 1
    expect_nodes "vangog-future perft 2" 2916 perft --variant vangog-future 2
    # Every kind of action in its coordinate form.
    run moves --variant vangog --moves "e4 e5 Qd1-f3* Qd8-h4^ Nc3 d6 Qf3f6 d5 d1f3**"
    if status_is "vangog moves" 0 && grep -qx 'Qh4^^' "$tmp/out" && grep -qx 'Qd8d5\*' "$tmp/out" &&
        grep -qx 'd5e4^' "$tmp/out" && grep -qx 'e8d7' "$tmp/out" && ! grep -q '\*\*' "$tmp/out"; then ok
    else bad "vangog moves" "missing Qh4^^, Qd8d5*, d5e4^ or e8d7"; fi
    run moves --variant vangog --moves "d4 e5 Qd1-d3* Nc6 Qd3a3 a6"
    if status_is "vangog departure to the past" 0 && grep -qx 'd1d3\*\*' "$tmp/out"; then ok
    else bad "vangog departure to the past" "no d1d3**"; fi
    expect_stdout "vangog-future has no arrivals" "" moves --variant vangog-future --moves "f3 e5 g4 Qh4#"
    # Status lines.
    expect_stdout "seed Qxf7 is not mate" "ongoing" status --variant vangog --moves "Qd1-f3* Nc6 Bf1-c4* b6 Qxf7+"
    expect_stdout "seed Bh5 mate loses" "0-1 white obligations unmet" \
        status --variant vangog-future --moves "e4 f6 Qh5† g5 Be2 Nc6 Bh5#"
    expect_stdout "fool's mate, mode future" "0-1 checkmate" status --variant vangog-future --moves "f3 e5 g4 Qh4#"
    expect_stdout "fool's mate, mode past" "ongoing" status --variant vangog-past --moves "f3 e5 g4 Qh4+"
    expect_stdout "black obligations unmet" "1-0 black obligations unmet" \
        status --variant vangog-past --moves "d4 Rd8xd4* Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    expect_stdout "both obligations unmet" "0-0 both obligations unmet" \
        status --variant vangog --moves "Qd1-d4* Qd8-d5* Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    expect_stdout "a repetition without obligations" "1/2-1/2 threefold repetition" \
        status --variant vangog --moves "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    # end: a resignation or an agreed draw, obligations applied.
    expect_stdout "end: both lose" "0-0 both obligations unmet" \
        end --variant vangog --moves "Qd1d4* Qd8d5*" --how draw
    expect_stdout "end: white's obligations" "0-1 white obligations unmet" \
        end --variant vangog --moves "Qd1-f3* Nc6 Bf1-c4* b6 Qxf7+" --how black-resigns
    expect_stdout "end: the resigning side loses anyway" "0-1 white resigns" \
        end --variant vangog --moves "Qd1-f3* Nc6" --how white-resigns
    expect_stdout "end: chess" "1/2-1/2 agreed draw" end --how draw
    expect_stdout "end: gifford" "1-0 black resigns" end --variant gifford --how=black-resigns
    expect_stdout "end: a FEN with an open obligation" "1-0 black obligations unmet" \
        end --variant vangog --fen "4k3/8/8/8/8/8/8/R3K3 w - - 0 80 - 1:ra8a7 - -" --how draw
    expect_error "end: no --how" "error: end needs --how white-resigns, black-resigns or draw" end --variant vangog
    expect_error "end: bad --how" "error: bad --how 'resign': give white-resigns, black-resigns or draw" end --how resign
    expect_error "end: over" "error: the game is already over (0-1 checkmate)" \
        end --moves "f3 e5 g4 Qh4#" --how draw
    expect_help "help end" "usage: ttchess end [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]" help end
    # Refusals name the rule.
    expect_error "no open obligation" \
        "error: move 7 (Qe2-f3**): no open obligation Qe2-f3* (white's open obligations: Qd1-f3*)" \
        status --variant vangog --moves "e4 e5 Qd1-f3* a6 Qf3e2 a5 Qe2-f3**"
    expect_error "ex nihilo" "error: move 11 (Qd1-d3**): the queen that arrived by Qd1-d3* cannot fulfil its own obligation" \
        status --variant vangog --moves "d4 a6 Qd1-d3* a5 Qd1d2 a4 Qd2g5 b6 Qd3d1 b5 Qd1-d3**"
    expect_error "check mismatch" \
        "error: move 5 (Qh5#††): the queen left without giving check, so it may not return giving check" \
        status --variant vangog-future --moves "e4 f6 Qh5† g5 Qh5#††"
    expect_error "king self-capture" "error: move 1 (Kd1xd2*): kings never capture their own pieces" \
        status --variant vangog --moves "Kd1xd2*"
    expect_error "pawn first rank" \
        "error: move 1 (Pe1e2*): a pawn cannot arrive on its first rank or from it: no white pawn ever stands on e1" \
        status --variant vangog --moves "Pe1e2*"
    expect_error "vangog bad FEN" "error: bad FEN: the links go round in a loop" \
        status --variant vangog --fen "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - 1=2,2=1 -"
    # Records: the human form with the seed's marks, the mode, 0-0.
    printf 'Qd1-d4*\nQd8-d5*\ne4\nQd5d6\nQd4a4\nNf6\xe2\x80\xa0\nresign\nsave %s\nquit\n' "$tmp/vg.pgn" >"$tmp/vg.in"
    timeout "$LIMIT" "$TTCHESS" play --variant vangog --ascii <"$tmp/vg.in" >"$tmp/out" 2>"$tmp/err"
    if grep -qF '[Variant "Time Travel Chess (van Gog)"]' "$tmp/vg.pgn" && grep -qF '[VariantMode "full"]' "$tmp/vg.pgn" &&
        grep -qF '[Result "0-0"]' "$tmp/vg.pgn" && grep -qF '1. Qd1-d4* Qd8-d5* 2. e4 Qd6 3. Qa4 Nf6†' "$tmp/vg.pgn" &&
        grep -qF '{unmet by white: obligation 1 Qd1-d4*; unmet by black: obligation 2 Qd8-d5*} *' "$tmp/vg.pgn"; then ok
    else bad "vangog PGN" "$(tr '\n' ' ' <"$tmp/vg.pgn")"; fi
    expect_stdout "vangog PGN replays" "$(printf '[Variant "Time Travel Chess (van Gog)"]\n[VariantMode "full"]\n[Timeline 1]\n1. Qd1-d4*  |  Qd8-d5*\n2. e4  |  Qd6\n3. Qa4  |  Nf6†\n0-0 both obligations unmet')" \
        replay "$tmp/vg.pgn"
    # A draw agreed with an obligation open is judged by the game, as 'end --how draw' judges it.
    printf '[Variant "Time Travel Chess (van Gog)"]\n[Result "1/2-1/2"]\n[Termination "agreed draw"]\n\n1. Qd1-d4* e5 2. e4 Nf6 1/2-1/2\n' >"$tmp/vg-draw.pgn"
    run replay "$tmp/vg-draw.pgn"
    if status_is "vangog agreed draw replays" 0 && [ "$(tail -n 1 "$tmp/out")" = "0-1 white obligations unmet" ]; then ok
    else bad "vangog agreed draw replays" "expected '0-1 white obligations unmet' last, got '$(tail -n 1 "$tmp/out")'"; fi
    run export --sheets "$tmp/vg.pgn"; cp "$tmp/out" "$tmp/vg.sheets"
    expect_stdout "vangog sheets replay" "$(printf '[Variant "Time Travel Chess (van Gog)"]\n[VariantMode "full"]\n[Timeline 1]\n1. Qd1-d4*  |  Qd8-d5*\n2. e4  |  Qd6\n3. Qa4  |  Nf6†\nongoing')" \
        replay "$tmp/vg.sheets"
    run variants
    if status_is "variants lists the modes" 0 && grep -q '^vangog-past' "$tmp/out" && grep -q '^vangog-future' "$tmp/out"; then ok
    else bad "variants lists the modes" "no vangog-past or vangog-future"; fi
}

chessgi_commands() {
    expect_nodes "chessgi-classic perft 4" 197281 perft --variant chessgi-classic 4
    expect_nodes "chessgi-classic pockets perft 2" 32816 perft --variant chessgi-classic \
        --fen '5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48' 2
    expect_nodes "chessgi perft 1" 175 perft --variant chessgi 1
    expect_nodes "chessgi perft 2" 6600 perft --variant chessgi 2
    expect_nodes "chessgi perft 3" 217529 perft --variant chessgi 3
    # Every kind of action in its coordinate form.
    run moves --variant chessgi --moves "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6"
    if status_is "chessgi moves" 0 && grep -qx 'P@e6' "$tmp/out" && grep -qx 'f1>14' "$tmp/out" &&
        grep -qx '<1.2>P@e6' "$tmp/out" && grep -qx '<1.0>e2e4' "$tmp/out" && ! grep -q '^<1.1>' "$tmp/out"; then ok
    else bad "chessgi moves" "missing P@e6, f1>14, <1.2>P@e6 or <1.0>e2e4, or a travel to a Black position"; fi
    run moves --variant chessgi --moves "d2>3 e7e5 e2e4 d7d6"
    if status_is "chessgi traveller drop" 0 && grep -qx '\[P\]@d4' "$tmp/out" && grep -qx 'd1e2' "$tmp/out"; then ok
    else bad "chessgi traveller drop" "no [P]@d4 beside the other moves"; fi
    run moves --variant chessgi --moves "e2e4 e7e5 e1>3 d7d6"
    if status_is "chessgi king due" 0 && grep -qx '\[K\]@e1' "$tmp/out" && ! grep -qv '^\[K\]@' "$tmp/out"; then ok
    else bad "chessgi king due" "the king's drops are not the only actions"; fi
    # The options, on every command.
    expect_nodes "chessgi cooldown=0" 1296 perft --variant chessgi --option cooldown=0 --option forward=1 --option king-forward=1 2
    expect_error "chessgi bad option" "error: bad option 'capacity=99': capacity is a whole number from 1 to 32" \
        perft --variant chessgi --option capacity=99 1
    # Refusals name the rule.
    expect_error "chessgi cooldown" "error: move 4 (e8>3): no time travel for 4 more plies (the last one was 1 ply ago; the cooldown is 4)" \
        moves --variant chessgi --moves "e2e4 e7e5 e1>6 e8>3"
    expect_error "chessgi king forward" "error: move 3 (e1>8): a king travels at most 5 moves forward (to move 7 at the latest)" \
        moves --variant chessgi --moves "e2e4 e7e5 e1>8"
    expect_error "chessgi pocket full" "error: move 1 (g1>3): your pocket is full (16 pieces): a special travel needs room in it" \
        moves --variant chessgi --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQRRRRBBBBNNNN] w KQkq - 0 1' --moves "g1>3"
    expect_error "chessgi king due" "error: move 5 (d2d4): the king sent to move 3 must be dropped now (e.g. [K]@e1)" \
        moves --variant chessgi --moves "e2e4 e7e5 e1>3 d7d6 d2d4"
    expect_error "chessgi in check" "error: move 4 (g1>9): you cannot time travel while in check" \
        moves --variant chessgi --moves "e2e4 f7f6 d1h5 g1>9"
    expect_error "chessgi no pocket" "error: move 3 (<1.0>e2e4): a general travel needs a piece in your pocket, and yours is empty" \
        moves --variant chessgi --moves "e2e4 e7e5 <1.0>e2e4"
    # Status, FEN and records.
    expect_stdout "chessgi mate" "1-0 checkmate" status --variant chessgi --moves "e4 e5 Qh5 Ke7 Qxe5"
    expect_stdout "chessgi king lost in time" "0-1 white king lost in time" \
        status --variant chessgi --fen 'q3k3/2q5/4q3/6q1/1q6/3q4/5q2/7q[] w - - 0 3 K3/- 0'
    expect_stdout "chessgi fen" "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKB1R[] w KQkq d6 0 3 N5/- 1" \
        fen --variant chessgi --moves "g1>5 e7e5 e2e4 d7d5"
    expect_stdout "chessgi fen after a general travel" "rnbqkbnr/pppp1ppp/4P3/4p3/8/8/PPPPPPPP/RNBQKB1R[] b KQkq - 0 2 N5/- 4" \
        fen --variant chessgi --moves "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6 <1.2>P@e6"
    run replay tests/data/chessgi-game.pgn
    if status_is "chessgi record" 0 && grep -qx '\[Timeline 2\]' "$tmp/out" && grep -qx '4. <1.2> (move 2)' "$tmp/out" &&
        [ "$(tail -n 1 "$tmp/out")" = "ongoing" ]; then ok
    else bad "chessgi record" "no two timelines with the travel's departure, or not ongoing"; fi
    run export --pgn tests/data/chessgi-game.pgn
    if status_is "chessgi export" 0 && grep -qF '[Variant "Time Travel Chessgi"]' "$tmp/out" &&
        grep -qF '4. <1.2>P@e6 {Timeline 2} 2... Qh4' "$tmp/out"; then ok
    else bad "chessgi export" "no Variant tag or no general travel with its timeline"; fi
    run perft --variant chessgi --option cooldown=2 --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 -/- 2' 1
    if status_is "chessgi wait from FEN" 0 && grep -qx 'Nodes searched: 20' "$tmp/out"; then ok
    else bad "chessgi wait from FEN" "a wait of 2 should leave only the 20 chess moves"; fi
    expect_error "chessgi fen king in pocket" "error: bad FEN: a king cannot be in a pocket (a travelling king is written in the travellers field, e.g. K6)" \
        fen --variant chessgi --fen '4k3/8/8/8/8/8/8/4K3[K] w - - 0 1'
}

travelers_commands() {
    expect_nodes "travelers perft 1" 1078 perft --variant travelers 1
    expect_nodes "travelers perft 2" 875545 perft --variant travelers 2
    # Every kind of action in its coordinate form.
    run moves --variant travelers
    if status_is "travelers moves" 0 && grep -qx 'e2e4' "$tmp/out" && grep -qx 'Nf6/e8' "$tmp/out" &&
        grep -qx 'd4/d5' "$tmp/out" && grep -qx 'Kd3/e3' "$tmp/out" && [ "$(wc -l <"$tmp/out")" -eq 1078 ]; then ok
    else bad "travelers moves" "missing e2e4, Nf6/e8, d4/d5 or Kd3/e3, or not 1078 lines"; fi
    run moves --variant travelers --moves "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6"
    if status_is "travelers annihilation" 0 && grep -qx 'd2//d4' "$tmp/out"; then ok
    else bad "travelers annihilation" "no d2//d4"; fi
    run moves --variant travelers --fen "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
    if status_is "travelers promotions" 0 && grep -qx 'b7b8q' "$tmp/out" && grep -qx 'Qb8/h2' "$tmp/out"; then ok
    else bad "travelers promotions" "no b7b8q or Qb8/h2"; fi
    run moves --variant travelers --fen "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1"
    if status_is "travelers pawn explosion promotes" 0 && grep -qx 'b7/b8q' "$tmp/out" && grep -qx 'b7/b8n' "$tmp/out"; then ok
    else bad "travelers pawn explosion promotes" "no b7/b8q or b7/b8n"; fi
    run moves --variant travelers --fen "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    if status_is "travelers castling" 0 && grep -qx 'e1g1' "$tmp/out" && grep -qx 'e1c1' "$tmp/out"; then ok
    else bad "travelers castling" "no e1g1 or e1c1"; fi
    # Status lines, the seed's games with its own marks and move numbers.
    expect_stdout "travelers game 1" "0-1 white grammatically incorrect" status --variant travelers --moves "1.Nf6/e8 gxf6"
    expect_stdout "travelers game 2" "1-0 checkmate" \
        status --variant travelers --moves "1.e4 d6 2.Bb5/e8+ d4/d3 3.Bxd3+ Qe6/c4 4.Bxc4++"
    expect_stdout "travelers game 4" "1-0 black grammatically incorrect" \
        status --variant travelers --moves "1. e4 e5 2. Nf3/e5 Nc6/e5 3. d4/e5 Nb8//c6 4. d2//d4 Bb4/e1 5. Qd6 cxd6 6. a3 dxe5 7. axb4"
    expect_stdout "travelers stalemate" "1/2-1/2 stalemate" status --variant travelers --fen 'k"7/2Q5/1K6/8/8/8/8/8 b - - 0 1 - kd4:1 -'
    expect_stdout "travelers repetition" "1/2-1/2 threefold repetition" \
        status --variant travelers --moves "Nf6/e8 Nc6 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1"
    # The four seed games as record files.
    local n result
    for n in 1 2 3 4; do
        case $n in 1 | 3) result="0-1 white grammatically incorrect" ;; 2) result="1-0 checkmate" ;;
            4) result="1-0 black grammatically incorrect" ;; esac
        run replay "tests/data/travelers-game$n.pgn"
        if status_is "travelers record $n" 0 && [ "$(tail -n 1 "$tmp/out")" = "$result" ]; then ok
        else bad "travelers record $n" "does not end '$result'"; fi
    done
    run export --pgn "tests/data/travelers-game2.pgn"
    # The record's comments are kept; without them, the seed's notation.
    if status_is "travelers export" 0 && grep -qF "[Variant \"Time Traveler's Chess\"]" "$tmp/out" &&
        grep -qF '{Pirc alert: the Pirc doesn'"'"'t work.}' "$tmp/out" &&
        tr '\n' ' ' <"$tmp/out" | sed 's/ {[^}]*}//g; s/ [0-9]*\.\.\.//g' | grep -qF '2. Bb5/e8+ d4/d3 3. Bxd3+ Qe6/c4 4. Bxc4#'; then ok
    else bad "travelers export" "no Variant tag, comment or seed notation"; fi
    # supports and check.
    run supports --variant travelers f6
    if status_is "supports f6" 0 && grep -q 'knight knight b1 (b1c3 c3e4 e4f6)' "$tmp/out" &&
        grep -q '^  rook   none' "$tmp/out" && grep -q 'Legal explosions on f6:.* Nf6/e8' "$tmp/out"; then ok
    else bad "supports f6" "no b1 knight path, or rook, or Nf6/e8"; fi
    expect_error "supports: occupied" "error: e2 is not empty: an explosion needs an empty square" \
        supports --variant travelers e2
    expect_error "supports: chess" "error: supports is a command of Time Traveler's Chess (--variant travelers)" supports e4
    expect_error "supports: no square" "error: supports needs a square*" supports --variant travelers
    run check --variant travelers --moves "e4 d6 Bb5/e8"
    if status_is "check after Bb5/e8" 0 && grep -qx 'Black is in check.' "$tmp/out" &&
        grep -q 'White could annihilate f1//b5' "$tmp/out"; then ok
    else bad "check after Bb5/e8" "no check by f1//b5"; fi
    run check --variant travelers --moves "Nf6/e8"
    if status_is "no check after Nf6/e8" 0 && grep -qx 'Black is not in check.' "$tmp/out"; then ok
    else bad "no check after Nf6/e8" "says check"; fi
    expect_stdout "check: chess" "White is in check: a king of its is attacked." check --moves "f3 e5 g4 Qh4"
    # Refusals name the rule.
    expect_error "travelers no support" "error: move 1 (Na6/b8): no untraveled knight can reach a6 in three moves*" \
        status --variant travelers --moves "Na6/b8"
    expect_error "travelers support taken" \
        "error: move 3 (Na4/b6): every explosion needs its own support: the knight on b1 already supports the explosion on f6*" \
        status --variant travelers --moves "Nf6/e8 h6 Na4/b6"
    expect_error "travelers capture ban" \
        "error: move 2 (Nd5/f6): the traveled knight may not capture a traveling piece or a resonator" \
        status --variant travelers --moves "Nf6/e8 Nd5/f6"
    expect_error "travelers no resonator" \
        "error: move 1 (d3c4): this leaves your traveling pawn on e5 with no resonator" \
        status --variant travelers --fen "4k3/8/8/4P'3/2p5/3P4/8/4K3 w - - 0 1 d3:1 Pe5:1 -" --moves d3c4
    expect_error "travelers check" "error: move 5 (a2a3): you would be in check: Black could leave you kingless" \
        status --variant travelers --moves "f2f3 e7e5 g2g4 d8h4 a2a3"
    expect_error "travelers bad FEN" "error: bad FEN: a mark ' must follow a piece letter*" \
        status --variant travelers --fen "4k3/8/8/8/8/8/8/4K2' w - - 0 1"
}

# ---------------------------------------------------------------------------
# The engine: solve, analyze, bench, and a UCI session

# uci_session NAME "commands": runs them through 'ttchess engine' (the
# last command is not followed by quit: the session ends at end of input).
uci_session() {
    printf '%s' "$2" | timeout "$LIMIT" "$TTCHESS" engine >"$tmp/out" 2>"$tmp/err"
    RC=$?
}

has_line() {
    local name=$1 line=$2
    if grep -qxF -- "$line" "$tmp/out"; then ok; else bad "$name" "no line: $line"; fi
}

# UCI_LimitStrength, UCI_Elo and UCI_ShowWDL (docs/engine.md, "Playing
# strength"): the options listed, the lowest Elo playing otherwise than full
# strength, UCI_LimitStrength false giving full strength back, values out
# of range refused as other spin options are, and the wdl of info lines.
# uci_bestmoves NAME "setoptions" POSITIONS: the bestmove of "go depth 5"
# in each position (one "position" argument a line), a session each, so that
# no search is cut short by the next command; in $moves, one a line.
uci_bestmoves() {
    local name=$1 options=$2 p
    moves=""
    while IFS= read -r p; do
        uci_session "$name" "${options}position $p
go depth 5
"
        moves="$moves$(grep '^bestmove' "$tmp/out" | cut -d' ' -f2)
"
    done <<<"$3"
}

# UCI_LimitStrength, UCI_Elo and UCI_ShowWDL (docs/engine.md, "Playing
# strength"): the options listed, the lowest Elo playing otherwise than full
# strength, UCI_LimitStrength false giving full strength back, values out
# of range refused as other spin options are, and the wdl of info lines.
uci_elo_commands() {
    local positions="startpos moves e2e4
fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3
fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8
fen 8/5k2/8/3K4/8/8/4P3/8 w - - 0 1
fen 2r3k1/5ppp/p3p3/1p1n4/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25" strong weak
    local lowest="setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1100
"
    uci_bestmoves "uci full strength" "" "$positions"
    strong=$moves
    uci_bestmoves "uci lowest elo" "$lowest" "$positions"
    weak=$moves
    if [ "$(wc -w <<<"$strong")" -eq 6 ] && [ "$(wc -w <<<"$weak")" -eq 6 ] && [ "$strong" != "$weak" ]; then ok
    else bad "uci elo changes play" "UCI_Elo 1100 played full strength's moves in 6 positions: $(echo $weak)"; fi
    uci_bestmoves "uci limit strength off" "${lowest}setoption name UCI_LimitStrength value false
" "$positions"
    if [ "$moves" = "$strong" ]; then ok
    else bad "uci limit strength off" "UCI_LimitStrength false did not give full strength back: $(echo $moves), not $(echo $strong)"; fi
    uci_session "uci elo options" 'uci
setoption name UCI_Elo value 1099
setoption name UCI_Elo value 2001
setoption name UCI_Elo value strong
setoption name UCI_LimitStrength value yes
setoption name UCI_ShowWDL value 1
'
    if [ "$RC" -eq 0 ] && grep -qx 'option name UCI_LimitStrength type check default false' "$tmp/out" &&
        grep -qx 'option name UCI_Elo type spin default 1100 min 1100 max 2000' "$tmp/out" &&
        grep -qx 'option name UCI_ShowWDL type check default false' "$tmp/out"; then ok
    else bad "uci elo options" "missing the UCI_LimitStrength, UCI_Elo or UCI_ShowWDL option line"; fi
    has_line "uci elo too low" "info string error: UCI_Elo takes a whole number from 1100 to 2000, not '1099'"
    has_line "uci elo too high" "info string error: UCI_Elo takes a whole number from 1100 to 2000, not '2001'"
    has_line "uci elo not a number" "info string error: UCI_Elo takes a whole number from 1100 to 2000, not 'strong'"
    has_line "uci bad limit strength" "info string error: UCI_LimitStrength takes true or false, not 'yes'"
    has_line "uci bad show wdl" "info string error: UCI_ShowWDL takes true or false, not '1'"
    # wdl: per mille, summing to 1000, more wins than losses for the side
    # ahead; a mate found is a certain win.
    uci_session "uci show wdl mate" 'setoption name UCI_ShowWDL value true
position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1
go depth 4
'
    if [ "$RC" -eq 0 ] && grep -q '^info depth 4 .* score mate 2 wdl 1000 0 0 nodes ' "$tmp/out"; then ok
    else bad "uci show wdl mate" "no 'info depth 4 ... score mate 2 wdl 1000 0 0 nodes ...'"; fi
    local side infos=""
    for side in w b; do
        uci_session "uci show wdl" "setoption name UCI_ShowWDL value true
position fen 4k3/8/8/8/8/8/8/RQ2K3 $side - - 0 1
go depth 1
"
        infos="$infos$(grep '^info depth' "$tmp/out")
"
    done
    if [ "$(grep -c ' wdl ' <<<"$infos")" -eq 2 ] &&
        awk '{ for (i = 1; i < NF; i++) if ($i == "wdl") { n++; w = $(i + 1); d = $(i + 2); l = $(i + 3); if (w + d + l != 1000 || ($(i - 1) > 0) != (w > l)) bad = 1 } } END { exit !(n == 2 && !bad) }' <<<"$infos"; then ok
    else bad "uci show wdl" "a wdl that does not sum to 1000, or more wins for the side behind"; fi
}

engine_commands() {
    local ladder="7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
    expect_stdout "solve mate in 2" "white wins in 2: 1. Rb7 Kg8 2. Ra8#
first action: b1b7
positions searched: 40" solve --variant chess --fen "$ladder" --mate 2
    expect_stdout "solve: no mate in 1" "no forced win for white in 1 (every defence tried)
positions searched: 1" solve --variant chess --fen "$ladder" --mate 1
    expect_stdout "solve: mate by an arriving piece" "white wins in 1: 3. Q@a8#
first action: Q@a8
positions searched: 1" solve --variant gifford --fen "6k1/5ppp/8/8/8/8/8/6K1 w - - 0 3 Q3/- 0/0" --mate 1
    expect_stdout "solve: van Gog fork" "black wins in 1: 10... Nf3#
first action: d2f3
positions searched: 1" solve --variant vangog --fen "k7/8/8/8/1b6/8/3n4/4K1K1 b - - 0 10 g1:1 1:Kf1g1" --mate 1
    expect_error "solve --mate 0" "error: bad --mate '0': give a whole number from 1 to 10" solve --mate 0
    expect_error "solve without --mate" "error: *" solve --variant chess

    run analyze --variant chess --fen "$ladder" --depth 4 --multipv 2
    if status_is "analyze" 0 && grep -q '^depth  4  line 2 .*#2 ' "$tmp/out" &&
        grep -qx 'bestmove \(b1b7\|a2a7\)' "$tmp/out"; then ok
    else bad "analyze" "no second line with mate in 2 at depth 4, or no bestmove b1b7/a2a7"; fi
    run analyze --variant gifford --moves "e2e4 e7e5 f1>8" --depth 3
    if status_is "analyze gifford" 0 && grep -q '^depth  3  line 1 .* 2\.\.\. ' "$tmp/out" &&
        grep -q '^bestmove ' "$tmp/out"; then ok
    else bad "analyze gifford" "no depth 3 line in human notation from 2..., or no bestmove"; fi
    expect_stdout "analyze a finished game" "the game is over: 1-0 checkmate" \
        analyze --variant chess --fen "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1" --depth 3
    expect_error "analyze --depth 0" "error: bad depth '0': give a whole number from 1 to 127" analyze --depth 0
    expect_error "analyze bad variant" "error: unknown variant*" analyze --variant nope

    run bench 1
    local first second
    first=$(grep '^Nodes searched: ' "$tmp/out")
    if status_is "bench" 0 && [ "$(wc -l <"$tmp/out")" -eq 18 ] &&
        tail -n 2 "$tmp/out" | head -n 1 | grep -qx 'Nodes searched: [0-9][0-9]*' &&
        tail -n 1 "$tmp/out" | grep -qx 'Nodes/second: [0-9][0-9]*'; then ok
    else bad "bench" "not 16 positions then 'Nodes searched: N' and 'Nodes/second: N'"; fi
    run bench 1
    second=$(grep '^Nodes searched: ' "$tmp/out")
    case $first in
    "Nodes searched: "[0-9]*) if [ "$first" = "$second" ]; then ok; else bad "bench is deterministic" "$first, then $second"; fi ;;
    *) bad "bench is deterministic" "no node count: '$first'" ;;
    esac
    expect_error "bench two arguments" "error: bench takes at most one argument, the depth (see 'ttchess bench --help')" bench 1 2
    expect_error "bench bad depth" "error: bad depth 'x': give a whole number from 1 to 30" bench x

    uci_session "uci session" 'uci
isready
setoption name UCI_Variant value gifford
ucinewgame
position startpos moves e2e4 e7e5 f1>8
go depth 3
'
    if [ "$RC" -eq 0 ] && grep -qx 'option name UCI_Variant type combo default chess var chess var gifford var vangog var vangog-past var vangog-future var travelers var chessgi-classic var chessgi' "$tmp/out" &&
        grep -qx 'option name Hash type spin default 16 min 1 max 65536' "$tmp/out" &&
        grep -qx 'option name Threads type spin default 1 min 1 max 64' "$tmp/out" &&
        grep -qx 'option name MultiPV type spin default 1 min 1 max 64' "$tmp/out" &&
        grep -qx 'option name Skill Level type spin default 20 min 0 max 20' "$tmp/out" &&
        grep -qx 'option name Ponder type check default false' "$tmp/out" &&
        grep -qx 'option name Move Overhead type spin default 30 min 0 max 5000' "$tmp/out" &&
        grep -qx 'uciok' "$tmp/out" && grep -qx 'readyok' "$tmp/out" &&
        grep -q '^info depth 3 seldepth [0-9][0-9]* multipv 1 score cp -\?[0-9][0-9]* nodes [0-9][0-9]* nps [0-9][0-9]* hashfull [0-9][0-9]* time [0-9][0-9]* pv ' "$tmp/out" &&
        grep -q '^bestmove ' "$tmp/out"; then ok
    else bad "uci session" "missing an option line, uciok, readyok, a depth 3 info line or bestmove"; fi
    # A king going back in time, answered and read back in coordinate form.
    uci_session "uci king back" 'setoption name UCI_Variant value gifford
position startpos moves e2e4 e7e5 e1<1@e3 d7d5
d
'
    has_line "uci king back" "info string variant gifford fen rnbqkbnr/ppp1pppp/8/3p4/8/4K3/PPPPPPPP/RNBQKBNR w KQkq d6 0 2 -/- 1/0"
    uci_session "uci errors" 'position startpos moves e2e4 zz9
position fen nonsense
setoption name UCI_Variant value nosuch
setoption name Hash value 0
setoption name Threads value many
setoption name Nonesuch value 1
setoption name Move Overhead value -1
bogus
position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1
go depth 2
'
    has_line "uci bad action" "info string error: action 2 'zz9': 'zz9' is not a move in coordinate form (e2e4) or SAN (Nf3) (no position is set)"
    has_line "uci bad fen" "info string error: bad position: bad FEN: 'o' is not a piece letter"
    has_line "uci bad variant" "info string error: unknown variant 'nosuch' (one of: chess, gifford, vangog, vangog-past, vangog-future, travelers, chessgi-classic, chessgi)"
    has_line "uci bad hash" "info string error: Hash takes a whole number from 1 to 65536, not '0'"
    has_line "uci bad threads" "info string error: Threads takes a whole number from 1 to 64, not 'many'"
    has_line "uci unknown option" "info string error: no option named 'Nonesuch'"
    has_line "uci bad move overhead" "info string error: Move Overhead takes a whole number from 0 to 5000, not '-1'"
    has_line "uci game over" "bestmove (none)"
    # UCI_Chess960: Shredder-FEN read, X-FEN written, castling king takes
    # own rook (the king on g1 stays, the rook goes to f1); off, file
    # letters are refused and chess castles e1g1 as before.
    uci_session "uci chess960" 'uci
setoption name UCI_Chess960 value true
position fen 4k3/8/8/8/8/8/8/R5KR w HA - 0 1 moves g1h1
d
setoption name UCI_Chess960 value yes
setoption name UCI_Chess960 value false
position fen 4k3/8/8/8/8/8/8/R5KR w HA - 0 1
position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1g1
d
'
    has_line "uci chess960 option" "option name UCI_Chess960 type check default false"
    has_line "uci chess960 castling" "info string variant chess960 fen 4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"
    has_line "uci chess960 bad value" "info string error: UCI_Chess960 takes true or false, not 'yes'"
    has_line "uci chess960 off refuses files" "info string error: bad position: bad FEN: castling rights must be '-' or letters from 'KQkq'"
    has_line "uci chess960 off castles e1g1" "info string variant chess fen 4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"
    # A refused position leaves none: "go" says why and answers 0000, rather
    # than for the position before it; a new good one is played from again.
    uci_session "uci refused position" 'position startpos moves e2e4
position fen 8/8/8/8/8/8/8/8 w - - 0 1
go depth 1
position startpos moves e2e4 e2e4
go depth 1
position startpos moves e2e4
go depth 1
'
    if [ "$RC" -eq 0 ] && [ "$(grep -c '^bestmove 0000$' "$tmp/out")" -eq 2 ] &&
        [ "$(grep -c '^info string no position: ' "$tmp/out")" -eq 2 ] &&
        grep -qx "info string no position: action 2 'e2e4': .* (no position is set)" "$tmp/out" &&
        tail -n 1 "$tmp/out" | grep -q '^bestmove [a-h][1-8][a-h][1-8]'; then ok
    else bad "uci refused position" "a refused position must answer 'info string no position: ...' and 'bestmove 0000'"; fi
    # go perft writes what 'ttchess perft --divide' writes, in every game.
    local v want
    for v in chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi; do
        want=$("$TTCHESS" perft --variant "$v" --divide 2 2>/dev/null)
        uci_session "uci go perft $v" "setoption name UCI_Variant value $v
go perft 2
"
        if [ "$RC" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && grep -q '^Nodes searched: [1-9]' "$tmp/out"; then ok
        else bad "uci go perft $v" "go perft 2 differs from 'ttchess perft --divide 2'"; fi
    done
    # searchmoves restricts the root, with a limit and without one (a bare
    # one thinks a second rather than until stop).
    uci_session "uci searchmoves" 'position startpos
go depth 4 searchmoves a2a3 h2h3
'
    if [ "$RC" -eq 0 ] && grep -qx 'bestmove \(a2a3\|h2h3\)\( ponder .*\)\?' "$tmp/out" &&
        ! grep '^info depth' "$tmp/out" | grep -qv ' pv \(a2a3\|h2h3\)'; then ok
    else bad "uci searchmoves" "an action outside a2a3 h2h3 was searched or played"; fi
    uci_session "uci bare searchmoves" 'position startpos
go searchmoves g1f3
'
    if [ "$RC" -eq 0 ] && grep -q '^bestmove g1f3' "$tmp/out"; then ok
    else bad "uci bare searchmoves" "a bare go searchmoves g1f3 must answer g1f3 on its own"; fi
    # Skill Level 0 varies from game to game (seeded at each ucinewgame).
    local tries=""
    for v in 1 2 3 4 5 6 7 8 9 10 11 12; do tries="${tries}ucinewgame
position startpos moves e2e4
go depth 3
isready
"; done
    uci_session "uci skill varies" "setoption name Skill Level value 0
$tries"
    if [ "$RC" -eq 0 ] && [ "$(grep -c '^bestmove' "$tmp/out")" -eq 12 ] &&
        [ "$(grep '^bestmove' "$tmp/out" | cut -d' ' -f2 | sort -u | wc -l)" -ge 2 ]; then ok
    else bad "uci skill varies" "skill 0 played the same move in 12 new games"; fi
    # UCI_LimitStrength at the lowest UCI_Elo varies from game to game too.
    uci_session "uci elo varies" "setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1100
$tries"
    if [ "$RC" -eq 0 ] && [ "$(grep -c '^bestmove' "$tmp/out")" -eq 12 ] &&
        [ "$(grep '^bestmove' "$tmp/out" | cut -d' ' -f2 | sort -u | wc -l)" -ge 2 ]; then ok
    else bad "uci elo varies" "UCI_Elo 1100 played the same move in 12 new games"; fi
    uci_elo_commands
    # A ponder search keeps no time (movetime 300 is long past at the first
    # readyok) and, after ponderhit, thinks on the clock from then: the
    # bestmove comes after the readyok sent 0.1 s after the hit.
    { printf 'setoption name Ponder value true\nsetoption name Move Overhead value 50\nposition startpos\ngo ponder movetime 300\n'
        sleep 0.6; printf 'isready\nponderhit\n'; sleep 0.1; printf 'isready\n'; sleep 1; } |
        timeout "$LIMIT" "$TTCHESS" engine >"$tmp/out" 2>"$tmp/err"
    if [ "$(grep '^\(readyok\|bestmove\|info string\)' "$tmp/out" | cut -d' ' -f1 | tr '\n' ' ')" = "readyok readyok bestmove " ]; then ok
    else bad "uci ponderhit" "want readyok, readyok (after ponderhit), then bestmove: $(grep -c bestmove "$tmp/out") bestmove(s), $(tr '\n' '|' <"$tmp/out" | grep -o 'readyok\|bestmove[^|]*\|info string[^|]*' | tr '\n' ' ')"; fi
    # UCI_Variant takes another program's name only for the same game.
    uci_session "uci variant alias" 'setoption name UCI_Variant value gifford
setoption name UCI_Variant value normal
d
setoption name UCI_Variant value crazyhouse
'
    has_line "uci variant alias" "info string variant chess fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    has_line "uci unknown alias" "info string error: unknown variant 'crazyhouse' (one of: chess, gifford, vangog, vangog-past, vangog-future, travelers, chessgi-classic, chessgi)"
    # stop ends an infinite search with a bestmove.
    { printf 'position startpos\ngo infinite\n'; sleep 0.3; printf 'stop\n'; sleep 0.2; } |
        timeout "$LIMIT" "$TTCHESS" engine >"$tmp/out" 2>"$tmp/err"
    if grep -q '^bestmove [a-h][1-8][a-h][1-8]\( ponder .*\)\?$' "$tmp/out"; then ok; else bad "uci stop" "no bestmove after stop"; fi
    # A stop that comes before the search thread has begun is not lost.
    uci_session "uci stop at once" 'go infinite
stop
isready
'
    if [ "$RC" -eq 0 ] && grep -q '^bestmove ' "$tmp/out" && grep -qx readyok "$tmp/out"; then ok
    else bad "uci stop at once" "no bestmove, or a hang"; fi
}

# ---------------------------------------------------------------------------
# Game Courier notation: moves typed in it (--moves, play), and the move log
# export --gc writes and replay reads back.

game_courier_commands() {
    expect_stdout "gc --moves" "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" \
        fen --moves "1. P e2-e4 1... p e7-e5 2. N g1-f3 n b8-c6"
    expect_stdout "gc --moves castling" "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4" \
        fen --moves "e4 e5 Nf3 Nc6 Bc4 Bc5 K e1-g1; R h1-f1"
    expect_stdout "gc --moves en passant" "rnbqkbnr/ppp1p1pp/3P4/5p2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3" \
        fen --moves "e4 f5 e5 d5 P e5-d6; d5-"
    expect_stdout "gc --moves drop" "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKB1R[] b KQkq - 1 1" \
        fen --variant chessgi-classic --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R[N] w KQkq - 0 1" --moves "N-e4"
    expect_error "gc --moves ambiguous" \
        "error: move 3 (B f1-): 'B f1-' could be any of 10 actions, which Game Courier notation does not tell apart: Bf1>3, Bf1>4, Bf1>5, Bf1>6, Bf1>7, ...; type the one you mean as written here" \
        fen --variant gifford --moves "e4 e5 B f1-"
    expect_error "gc --moves wrong label" "error: move 1 (B g1-f3): the piece on g1 is a knight, not a bishop" \
        fen --moves "B g1-f3"
    expect_error "gc --moves square removed" \
        "error: move 1 (-e4): -e4 would take the square e4 itself off the board in Game Courier; to remove the piece on e4 write e4- or @-e4" \
        fen --moves "-e4"

    # play reads a Game Courier move as typed, spaces and all.
    printf 'P e2-e4\np e7-e5\nK e1-e2\nB f8-\nhistory\nquit\n' |
        timeout "$LIMIT" "$TTCHESS" play --color never >"$tmp/out" 2>"$tmp/err"
    RC=$?
    if status_is "gc play" 0; then
        has_line "gc play" "1. e4  |  e5"
        has_line "gc play" "2. Ke2"
        has_line "gc play" "no legal action takes the bishop on f8 off the board"
    fi

    # export --gc of a short game with castling, en passant and a promotion,
    # and the log read back.
    printf '1. e4 Nf6 2. e5 d5 3. exd6 e6 4. dxc7 Qd6 5. cxb8=Q Rxb8 6. Nf3 Bd7 7. Bc4 Nd5 8. O-O *\n' >"$tmp/short.pgn"
    expect_stdout "export --gc" "// Game Courier move log written by ttchess: one move a line, as typed into Game Courier
// [Variant \"chess\"]
1. P e2-e4
1... n g8-f6
2. P e4-e5
2... p d7-d5
3. P e5-d6; d5-
3... p e7-e6
4. P d6-c7
4... q d8-d6
5. P c7-b8; Q-b8
5... r a8-b8
6. N g1-f3
6... b c8-d7
7. B f1-c4
7... n f6-d5
8. K e1-g1; R h1-f1
// Result: ongoing" export --gc "$tmp/short.pgn"
    cp "$tmp/out" "$tmp/short.gc"
    run export --pgn "$tmp/short.gc"
    if status_is "gc log read back" 0 && grep -qF '1. e4 Nf6 2. e5 d5 3. exd6 e6 4. dxc7 Qd6 5. cxb8=Q Rxb8 6. Nf3 Bd7 7. Bc4 Nd5' "$tmp/out" &&
        grep -qF '8. O-O *' "$tmp/out"; then ok
    else bad "gc log read back" "the PGN of the log is not the game"; fi

    # Every timeline of the Gifford sample, read back as the same game.
    run export --gc --variant gifford "$SAMPLE"; cp "$tmp/out" "$tmp/sample.gc"
    if grep -qxF '1. P d2- // d2>8' "$tmp/sample.gc" && grep -qF '// Kf7<2@f8' "$tmp/sample.gc" &&
        grep -qxF '// Result: 0-1 white king lost in time' "$tmp/sample.gc"; then ok
    else bad "gc gifford log" "no send forward, king going back or result"; fi
    run export --sheets --variant gifford "$SAMPLE"; cp "$tmp/out" "$tmp/sample.sheets"
    run export --sheets "$tmp/sample.gc"
    if timelines_are "$tmp/sample.sheets" 3 && same_nonempty "$tmp/out" "$tmp/sample.sheets"; then ok
    else bad "gc gifford round trip" "sheets from the log differ, or are not the sample's three timelines"; fi
    run replay tests/data/chessgi-game.pgn; cp "$tmp/out" "$tmp/chessgi.replay"
    run export --gc tests/data/chessgi-game.pgn; cp "$tmp/out" "$tmp/chessgi.gc"
    run replay "$tmp/chessgi.gc"
    if status_is "gc chessgi round trip" 0 && grep -qxF '[Variant "Time Travel Chessgi"]' "$tmp/chessgi.replay" &&
        grep -qxF '[Timeline 1]' "$tmp/chessgi.replay" && same_nonempty "$tmp/out" "$tmp/chessgi.replay"; then ok
    else bad "gc chessgi round trip" "the log replays differently"; fi
    printf '1. P e2-e4\n1... p e7-e5\n2. N g1-f4\n' >"$tmp/bad.gc"
    expect_error "gc log error" "error: $tmp/bad.gc: line 3 (N g1-f4): the knight on g1 cannot move to f4" replay "$tmp/bad.gc"
}

if [ ! -x "$TTCHESS" ]; then
    echo "error: $TTCHESS is not an executable (build it, or set TTCHESS)" >&2
    echo "cli tests: 0 passed, 1 failed"
    exit 1
fi

perft_counts
perft_divide
moves_lists
status_lines
help_texts
bad_commands_and_options
bad_fens
bad_moves
bad_depths
bad_variants
gifford_commands
gifford_records
options_and_variants
impossible_positions
several_ends
damaged_and_fen_records
vangog_commands
travelers_commands
chessgi_commands
game_courier_commands
engine_commands

echo "cli tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
