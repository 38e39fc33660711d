#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tests of 'ttchess play': each case feeds a session through standard
# input and looks for lines in what it prints.  The binary is $TTCHESS
# (default build/ttchess).  The last line is always
# "play tests: N passed, M failed"; the status is non-zero on any failure.

set -u

TTCHESS=${TTCHESS:-build/ttchess}
PASSED=0
FAILED=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/play-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

RC=0     # exit status of the last session (its output is in $WORK/out and $WORK/err)

# play INPUT [OPTIONS...]: runs one session with INPUT on standard input.
play() {
    local input=$1
    shift
    printf '%s' "$input" >"$WORK/in"
    "$TTCHESS" play "$@" <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
    RC=$?
    sanitizer_clean
}

# sanitizer_clean: a build with sanitizers reported nothing.
sanitizer_clean() {
    if grep -qE 'Sanitizer|runtime error' "$WORK/err"; then fail "sanitizer report"; fi
}

pass() { PASSED=$((PASSED + 1)); }

fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL: $1"
    echo "----- output (last 30 lines) -----"
    tail -n 30 "$WORK/out"
    echo "----- errors -----"
    cat "$WORK/err"
    echo "----------------------------------"
}

# has NAME TEXT: the output holds TEXT (a fixed string).
has() {
    if grep -qF -- "$2" "$WORK/out"; then pass; else fail "$1: no '$2' in the output"; fi
}

# has_line NAME LINE: the output holds LINE as a whole line.
has_line() {
    if grep -qxF -- "$2" "$WORK/out"; then pass; else fail "$1: no line '$2' in the output"; fi
}

# lacks NAME TEXT: the output does not hold TEXT.
lacks() {
    if grep -qF -- "$2" "$WORK/out"; then fail "$1: unexpected '$2' in the output"; else pass; fi
}

# last_line NAME LINE: the output ends with LINE.
last_line() {
    local last
    last=$(tail -n 1 "$WORK/out")
    if [ "$last" = "$2" ]; then pass; else fail "$1: last line is '$last', not '$2'"; fi
}

# status NAME CODE: the session exited with CODE.
status() {
    if [ "$RC" -eq "$2" ]; then pass; else fail "$1: exit status $RC, not $2"; fi
}

# no_escapes NAME: the output holds no ESC byte.
no_escapes() {
    if grep -q $'\x1b' "$WORK/out"; then fail "$1: escape codes in the output"; else pass; fi
}

# long_game_in_play VARIANT SEED: a random game of 120 actions, full of
# time travel, typed into play, saved, and replayed from the file.
long_game_in_play() {
    local variant=$1 seed=$2
    if [ ! -x "$RANDOM_GAME" ]; then
        fail "$variant long game: $RANDOM_GAME is not built"
        return
    fi
    "$RANDOM_GAME" --by-kind "$variant" 120 "$seed" 2>"$WORK/seed" >"$WORK/game.txt"
    { cat "$WORK/game.txt"; printf 'save %s\nquit\n' "$WORK/long.pgn"; } >"$WORK/in"
    "$TTCHESS" play --variant "$variant" --ascii <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
    RC=$?
    sanitizer_clean
    status "$variant long game in play" 0
    if [ "$(grep -c '^last action:' "$WORK/out")" -ge 120 ]; then pass
    else fail "$variant long game: not all 120 actions were accepted"; fi
    "$TTCHESS" replay "$WORK/long.pgn" >"$WORK/a" 2>"$WORK/err"
    RC=$?
    sanitizer_clean
    status "$variant long game: replay" 0
}

# one_error_line NAME: standard error is one line starting "error:", and
# standard output is empty.
one_error_line() {
    local lines
    lines=$(wc -l <"$WORK/err")
    if [ "$lines" -eq 1 ] && grep -q '^error: ' "$WORK/err" && [ ! -s "$WORK/out" ]; then
        pass
    else
        fail "$1: expected one 'error:' line on standard error and nothing on standard output"
    fi
}

# ---------------------------------------------------------------------
# A whole game: Fool's mate.
play $'f3\ne5\ng4\nQh4#\n'
status "fool's mate" 0
has_line "fool's mate" "0-1 checkmate"
has "fool's mate" "last action: 2... Qh4#"
last_line "fool's mate ends with the result" "0-1 checkmate"
lacks "fool's mate" "game adjourned"

