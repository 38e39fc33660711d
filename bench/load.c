/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * load: a load generator for the HTTP API of ttchess serve (docs/api.md).
 * It registers a few players, opens N link games spread evenly over every
 * variant the server lists, and plays them all at once with uniformly
 * random legal actions, each game replayed locally by the library so that
 * every action it posts is legal.  It prints the actions committed per
 * second and the latency percentiles of the action requests.
 *
 * Everything runs in one thread over libcurl's multi interface: a game is
 * a small state machine (create, join, play, resign, resync) with at most
 * one request in flight, posting its next action on a schedule of one
 * action every N/R seconds (R the offered rate in all), so that the
 * offered load does not depend on how fast the server answers, until the
 * server falls behind, when each game sends as soon as it can.
 *
 * For tests/crash.sh it can tolerate outages (a killed server, a database
 * restarted: connection errors, time-outs and 503s), after which a game
 * reads the server's copy back and goes on from there, and it logs every
 * acknowledged action, so that the test can check that each one survived.
 * `load --verify` checks games afterwards: each acknowledged action is in
 * the game, the stored actions and the PGN record replay to the position
 * the server shows.
 *
 * Usage: load --help
 */
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "pgn.h"
#include "text.h"
#include "variant.h"
#include "registry.h"

static const char USAGE[] =
    "usage: load [options]                       play games against ttchess serve\n"
    "       load --verify --url URL [--ack-log FILE] [GAME...]   check stored games\n"
    "\n"
    "Plays N games of random legal actions of every variant at once through the\n"
    "HTTP API of ttchess serve and prints the actions committed per second and the\n"
    "latency percentiles of the action requests.\n"
    "\n"
    "  --url URL           a server, e.g. http://127.0.0.1:8080 (repeatable: the\n"
    "                      players of one game use different servers); default\n"
    "                      http://127.0.0.1:8080.  Each request carries its server's\n"
    "                      Origin; when every server is on 127.x.x.x, each player\n"
    "                      and game connects from a loopback address of its own\n"
    "                      (127.1.x.y), as many clients do\n"
    "  --games N           games played at once (default 200)\n"
    "  --rate R            actions per second offered in all (default 1000): each\n"
    "                      game posts one action every N/R seconds, at once when late\n"
    "  --duration S        seconds of measured play (default 10)\n"
    "  --warmup S          seconds of play before the measure starts (default 1)\n"
    "  --max-plies P       a game reaching P plies is resigned and replaced (120)\n"
    "  --timeout S         seconds a request may take (default 30)\n"
    "  --ack-log FILE      appends 'GAME PLY COORD PLAYER' for each action answered\n"
    "                      200 (PLY: the game's ply after it)\n"
    "  --sessions FILE     writes 'PLAYER TOKEN' for each player's session cookie\n"
    "  --tolerate-outages  connection errors, time-outs and 503s are expected (a\n"
    "                      crash test): the game reads the server's copy back and\n"
    "                      goes on; without it they are errors\n"
    "  --brief             asks for brief replies to actions (\"reply\": \"brief\")\n"
    "  --seed N            seed of the names and the actions (default: the time)\n"
    "  --quiet             no progress lines on standard error\n"
    "  --json              the results as one JSON line\n"
    "  --by-variant        the latencies and reply sizes of each variant too\n"
    "  --server-pid PID    the CPU time this server process spent in the measured\n"
    "                      window, per action committed (repeatable; a local\n"
    "                      server only: read from /proc)\n"
    "  --verify            checks the games named and those of --ack-log instead:\n"
    "                      every acknowledged action is stored at its ply, and the\n"
    "                      stored actions and the PGN record replay to the\n"
    "                      position (FEN), ply and result the server shows\n"
    "\n"
    "The exit status is 0 when nothing went wrong, 1 when a request got an answer\n"
    "it should not have (or an outage without --tolerate-outages), 2 on bad usage\n"
    "or when no server answers.  SIGINT and SIGTERM stop the play and print the\n"
    "results so far.\n";

enum {
    MAX_URLS = 16,
    NAME_BYTES = 48,
    TOKEN_BYTES = 96,
    GAME_ID_BYTES = 40,
    COORD_BYTES = 256,
    /* A reply larger than this is refused: no state of a game near the
     * ply limit comes close, and a broken server must not exhaust memory. */
    MAX_REPLY_BYTES = 64 << 20,
    /* Games a player is seated in at once: the server allows 100
     * unfinished games a player, and a game lost to an outage while being
     * created stays waiting, so half of that is kept free. */
    GAMES_PER_PLAYER = 50,
    ERRORS_PRINTED = 20,
};

static const char PASSWORD[] = "load-password";

/* ---- Small helpers ---------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: the tool needs only fast, reproducible choices. */
static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

static double rng_unit(uint64_t *state) { return (double)(rng_next(state) >> 11) / 9007199254740992.0; }

/* Memory that cannot be had ends the run: a load generator that goes on
 * with half its state would measure nothing. */
static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    return q;
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    return p;
}

/* A byte buffer that grows, NUL-terminated. */
typedef struct Buffer {
    char *data;
    size_t len, cap;
} Buffer;

static void buffer_add(Buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        b->data = xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void buffer_clear(Buffer *b)
{
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

static const char *buffer_str(const Buffer *b) { return b->data ? b->data : ""; }

/* Copies at most size - 1 bytes; false when the text did not fit. */
static bool copy_text(char *out, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n >= size) return false;
    memcpy(out, s, n + 1);
    return true;
}

/* ---- JSON ------------------------------------------------------------------- *
 *
 * jansson reads the replies and writes the request bodies.  A reply is
 * parsed whole, though the player needs only a member or two of it: the
 * parser is the library's, kept and fuzzed by others, and it bounds the
 * depth of what it reads (JSON_PARSER_MAX_DEPTH), so that no reply can
 * exhaust the stack.  The price is the load's CPU time: a full state
 * (every legal action, every node) runs to hundreds of kilobytes, some
 * milliseconds each to parse, so a run of full replies at a high rate
 * wants cores of its own besides the server's; brief replies cost next to
 * nothing.  A body is built by json_pack and written by json_dumps, so
 * that every name and action in it is escaped by the library.  The
 * readers take NULL for a reply that is not JSON or a member that is
 * missing, and answer NULL or false for it in turn. */

/* The reply as a tree (to json_decref), or NULL when it is not JSON. */
static json_t *reply_parse(const Buffer *b) { return json_loadb(buffer_str(b), b->len, 0, NULL); }

/* The string member `key` of an object, or NULL when it has none. */
static const char *member_string(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

/* The same, or "" when it has none: for members only printed or compared. */
static const char *member_text(const json_t *object, const char *key)
{
    const char *s = member_string(object, key);
    return s ? s : "";
}

static bool member_integer(const json_t *object, const char *key, long long *out)
{
    const json_t *value = json_object_get(object, key);
    if (!json_is_integer(value)) return false;
    *out = json_integer_value(value);
    return true;
}

/* The coordinate form of a stored action, an element of the state's
 * "actions", or NULL when it has none. */
static const char *action_coord(const json_t *action) { return member_string(action, "coord"); }

/* The compact text of a body json_pack built, to free.  A body that cannot
 * be built or written (memory, or a string that is not UTF-8, which no
 * name or action of the library is) ends the run, as memory does. */
static char *request_body(json_t *value)
{
    char *text = value ? json_dumps(value, JSON_COMPACT) : NULL;
    json_decref(value);
    if (!text) {
        fprintf(stderr, "load: a request body cannot be written\n");
        exit(2);
    }
    return text;
}

/* ---- The command line ------------------------------------------------------- */

typedef struct Config {
    const char *urls[MAX_URLS];
    int url_count;
    int games;
    double rate, duration, warmup, timeout;
    int max_plies;
    const char *ack_log, *sessions;
    bool tolerate, brief, quiet, json, verify, by_variant;
    uint64_t seed;
    const char **verify_games;
    int verify_game_count;
    int server_pids[MAX_URLS];   /* servers whose CPU time is measured */
    int server_pid_count;
} Config;

static bool parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

/* A base URL: http://host:port with no path (the API's paths are added). */
static bool valid_url(const char *url)
{
    size_t n = strlen(url);
    return !strncmp(url, "http://", 7) && n > 7 && n < 200 && !strchr(url + 7, '/') && !strchr(url, ' ');
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "load: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see load --help)\n");
    return 2;
}

static bool is_valued_option(const char *a)
{
    static const char *const NAMES[] = { "--url", "--games", "--rate", "--duration", "--warmup", "--timeout",
                                         "--max-plies", "--ack-log", "--sessions", "--seed", "--server-pid" };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(a, NAMES[i])) return true;
    return false;
}

