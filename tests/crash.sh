#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Crash tests of ttchess serve: an action acknowledged to a player is on
# disk (docs/api.md, "Every action is committed to the database before its
# reply"), whatever happens to the server after that.
#
# The load generator (bench/load.c) plays 40 games of every variant at once
# against a server on a fixed port while the server is killed with SIGKILL
# at random moments (K times, 0.3 to 1.5 s apart) and started again on the
# same port; the load reads each game back after an outage and goes on,
# logging every action answered 200.  Then, after one last start:
#
#   (a) every acknowledged action is stored at its ply (GET /api/games/ID);
#   (b) every game replays to the position the server shows, from its
#       stored actions and from its PGN record (bench/load --verify, with
#       the library), and `ttchess replay` reads every PGN record;
#   (c) the last acknowledged action of each game, sent again as it was
#       (the same body, the same ply), is answered 409 and changes nothing.
#
# SQLite only, then:
#   (d) a read-only database: writes are answered 503 with a sentence,
#       reads 200, and the server lives on: the server started on a
#       database it cannot write (as user nobody when run as root), after a
#       clean stop and after a crash; and the database made immutable under
#       a running server (root, chattr), with --shm-readonly its WAL index
#       (-shm) too;
#   (e) a full disk (a file-size limit, SIGXFSZ ignored, so that writes fail
#       with EFBIG): once the database reaches the limit, writes are
#       answered 503 with a sentence (never 500, never a crash), reads 200,
#       and the server lives on.
#
# With --postgres the server keeps its data in a throwaway PostgreSQL
# cluster (tests/pg-lib.sh), and every third kill restarts the database
# (an immediate stop and a start) instead of the server, which must answer
# 503 while the database is away and serve again once it is back.
#
# Usage: TTCHESS=build/ttchess LOAD=build/bench/load tests/crash.sh [--kills K] [--postgres] [--shm-readonly]
# (KEEP_TMP=1 keeps the scratch folder: the server's log, the load's, the
# ack log, the database.)

set -u
kills=20
postgres=no
shm_readonly=no
while [ $# -gt 0 ]; do
    case $1 in
    --kills) kills=${2:?--kills needs a number}; shift 2 ;;
    --postgres) postgres=yes; shift ;;
    --shm-readonly) shm_readonly=yes; shift ;;
    -h | --help) sed -n '3,/^# Usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: tests/crash.sh [--kills K] [--postgres] [--shm-readonly]" >&2; exit 2 ;;
    esac
done
case $kills in '' | *[!0-9]*) echo "--kills takes a number" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
# Absolute paths: the script works in its own folder (a server given a
# postgresql:// URL as a file name must not litter the work tree).
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
TTCHESS=$(abspath "${TTCHESS:-build/ttchess}")
LOAD=$(abspath "${LOAD:-build/bench/load}")
for p in "$TTCHESS" "$LOAD"; do
    [ -x "$p" ] || { echo "FAIL: $p is not built" >&2; exit 2; }
done

tmp=$(mktemp -d)
# The server may run as nobody (the read-only test), which must reach
# the database's folder.
chmod 755 "$tmp"
mkdir -p "$tmp/db" "$tmp/static"
cd "$tmp" || exit 2
. "$here/serve-lib.sh"
. "$here/pg-lib.sh"
passed=0
failed=0
load_pid=