# After the end only some commands are accepted, undo among them.
play $'f3\ne5\ng4\nQh4#\ne4\nresign\ndraw\nmoves\nhistory\nundo\n'
has_line "after the end" "the game is over (0-1 checkmate); type undo, save FILE, history or quit"
has "moves after the end" "no legal actions: the game is over"
has "history after the end" "[Timeline 1]"
has "undo after mate" "took back 2... Qh4#"
has "undo after mate" "black to move (move 2)>"
last_line "undo after mate" "game adjourned"

# ---------------------------------------------------------------------
# Refused actions print a sentence and ask again; check is announced.
play $'e5\nxyzzy\nKe2\ne4\nf5\nQh5\n'
status "illegal move" 0
if grep -v '> ' "$WORK/out" | grep -q 'e5'; then pass; else fail "illegal move: no message about e5"; fi
if grep -v '> ' "$WORK/out" | grep -q 'xyzzy'; then pass; else fail "garbage: no message about xyzzy"; fi
if grep -v '> ' "$WORK/out" | grep -qi 'king'; then pass; else fail "blocked king: no message"; fi
has "retry after refusal" "last action: 1. e4"
has_line "check" "check"

# SAN and coordinate form in one game, and undo.
play $'undo\ne2e4\ne7e5\nNf3\nb8c6\nBb5\na7a6\ne1g1\nundo\nUNDO\n'
has "nothing to undo" "nothing to undo"
has "coordinate then SAN" "last action: 1... e5"
has "SAN" "last action: 2. Nf3"
has "coordinate" "last action: 2... Nc6"
has "castling in coordinates" "last action: 4. O-O"
has "undo" "took back 4. O-O"
has "undo in capitals" "took back 3... a6"
has "undo" "black to move (move 3)>"
last_line "undo" "game adjourned"

# ---------------------------------------------------------------------
# The board in letters, then flipped; the last line has no newline.
play $'flip\ne4' --ascii
has_line "white's side" "8 r n b q k b n r 8"
has_line "white's side" "  a b c d e f g h"
has_line "flipped" "1 R N B K Q B N R 1"
has_line "flipped" "  h g f e d c b a"
has "last line without a newline" "last action: 1. e4"
no_escapes "--ascii"
lacks "--ascii has no symbols" "♜"
# Unflipped, rank 8 is the first rank drawn; flipped, rank 1.
first=$(grep -m1 -E '^[1-8] ' "$WORK/out" | cut -c1)
[ "$first" = 8 ] && pass || fail "unflipped board does not start with rank 8"
play '' --ascii --flip
first=$(grep -m1 -E '^[1-8] ' "$WORK/out" | cut -c1)
[ "$first" = 1 ] && pass || fail "--flip board does not start with rank 1"
last_line "end of input" "game adjourned"
status "end of input" 0

# Symbols without colours when the output is not a terminal; the list of
# legal actions; help.
play $'moves\nhelp\n'
has "symbols" "♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"
has "symbols" "♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖"
no_escapes "not a terminal"
has "moves" "20 legal actions for white:"
has "moves" "Nf3 (g1f3)"
has "moves" "e4 (e2e4)"
has "help" "save FILE"
has "help" "load FILE"
has "help" "resign"
has "help" "history"
has "help" "For example"
if grep -qE '^ +[a-h][1-8] +[a-h][1-8][a-h][1-8]$' "$WORK/out"; then pass; else fail "help: no example in both forms"; fi
play '' --color never
no_escapes "--color never"
play '' --color always
if grep -q $'\x1b\\[48;5;' "$WORK/out"; then pass; else fail "--color always: no 256-colour squares"; fi
has "--color always" "♔"
play '' --color=always --ascii
no_escapes "--ascii wins over --color always"
play $'moves\n' --fen "k7/8/8/8/8/8/8/K6R w - - 0 1"
has "moves from a FEN" "Rh7 (h1h7)"

# ---------------------------------------------------------------------
# Resignations, one withdrawn by undo.
play $'resign\ne4\nundo\ne4\nresign\nhistory\ne5\n'
has_line "resign" "0-1 white resigns"
has "play after resigning" "the game is over (0-1 white resigns)"
has "undo a resignation" "withdrawn: 0-1 white resigns"
has "play after withdrawing" "last action: 1. e4"
has_line "black resigns" "1-0 black resigns"
has "history keeps a resignation" "the game is over (1-0 black resigns)"
last_line "black resigns" "1-0 black resigns"