/* Reads the options; returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, Config *cfg)
{
    *cfg = (Config){ .games = 200, .rate = 1000, .duration = 10, .warmup = 1, .timeout = 30, .max_plies = 120 };
    cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    cfg->verify_games = xcalloc((size_t)argc, sizeof *cfg->verify_games);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, valued = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!strcmp(a, "--tolerate-outages")) cfg->tolerate = true, valued = false;
        else if (!strcmp(a, "--brief")) cfg->brief = true, valued = false;
        else if (!strcmp(a, "--quiet")) cfg->quiet = true, valued = false;
        else if (!strcmp(a, "--json")) cfg->json = true, valued = false;
        else if (!strcmp(a, "--by-variant")) cfg->by_variant = true, valued = false;
        else if (!strcmp(a, "--verify")) cfg->verify = true, valued = false;
        else if (a[0] != '-' && cfg->verify) {
            cfg->verify_games[cfg->verify_game_count++] = a;
            valued = false;
        } else if (!is_valued_option(a)) return usage_error("'%s' is not an option", a);
        else if (!v) return usage_error("%s needs a value", a);
        else if (!strcmp(a, "--url")) {
            if (cfg->url_count == MAX_URLS) return usage_error("at most 16 servers (%s)", v);
            if (!valid_url(v)) return usage_error("--url takes http://HOST:PORT, not '%s'", v);
            cfg->urls[cfg->url_count++] = v;
        } else if (!strcmp(a, "--games")) ok = parse_int(v, 1, 100000, &cfg->games);
        else if (!strcmp(a, "--rate")) ok = parse_double(v, 0.001, 1e7, &cfg->rate);
        else if (!strcmp(a, "--duration")) ok = parse_double(v, 0.001, 1e7, &cfg->duration);
        else if (!strcmp(a, "--warmup")) ok = parse_double(v, 0, 1e7, &cfg->warmup);
        else if (!strcmp(a, "--timeout")) ok = parse_double(v, 0.01, 86400, &cfg->timeout);
        else if (!strcmp(a, "--max-plies")) ok = parse_int(v, 1, 100000, &cfg->max_plies);
        else if (!strcmp(a, "--ack-log")) cfg->ack_log = v;
        else if (!strcmp(a, "--sessions")) cfg->sessions = v;
        else if (!strcmp(a, "--server-pid")) {
            if (cfg->server_pid_count == MAX_URLS) return usage_error("at most 16 server pids (%s)", v);
            ok = parse_int(v, 1, 1 << 30, &cfg->server_pids[cfg->server_pid_count++]);
        }
        else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            cfg->seed = strtoull(v, &end, 10);
            ok = *v && !*end && !errno;
        } else return usage_error("'%s' is not an option", a);
        if (!ok) return usage_error("'%s' is not a valid value here", v);
        if (valued) i++;
    }
    if (!cfg->url_count) cfg->urls[cfg->url_count++] = "http://127.0.0.1:8080";
    if (!cfg->seed) cfg->seed = 1;
    return -1;
}

/* The CPU time (user and system) a process has used, in seconds; -1 when
 * it cannot be read (not a local process, or gone). */
static double process_cpu_seconds(int pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    bool ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    /* The command name (field 2) may hold spaces: the fields counted are
     * those after its closing parenthesis, utime and stime the 12th and 13th. */
    char *p = ok ? strrchr(line, ')') : NULL;
    unsigned long long utime = 0, stime = 0;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
    long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? (double)(utime + stime) / (double)ticks : -1;
}

/* The CPU time of every --server-pid, summed; -1 when one cannot be read. */
static double servers_cpu_seconds(const Config *cfg)
{
    double sum = 0;
    for (int i = 0; i < cfg->server_pid_count; i++) {
        double t = process_cpu_seconds(cfg->server_pids[i]);
        if (t < 0) return -1;
        sum += t;
    }
    return sum;
}

/* ---- Players, games, requests --------------------------------------------- */

typedef enum ReqKind { REQ_NONE, REQ_REGISTER, REQ_LOGIN, REQ_CREATE, REQ_JOIN, REQ_MOVE, REQ_RESIGN, REQ_GET } ReqKind;

struct Slot;
struct Player;

/* One easy handle and its reply: each player has one to register with,
 * each game slot one for all its requests. */
typedef struct Actor {
    CURL *easy;
    ReqKind req;                /* the request in flight; REQ_NONE when idle */
    double sent_at;             /* when it was handed to libcurl            */
    Buffer reply;
    char cookie[TOKEN_BYTES];   /* the session token of a Set-Cookie header  */
    struct Slot *slot;          /* the game's, or NULL                      */
    struct Player *player;      /* the player's, or NULL                    */
} Actor;

typedef struct Player {
    char name[NAME_BYTES];
    char token[TOKEN_BYTES];    /* the session token; "" until registered   */
    char cookie[TOKEN_BYTES + 32];
    const char *url;
    double due;                 /* when to try again after an outage        */
    bool login;                 /* the name is taken: log in instead        */
    Actor actor;
} Player;

/* The life of one of the N games the load keeps in play.  When a game
 * ends (by the rules or resigned at --max-plies) its slot starts another
 * of the same variant between the same players. */
typedef enum SlotState {
    S_CREATE,   /* a new game is to be created by the white player        */
    S_JOIN,     /* created: the black player takes the open seat          */
    S_PLAY,     /* in play: the side to move posts its action at `due`    */
    S_PAUSE,    /* after an outage: waits until `due`, then goes to `resume` */
    S_RESYNC,   /* reads the server's copy of the game back               */
} SlotState;

typedef struct Slot {
    int index;
    const Variant *variant;
    Player *seat[2];            /* [WHITE], [BLACK]                         */
    const char *url[2];         /* the server each side talks to            */
    SlotState state, resume;
    double due;
    char id[GAME_ID_BYTES];     /* the game; "" before it is created        */
    char invite[TOKEN_BYTES];
    Game game;                  /* the library's copy of the game           */
    bool has_game;
    Move move;                  /* the action in flight                     */
    char coord[COORD_BYTES];    /* ... in coordinate form                   */
    int mover;                  /* the side that sent it                    */
    bool explain;               /* a wrong answer came: say what the server holds */
    bool stale;                 /* the action in flight was answered 409     */
    Actor actor;
} Slot;

enum ErrorKind {
    /* Outages: expected with --tolerate-outages.  ERR_RESENT is a 409 to an
     * action the server had already committed from this very request:
     * libcurl sends a request again, unasked, when the reused connection
     * it went out on closes with no answer, as a killed server's does
     * after its commit; the 409 is then the server applying it once. */
    ERR_CONNECT, ERR_TIMEOUT, ERR_503, ERR_RESENT,
    /* Answers no correct server gives to a correct client. */
    ERR_403, ERR_409, ERR_422, ERR_500, ERR_STATUS, ERR_REPLY,
    ERR_KINDS
};
static const char *const ERROR_NAMES[ERR_KINDS] = {
    "connection", "timeout", "503", "resent", "403", "409", "422", "500", "other status", "bad reply",
};
static bool is_outage(int kind) { return kind <= ERR_RESENT; }

/* Latencies in milliseconds, and the bytes of their replies. */
typedef struct Samples {
    double *ms;
    size_t count, cap;
    double reply_bytes;
} Samples;

enum { MAX_VARIANTS = 64 };

typedef struct Stats {
    Samples latency;            /* of the action requests sent in the window */
    Samples by_variant[MAX_VARIANTS];
    long connections;           /* opened, over the whole run                */
    double server_cpu_start, server_cpu_end;   /* seconds, --server-pid      */
    long actions;               /* committed (200) and sent in the window   */
    long all_actions;           /* committed over the whole run             */
    long resigns, created, finished;
    long errors[ERR_KINDS];
} Stats;

typedef struct Load {
    Config *cfg;
    CURLM *multi;
    struct curl_slist *headers[MAX_URLS];   /* each server's: its Origin too   */
    bool spread;                /* every server is local: each player and game
                                 * connects from a loopback address of its own */
    uint64_t rng;
    Player *players;
    int player_count;
    Slot *slots;
    const Variant *variants[MAX_VARIANTS];
    int variant_count;
    FILE *ack;
    MoveList legal;
    Text text;
    double interval;            /* seconds between a game's actions          */
    bool playing;               /* past setup: games post actions            */
    bool draining;              /* the run is over: nothing new is sent      */
    double window_start, window_end;
    int in_flight;
    int errors_printed;
    Stats st;
} Load;

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* ---- libcurl ------------------------------------------------------------------ */