cleanup() {
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null && wait "$load_pid" 2>/dev/null
    [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null
    # Whatever the read-only test left immutable must go with the rest.
    chattr -R -i "$tmp" 2>/dev/null
    pg_stop
    cd /
    if [ -n "${KEEP_TMP:-}" ]; then echo "the scratch folder is kept: $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

if [ "$postgres" = yes ]; then
    pg_start || exit 1
    DB=$PG_URL
else
    DB=$tmp/db/ttchess.db
fi

# ---- A server on a fixed port ---------------------------------------------------
#
# serve-lib.sh's start_server picks a new port at each start; the load
# generator must find the server where it left it, so the port is picked
# once here and kept.

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

PORT=
for try in $(seq 50); do
    p=$((20000 + RANDOM % 20000))
    port_free "$p" && { PORT=$p; break; }
done
[ -n "$PORT" ] || { echo "FAIL: no free port"; exit 1; }
B=http://127.0.0.1:$PORT

# launch [COMMAND PREFIX...]: starts the server on PORT with DB (the prefix
# runs it as another user, say); its output goes to serve.log.
launch() {
    echo "---- start $(date +%T.%N)" >>"$tmp/serve.log"
    "$@" "$TTCHESS" serve --port "$PORT" --db "$DB" --static "$tmp/static" --registrations-per-hour 100000 >>"$tmp/serve.log" 2>&1 &
    server_pid=$!
}

# ready SECONDS: waits until the server answers; false if it died or
# did not answer in time.
ready() {
    local tries=$(($1 * 20))
    for i in $(seq "$tries"); do
        [ "$(curl -s -m 1 -o /dev/null -w '%{http_code}' "$B/api/session")" = 200 ] && return 0
        kill -0 "$server_pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# start_fixed: starts the server and waits for it; a port still held by
# the killed server's connections is tried again for a while.
start_fixed() {
    for try in $(seq 20); do
        launch "$@"
        ready 10 && return 0
        kill -9 "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
        server_pid=
        sleep 0.5
    done
    echo "FAIL: the server does not start again on port $PORT:"
    tail -n 20 "$tmp/serve.log"
    exit 1
}

# stop_fixed WHEN: serve-lib.sh's stop_server with a time limit: a server that has not stopped
# within 10 s of SIGTERM fails the test and is killed, so that the test never hangs.
stop_fixed() {
    [ -n "$server_pid" ] || return 0
    kill "$server_pid" 2>/dev/null
    for i in $(seq 100); do
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$server_pid" 2>/dev/null; then
        fail "the server did not stop within 10 s of SIGTERM ($1): killed"
        kill -9 "$server_pid" 2>/dev/null
    fi
    wait "$server_pid" 2>/dev/null
    server_pid=
}

crash_server() {
    kill -9 "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
    server_pid=
}

random_sleep() {
    local ms=$((300 + RANDOM % 1201))
    sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

acked() { [ -f "$tmp/acks" ] && wc -l <"$tmp/acks" || echo 0; }

# ---- Kills under load ----------------------------------------------------------------

start_fixed
"$LOAD" --url "$B" --games 40 --rate 400 --duration 100000 --warmup 0 --tolerate-outages \
    --ack-log "$tmp/acks" --sessions "$tmp/sessions" --json --quiet >"$tmp/load.out" 2>"$tmp/load.err" &
load_pid=$!
# The kills start once the games are in play.
for i in $(seq 300); do
    [ "$(acked)" -gt 0 ] && break
    kill -0 "$load_pid" 2>/dev/null || break
    sleep 0.1
done
[ "$(acked)" -gt 0 ] || { echo "FAIL: the load did not start playing:"; cat "$tmp/load.err"; exit 1; }

server_kills=0
db_restarts=0
died=0
for k in $(seq "$kills"); do
    random_sleep
    if ! kill -0 "$server_pid" 2>/dev/null; then
        died=$((died + 1))
        fail "the server died on its own before kill $k: $(tail -n 3 "$tmp/serve.log" | tr '\n' ' ')"
        start_fixed
        continue
    fi
    if [ "$postgres" = yes ] && [ $((k % 3)) -eq 0 ]; then
        # The database goes away under the server, which must answer 503
        # meanwhile and serve again once it is back.
        before=$(acked)
        pg_restart
        db_restarts=$((db_restarts + 1))
        for i in $(seq 200); do
            [ "$(acked)" -gt "$before" ] && break
            sleep 0.05
        done
        if ! kill -0 "$server_pid" 2>/dev/null; then
            fail "the server died when the database restarted: $(tail -n 3 "$tmp/serve.log" | tr '\n' ' ')"
            start_fixed
        elif [ "$(acked)" -le "$before" ]; then
            fail "no action was acknowledged within 10 s of database restart $db_restarts"
        fi
    else
        crash_server
        server_kills=$((server_kills + 1))
        start_fixed
    fi
done
sleep 0.5
kill -TERM "$load_pid" 2>/dev/null
wait "$load_pid"
load_rc=$?
load_pid=
echo "load: $(cat "$tmp/load.out")"
if [ "$load_rc" = 0 ]; then
    pass "the load saw no answer a correct server does not give ($(acked) actions acknowledged," \
        "$server_kills server kills, $db_restarts database restarts)"
else
    fail "the load got wrong answers (exit status $load_rc):"
    head -n 30 "$tmp/load.err"
fi
[ "$died" = 0 ] && pass "the server never died on its own"

# One last crash, and the server comes back for the checks.
crash_server
start_fixed

# ---- (a), (b): every acknowledged action is stored; every game replays ---------------

"$LOAD" --verify --url "$B" --ack-log "$tmp/acks" >"$tmp/verify.out" 2>"$tmp/verify.err"
verify_rc=$?
count() { sed -n "s/^$1: \([0-9]*\) [a-z ]*, \([0-9]*\) .*/\1 \2/p" "$tmp/verify.out"; }
read -r games unreadable <<<"$(count games)"
read -r acks missing <<<"$(count acks)"
read -r replayed replay_bad <<<"$(count replay)"
read -r pgns pgn_bad <<<"$(count pgn)"
grep '^FAIL' "$tmp/verify.out" | head -n 20
if [ "${acks:-0}" -gt 0 ] && [ "${missing:-1}" = 0 ] && [ "${unreadable:-1}" = 0 ]; then
    pass "(a) all $acks acknowledged actions are stored at their ply in $games games"
else
    fail "(a) acknowledged actions: ${acks:-?} checked, ${missing:-?} missing; ${unreadable:-?} of ${games:-?} games unreadable (verify exit $verify_rc)"
    cat "$tmp/verify.err"
fi
if [ "${replayed:-0}" -gt 0 ] && [ "${replay_bad:-1}" = 0 ] && [ "${pgn_bad:-1}" = 0 ]; then
    pass "(b) $replayed games replay to their stored position, from their actions and from their PGN"
else
    fail "(b) ${replay_bad:-?} of ${replayed:-?} games do not replay from their actions, ${pgn_bad:-?} of ${pgns:-?} from their PGN"
fi

# The command-line tool reads every record too.
cut -d' ' -f1 "$tmp/acks" | sort -u >"$tmp/games"
cli_ok=0
cli_bad=0
while read -r g; do
    curl -s -m 30 -o "$tmp/game.pgn" "$B/api/games/$g/pgn"
    if "$TTCHESS" replay "$tmp/game.pgn" >"$tmp/replay.out" 2>&1; then
        cli_ok=$((cli_ok + 1))
    else
        cli_bad=$((cli_bad + 1))
        [ "$cli_bad" -le 5 ] && echo "  game $g: $(tail -n 2 "$tmp/replay.out" | tr '\n' ' ')"
    fi
done <"$tmp/games"
if [ "$cli_bad" = 0 ] && [ "$cli_ok" -gt 0 ]; then
    pass "(b) ttchess replay reads all $cli_ok PGN records"
else
    fail "(b) ttchess replay refuses $cli_bad of $((cli_ok + cli_bad)) PGN records"
fi

# ---- (c): a resent action is refused and changes nothing -------------------------------

# json_text TEXT: TEXT as a JSON string's contents.
json_text() { local s=${1//\\/\\\\}; printf '%s' "${s//\"/\\\"}"; }

resent_ok=0
resent_bad=0
awk '{ last[$1] = $0 } END { for (g in last) print last[g] }' "$tmp/acks" >"$tmp/last-acks"
while read -r g ply rest; do
    player=${rest##* }
    coord=${rest% *}
    token=$(awk -v n="$player" '$1 == n { print $2 }' "$tmp/sessions")
    curl -s -m 30 -o "$tmp/before" "$B/api/games/$g"
    code=$(curl -s -m 30 -o "$tmp/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        -H "Origin: $B" -b "ttchess_session=$token" --data-binary "{\"action\":\"$(json_text "$coord")\",\"ply\":$((ply - 1))}" \
        "$B/api/games/$g/actions")
    curl -s -m 30 -o "$tmp/after" "$B/api/games/$g"
    if [ "$code" = 409 ] && [ -s "$tmp/before" ] && cmp -s "$tmp/before" "$tmp/after"; then
        resent_ok=$((resent_ok + 1))
    else
        resent_bad=$((resent_bad + 1))
        [ "$resent_bad" -le 5 ] && echo "  game $g: $coord sent again at ply $((ply - 1)) by $player: $code $(head -c 200 "$tmp/body")$(cmp -s "$tmp/before" "$tmp/after" || echo ' (the game changed)')"
    fi
done <"$tmp/last-acks"
if [ "$resent_bad" = 0 ] && [ "$resent_ok" -gt 0 ]; then
    pass "(c) the last acknowledged action of each of $resent_ok games, sent again, is answered 409 and changes nothing"
else
    fail "(c) $resent_bad of $((resent_ok + resent_bad)) actions sent again were not answered 409, or changed the game"
fi

if [ "$postgres" = yes ]; then
    stop_fixed "at the end"
    echo "$passed passed, $failed failed (PostgreSQL: $server_kills server kills, $db_restarts database restarts)"
    [ "$failed" = 0 ]
    exit
fi

# ---- A game to write to, for (d) and (e) ----------------------------------------------

# call JAR METHOD PATH [BODY]: the status in CODE, the body in $tmp/body.
call() {
    local jar=$1 method=$2 path=$3 body=${4-}
    local args=(-s -m 30 -o "$tmp/body" -w '%{http_code}' -X "$method" -c "$tmp/$jar.jar" -b "$tmp/$jar.jar"
        -H "Origin: $B")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    : >"$tmp/body"
    CODE=$(curl "${args[@]}" "$B$path")
}
field() { grep -o "\"$1\":\"[^\"]*\"" "$tmp/body" | head -n 1 | cut -d'"' -f4; }

# new_game TAG: registers two players and opens a chess game between them
# (GAME); White's cookies are in the jar TAG-w.
new_game() {
    local tag=$1
    call "$tag-w" POST /api/register "{\"name\":\"$tag-w\",\"password\":\"crash-password\"}"
    call "$tag-b" POST /api/register "{\"name\":\"$tag-b\",\"password\":\"crash-password\"}"
    call "$tag-w" POST /api/games "{\"variant\":\"chess\",\"color\":\"white\",\"opponent\":\"$tag-b\",\"days_per_move\":30}"
    GAME=$(field id)
    [ "$CODE" = 201 ] && [ -n "$GAME" ] || return 1
    # Naming an opponent challenges them: Black accepts.
    call "$tag-b" POST "/api/games/$GAME/accept"
    [ "$CODE" = 200 ]
}

# died_how: how the server that is gone ended (its exit status, or the
# signal that killed it, when it is this shell's child).
died_how() {
    wait "$server_pid" 2>/dev/null
    local status=$?
    if [ "$status" -gt 128 ] && [ "$status" != 255 ]; then
        echo "killed by SIG$(kill -l $((status - 128)))"
    elif [ "$status" != 127 ]; then
        echo "exit status $status: $(grep -v '^----' "$tmp/serve.log" | tail -n 1)"
    else
        echo "$(grep -v '^----' "$tmp/serve.log" | tail -n 1)"
    fi
}

# refuses_writes WHAT TAG: an action and a register are answered 503 with
# an "error" sentence, a read 200, and the server lives on.
refuses_writes() {
    local what=$1 tag=$2 action register read
    call "$tag-w" POST "/api/games/$GAME/actions" '{"action":"e2e4","ply":0}'
    action="$CODE $(head -c 120 "$tmp/body")"
    local sentence
    sentence=$(field error)
    local action_ok=no
    [ "$CODE" = 503 ] && grep -q '"error"' "$tmp/body" && action_ok=yes
    call x POST /api/register "{\"name\":\"$tag-late\",\"password\":\"crash-password\"}"
    register="$CODE $(head -c 120 "$tmp/body")"
    local register_ok=no
    [ "$CODE" = 503 ] && grep -q '"error"' "$tmp/body" && register_ok=yes
    call x GET "/api/games/$GAME"
    read=$CODE
    sleep 0.2
    if [ "$action_ok" = yes ] && [ "$register_ok" = yes ] && [ "$read" = 200 ] && kill -0 "$server_pid" 2>/dev/null; then
        pass "$what: an action and a register are answered 503 with a sentence ('$sentence'), a read 200, the server lives on"
    else
        local alive="the server lives on"
        kill -0 "$server_pid" 2>/dev/null || alive="the server died: $(died_how)"
        fail "$what: action -> $action; register -> $register; read -> $read; $alive"
    fi
}

# writes_answered WHAT TAG: on a disk that is full (or was: SQLite may have
# made room in its log since), an action and a register are answered 503
# with an "error" sentence, or done; a read 200; the server lives on.
writes_answered() {
    local what=$1 tag=$2 action register read action_ok=no register_ok=no
    call "$tag-w" POST "/api/games/$GAME/actions" '{"action":"e2e4","ply":0}'
    action="$CODE $(head -c 120 "$tmp/body")"
    { [ "$CODE" = 503 ] && grep -q '"error"' "$tmp/body"; } || [ "$CODE" = 200 ] && action_ok=yes
    call x POST /api/register "{\"name\":\"$tag-late\",\"password\":\"crash-password\"}"
    register="$CODE $(head -c 120 "$tmp/body")"
    { [ "$CODE" = 503 ] && grep -q '"error"' "$tmp/body"; } || [ "$CODE" = 201 ] && register_ok=yes
    call x GET "/api/games/$GAME"
    read=$CODE
    sleep 0.2
    if [ "$action_ok" = yes ] && [ "$register_ok" = yes ] && [ "$read" = 200 ] && kill -0 "$server_pid" 2>/dev/null; then
        pass "$what: every write answered 200 or 503 with a sentence (then: action -> ${action%% *}, register -> ${register%% *}), a read 200, the server lives on"
    else
        local alive="the server lives on"
        kill -0 "$server_pid" 2>/dev/null || alive="the server died: $(died_how)"
        fail "$what: action -> $action; register -> $register; read -> $read; $alive"
    fi
}

# ---- (d) a read-only database ----------------------------------------------------------

new_game ro || fail "(d) could not open a game to write to: $CODE $(cat "$tmp/body")"

# read_only_start WHAT: starts the server on the database made read-only.
# Root ignores file modes, so as root the server runs as nobody (the folder
# and files owned by root, 755 and 644); another user's own files are made
# read-only instead.
read_only_start() {
    local what=$1
    chmod 755 "$tmp/db"
    chmod 644 "$tmp"/db/*
    if [ "$(id -u)" = 0 ]; then
        launch setpriv --reuid=nobody --regid=nogroup --clear-groups
    else
        chmod 555 "$tmp/db"
        chmod 444 "$tmp"/db/*
        launch
    fi
    if ready 10; then
        refuses_writes "(d) $what" ro
    else
        fail "(d) $what: the server does not start: $(grep -v '^----' "$tmp/serve.log" | tail -n 1)"
    fi
    stop_fixed "(d) $what"
    chmod 755 "$tmp/db"
    chmod 644 "$tmp"/db/*
}

# After a clean stop SQLite has folded its log into the database and
# removed the log (-wal) and the index (-shm); after a crash both remain.
stop_fixed "after the crash tests"
read_only_start "a server started on a read-only database after a clean stop"
start_fixed
crash_server
read_only_start "a server started on a read-only database after a crash (its -wal and -shm kept)"

# The database made read-only under a running server: immutable (root
# only, on a file system with attributes): the database, its log and the
# folder.  The WAL index (-shm), which SQLite maps into memory, stays
# writable unless --shm-readonly: a write to a mapped page of an immutable
# file is answered by SIGBUS, which today kills the server.
immutable() {
    local what=$1
    shift
    start_fixed
    chattr +i "$@"
    refuses_writes "(d) $what" ro
    chattr -i "$@"
    if kill -0 "$server_pid" 2>/dev/null; then stop_fixed "(d) $what"; else crash_server; fi
}
if [ "$(id -u)" = 0 ] && chattr +i "$tmp/db" 2>/dev/null && chattr -i "$tmp/db"; then
    immutable "a database made immutable under a running server" "$tmp/db/ttchess.db" "$tmp/db/ttchess.db-wal" "$tmp/db"
    [ "$shm_readonly" = yes ] && immutable "a database made immutable under a running server, its WAL index too" \
        "$tmp/db/ttchess.db" "$tmp/db/ttchess.db-wal" "$tmp/db/ttchess.db-shm" "$tmp/db"
else
    echo "SKIP: (d) a database made immutable under a running server (needs root and chattr)"
fi

# ---- (e) a full disk -------------------------------------------------------------------

# A fresh database whose files may not grow past 1.5 MB: the write-ahead
# log reaches that long before SQLite checkpoints it (at 4 MB), so the
# writes of the load below fail with EFBIG.  SIGXFSZ is ignored, as a
# full disk sends no signal.
DB=$tmp/full/ttchess.db
mkdir -p "$tmp/full"
(
    trap '' XFSZ
    ulimit -f 1536
    launch
    # launch runs in this subshell: the server's pid is handed out.
    echo "$server_pid" >"$tmp/full.pid"
    wait
) &
full_shell=$!
for i in $(seq 50); do [ -s "$tmp/full.pid" ] && break; sleep 0.1; done
server_pid=$(cat "$tmp/full.pid" 2>/dev/null)
if [ -n "$server_pid" ] && ready 10; then
    new_game full || fail "(e) could not open a game to write to: $CODE $(cat "$tmp/body")"
    timeout -s TERM 20 "$LOAD" --url "$B" --games 8 --rate 400 --duration 8 --warmup 0 --tolerate-outages \
        --json --quiet >"$tmp/full.out" 2>"$tmp/full.err"
    full_rc=$?
    echo "load: $(cat "$tmp/full.out")"
    size=$(du -k "$tmp/full" | cut -f1)
    if ! grep -q '"503":[1-9]' "$tmp/full.out"; then
        fail "(e) the load never got 503 from a full disk (database folder $size KB): $(cat "$tmp/full.out")"
        kill -0 "$server_pid" 2>/dev/null || echo "  the server died: $(tail -n 3 "$tmp/serve.log" | tr '\n' ' ')"
    elif [ "$full_rc" != 0 ]; then
        fail "(e) on a full disk the load got answers other than 200 and 503 (exit status $full_rc):"
        head -n 10 "$tmp/full.err"
    else
        writes_answered "(e) a full disk (database folder $size KB)" full
    fi
else
    fail "(e) the server does not start with a file-size limit: $(tail -n 2 "$tmp/serve.log" | tr '\n' ' ')"
fi
# The server is not this shell's child: stopped by its pid, its shell waited for.
stop_fixed "(e) a full disk"
wait "$full_shell" 2>/dev/null

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