# Draw offers, after --moves.
play $'moves\ndraw\ny\n' --moves "e4 e5 Nf3 Nc6"
has "moves after --moves" "Bb5 (f1b5)"
has "draw offer" "black, do you accept a draw? [y/n]"
has_line "draw accepted" "1/2-1/2 agreed draw"
last_line "draw accepted" "1/2-1/2 agreed draw"
play $'e4\ndraw\nn\ne5\ndraw\n'
has "draw offer" "white, do you accept a draw? [y/n]"
has "draw declined" "draw declined"
has "play after declining" "last action: 1... e5"
lacks "draw declined" "agreed draw"
last_line "draw offer at end of input" "game adjourned"

# ---------------------------------------------------------------------
# Save and load.
SAVED=$(mktemp "$WORK/game.XXXXXX")
BAD=$(mktemp "$WORK/bad.XXXXXX")
printf '[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n' >"$BAD"
play "e4
e5
Nf3
save
save $WORK/no-such-dir/x.pgn
save $SAVED
quit
"
has "save without a file" "save needs a file name"
has "save to a bad path" "cannot save"
has "save" "saved to $SAVED"
if grep -q 'Nf3' "$SAVED"; then pass; else fail "save: no Nf3 in the file"; fi
last_line "quit" "game adjourned"
play "d4
load $WORK/no-such-file
load $BAD
e5
load $SAVED
"
has "load of a missing file" "cannot load"
has "load of a bad file" "cannot load $BAD"
has "load errors leave the game" "last action: 1... e5"
has "load" "loaded $SAVED"
has "load" "last action: 2. Nf3"
has "load" "black to move (move 2)>"
play $'exit\ne4\n' --load "$SAVED"
has "--load" "last action: 2. Nf3"
last_line "exit" "game adjourned"
lacks "exit stops reading" "last action: 1. e4"

# ---------------------------------------------------------------------
# A game with time travel, when the build has one: an action that travels
# back starts timeline 2, and undo returns to timeline 1.  The action is
# taken from the legal list ('<' marks a travel back in coordinate form).
if "$TTCHESS" status --variant gifford >/dev/null 2>&1; then
    opening="e4 e5 Nf3 Nc6 Bc4 Bc5"
    travel=$("$TTCHESS" moves --variant gifford --moves "$opening" | grep -m1 '<')
    if [ -n "$travel" ]; then
        play "$travel
history
undo
" --variant gifford --moves "$opening" --ascii
        has "travel back" "timeline 2 (of 2)"
        has "history of two timelines" "[Timeline 2]"
        has "undo a travel" "timeline 1, move 4, white to move"
        # The variant's description stands beside the board.
        has_line "description beside the board" "  a b c d e f g h     White arrivals: none; backward travels left: 2"
    else
        fail "gifford: no travel back among the legal actions after $opening"
    fi
fi

# ---------------------------------------------------------------------
# Gifford's game played through: the arrivals and travels each side has,
# a forced arrival (said, with the squares, and other actions refused), a
# refused action naming its rule, travels back, history as score sheets,
# save and load of a game with three timelines.
play "d2>3
e5
c3
d5
Nf3
P@a1
P@d2
Nc6
e1<1@e3
Nf6
f3
e6
e3<2@g3
history
save $WORK/gifford.pgn
" --variant gifford --ascii
has "gifford: pending arrival shown" "White arrivals: [P] at move 3"
has "gifford: travels left shown" "backward travels left: 2"
has "gifford: forced arrival said" "The white pawn [P] arrives now and must be placed on one of:"
has "gifford: other actions refused" "white must place the arriving pawn this turn"
has "gifford: refusal names the rule" "a1 is not empty: an arriving piece lands on an empty square"
has "gifford: travel back" "timeline 2 (of 2)"
has "gifford: one travel used" "White arrivals: none; backward travels left: 1"
has "gifford: second travel back" "timeline 3 (of 3)"
has "gifford: both travels used" "White arrivals: none; backward travels left: 0"
has_line "gifford: history sheet 3" "[Timeline 3]"
has "gifford: history in Gifford's notation" "1. d2// to 3  |  e5"
has "gifford: king from the future on its sheet" "K [FTF] g3"
play "load $WORK/gifford.pgn
history
" --variant gifford --ascii
has_line "gifford: loaded game keeps its timelines" "[Timeline 3]"
has "gifford: loaded game is at the right turn" "timeline 3 (of 3)"
play "" --variant gifford --ascii --moves "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7"
has "gifford: lost arrival noted" "(the black bishop [Bb] due at move 5 is lost in time)"