static size_t on_body(char *data, size_t size, size_t count, void *ctx)
{
    Buffer *b = ctx;
    size_t n = size * count;
    if (b->len + n > MAX_REPLY_BYTES) return 0;   /* libcurl fails the transfer */
    buffer_add(b, data, n);
    return n;
}

/* Keeps the session token of a "Set-Cookie: ttchess_session=HEX; ..." header. */
static size_t on_header(char *data, size_t size, size_t count, void *ctx)
{
    Actor *a = ctx;
    size_t n = size * count;
    static const char NAME[] = "set-cookie:";
    if (n > strlen(NAME) && !strncasecmp(data, NAME, strlen(NAME))) {
        const char *p = data + strlen(NAME), *end = data + n;
        while (p < end && *p == ' ') p++;
        static const char COOKIE[] = "ttchess_session=";
        if ((size_t)(end - p) > strlen(COOKIE) && !strncmp(p, COOKIE, strlen(COOKIE))) {
            p += strlen(COOKIE);
            size_t k = 0;
            while (p + k < end && k + 1 < sizeof a->cookie && p[k] && strchr("0123456789abcdef", p[k])) k++;
            memcpy(a->cookie, p, k);
            a->cookie[k] = '\0';
        }
    }
    return n;
}

/* The loopback address of the k-th player or game (127.1.x.y): the
 * server lets one address hold SERVER_MAX_PER_ADDRESS connections at
 * once, and the load is many clients. */
static void client_interface(int k, char *out, size_t size)
{
    snprintf(out, size, "host!127.1.%d.%d", k / 250, 1 + k % 250);
}

static CURL *new_easy(Load *ld, Actor *a, int client)
{
    CURL *e = curl_easy_init();
    if (!e) {
        fprintf(stderr, "load: libcurl could not start a transfer\n");
        exit(2);
    }
    curl_easy_setopt(e, CURLOPT_PRIVATE, a);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &a->reply);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, a);
    if (ld->spread) {
        char interface[64];
        client_interface(client, interface, sizeof interface);
        curl_easy_setopt(e, CURLOPT_INTERFACE, interface);
    }
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(ld->cfg->timeout * 1000));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(ld->cfg->timeout * 1000 < 5000 ? ld->cfg->timeout * 1000 : 5000));
    return e;
}

/* Hands a request to libcurl: GET when body is NULL, else a POST of the
 * JSON body, as the player whose session token is given (or none). */
static void send_request(Load *ld, Actor *a, ReqKind kind, const char *url, const char *path, const char *body,
                         const char *cookie)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s", url, path);
    buffer_clear(&a->reply);
    a->cookie[0] = '\0';
    curl_easy_setopt(a->easy, CURLOPT_URL, full);
    /* The server's own Origin, as its pages send it: a state-changing
     * request without one is refused. */
    int server = 0;
    while (server + 1 < ld->cfg->url_count && strcmp(url, ld->cfg->urls[server])) server++;
    curl_easy_setopt(a->easy, CURLOPT_HTTPHEADER, ld->headers[server]);
    if (body) curl_easy_setopt(a->easy, CURLOPT_COPYPOSTFIELDS, body);
    else curl_easy_setopt(a->easy, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(a->easy, CURLOPT_COOKIE, cookie && *cookie ? cookie : NULL);
    a->req = kind;
    a->sent_at = now_s();
    CURLMcode rc = curl_multi_add_handle(ld->multi, a->easy);
    if (rc != CURLM_OK) {
        fprintf(stderr, "load: libcurl: %s\n", curl_multi_strerror(rc));
        exit(2);
    }
    ld->in_flight++;
}

/* ---- Reporting ----------------------------------------------------------- */

/* Counts an error; answers no correct server gives are printed with their
 * body (the first few), since each is a bug to look into. */
static void report(Load *ld, int kind, const char *what, const Slot *s, long status, const char *body)
{
    ld->st.errors[kind]++;
    if (is_outage(kind) && ld->cfg->tolerate) return;
    if (ld->errors_printed++ >= ERRORS_PRINTED) return;
    fprintf(stderr, "load: %s%s%s: ", what, s && s->id[0] ? " in game " : "", s ? s->id : "");
    if (status) fprintf(stderr, "HTTP %ld: %.300s\n", status, body ? body : "");
    else fprintf(stderr, "%s\n", body ? body : "");
}

static void samples_add(Samples *sa, double ms, double bytes)
{
    if (sa->count == sa->cap) {
        sa->cap = sa->cap ? 2 * sa->cap : 1024;
        sa->ms = xrealloc(sa->ms, sa->cap * sizeof *sa->ms);
    }
    sa->ms[sa->count++] = ms;
    sa->reply_bytes += bytes;
}

static int variant_index(const Load *ld, const Variant *v)
{
    for (int i = 0; i < ld->variant_count; i++)
        if (ld->variants[i] == v) return i;
    return 0;
}

/* An action request answered: its latency counts when it was sent in the
 * measured window, for the whole and for its game's variant. */
static void record_latency(Load *ld, const Slot *s, double done)
{
    const Actor *a = &s->actor;
    if (a->sent_at < ld->window_start || a->sent_at >= ld->window_end) return;
    double ms = (done - a->sent_at) * 1000, bytes = (double)a->reply.len;
    samples_add(&ld->st.latency, ms, bytes);
    samples_add(&ld->st.by_variant[variant_index(ld, s->variant)], ms, bytes);
}

/* ---- A game's moves --------------------------------------------------------- */

static void slot_drop_game(Slot *s)
{
    if (s->has_game) game_free(&s->game);
    s->has_game = false;
}

/* Starts the library's copy of a new game; false (reported) when it cannot. */
static bool slot_new_game(Load *ld, Slot *s)
{
    slot_drop_game(s);
    text_clear(&ld->text);
    if (!game_init(&s->game, s->variant, NULL, NULL, &ld->text)) {
        game_free(&s->game);
        report(ld, ERR_REPLY, "the library cannot start the game", s, 0, text_str(&ld->text));
        return false;
    }
    s->has_game = true;
    return true;
}

static int slot_ply(const Slot *s) { return s->has_game ? game_count(&s->game) - 1 : 0; }

/* Is the game over by the rules (or does its side to move have no action)? */
static bool slot_over(Load *ld, Slot *s)
{
    Outcome o;
    if (!game_outcome(&s->game, &o) || !game_generate(&s->game, &ld->legal) || ld->legal.failed) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    return o.result != RESULT_NONE || ld->legal.count == 0;
}

/* Picks a uniformly random legal action and writes it in coordinate
 * form; false when there is none. */
static bool slot_pick(Load *ld, Slot *s)
{
    if (!game_generate(&s->game, &ld->legal) || ld->legal.failed) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    if (ld->legal.count == 0) return false;
    s->move = ld->legal.moves[rng_next(&ld->rng) % (uint64_t)ld->legal.count];
    Line l;
    line_open(&l, &s->game, game_current(&s->game));
    text_clear(&ld->text);
    if (!s->variant->format_coord(&l, s->move, &ld->text) || ld->text.failed) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    line_close(&l);
    return copy_text(s->coord, sizeof s->coord, text_str(&ld->text));
}

/* ---- A game's requests ----------------------------------------------------- */

static void slot_pause(Load *ld, Slot *s, SlotState resume)
{
    s->state = S_PAUSE;
    s->resume = resume;
    s->due = now_s() + 0.1 + 0.2 * rng_unit(&ld->rng);
}

static void send_create(Load *ld, Slot *s)
{
    char *body = request_body(json_pack("{s:s, s:s, s:i}", "variant", s->variant->name, "color", "white",
                                        "days_per_move", 30));
    s->id[0] = s->invite[0] = '\0';
    send_request(ld, &s->actor, REQ_CREATE, s->url[WHITE], "/api/games", body, s->seat[WHITE]->cookie);
    free(body);
}

static void send_join(Load *ld, Slot *s)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/join", s->id);
    char *body = request_body(json_pack("{s:s}", "invite", s->invite));
    send_request(ld, &s->actor, REQ_JOIN, s->url[BLACK], path, body, s->seat[BLACK]->cookie);
    free(body);
}

static void send_get(Load *ld, Slot *s)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", s->id);
    int side = s->has_game ? game_board(&s->game)->side : WHITE;
    send_request(ld, &s->actor, REQ_GET, s->url[side], path, NULL, NULL);
}

/* A game that ended is replaced by a new one of the same variant. */
static void slot_replace(Load *ld, Slot *s)
{
    ld->st.finished++;
    s->stale = s->explain = false;
    slot_drop_game(s);
    s->state = S_CREATE;
}