# ---------------------------------------------------------------------
# Nothing in the input can break a session: an overlong line, empty
# lines, control characters, a carriage return, NUL and stray bytes.
long=$(printf 'e%.0s' $(seq 1 1500))
printf '%s\n\n   \n\t\n\001\002\033[2J\177\nundo extra\nmoves e4\n\0\0\n\377\376\ne4\r\n' "$long" >"$WORK/in"
"$TTCHESS" play <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
RC=$?
sanitizer_clean
status "hostile input" 0
has "overlong line" "longer than 1000 characters"
no_escapes "control characters are not echoed"
has "command with an argument" "undo takes no argument"
has "carriage return" "last action: 1. e4"
last_line "hostile input" "game adjourned"

# ---------------------------------------------------------------------
# Long games: 320 and 400 random Gifford actions with time travel (sends,
# arrivals, kings going back, several timelines), typed into a session, then
# saved, exported both ways and replayed.  The record outgrows its first
# block of memory long before the end, and every action is formatted (last
# action, history, moves) on the way; under the sanitizers this is where a
# pointer into the record held across a call that grows it would show.
RANDOM_GAME=${RANDOM_GAME:-build/tests/random-game}
if [ -x "$RANDOM_GAME" ]; then
    for plies in 320 400; do
        "$RANDOM_GAME" gifford "$plies" 2>"$WORK/seed" >"$WORK/game.txt"
        RC=$?
        status "long game ($plies): random-game" 0
        actions=$(wc -l <"$WORK/game.txt")
        if [ "$actions" -eq "$plies" ]; then pass; else fail "long game ($plies): random-game gave $actions actions"; fi
        # The checks below look for this count: it must be a number, or
        # "timeline " would match any timeline.
        timelines=$(sed -n 's/.*, \([0-9]*\) timelines.*/\1/p' "$WORK/seed")
        case $timelines in
        '' | *[!0-9]* | 0*)
            fail "long game ($plies): no count of timelines from random-game: $(cat "$WORK/seed")"
            timelines=1
            ;;
        esac
        { cat "$WORK/game.txt"; printf 'moves\nhistory\nsave %s\nundo\nundo\nhelp\nquit\n' "$WORK/long.pgn"; } >"$WORK/in"
        "$TTCHESS" play --variant gifford --ascii <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
        RC=$?
        sanitizer_clean
        status "long game ($plies actions) in play" 0
        # After the last action the present is on the newest timeline.
        if [ "$timelines" -eq 1 ]; then has "long game ($plies): all actions accepted" "timeline 1, move"
        else has "long game ($plies): all actions accepted" "timeline $timelines (of $timelines), move"; fi
        lacks "long game ($plies): one timeline too many" "(of $((timelines + 1)))"
        lacks "long game ($plies): nothing refused" "is not a move"
        has "long game ($plies): saved" "saved to $WORK/long.pgn"
        has "long game ($plies): undo" "took back"
        for step in "export --pgn" "export --sheets" "replay"; do
            # shellcheck disable=SC2086
            "$TTCHESS" $step "$WORK/long.pgn" >"$WORK/out" 2>"$WORK/err"
            RC=$?
            sanitizer_clean
            status "long game ($plies): $step" 0
        done
        "$TTCHESS" export --sheets "$WORK/long.pgn" >"$WORK/long.sheets" 2>"$WORK/err"
        "$TTCHESS" replay "$WORK/long.pgn" >"$WORK/a" 2>>"$WORK/err"
        "$TTCHESS" replay --variant gifford "$WORK/long.sheets" >"$WORK/out" 2>>"$WORK/err"
        RC=$?
        sanitizer_clean
        if [ "$RC" -eq 0 ] && grep -q '^\[Timeline 1\]' "$WORK/a" && cmp -s "$WORK/a" "$WORK/out" &&
            [ "$(grep -c '^\[Timeline' "$WORK/out")" -eq "$timelines" ]; then
            pass
        else
            fail "long game ($plies): PGN and sheets replay alike, $timelines timelines"
        fi
        "$TTCHESS" export --pgn "$WORK/long.pgn" >"$WORK/b.pgn" 2>"$WORK/err"
        "$TTCHESS" export --pgn "$WORK/b.pgn" >"$WORK/out" 2>>"$WORK/err"
        if grep -q '^\[Variant "Time Travel Chess (Gifford)"\]' "$WORK/b.pgn" && grep -q '^1\. ' "$WORK/b.pgn" &&
            cmp -s "$WORK/b.pgn" "$WORK/out"; then pass; else fail "long game ($plies): PGN export is stable"; fi
    done