/* The side to move posts its next action, or resigns at --max-plies. */
static void send_action(Load *ld, Slot *s)
{
    int ply = slot_ply(s);
    s->mover = game_board(&s->game)->side;
    ReqKind kind = REQ_MOVE;
    const char *action = s->coord;
    if (ply >= ld->cfg->max_plies) {
        kind = REQ_RESIGN;
        action = "resign";
    } else if (!slot_pick(ld, s)) {
        /* Only a game the rules have ended has no action; slot_over saw
         * to that after the last one, so this is the library's word
         * against itself: the game is replaced. */
        report(ld, ERR_REPLY, "no legal action, yet the game is not over", s, 0, "");
        slot_replace(ld, s);
        return;
    }
    /* "s*" leaves the "reply" member out when its value is NULL: the
     * server's full reply unless --brief. */
    char *body = request_body(json_pack("{s:s, s:i, s:s*}", "action", action, "ply", ply, "reply",
                                        ld->cfg->brief ? "brief" : NULL));
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/actions", s->id);
    send_request(ld, &s->actor, kind, s->url[s->mover], path, body, s->seat[s->mover]->cookie);
    free(body);
}

/* The next action of a game in play goes one interval after the last was
 * due, or at once when the game is behind its schedule. */
static void schedule_next(Load *ld, Slot *s, double now)
{
    s->due += ld->interval;
    if (s->due < now) s->due = now;
    s->state = S_PLAY;
}

/* Sends what the slot's state calls for, if its time has come. */
static void slot_dispatch(Load *ld, Slot *s, double now)
{
    if (s->actor.req != REQ_NONE || ld->draining) return;
    switch (s->state) {
    case S_CREATE: send_create(ld, s); break;
    case S_JOIN: send_join(ld, s); break;
    case S_RESYNC: send_get(ld, s); break;
    case S_PAUSE:
        if (now >= s->due) s->state = s->resume;
        break;
    case S_PLAY:
        if (ld->playing && now >= s->due) send_action(ld, s);
        break;
    }
}

/* ---- Answers ------------------------------------------------------------------ */

/* The error kind of a finished transfer that got no usable answer, or -1
 * when it got one (whatever its status). */
static int transfer_error(CURLcode rc, long status)
{
    if (rc == CURLE_OPERATION_TIMEDOUT) return ERR_TIMEOUT;
    if (rc != CURLE_OK) return ERR_CONNECT;
    if (status == 503) return ERR_503;
    return -1;
}

static int status_error(long status)
{
    switch (status) {
    case 403: return ERR_403;
    case 409: return ERR_409;
    case 422: return ERR_422;
    case 500: return ERR_500;
    default: return ERR_STATUS;
    }
}

static void write_ack(Load *ld, const Slot *s)
{
    if (!ld->ack) return;
    fprintf(ld->ack, "%s %d %s %s\n", s->id, slot_ply(s), s->coord, s->seat[s->mover]->name);
    fflush(ld->ack);
}

/* Is the game over after an action?  The library says so; the reply's
 * status, when it has one, must agree, and a game they disagree on is
 * taken as over. */
static bool move_over(Load *ld, Slot *s, const char *status)
{
    bool over = slot_over(ld, s);
    if (status && over != !strcmp(status, "over")) {
        char why[COORD_BYTES + 128];
        snprintf(why, sizeof why, "after %s the server says the game is %s, the library that it is %s", s->coord,
                 status, over ? "over" : "going on");
        report(ld, ERR_REPLY, "an action", s, 0, why);
        over = true;
    }
    return over;
}

/* An action answered 200: the library plays it too, and the game goes on
 * or, when over, is replaced.  The reply's ply, when it has one, must
 * agree with the library, or the game is read back. */
static void move_done(Load *ld, Slot *s, double now)
{
    if (!game_push(&s->game, s->move)) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    ld->st.all_actions++;
    if (s->actor.sent_at >= ld->window_start && s->actor.sent_at < ld->window_end) ld->st.actions++;
    write_ack(ld, s);
    json_t *reply = reply_parse(&s->actor.reply);
    long long ply;
    if (member_integer(reply, "ply", &ply) && ply != slot_ply(s)) {
        char why[128];
        snprintf(why, sizeof why, "the reply's ply is %lld after the action of ply %d", ply, slot_ply(s) - 1);
        report(ld, ERR_REPLY, "an action", s, 0, why);
        s->state = S_RESYNC;
    } else if (move_over(ld, s, member_string(reply, "status"))) {
        slot_replace(ld, s);
    } else {
        schedule_next(ld, s, now);
    }
    json_decref(reply);
}

/* The coordinate form of the last stored action that has one, or "". */
static const char *last_coord(const json_t *actions)
{
    const char *last = "";
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        const char *coord = action_coord(a);
        if (coord) last = coord;
    }
    return last;
}

/* Plays the stored actions on the library's new copy of the game; false
 * (reported) when one does not replay. */
static bool replay_stored(Load *ld, Slot *s, const json_t *actions)
{
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        const char *coord = action_coord(a);
        text_clear(&ld->text);
        if (!coord || !game_play_text(&s->game, coord, &ld->text)) {
            report(ld, ERR_REPLY, "a stored action does not replay", s, 0, text_str(&ld->text));
            return false;
        }
    }
    return true;
}

/* The server's copy of a game, read back after an outage: the library
 * replays its actions (the last one sent may or may not be among them)
 * and the game goes on from there. */
static void resync_from(Load *ld, Slot *s, const json_t *state, double now)
{
    const char *status = member_string(state, "status");
    const json_t *actions = json_object_get(state, "actions");
    long long ply;
    if (!status || !member_integer(state, "ply", &ply)) {
        report(ld, ERR_REPLY, "a game read back has no status or ply", s, 200, buffer_str(&s->actor.reply));
        slot_replace(ld, s);
        return;
    }
    const char *last = last_coord(actions);
    if (s->stale) {
        bool own = ply == slot_ply(s) + 1 && !strcmp(last, s->coord);
        char what[COORD_BYTES + 64];
        snprintf(what, sizeof what, "%s at ply %d by %s", s->coord, slot_ply(s), s->mover == WHITE ? "white" : "black");
        report(ld, own ? ERR_RESENT : ERR_409, what, s, 409,
               own ? "the server holds it at its ply already: its connection closed unanswered and libcurl sent it again"
                   : "the game has moved on");
        s->explain = !own;
        s->stale = false;
    }
    /* After a wrong answer, what the server holds tells whose bug it is. */
    if (s->explain && ld->errors_printed <= ERRORS_PRINTED)
        fprintf(stderr, "load:   game %s read back: %s at ply %lld (here: ply %d), its last action %s\n", s->id, status,
                ply, slot_ply(s), *last ? last : "none");
    s->explain = false;
    if (!strcmp(status, "waiting")) {
        s->state = s->invite[0] ? S_JOIN : S_CREATE;
        return;
    }
    if (!strcmp(status, "over") || !slot_new_game(ld, s) || !replay_stored(ld, s, actions)) {
        slot_replace(ld, s);
        return;
    }
    if (ply != slot_ply(s)) {
        report(ld, ERR_REPLY, "a game read back has a ply other than its actions'", s, 0, "");
        slot_replace(ld, s);
        return;
    }
    if (slot_over(ld, s)) {
        report(ld, ERR_REPLY, "a game read back is active, yet over by the rules", s, 0, status);
        slot_replace(ld, s);
        return;
    }
    s->due = now;
    s->state = S_PLAY;
}

static void resync_done(Load *ld, Slot *s, double now)
{
    json_t *state = reply_parse(&s->actor.reply);
    resync_from(ld, s, state, now);
    json_decref(state);
}

/* The invitation token at the end of "/games/ID?invite=TOKEN". */
static bool invite_token(const char *url, char *out, size_t size)
{
    const char *p = strstr(url, "?invite=");
    return p && copy_text(out, size, p + strlen("?invite=")) && *out;
}

static bool valid_game_id(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < GAME_ID_BYTES && strspn(id, "0123456789abcdefABCDEF") == n;
}

/* Keeps the id and the invitation token of a created game; false when
 * the reply lacks either. */
static bool created_game(Slot *s, const json_t *reply)
{
    const char *id = member_string(reply, "id"), *url = member_string(reply, "invite_url");
    return id && copy_text(s->id, sizeof s->id, id) && valid_game_id(s->id) && url &&
           invite_token(url, s->invite, sizeof s->invite);
}

static void create_done(Load *ld, Slot *s, long status)
{
    if (status != 201) {
        report(ld, status_error(status), "creating a game", s, status, buffer_str(&s->actor.reply));
        slot_pause(ld, s, S_CREATE);
        return;
    }
    json_t *reply = reply_parse(&s->actor.reply);
    if (!created_game(s, reply)) {
        report(ld, ERR_REPLY, "a created game has no id or invitation", s, status, buffer_str(&s->actor.reply));
        s->id[0] = '\0';
        slot_pause(ld, s, S_CREATE);
    } else {
        ld->st.created++;
        s->state = S_JOIN;
    }
    json_decref(reply);
}

static void join_done(Load *ld, Slot *s, long status, double now)
{
    if (status != 200) {
        report(ld, status_error(status), "joining a game", s, status, buffer_str(&s->actor.reply));
        s->state = S_RESYNC;
    } else if (!slot_new_game(ld, s)) {
        slot_replace(ld, s);
    } else {
        if (s->due < now) s->due = now;
        s->state = S_PLAY;
    }
}

/* A finished transfer of a game's slot. */
static void slot_done(Load *ld, Slot *s, CURLcode rc, long status, double now)
{
    Actor *a = &s->actor;
    ReqKind req = a->req;
    a->req = REQ_NONE;
    if ((req == REQ_MOVE || req == REQ_RESIGN) && rc == CURLE_OK) record_latency(ld, s, now);
    int outage = transfer_error(rc, status);
    if (outage >= 0) {
        report(ld, outage, req == REQ_MOVE || req == REQ_RESIGN ? "an action" : "a request", s, rc == CURLE_OK ? status : 0,
               rc == CURLE_OK ? buffer_str(&a->reply) : curl_easy_strerror(rc));
        slot_pause(ld, s, req == REQ_CREATE ? S_CREATE : S_RESYNC);
        /* Without --tolerate-outages a server lost during setup ends the
         * run: there would be nothing to measure. */
        if (!ld->cfg->tolerate && !ld->playing) ld->draining = true;
        return;
    }
    switch (req) {
    case REQ_CREATE: create_done(ld, s, status); break;
    case REQ_JOIN: join_done(ld, s, status, now); break;
    case REQ_GET:
        if (status == 200) resync_done(ld, s, now);
        else report(ld, status_error(status), "reading a game back", s, status, buffer_str(&a->reply)),
             slot_replace(ld, s);
        break;
    case REQ_MOVE:
        if (status == 200) {
            move_done(ld, s, now);
        } else if (status == 409) {
            /* Judged once the game is read back: a 409 to an action the
             * server holds at its ply is that action applied once. */
            s->stale = true;
            s->state = S_RESYNC;
        } else {
            char what[COORD_BYTES + 64];
            snprintf(what, sizeof what, "%s at ply %d by %s", s->coord, slot_ply(s), s->mover == WHITE ? "white" : "black");
            report(ld, status_error(status), what, s, status, buffer_str(&a->reply));
            s->explain = true;
            s->state = S_RESYNC;
        }
        break;
    case REQ_RESIGN:
        if (status == 200) ld->st.resigns++, slot_replace(ld, s);
        else report(ld, status_error(status), "resigning", s, status, buffer_str(&a->reply)), s->state = S_RESYNC;
        break;
    default: break;
    }
}

/* ---- Players ------------------------------------------------------------------ */

static void send_account(Load *ld, Player *p, ReqKind kind)
{
    char *body = request_body(json_pack("{s:s, s:s}", "name", p->name, "password", PASSWORD));
    send_request(ld, &p->actor, kind, p->url, kind == REQ_REGISTER ? "/api/register" : "/api/login", body, NULL);
    free(body);
}

static void player_dispatch(Load *ld, Player *p, double now)
{
    if (p->actor.req != REQ_NONE || p->token[0] || now < p->due || ld->draining) return;
    send_account(ld, p, p->login ? REQ_LOGIN : REQ_REGISTER);
}

/* Registration answered: 201 gives the session; 409 means the name was
 * taken, by this very player when an earlier answer was lost in an
 * outage, so it logs in instead. */
static void player_done(Load *ld, Player *p, CURLcode rc, long status, double now)
{
    ReqKind req = p->actor.req;
    p->actor.req = REQ_NONE;
    int outage = transfer_error(rc, status);
    if (outage >= 0) {
        report(ld, outage, "registering", NULL, rc == CURLE_OK ? status : 0,
               rc == CURLE_OK ? buffer_str(&p->actor.reply) : curl_easy_strerror(rc));
        if (!ld->cfg->tolerate) ld->draining = true;
        p->due = now + 0.2;
        return;
    }
    if ((req == REQ_REGISTER && status == 201) || (req == REQ_LOGIN && status == 200)) {
        if (!p->actor.cookie[0]) {
            report(ld, ERR_REPLY, "registering: no session cookie", NULL, status, buffer_str(&p->actor.reply));
            ld->draining = true;
            return;
        }
        copy_text(p->token, sizeof p->token, p->actor.cookie);
        snprintf(p->cookie, sizeof p->cookie, "ttchess_session=%s", p->token);
    } else if (req == REQ_REGISTER && status == 409) {
        p->login = true;
    } else {
        report(ld, status_error(status), req == REQ_LOGIN ? "logging in" : "registering", NULL, status,
               buffer_str(&p->actor.reply));
        ld->draining = true;
    }
}

/* ---- The loop --------------------------------------------------------------- */

static void process_done(Load *ld)
{
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(ld->multi, &left))) {
        if (m->msg != CURLMSG_DONE) continue;
        /* The message does not outlive the handle's removal: copy first. */
        CURL *e = m->easy_handle;
        CURLcode rc = m->data.result;
        char *private = NULL;
        long status = 0;
        curl_easy_getinfo(e, CURLINFO_PRIVATE, &private);
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        long connects = 0;
        if (curl_easy_getinfo(e, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK) ld->st.connections += connects;
        curl_multi_remove_handle(ld->multi, e);
        ld->in_flight--;
        Actor *a = (Actor *)(void *)private;
        double now = now_s();
        if (a->slot) slot_done(ld, a->slot, rc, status, now);
        else player_done(ld, a->player, rc, status, now);
    }
}

/* Sends what is due, lets libcurl work, handles what finished, and waits
 * for the sockets or the next action due (at most 50 ms, so that a stop
 * signal is seen soon). */
static void loop_step(Load *ld, bool games)
{
    double now = now_s();
    for (int i = 0; i < ld->player_count; i++) player_dispatch(ld, &ld->players[i], now);
    for (int i = 0; games && i < ld->cfg->games; i++) slot_dispatch(ld, &ld->slots[i], now);
    int running;
    curl_multi_perform(ld->multi, &running);
    process_done(ld);
    double next = now + 0.05;
    for (int i = 0; games && !ld->draining && i < ld->cfg->games; i++) {
        const Slot *s = &ld->slots[i];
        if (s->actor.req != REQ_NONE) continue;
        if (s->state == S_PAUSE || (s->state == S_PLAY && ld->playing)) {
            if (s->due < next) next = s->due;
        } else {
            next = now;   /* a request to send at once */
        }
    }
    double wait = (next - now_s()) * 1000;
    curl_multi_poll(ld->multi, NULL, 0, wait > 0 ? (int)ceil(wait) : 0, NULL);
}

static bool players_ready(const Load *ld)
{
    for (int i = 0; i < ld->player_count; i++)
        if (!ld->players[i].token[0]) return false;
    return true;
}

static int slots_ready(const Load *ld)
{
    int n = 0;
    for (int i = 0; i < ld->cfg->games; i++) n += ld->slots[i].state == S_PLAY && ld->slots[i].actor.req == REQ_NONE;
    return n;
}

static long errors_total(const Load *ld, bool with_outages)
{
    long n = 0;
    for (int k = 0; k < ERR_KINDS; k++)
        if (!is_outage(k) || with_outages) n += ld->st.errors[k];
    return n;
}

static long outages_total(const Load *ld)
{
    long n = 0;
    for (int k = 0; k < ERR_KINDS; k++)
        if (is_outage(k)) n += ld->st.errors[k];
    return n;
}

/* The run is over: nothing new is sent, and what is in flight may finish
 * within a few seconds (its latency counts when it was sent in time). */
static void drain(Load *ld)
{
    ld->draining = true;
    double until = now_s() + (ld->cfg->timeout < 10 ? ld->cfg->timeout : 10);
    while (ld->in_flight > 0 && now_s() < until) loop_step(ld, true);
    for (int i = 0; i < ld->cfg->games; i++)
        if (ld->slots[i].actor.req != REQ_NONE) curl_multi_remove_handle(ld->multi, ld->slots[i].actor.easy);
    for (int i = 0; i < ld->player_count; i++)
        if (ld->players[i].actor.req != REQ_NONE) curl_multi_remove_handle(ld->multi, ld->players[i].actor.easy);
}