else
    fail "long games: $RANDOM_GAME is not built"
fi

# ---------------------------------------------------------------------
# van Gog: long random games of each mode typed into a session (every kind
# of travel, the panels, moves by kind), saved, exported and replayed; and
# the panel, the grouped moves list and resign with obligations open.
if [ -x "$RANDOM_GAME" ]; then
    for mode in vangog vangog-past vangog-future; do
        "$RANDOM_GAME" --by-kind "$mode" 200 2>"$WORK/seed" >"$WORK/game.txt"
        RC=$?
        status "$mode long game: random-game" 0
        { cat "$WORK/game.txt"; printf 'moves\nmoves departures\nhistory\nsave %s\nundo\nresign\nquit\n' "$WORK/vg.pgn"; } >"$WORK/in"
        "$TTCHESS" play --variant "$mode" --ascii <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
        RC=$?
        sanitizer_clean
        status "$mode long game in play" 0
        # Each accepted action draws the position again, with its last action.
        if [ "$(grep -c '^last action:' "$WORK/out")" -ge 200 ]; then pass
        else fail "$mode long game: not all 200 actions were accepted"; fi
        has "$mode long game: saved" "saved to $WORK/vg.pgn"
        if [ "$mode" = vangog-past ]; then has "$mode long game: the panel" "White obligations"
        else has "$mode long game: the panel" "White travellers"; fi
        "$TTCHESS" replay "$WORK/vg.pgn" >"$WORK/a" 2>"$WORK/err"
        RC=$?
        sanitizer_clean
        status "$mode long game: replay" 0
        "$TTCHESS" export --sheets "$WORK/vg.pgn" >"$WORK/vg.sheets" 2>"$WORK/err"
        "$TTCHESS" replay "$WORK/vg.sheets" >"$WORK/out" 2>>"$WORK/err"
        RC=$?
        sanitizer_clean
        # The sheets carry no result; the timelines are the same.
        if [ "$RC" -eq 0 ] && grep -q '^\[Timeline 1\]' "$WORK/a" &&
            cmp -s <(grep -v '^[0-9/-]* \|^ongoing' "$WORK/a") <(grep -v '^[0-9/-]* \|^ongoing' "$WORK/out"); then pass
        else fail "$mode long game: PGN and sheets replay alike"; fi
    done
else
    fail "van Gog long games: $RANDOM_GAME is not built"
fi
play 'Qd1-f3*
Nc6
Bf1-c4*
b6
Qxf7+
moves
moves Ng5
resign
' --variant vangog --ascii
status "vangog session" 0
has_line "vangog: obligations beside the board" "  a b c d e f g h     White obligations:"
has "vangog: numbered obligations" "  2. Bf1-c4*  waits on f1, c4"
has "vangog: check" "check"
has "vangog: moves by kind" "Arrivals from the future (52):"
has "vangog: moves filtered" "Ng5xf7* (Ng5f7*)"
has "vangog: resign with obligations open" "0-1 white obligations unmet"

# ---------------------------------------------------------------------
# Time Traveler's Chess: the three states drawn apart (marks in --ascii,
# inks in colour), the panel of each side, check; a long random game.
play 'Nf6/e8
moves
quit
' --variant travelers --ascii
status "travelers session" 0
has "travelers: a traveled knight" '8 r n b q N"b n r 8'
has "travelers: a traveling knight" "6 . . . . . N'. . 6"
has "travelers: white's panel" "White: unresolved, has a king, correct"
has "travelers: resonators" "N'f6 resonators: b1 g1"
has "travelers: supports" "Nf6 supports: b1"
has "travelers: kingless" "Black: resolved, kingless, correct"
play 'e4
d6
Bb5/e8
quit
' --variant travelers --color always
status "travelers colour session" 0
has "travelers: traveling ink" "$(printf '\033[38;5;19m')"
has "travelers: traveled ink" "$(printf '\033[38;5;88m')"
has "travelers: check" "Black is in check: f1//b5"
long_game_in_play travelers 1