static void progress(const Load *ld, double now, double *last, long *last_actions)
{
    if (ld->cfg->quiet || now < *last + 1) return;
    long done = ld->st.all_actions - *last_actions;
    fprintf(stderr, "load: %.0f s: %.0f actions/s, %ld errors, %ld outages\n", now - ld->window_start + ld->cfg->warmup,
            (double)done / (now - *last), errors_total(ld, false), outages_total(ld));
    *last = now;
    *last_actions = ld->st.all_actions;
}

/* Registers the players, then creates and joins every game. */
static bool setup(Load *ld)
{
    while (!players_ready(ld) && !ld->draining && !stop_requested) loop_step(ld, false);
    if (!players_ready(ld)) return false;
    if (ld->cfg->sessions) {
        FILE *f = fopen(ld->cfg->sessions, "w");
        if (!f) {
            fprintf(stderr, "load: cannot write %s: %s\n", ld->cfg->sessions, strerror(errno));
            return false;
        }
        for (int i = 0; i < ld->player_count; i++) fprintf(f, "%s %s\n", ld->players[i].name, ld->players[i].token);
        fclose(f);
    }
    if (!ld->cfg->quiet) fprintf(stderr, "load: %d players registered; creating %d games\n", ld->player_count, ld->cfg->games);
    while (slots_ready(ld) < ld->cfg->games && !ld->draining && !stop_requested) loop_step(ld, true);
    return slots_ready(ld) == ld->cfg->games;
}

static void play(Load *ld)
{
    double t0 = now_s();
    ld->window_start = t0 + ld->cfg->warmup;
    ld->window_end = ld->window_start + ld->cfg->duration;
    for (int i = 0; i < ld->cfg->games; i++) ld->slots[i].due = t0 + ld->interval * rng_unit(&ld->rng);
    ld->playing = true;
    if (!ld->cfg->quiet)
        fprintf(stderr, "load: playing %d games, %g actions/s offered, for %g s + %g s of warm-up\n", ld->cfg->games,
                ld->cfg->rate, ld->cfg->duration, ld->cfg->warmup);
    double last = ld->window_start - ld->cfg->warmup;
    long last_actions = 0;
    bool sampled = false;
    for (;;) {
        double now = now_s();
        if (now >= ld->window_end || stop_requested || ld->draining) break;
        if (!sampled && now >= ld->window_start) {
            ld->st.server_cpu_start = servers_cpu_seconds(ld->cfg);
            sampled = true;
        }
        loop_step(ld, true);
        progress(ld, now, &last, &last_actions);
    }
    /* The servers' CPU time is taken over the window alone: the requests
     * that straddle its start and its end are about as many. */
    ld->st.server_cpu_end = sampled ? servers_cpu_seconds(ld->cfg) : -1;
    if (!sampled) ld->st.server_cpu_start = -1;
    double now = now_s();
    if (now < ld->window_end) ld->window_end = now > ld->window_start ? now : ld->window_start;
    drain(ld);
}

/* ---- Results ---------------------------------------------------------------- */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The nearest-rank percentile q (0..1) of sorted latencies. */
static double percentile(const Samples *sa, double q)
{
    if (!sa->count) return 0;
    size_t rank = (size_t)ceil(q * (double)sa->count);
    if (rank < 1) rank = 1;
    return sa->ms[rank - 1];
}

static void samples_sort(Samples *sa)
{
    if (sa->count) qsort(sa->ms, sa->count, sizeof *sa->ms, compare_double);
}

/* One line a variant: where the time goes, and how large its replies are. */
static void print_by_variant(Load *ld)
{
    for (int i = 0; i < ld->variant_count; i++) {
        Samples *sa = &ld->st.by_variant[i];
        samples_sort(sa);
        printf("  %-16s %6zu requests  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms  reply %7.1f KB\n",
               ld->variants[i]->name, sa->count, percentile(sa, 0.5), percentile(sa, 0.99),
               sa->count ? sa->ms[sa->count - 1] : 0, sa->count ? sa->reply_bytes / (double)sa->count / 1024 : 0);
    }
}

static void print_results(Load *ld)
{
    Stats *st = &ld->st;
    Samples *lat = &st->latency;
    samples_sort(lat);
    double seconds = ld->window_end - ld->window_start;
    if (seconds < 0) seconds = 0;
    double per_s = seconds > 0 ? (double)st->actions / seconds : 0;
    double p50 = percentile(lat, 0.5), p90 = percentile(lat, 0.9), p99 = percentile(lat, 0.99);
    double max = lat->count ? lat->ms[lat->count - 1] : 0;
    long errors = errors_total(ld, !ld->cfg->tolerate);
    long outages = outages_total(ld);
    double cpu = st->server_cpu_start >= 0 && st->server_cpu_end >= 0 ? st->server_cpu_end - st->server_cpu_start : -1;
    if (ld->cfg->json) {
        printf("{\"games\":%d,\"variants\":%d,\"actions\":%ld,\"seconds\":%.3f,\"actions_per_s\":%.1f,"
               "\"p50_ms\":%.2f,\"p90_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,\"errors\":%ld,\"outages\":%ld,"
               "\"requests\":%zu,\"offered_per_s\":%g,\"games_finished\":%ld,\"connections\":%ld,\"error_kinds\":{",
               ld->cfg->games, ld->variant_count, st->actions, seconds, per_s, p50, p90, p99, max, errors, outages,
               lat->count, ld->cfg->rate, st->finished, st->connections);
        for (int k = 0; k < ERR_KINDS; k++) printf("%s\"%s\":%ld", k ? "," : "", ERROR_NAMES[k], st->errors[k]);
        printf("}");
        if (ld->cfg->server_pid_count && cpu >= 0)
            printf(",\"server_cpu_s\":%.3f,\"server_cpu_ms_per_action\":%.3f", cpu,
                   st->actions ? 1000 * cpu / (double)st->actions : 0);
        printf("}\n");
    } else {
        printf("games        %d of %d variants (%ld created, %ld finished, %ld resigned at %d plies)\n", ld->cfg->games,
               ld->variant_count, st->created, st->finished, st->resigns, ld->cfg->max_plies);
        printf("actions      %ld committed in %.2f s: %.1f actions/s (%g offered)\n", st->actions, seconds, per_s,
               ld->cfg->rate);
        printf("latency      p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (%zu action requests)\n", p50, p90,
               p99, max, lat->count);
        printf("connections  %ld opened\n", st->connections);
        if (ld->cfg->server_pid_count) {
            if (cpu >= 0)
                printf("server CPU   %.2f s in the window: %.1f%% of a core, %.2f ms per action committed\n", cpu,
                       seconds > 0 ? 100 * cpu / seconds : 0, st->actions ? 1000 * cpu / (double)st->actions : 0);
            else
                printf("server CPU   not measured (a --server-pid could not be read in /proc)\n");
        }
        if (ld->cfg->by_variant) print_by_variant(ld);
        printf("errors       %ld", errors);
        const char *sep = " (";
        for (int k = 0; k < ERR_KINDS; k++)
            if (st->errors[k]) printf("%s%s: %ld", sep, ERROR_NAMES[k], st->errors[k]), sep = ", ";
        printf("%s%s\n", *sep == ',' ? ")" : "", ld->cfg->tolerate && outages ? "; outages tolerated" : "");
    }
    fflush(stdout);
}

/* ---- Blocking requests (the variants, --verify) -------------------------- */

/* GET url into body; the status in *status (0 when no answer came, with
 * libcurl's reason in body). */
static void get_blocking(CURL *e, const char *url, Buffer *body, long *status)
{
    buffer_clear(body);
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(e);
    *status = 0;
    if (rc != CURLE_OK) {
        buffer_clear(body);
        const char *why = curl_easy_strerror(rc);
        buffer_add(body, why, strlen(why));
        return;
    }
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, status);
}

/* Keeps each variant of a GET /api/variants reply that the library knows. */
static void keep_variants(Load *ld, const Buffer *body)
{
    json_t *reply = reply_parse(body);
    const json_t *list = json_object_get(reply, "variants");
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        const char *name = member_string(v, "name");
        const Variant *var = name ? variant_find(name) : NULL;
        if (!var) fprintf(stderr, "load: the server's variant '%s' is unknown to the library: skipped\n", name ? name : "?");
        else if (ld->variant_count < (int)(sizeof ld->variants / sizeof ld->variants[0]))
            ld->variants[ld->variant_count++] = var;
    }
    json_decref(reply);
}

/* Every variant the first server lists (and the library knows); each
 * server must answer.  With --tolerate-outages a server has 30 s to come
 * up. */