# ---------------------------------------------------------------------
# Time Travel Chessgi: pockets, travellers, the cooldown, timelines, and a
# general travel chosen from the numbered list, then its move.
play 'Ng1>5
e5
e4
d5
exd5
Nc6
travel
travel 9
travel 2
cancel
travel 2
N@f3
P@e6
Qh4
travel
quit
' --variant chessgi --ascii
status "chessgi session" 0
has "chessgi: white pocket" "White pocket: P"
has "chessgi: travellers" "White travellers: N at move 5"
has "chessgi: cooldown" "Time travel: not for 4 more plies"
has_line "chessgi: travel list" "white can travel to 3 earlier positions (then make a move there):"
has "chessgi: a numbered target" "2. <1.2>    timeline 1, move 2, white to move: 5 squares differ: e2 d5 c6 d7 b8"
has "chessgi: bad number" "travel takes the number of a position, from 1 to 3"
has "chessgi: the chosen position" "position <1.2>: timeline 1, move 2, white to move; you keep your pocket"
has "chessgi: its moves" "52 moves there:"
has "chessgi: cancel" "no travel: you stay in the present position"
has "chessgi: the prompt" "white: the move at <1.2>> "
has "chessgi: a refused move there" "you have no knight in your pocket to drop"
has "chessgi: the travel made" "last action: 4. <1.2>P@e6"
has "chessgi: new timeline" "timeline 2 (of 2), move 2, black to move"
has "chessgi: no travel while cooling down" "no travel to an earlier position is possible now"
play 'quit
' --variant chessgi --ascii --moves "d2>3 e7e5 e2e4 d7d6"
has "chessgi: a traveller due now" "Due now: pawn, lands or is lost ([P]@d2)"
play 'quit
' --variant chessgi --ascii --moves "e2e4 e7e5 e1>3 d7d6"
has "chessgi: a king due now" "Due now: king, must land ([K]@e1)"
has "chessgi: no travel until it lands" "Time travel: not until the king lands"
long_game_in_play chessgi 3

# ---------------------------------------------------------------------
# Against the engine: it answers, it mates, undo takes back both actions.
play 'Kh8
' --variant chess --vs engine --color black --movetime 100 --fen "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1"
status "engine mates" 0
has "engine mates" "last action: 2. Ra8#"
has "engine mates" "1-0 checkmate"
play 'e2e4
undo
quit
' --variant gifford --vs engine --level 1
status "engine answers" 0
has "engine answers" "last action: 1. e4"
has "engine answers" "last action: 1... "
# The start is shown twice: at the beginning and after the undo.
if [ "$(grep -cx "timeline 1, move 1, white to move" "$WORK/out")" -eq 2 ]; then pass
else fail "undo takes back both: the start is not shown again"; fi
play 'quit
' --variant chessgi --vs engine --color black --movetime 50
has "engine moves first as white" "last action: 1. "
play '' --vs engine --level 11
status "bad --level" 2
one_error_line "bad --level"
play '' --vs computer
status "bad --vs" 2
one_error_line "bad --vs"
play '' --vs engine --movetime 0
status "bad --movetime" 2
one_error_line "bad --movetime"

# Bad command lines: one "error:" line and status 2.
play '' --bogus
status "unknown option" 2
one_error_line "unknown option"
play '' --color sometimes
status "bad --color" 2
one_error_line "bad --color"
play '' --fen "not a fen"
status "bad FEN" 2
one_error_line "bad FEN"
play '' --variant nonesuch
status "unknown variant" 2
one_error_line "unknown variant"
play '' --load "$WORK/no-such-file"
status "--load of a missing file" 2
one_error_line "--load of a missing file"
play '' stray
status "stray argument" 2
one_error_line "stray argument"
play '' --moves
status "option without a value" 2
one_error_line "option without a value"

echo "play tests: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