static bool fetch_variants(Load *ld)
{
    CURL *e = curl_easy_init();
    Buffer body = { 0 };
    bool ok = e != NULL;
    for (int u = 0; ok && u < ld->cfg->url_count; u++) {
        char url[512];
        snprintf(url, sizeof url, "%s/api/variants", ld->cfg->urls[u]);
        long status = 0;
        double give_up = now_s() + (ld->cfg->tolerate ? 30 : 0);
        for (;;) {
            get_blocking(e, url, &body, &status);
            if (status == 200 || now_s() >= give_up || stop_requested) break;
            nanosleep(&(struct timespec){ .tv_nsec = 200000000 }, NULL);
        }
        if (status != 200) {
            fprintf(stderr, "load: the server at %s cannot be reached: %s%.200s\n", ld->cfg->urls[u],
                    status ? "GET /api/variants answered " : "", status ? buffer_str(&body) : buffer_str(&body));
            ok = false;
        } else if (u == 0) {
            keep_variants(ld, &body);
            if (!ld->variant_count) {
                fprintf(stderr, "load: %s lists no variant: %.200s\n", url, buffer_str(&body));
                ok = false;
            }
        }
    }
    free(body.data);
    if (e) curl_easy_cleanup(e);
    return ok;
}

/* ---- --verify ------------------------------------------------------------------ *
 *
 * After a crash test: every acknowledged action must be in its game at
 * its ply, and every game must replay to the position the server shows,
 * both from its stored actions (coordinate forms, through the library)
 * and from its PGN record (the library's reader), the record's result
 * being the one the server shows too. */

typedef struct Ack {
    int ply;
    char *coord;
} Ack;

typedef struct Checked {
    char id[GAME_ID_BYTES];
    Ack *acks;
    int ack_count, ack_cap;
} Checked;

typedef struct Verify {
    Checked *games;
    int count, cap;
    long acks, acks_missing, replayed, replay_bad, pgns, pgn_bad, unreadable;
    int printed;
} Verify;

static Checked *verify_game(Verify *v, const char *id)
{
    for (int i = v->count - 1; i >= 0; i--)
        if (!strcmp(v->games[i].id, id)) return &v->games[i];
    if (v->count == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->games = xrealloc(v->games, (size_t)v->cap * sizeof *v->games);
    }
    Checked *c = &v->games[v->count++];
    memset(c, 0, sizeof *c);
    copy_text(c->id, sizeof c->id, id);
    return c;
}

static void verify_fail(Verify *v, const char *id, const char *fmt, const char *a, const char *b)
{
    if (v->printed++ >= 50) return;
    printf("FAIL game %s: ", id);
    printf(fmt, a, b);
    printf("\n");
}

/* Reads "GAME PLY COORD PLAYER" lines (the coordinate form is everything
 * between the ply and the last word). */
static bool read_acks(Verify *v, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "load: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    char line[1024];
    long number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "\n")] = '\0';
        char *id = strtok(line, " "), *ply = strtok(NULL, " "), *rest = strtok(NULL, "");
        char *last = rest ? strrchr(rest, ' ') : NULL;
        int n;
        if (!id || !valid_game_id(id) || !ply || !parse_int(ply, 1, 1000000, &n) || !last) {
            /* A line cut short by a kill of the load itself is not an ack. */
            fprintf(stderr, "load: %s:%ld: not an ack line: skipped\n", path, number);
            continue;
        }
        *last = '\0';
        Checked *c = verify_game(v, id);
        if (c->ack_count == c->ack_cap) {
            c->ack_cap = c->ack_cap ? 2 * c->ack_cap : 16;
            c->acks = xrealloc(c->acks, (size_t)c->ack_cap * sizeof *c->acks);
        }
        c->acks[c->ack_count].ply = n;
        c->acks[c->ack_count].coord = strdup(rest);
        if (!c->acks[c->ack_count].coord) exit(2);
        c->ack_count++;
    }
    fclose(f);
    return true;
}

/* The game's library copy from its variant and options members. */
static bool start_from_state(const json_t *state, Game *g, Text *err)
{
    const char *name = member_string(state, "variant"), *options = member_string(state, "options");
    memset(g, 0, sizeof *g);
    if (!name) return text_fail(err, "the state names no variant");
    const Variant *var = variant_find(name);
    if (!var) return text_fail(err, "the library knows no variant '%s'", name);
    Options o;
    options_default(var, &o);
    if (options && *options && !options_parse(var, &o, options, err)) return false;
    return game_init(g, var, &o, NULL, err);
}

static void game_fen(const Game *g, Text *out)
{
    text_clear(out);
    g->variant->to_fen(&g->options, game_state(g), out);
}

/* Checks the acks of one game against its stored actions, and replays
 * them: the FEN and the ply must be the state's. */
static void verify_actions(Verify *v, const Checked *c, const json_t *state, const char *fen, long long ply)
{
    const json_t *list = json_object_get(state, "actions");
    Game g;
    Text err = TEXT_INIT, out = TEXT_INIT;
    bool ok = start_from_state(state, &g, &err);
    int count = 0;
    size_t k;
    json_t *a;
    /* Every stored action is compared with the acks even after one failed
     * to replay, so that the counts of each check stay apart. */
    json_array_foreach(list, k, a) {
        const char *coord = action_coord(a);
        count++;
        if (!coord) {
            if (ok) text_fail(&err, "action %d has no coordinate form", count);
            ok = false;
            coord = "";
        } else if (ok) {
            ok = game_play_text(&g, coord, &err);
        }
        for (int i = 0; i < c->ack_count; i++)
            if (c->acks[i].ply == count && strcmp(c->acks[i].coord, coord))
                verify_fail(v, c->id, "the action acknowledged as %s is stored as %s", c->acks[i].coord, coord),
                    v->acks_missing++, c->acks[i].ply = -c->acks[i].ply;
    }
    for (int i = 0; i < c->ack_count; i++) {
        v->acks++;
        if (c->acks[i].ply > count) {
            char ply_text[32];
            snprintf(ply_text, sizeof ply_text, "%d", c->acks[i].ply);
            verify_fail(v, c->id, "the action %s acknowledged at ply %s is not stored", c->acks[i].coord, ply_text);
            v->acks_missing++;
        }
    }
    v->replayed++;
    if (ok) game_fen(&g, &out);
    if (!ok) verify_fail(v, c->id, "its stored actions do not replay: %s%s", text_str(&err), ""), v->replay_bad++;
    else if (strcmp(text_str(&out), fen) || ply != count)
        verify_fail(v, c->id, "its stored actions replay to %s, the server shows %s", text_str(&out), fen), v->replay_bad++;
    game_free(&g);
    text_free(&err);
    text_free(&out);
}

/* Reads the game's PGN record with the library: the same FEN, the same
 * number of actions, and the result the server shows ("ongoing" while in play). */
static void verify_pgn(Verify *v, CURL *e, const char *url, const Checked *c, const json_t *state, const char *fen,
                       long long ply)
{
    char path[512];
    snprintf(path, sizeof path, "%s/api/games/%s/pgn", url, c->id);
    Buffer pgn = { 0 };
    long status;
    get_blocking(e, path, &pgn, &status);
    v->pgns++;
    if (status != 200) {
        verify_fail(v, c->id, "GET pgn answered %s%s", status ? "an error: " : "nothing: ", buffer_str(&pgn));
        v->pgn_bad++;
        free(pgn.data);
        return;
    }
    const char *status_text = member_text(state, "status"), *result = member_text(state, "result"),
               *reason = member_text(state, "reason");
    Game g;
    memset(&g, 0, sizeof g);
    Text err = TEXT_INIT, out = TEXT_INIT, line = TEXT_INIT, want = TEXT_INIT;
    if (!pgn_read(buffer_str(&pgn), NULL, NULL, &g, NULL, NULL, &err)) {
        verify_fail(v, c->id, "its PGN does not read back: %s%s", text_str(&err), "");
        v->pgn_bad++;
    } else {
        game_fen(&g, &out);
        game_outcome_line(&g, &line);
        if (!strcmp(status_text, "over")) text_addf(&want, "%s %s", result, reason);
        else text_add(&want, "ongoing");
        if (strcmp(text_str(&out), fen) || game_count(&g) - 1 != ply)
            verify_fail(v, c->id, "its PGN replays to %s, the server shows %s", text_str(&out), fen), v->pgn_bad++;
        else if (strcmp(text_str(&line), text_str(&want)))
            verify_fail(v, c->id, "its PGN's result is '%s', the server's '%s'", text_str(&line), text_str(&want)),
                v->pgn_bad++;
    }
    game_free(&g);
    text_free(&err);
    text_free(&out);
    text_free(&line);
    text_free(&want);
    free(pgn.data);
}

static void verify_free(Verify *v)
{
    for (int i = 0; i < v->count; i++) {
        for (int k = 0; k < v->games[i].ack_count; k++) free(v->games[i].acks[k].coord);
        free(v->games[i].acks);
    }
    free(v->games);
}

/* Reads one game's state and checks it; false when no server answers. */
static bool verify_one(const Config *cfg, Verify *v, CURL *e, Buffer *state, const Checked *c)
{
    char url[512];
    long long ply;
    long status;
    snprintf(url, sizeof url, "%s/api/games/%s", cfg->urls[0], c->id);
    get_blocking(e, url, state, &status);
    if (status == 0) {
        fprintf(stderr, "load: the server at %s cannot be reached: %s\n", cfg->urls[0], buffer_str(state));
        return false;
    }
    json_t *root = status == 200 ? reply_parse(state) : NULL;
    const char *fen = member_string(root, "fen");
    if (fen && member_integer(root, "ply", &ply)) {
        verify_actions(v, c, root, fen, ply);
        verify_pgn(v, e, cfg->urls[0], c, root, fen, ply);
    } else {
        char code[32];
        snprintf(code, sizeof code, "%ld", status);
        verify_fail(v, c->id, status == 200 ? "its state (%s) has no fen or ply: %.200s" : "GET answered %s: %.200s",
                    code, buffer_str(state));
        v->unreadable++;
        v->acks += c->ack_count, v->acks_missing += c->ack_count;
    }
    json_decref(root);
    return true;
}

/* Checks every game; the counts go to standard output, one line a kind. */
static int verify_all(const Config *cfg, Verify *v, CURL *e, Buffer *state)
{
    for (int i = 0; i < v->count; i++)
        if (!verify_one(cfg, v, e, state, &v->games[i])) return 2;
    printf("games: %d read, %ld unreadable\n", v->count, v->unreadable);
    printf("acks: %ld checked, %ld missing\n", v->acks, v->acks_missing);
    printf("replay: %ld games, %ld mismatched\n", v->replayed, v->replay_bad);
    printf("pgn: %ld games, %ld mismatched\n", v->pgns, v->pgn_bad);
    return v->unreadable || v->acks_missing || v->replay_bad || v->pgn_bad ? 1 : 0;
}

static int run_verify(const Config *cfg)
{
    Verify v = { 0 };
    int rc = 2;
    bool ok = !cfg->ack_log || read_acks(&v, cfg->ack_log);
    for (int i = 0; ok && i < cfg->verify_game_count; i++) {
        if (!valid_game_id(cfg->verify_games[i])) ok = false, usage_error("'%s' is not a game id", cfg->verify_games[i]);
        else verify_game(&v, cfg->verify_games[i]);
    }
    CURL *e = ok ? curl_easy_init() : NULL;
    if (e) {
        Buffer state = { 0 };
        rc = verify_all(cfg, &v, e, &state);
        free(state.data);
        curl_easy_cleanup(e);
    }
    verify_free(&v);
    return rc;
}

/* ---- main ------------------------------------------------------------------ */

static void load_init(Load *ld, Config *cfg)
{
    memset(ld, 0, sizeof *ld);
    ld->cfg = cfg;
    ld->rng = cfg->seed * 0x9E3779B97F4A7C15ULL + 1;
    ld->interval = (double)cfg->games / cfg->rate;
    ld->window_start = ld->window_end = 1e300;   /* nothing is measured during setup */
    movelist_init(&ld->legal);
    ld->multi = curl_multi_init();
    ld->spread = true;
    for (int i = 0; i < cfg->url_count; i++) {
        char origin[256];
        snprintf(origin, sizeof origin, "Origin: %s", cfg->urls[i]);
        ld->headers[i] = curl_slist_append(NULL, "Content-Type: application/json");
        ld->headers[i] = curl_slist_append(ld->headers[i], "Expect:");
        ld->headers[i] = curl_slist_append(ld->headers[i], origin);
        if (!ld->headers[i]) {
            fprintf(stderr, "load: libcurl could not start\n");
            exit(2);
        }
        ld->spread &= !strncmp(cfg->urls[i], "http://127.", 11);
    }
    if (!ld->multi) {
        fprintf(stderr, "load: libcurl could not start\n");
        exit(2);
    }
    /* Room for a connection per game and player (the server closes each
     * after its reply, so that every request passes its gate). */
    curl_multi_setopt(ld->multi, CURLMOPT_MAXCONNECTS, (long)(cfg->games * cfg->url_count + 64));
}

static void make_players(Load *ld)
{
    Config *cfg = ld->cfg;
    int n = (2 * cfg->games + GAMES_PER_PLAYER - 1) / GAMES_PER_PLAYER;
    ld->player_count = n < 2 ? 2 : n;
    ld->players = xcalloc((size_t)ld->player_count, sizeof *ld->players);
    unsigned tag = (unsigned)rng_next(&ld->rng);
    for (int i = 0; i < ld->player_count; i++) {
        Player *p = &ld->players[i];
        snprintf(p->name, sizeof p->name, "load-%08x-%d", tag, i);
        p->url = cfg->urls[i % cfg->url_count];
        p->actor.player = p;
        p->actor.easy = new_easy(ld, &p->actor, i);
    }
}

/* Slot i plays variant i mod V; its seats go round the players, so each
 * sits in at most ceil(2N/P) games; White talks to server i, Black to
 * server i + 1. */
static void make_slots(Load *ld)
{
    Config *cfg = ld->cfg;
    ld->slots = xcalloc((size_t)cfg->games, sizeof *ld->slots);
    for (int i = 0; i < cfg->games; i++) {
        Slot *s = &ld->slots[i];
        s->index = i;
        s->variant = ld->variants[i % ld->variant_count];
        s->seat[WHITE] = &ld->players[(2 * i) % ld->player_count];
        s->seat[BLACK] = &ld->players[(2 * i + 1) % ld->player_count];
        s->url[WHITE] = cfg->urls[i % cfg->url_count];
        s->url[BLACK] = cfg->urls[(i + 1) % cfg->url_count];
        s->state = S_CREATE;
        s->actor.slot = s;
        s->actor.easy = new_easy(ld, &s->actor, ld->player_count + i);
    }
}

static void load_free(Load *ld)
{
    for (int i = 0; i < ld->cfg->games && ld->slots; i++) {
        slot_drop_game(&ld->slots[i]);
        curl_easy_cleanup(ld->slots[i].actor.easy);
        free(ld->slots[i].actor.reply.data);
    }
    for (int i = 0; i < ld->player_count; i++) {
        curl_easy_cleanup(ld->players[i].actor.easy);
        free(ld->players[i].actor.reply.data);
    }
    free(ld->slots);
    free(ld->players);
    free(ld->st.latency.ms);
    for (int i = 0; i < MAX_VARIANTS; i++) free(ld->st.by_variant[i].ms);
    curl_multi_cleanup(ld->multi);
    for (int i = 0; i < ld->cfg->url_count; i++) curl_slist_free_all(ld->headers[i]);
    movelist_free(&ld->legal);
    text_free(&ld->text);
    if (ld->ack) fclose(ld->ack);
}

/* Plays the load: setup, the measured play, the results; the exit status. */
static int run_load(Config *cfg)
{
    Load ld;
    load_init(&ld, cfg);
    if (cfg->ack_log && !(ld.ack = fopen(cfg->ack_log, "a"))) {
        fprintf(stderr, "load: cannot write %s: %s\n", cfg->ack_log, strerror(errno));
        load_free(&ld);
        return 2;
    }
    if (!fetch_variants(&ld)) {
        load_free(&ld);
        return 2;
    }
    make_players(&ld);
    make_slots(&ld);
    bool ready = setup(&ld);
    if (ready) play(&ld);
    else if (!stop_requested) fprintf(stderr, "load: the games could not be set up\n");
    else drain(&ld);
    print_results(&ld);
    int rc = !ready && !stop_requested ? 1 : errors_total(&ld, !cfg->tolerate) ? 1 : 0;
    load_free(&ld);
    return rc;
}

int main(int argc, char **argv)
{
    Config cfg;
    int rc = parse_args(argc, argv, &cfg);
    if (rc < 0) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            fprintf(stderr, "load: libcurl could not start\n");
            rc = 2;
        } else {
            struct sigaction sa = { .sa_handler = on_stop_signal };
            sigemptyset(&sa.sa_mask);
            sigaction(SIGINT, &sa, NULL);
            sigaction(SIGTERM, &sa, NULL);
            signal(SIGPIPE, SIG_IGN);
            rc = cfg.verify ? run_verify(&cfg) : run_load(&cfg);
            curl_global_cleanup();
        }
    }
    free(cfg.verify_games);
    return rc;
}
