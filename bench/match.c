/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * match: plays games between two players and says who is stronger
 * (docs/engine.md, "Strength").  A player is a UCI engine (any program: ttchess
 * engine, Stockfish, Fairy-Stockfish), or one of the players built in:
 * "random" (any legal action), "greedy" (the action that captures the
 * most material, else any), and their van Gog variants "random-repay" and
 * "greedy-repay", which first meet their own obligations and arrive only
 * sparingly (see repay_allowed).  The referee is the ttchess library: it keeps
 * the game with every timeline, checks every action an engine answers,
 * and ends the game by the variant's rules, so an engine that answers an
 * illegal action, or none, loses the game and is counted as a protocol
 * error.
 *
 * Each opening of the file is played twice, colours swapped.  The result
 * is the score, an Elo difference with its 95 % interval, and one line
 * "RESULT|..." for bench/match.sh to put in its table.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "text.h"
#include "variant.h"
#include "eval.h"
#include "registry.h"
#include "vangog.h"

static const char USAGE[] =
    "usage: match --variant V [options] PLAYER1 PLAYER2\n"
    "\n"
    "Plays games between PLAYER1 and PLAYER2 and prints the score with an Elo\n"
    "estimate.  A PLAYER is 'random', 'greedy' (captures the most material,\n"
    "else random), 'random-repay' or 'greedy-repay' (the same, but first an action\n"
    "that fulfils one of its own open obligations, arriving only with fewer than\n"
    "2 open, and random-repay picks a kind of action first, then one of that\n"
    "kind) or 'uci:COMMAND' (a UCI engine started by /bin/sh).\n"
    "\n"
    "  --variant V        the game (see 'ttchess variants')\n"
    "  --options TEXT     the variant's options, as 'ttchess play' takes them\n"
    "  --games N          games to play (default 10); an opening is played twice,\n"
    "                     colours swapped\n"
    "  --first-game K     starts at the match's game K (default 1): its opening\n"
    "                     and colours are those game K of the whole match has,\n"
    "                     so that parts of one match can run at once\n"
    "  --openings FILE    one opening a line: VARIANT|FEN or -|ACTIONS (VARIANT\n"
    "                     '*' for every variant); default: the start position\n"
    "  --movetime MS      each engine thinks MS milliseconds a move (default 100)\n"
    "  --movetime2 MS     PLAYER2 thinks MS milliseconds a move instead (a ladder:\n"
    "                     an engine against itself given less time)\n"
    "  --tc BASE+INC      a clock instead: BASE seconds a side, INC seconds a move\n"
    "  --max-plies N      a game still going after N actions ends as an agreed\n"
    "                     draw, to which the variant's rules apply (400)\n"
    "  --option1 N=V      a UCI option for PLAYER1 (repeatable); --option2 likewise\n"
    "  --name1 NAME       the name in the results (default: the engine's own)\n"
    "  --seed N           seed of the built-in players' choices (default 1)\n"
    "  --log FILE         writes each game: its result and its actions\n"
    "  --quiet            no line per game\n"
    "  --merge            plays no game: reads the RESULT lines of parts of one\n"
    "                     match from standard input and prints the match's\n"    "                     score, Elo and RESULT line, as if played at once\n"
    "  --choose N         plays no game: PLAYER1, a built-in player, chooses N times\n"
    "                     in the first opening's position; prints each action\n"
    "                     chosen with how often (a test of the players' rules)\n";

enum { MAX_OPTIONS = 16, LINE_MAX_BYTES = 1 << 16 };

typedef enum PlayerKind {
    PLAYER_RANDOM,
    PLAYER_GREEDY,
    PLAYER_RANDOM_REPAY,
    PLAYER_GREEDY_REPAY,
    PLAYER_UCI
} PlayerKind;

typedef struct Player {
    PlayerKind kind;
    char name[128];
    const char *command;
    const char *options[MAX_OPTIONS];
    int option_count;
    pid_t pid;
    FILE *to;
    int from;
    char buffer[LINE_MAX_BYTES];
    size_t buffered;
    bool has_variant_option;
    int movetime;    /* milliseconds a move without a clock                     */
    int errors;      /* protocol errors: illegal, unreadable or missing answers */
    int forfeits;    /* games lost on time                                      */
} Player;

typedef struct Opening {
    char *fen;       /* NULL: the start */
    char *moves;     /* NULL: none      */
} Opening;

typedef struct Config {
    const Variant *variant;
    Options options;
    int games;
    int first_game;           /* 0-based: --first-game less 1 */
    int movetime;
    int base_ms, inc_ms;      /* base_ms > 0: a clock */
    int max_plies;
    uint64_t seed;
    FILE *log;
    bool quiet;
    Opening *openings;
    int opening_count;
} Config;

/* ---- Small helpers --------------------------------------------------------- */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("match: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t next_random(uint64_t *s)
{
    uint64_t x = *s += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static char *copy_string(const char *s)
{
    char *c = strdup(s);
    if (!c) die("out of memory");
    return c;
}

/* ---- UCI engines ----------------------------------------------------------- */

static void send(Player *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send(Player *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->to, fmt, ap);
    va_end(ap);
    fputc('\n', p->to);
    fflush(p->to);
}

/* Reads one line the engine writes, waiting until `deadline` (a time of
 * now_ms); false when none came by then or the engine has gone. */
static bool receive(Player *p, char *line, size_t size, int64_t deadline)
{
    for (;;) {
        char *nl = memchr(p->buffer, '\n', p->buffered);
        if (nl) {
            size_t n = (size_t)(nl - p->buffer);
            size_t keep = n < size - 1 ? n : size - 1;
            memcpy(line, p->buffer, keep);
            line[keep] = '\0';
            if (keep && line[keep - 1] == '\r') line[keep - 1] = '\0';
            p->buffered -= n + 1;
            memmove(p->buffer, nl + 1, p->buffered);
            return true;
        }
        if (p->buffered == sizeof p->buffer) p->buffered = 0; /* a line too long for anyone */
        int64_t wait = deadline - now_ms();
        if (wait < 0) return false;
        struct pollfd pfd = { .fd = p->from, .events = POLLIN };
        int r = poll(&pfd, 1, wait > 60000 ? 60000 : (int)wait);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        ssize_t got = read(p->from, p->buffer + p->buffered, sizeof p->buffer - p->buffered);
        if (got <= 0) return false;
        p->buffered += (size_t)got;
    }
}

/* Waits for a line starting with `word`; false after `timeout_ms`. */
static bool expect(Player *p, const char *word, int timeout_ms, char *line, size_t size)
{
    int64_t deadline = now_ms() + timeout_ms;
    size_t len = strlen(word);
    while (receive(p, line, size, deadline)) {
        if (!strncmp(line, word, len) && (line[len] == '\0' || line[len] == ' ')) return true;
        if (!strncmp(line, "id name ", 8) && !p->name[0]) snprintf(p->name, sizeof p->name, "%s", line + 8);
        if (!strncmp(line, "option name UCI_Variant ", 24)) p->has_variant_option = true;
    }
    return false;
}

static void start_engine(Player *p, const Config *cfg)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from)) die("cannot make a pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) die("cannot start '%s': %s", p->command, strerror(errno));
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl("/bin/sh", "sh", "-c", p->command, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    p->pid = pid;
    p->from = from[0];
    p->to = fdopen(to[1], "w");
    if (!p->to) die("out of memory");
    char line[4096];
    send(p, "uci");
    if (!expect(p, "uciok", 10000, line, sizeof line)) die("'%s' did not answer 'uci' with 'uciok'", p->command);
    bool variant_given = false;
    for (int i = 0; i < p->option_count; i++) {
        const char *eq = strchr(p->options[i], '=');
        if (!eq) die("an engine option is NAME=VALUE, not '%s'", p->options[i]);
        send(p, "setoption name %.*s value %s", (int)(eq - p->options[i]), p->options[i], eq + 1);
        if (!strncmp(p->options[i], "UCI_Variant=", 12)) variant_given = true;
    }
    if (p->has_variant_option && !variant_given) send(p, "setoption name UCI_Variant value %s", cfg->variant->name);
    if (!p->has_variant_option && strcmp(cfg->variant->name, "chess") != 0 && !variant_given)
        die("'%s' has no UCI_Variant option: it plays chess only", p->command);
    Text opts = TEXT_INIT;
    options_format(cfg->variant, &cfg->options, false, &opts);
    if (p->has_variant_option && text_str(&opts)[0] && !variant_given)
        send(p, "setoption name VariantOptions value %s", text_str(&opts));
    text_free(&opts);
    send(p, "isready");
    if (!expect(p, "readyok", 30000, line, sizeof line)) die("'%s' did not answer 'isready'", p->command);
    if (!p->name[0]) snprintf(p->name, sizeof p->name, "%s", p->command);
}

static void stop_engine(Player *p)
{
    if (p->kind != PLAYER_UCI || !p->to) return;
    send(p, "quit");
    fclose(p->to);
    p->to = NULL;
    int64_t deadline = now_ms() + 2000;
    int status;
    while (waitpid(p->pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            break;
        }
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    }
    close(p->from);
}

/* ---- The game ---------------------------------------------------------- */

typedef struct Played {
    Game game;
    Text position;   /* the "position ..." command, actions appended */
    Text record;     /* the actions, for the log                       */
    int plies;
} Played;

/* Plays one action given as text; false (with the reason) if illegal. */
static bool play_text(Played *pl, const char *text, Text *err)
{
    Line l;
    line_open(&l, &pl->game, game_current(&pl->game));
    Move m;
    bool ok = pl->game.variant->parse(&l, text, &m, err);
    Text coord = TEXT_INIT;
    if (ok) ok = pl->game.variant->format_coord(&l, m, &coord);
    line_close(&l);
    if (ok && !game_push(&pl->game, m)) ok = text_fail(err, "out of memory");
    if (ok) {
        text_addf(&pl->position, " %s", text_str(&coord));
        if (pl->plies) text_add(&pl->record, " ");
        text_add(&pl->record, text_str(&coord));
        pl->plies++;
    }
    text_free(&coord);
    return ok;
}

static int material(const Board *b, Color c)
{
    int sum = 0;
    for (PieceType t = PAWN; t < KING; t++) sum += eval_piece_value(t) * __builtin_popcountll(board_pieces(b, c, t));
    return sum;
}

/* The open obligations of colour c: van Gog's arrivals not yet matched by
 * a departure to the past.  The other games have none. */
static int open_obligations(const Line *l, Color c)
{
    if (line_variant(l)->parse != vangog_parse) return 0;
    const State *s = line_state(l);
    const Obligation *o = vangog_obligations(s);
    int count = 0;
    for (int i = 0; i < vangog_cstate(s)->obligations; i++) count += o[i].color == c;
    return count;
}

/* Keeps in the list only the actions that `keep` says yes to, unless it
 * says yes to none: then the list stays whole.  True if some were kept. */
static bool keep_only(Line *l, MoveList *list, bool (*keep)(Line *, Move, int), int arg)
{
    int kept = 0;
    for (int i = 0; i < list->count; i++)
        if (keep(l, list->moves[i], arg)) list->moves[kept++] = list->moves[i];
    if (kept == 0) return false;
    list->count = kept;
    return true;
}

/* Does the action leave its side fewer open obligations than `before`?
 * Only a departure to the past that matches one does, so the others are
 * not played to see. */
static bool fulfils(Line *l, Move m, int before)
{
    if (m.kind != MOVE_DEPART_PAST) return false;
    Color side = line_board(l)->side;
    if (!line_push(l, m)) die("out of memory");
    bool fewer = open_obligations(l, side) < before;
    line_pop(l);
    return fewer;
}

static bool not_arrival(Line *l, Move m, int unused)
{
    (void)l, (void)unused;
    return m.kind != MOVE_ARRIVAL;
}

/* The repaying players' rules, which make them play van Gog's game rather
 * than its degenerate line (arriving on every turn, repaying never, and
 * losing every game on unmet obligations): an action that fulfils one of
 * their own open obligations if there is one; otherwise no arrival while
 * two or more are open, unless only arrivals are legal.  In a game
 * without obligations every action stays allowed. */
static void repay_allowed(Line *l, MoveList *list)
{
    int open = open_obligations(l, line_board(l)->side);
    if (open > 0 && keep_only(l, list, fulfils, open)) return;
    if (open >= 2) keep_only(l, list, not_arrival, 0);
}

/* The kind of an action as random-repay tells them apart: every chess move
 * is one kind (an ordinary move), each other kind its own, and an action
 * made elsewhere in history (MOVE_AT_NODE) another again. */
static int kind_group(Move m)
{
    return move_is_chess(m) ? -1 : m.kind | m.flags << 8;
}

/* A kind uniformly among the kinds in the list, then an action of that
 * kind uniformly: a game's rare kinds (a departure to the past among
 * thirty moves) are then played as often as its common ones. */
static Move kind_uniform_pick(const MoveList *list, uint64_t *rng)
{
    int groups[1024], group_count = 0;
    for (int i = 0; i < list->count; i++) {
        int g = kind_group(list->moves[i]), j = 0;
        while (j < group_count && groups[j] != g) j++;
        if (j == group_count && group_count < (int)(sizeof groups / sizeof groups[0])) groups[group_count++] = g;
    }
    int chosen = groups[next_random(rng) % (uint64_t)group_count];
    int of_kind = 0;
    for (int i = 0; i < list->count; i++) of_kind += kind_group(list->moves[i]) == chosen;
    int n = (int)(next_random(rng) % (uint64_t)of_kind);
    for (int i = 0; i < list->count; i++)
        if (kind_group(list->moves[i]) == chosen && n-- == 0) return list->moves[i];
    return list->moves[0];
}

/* The action of the list that leaves the opponent the least material on
 * the board, ties by chance. */
static Move greedy_pick(Line *l, const MoveList *list, uint64_t *rng)
{
    Color them = (Color)(1 - line_board(l)->side);
    int before = material(line_board(l), them);
    int best = -1, ties = 0;
    Move out = list->moves[0];
    for (int i = 0; i < list->count; i++) {
        if (!line_push(l, list->moves[i])) die("out of memory");
        int gain = before - material(line_board(l), them);
        line_pop(l);
        if (gain > best) {
            best = gain;
            ties = 1;
            out = list->moves[i];
        } else if (gain == best && next_random(rng) % (uint64_t)++ties == 0) {
            out = list->moves[i];
        }
    }
    return out;
}

/* The built-in players' action in the game's present position; false if
 * there is none. */
static bool builtin_choice(Player *p, Played *pl, uint64_t *rng, Move *out)
{
    MoveList list;
    movelist_init(&list);
    if (!game_generate(&pl->game, &list) || list.count == 0) {
        movelist_free(&list);
        return false;
    }
    Line l;
    line_open(&l, &pl->game, game_current(&pl->game));
    bool repay = p->kind == PLAYER_RANDOM_REPAY || p->kind == PLAYER_GREEDY_REPAY;
    if (repay) repay_allowed(&l, &list);
    if (p->kind == PLAYER_RANDOM) *out = list.moves[next_random(rng) % (uint64_t)list.count];
    else if (p->kind == PLAYER_RANDOM_REPAY) *out = kind_uniform_pick(&list, rng);
    else *out = greedy_pick(&l, &list, rng);
    line_close(&l);
    movelist_free(&list);
    return true;
}

typedef enum Ending { END_RULES, END_ILLEGAL, END_NO_ANSWER, END_TIME, END_MAX_PLIES } Ending;

typedef struct GameResult {
    uint8_t result;        /* enum Result */
    Ending ending;
    Text words;
} GameResult;

/* Asks a UCI engine for its action; the time it took goes in *used_ms. */
static bool engine_choice(Player *p, Played *pl, const Config *cfg, const int clock_ms[2], char *action,
                          size_t size, int64_t *used_ms)
{
    send(p, "%s", text_str(&pl->position));
    int64_t start = now_ms();
    int allowed;
    if (cfg->base_ms > 0) {
        send(p, "go wtime %d btime %d winc %d binc %d", clock_ms[WHITE], clock_ms[BLACK], cfg->inc_ms, cfg->inc_ms);
        Color side = game_board(&pl->game)->side;
        allowed = clock_ms[side] + 5000;
    } else {
        send(p, "go movetime %d", p->movetime);
        allowed = p->movetime * 3 + 2000;
    }
    char line[4096];
    bool got = expect(p, "bestmove", allowed, line, sizeof line);
    *used_ms = now_ms() - start;
    if (!got) {
        /* Get the engine back to listening before the next game. */
        send(p, "stop");
        expect(p, "bestmove", 2000, line, sizeof line);
        return false;
    }
    char *word = line + 8;
    while (*word == ' ') word++;
    size_t n = strcspn(word, " ");
    snprintf(action, size, "%.*s", (int)n, word);
    return true;
}

static GameResult play_game(Player *white, Player *black, const Opening *opening, const Config *cfg, uint64_t *rng)
{
    GameResult gr = { RESULT_NONE, END_RULES, TEXT_INIT };
    Played pl = { .position = TEXT_INIT, .record = TEXT_INIT };
    Text err = TEXT_INIT;
    if (!game_init(&pl.game, cfg->variant, &cfg->options, opening->fen, &err))
        die("bad opening position '%s': %s", opening->fen, text_str(&err));
    if (opening->fen) text_addf(&pl.position, "position fen %s moves", opening->fen);
    else text_add(&pl.position, "position startpos moves");
    if (opening->moves) {
        char *copy = copy_string(opening->moves);
        for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
            if (!play_text(&pl, tok, &err)) die("opening '%s': action '%s': %s", opening->moves, tok, text_str(&err));
        free(copy);
    }
    Player *players[2] = { white, black };
    for (int i = 0; i < 2; i++) {
        if (players[i]->kind != PLAYER_UCI) continue;
        char line[4096];
        send(players[i], "ucinewgame");
        send(players[i], "isready");
        if (!expect(players[i], "readyok", 10000, line, sizeof line)) die("%s stopped answering", players[i]->name);
    }
    int clock_ms[2] = { cfg->base_ms, cfg->base_ms };
    for (;;) {
        Outcome o;
        if (!game_outcome(&pl.game, &o)) die("out of memory");
        if (o.result != RESULT_NONE) {
            outcome_words(o, NULL, &gr.words);
            gr.result = o.result;
            break;
        }
        if (pl.plies >= cfg->max_plies) {
            /* The match ends the game as a draw agreed by both players;
             * the variant's rules then have their say (van Gog: a side
             * with obligations unmet loses an agreed draw too). */
            if (!game_declare(&pl.game, outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE), NULL) ||
                !game_outcome(&pl.game, &o))
                die("out of memory");
            gr.result = o.result;
            gr.ending = END_MAX_PLIES;
            text_addf(&gr.words, "stopped after %d actions by the match as an agreed draw: ", cfg->max_plies);
            outcome_words(o, NULL, &gr.words);
            break;
        }
        Color side = game_board(&pl.game)->side;
        Player *p = players[side];
        char action[256];
        if (p->kind == PLAYER_UCI) {
            int64_t used;
            if (!engine_choice(p, &pl, cfg, clock_ms, action, sizeof action, &used)) {
                p->errors++;
                gr.result = result_loss_for(side);
                gr.ending = END_NO_ANSWER;
                text_addf(&gr.words, "%s gave no action in time", p->name);
                break;
            }
            if (cfg->base_ms > 0) {
                clock_ms[side] -= (int)used;
                if (clock_ms[side] < 0) {
                    p->forfeits++;
                    gr.result = result_loss_for(side);
                    gr.ending = END_TIME;
                    text_addf(&gr.words, "%s lost on time", p->name);
                    break;
                }
                clock_ms[side] += cfg->inc_ms;
            }
            text_clear(&err);
            if (!play_text(&pl, action, &err)) {
                p->errors++;
                gr.result = result_loss_for(side);
                gr.ending = END_ILLEGAL;
                text_addf(&gr.words, "%s answered '%s', refused: %s", p->name, action, text_str(&err));
                break;
            }
        } else {
            Move m;
            if (!builtin_choice(p, &pl, rng, &m)) die("the referee found no action where the game goes on");
            Text coord = TEXT_INIT;
            Line l;
            line_open(&l, &pl.game, game_current(&pl.game));
            if (!pl.game.variant->format_coord(&l, m, &coord)) die("out of memory");
            line_close(&l);
            if (!play_text(&pl, text_str(&coord), &err)) die("the referee cannot read its own action: %s", text_str(&err));
            text_free(&coord);
        }
    }
    if (cfg->log) {
        fprintf(cfg->log, "%s|%s|%s|%s|%s|%s\n", white->name, black->name, result_string(gr.result), text_str(&gr.words),
                opening->fen ? opening->fen : "-", text_str(&pl.record));
        fflush(cfg->log);
    }
    text_free(&err);
    text_free(&pl.position);
    text_free(&pl.record);
    game_free(&pl.game);
    return gr;
}

/* ---- Openings -------------------------------------------------------------- */

static void load_openings(Config *cfg, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read '%s': %s", path, strerror(errno));
    char line[8192];
    int number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        char *bar1 = strchr(line, '|');
        char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        if (!bar2) die("%s:%d: an opening is VARIANT|FEN or -|ACTIONS", path, number);
        *bar1 = *bar2 = '\0';
        if (strcmp(line, "*") != 0 && strcmp(line, cfg->variant->name) != 0) continue;
        Opening o = { NULL, NULL };
        if (strcmp(bar1 + 1, "-") != 0) o.fen = copy_string(bar1 + 1);
        if (bar2[1]) o.moves = copy_string(bar2 + 1);
        Opening *more = realloc(cfg->openings, (size_t)(cfg->opening_count + 1) * sizeof *more);
        if (!more) die("out of memory");
        cfg->openings = more;
        cfg->openings[cfg->opening_count++] = o;
    }
    fclose(f);
    if (cfg->opening_count == 0) die("'%s' has no opening for %s", path, cfg->variant->name);
}

/* ---- The score ------------------------------------------------------------- */

static double elo_of(double score)
{
    if (score <= 0.0) return -INFINITY;
    if (score >= 1.0) return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

static void format_elo(double elo, char *out, size_t size)
{
    if (isinf(elo)) snprintf(out, size, "%sinf", elo > 0 ? "+" : "-");
    else snprintf(out, size, "%+.0f", fabs(elo) < 0.5 ? 0.0 : elo);
}

/* What a match (or a part of it) came to. */
typedef struct Tally {
    char variant[64], names[2][128], tc[64];
    int games, wins, losses, draws, both_lose;
    int errors, errors_of[2], forfeits[2];
} Tally;

/* Prints the score, its Elo with an interval, and the RESULT line that
 * bench/match.sh reads.  `per_player`: the protocol errors of each player
 * are known (a merged match knows only their sum). */
static void report(const Tally *t, bool per_player)
{
    int n = t->games;
    double sum = t->wins + 0.5 * t->draws;
    double mean = sum / n;
    /* Wilson's interval of the score: unlike mean +- 1.96 standard errors
     * it stays inside 0..1 and is not a single point when every game was
     * won, which against a random player is the expected result. */
    const double z = 1.96;
    double centre = (mean + z * z / (2.0 * n)) / (1 + z * z / n);
    double half = z * sqrt(mean * (1 - mean) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
    char elo[32], lo[32], hi[32];
    format_elo(elo_of(mean), elo, sizeof elo);
    format_elo(elo_of(centre - half), lo, sizeof lo);
    format_elo(elo_of(centre + half), hi, sizeof hi);
    printf("%s vs %s, %s, %d games, %s: +%d -%d =%d%s, score %.1f%% (%.1f of %d)\n", t->names[0], t->names[1],
           t->variant, n, t->tc, t->wins, t->losses, t->draws,
           t->both_lose ? " (and some where both lost)" : "", 100.0 * mean, sum, n);
    printf("Elo difference: %s (95%% interval %s to %s)\n", elo, lo, hi);
    if (per_player)
        printf("protocol errors: %s %d, %s %d; ", t->names[0], t->errors_of[0], t->names[1], t->errors_of[1]);
    else printf("protocol errors: %d; ", t->errors);
    printf("lost on time: %s %d, %s %d\n", t->names[0], t->forfeits[0], t->names[1], t->forfeits[1]);
    printf("RESULT|%s|%s|%s|%s|%d|%d|%d|%d|%d|%.1f|%s|%s|%s|%d|%d|%d\n", t->variant, t->names[0], t->names[1],
           t->tc, n, t->wins, t->losses, t->draws, t->both_lose, 100.0 * mean, elo, lo, hi, t->errors,
           t->forfeits[0], t->forfeits[1]);
}

/* Copies the field of `line` that starts at *p, up to the next '|' or the
 * line's end, into out; false if it does not fit. */
static bool next_field(char **p, char *out, size_t size)
{
    size_t len = strcspn(*p, "|\n");
    if (len >= size) return false;
    memcpy(out, *p, len);
    out[len] = '\0';
    *p += len + ((*p)[len] == '|');
    return true;
}

/* --merge: the parts of one match, each a RESULT line on standard input
 * (other lines are passed over), as one match.  Parts of different
 * matches (another game, players or time control) are refused. */
static int merge_results(void)
{
    Tally sum = { .games = 0 };
    char line[1024];
    int parts = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "RESULT|", 7) != 0) continue;
        char *p = line + 7, variant[64], names[2][128], tc[64], num[12][32];
        bool ok = next_field(&p, variant, sizeof variant) && next_field(&p, names[0], sizeof names[0]) &&
                  next_field(&p, names[1], sizeof names[1]) && next_field(&p, tc, sizeof tc);
        for (int i = 0; ok && i < 12; i++) ok = next_field(&p, num[i], sizeof num[i]);
        if (!ok) die("--merge: a RESULT line that is not one: %s", line);
        if (parts == 0) {
            snprintf(sum.variant, sizeof sum.variant, "%s", variant);
            snprintf(sum.names[0], sizeof sum.names[0], "%s", names[0]);
            snprintf(sum.names[1], sizeof sum.names[1], "%s", names[1]);
            snprintf(sum.tc, sizeof sum.tc, "%s", tc);
        } else if (strcmp(sum.variant, variant) || strcmp(sum.names[0], names[0]) || strcmp(sum.names[1], names[1]) ||
                   strcmp(sum.tc, tc)) {
            die("--merge: parts of different matches (%s %s-%s %s, then %s %s-%s %s)", sum.variant, sum.names[0],
                sum.names[1], sum.tc, variant, names[0], names[1], tc);
        }
        /* Fields: games wins losses draws both-lost score elo low high
         * errors, then each player's games lost on time; the score and
         * the Elo are worked out again from the sums. */
        sum.games += atoi(num[0]);
        sum.wins += atoi(num[1]);
        sum.losses += atoi(num[2]);
        sum.draws += atoi(num[3]);
        sum.both_lose += atoi(num[4]);
        sum.errors += atoi(num[9]);
        sum.forfeits[0] += atoi(num[10]);
        sum.forfeits[1] += atoi(num[11]);
        parts++;
    }
    if (parts == 0 || sum.games == 0) die("--merge: no RESULT line on standard input");
    report(&sum, false);
    return 0;
}

static Player make_player(const char *spec)
{
    static const struct { const char *name; PlayerKind kind; } BUILTIN[] = {
        { "random", PLAYER_RANDOM },
        { "greedy", PLAYER_GREEDY },
        { "random-repay", PLAYER_RANDOM_REPAY },
        { "greedy-repay", PLAYER_GREEDY_REPAY },
    };
    Player p;
    memset(&p, 0, sizeof p);
    p.from = -1;
    for (size_t i = 0; i < sizeof BUILTIN / sizeof BUILTIN[0]; i++) {
        if (strcmp(spec, BUILTIN[i].name) != 0) continue;
        p.kind = BUILTIN[i].kind;
        snprintf(p.name, sizeof p.name, "%s", spec);
        return p;
    }
    if (strncmp(spec, "uci:", 4) != 0 || !spec[4])
        die("a player is 'random', 'greedy', 'random-repay', 'greedy-repay' or 'uci:COMMAND', not '%s'", spec);
    p.kind = PLAYER_UCI;
    p.command = spec + 4;
    return p;
}

/* --choose: the built-in player chooses `times` times in the opening's
 * position, and each action chosen is printed with how often, in the
 * order the game generates them; the tests check the players' rules so. */
static void choose_only(Player *p, const Opening *opening, const Config *cfg, int times)
{
    if (p->kind == PLAYER_UCI) die("--choose takes a built-in player");
    Played pl = { .position = TEXT_INIT, .record = TEXT_INIT };
    Text err = TEXT_INIT;
    if (!game_init(&pl.game, cfg->variant, &cfg->options, opening->fen, &err))
        die("bad opening position '%s': %s", opening->fen, text_str(&err));
    if (opening->moves) {
        char *copy = copy_string(opening->moves);
        for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
            if (!play_text(&pl, tok, &err)) die("opening '%s': action '%s': %s", opening->moves, tok, text_str(&err));
        free(copy);
    }
    MoveList list;
    movelist_init(&list);
    if (!game_generate(&pl.game, &list) || list.count == 0) die("the opening's position has no action");
    int *counts = calloc((size_t)list.count, sizeof *counts);
    if (!counts) die("out of memory");
    uint64_t rng = cfg->seed;
    for (int n = 0; n < times; n++) {
        Move m;
        if (!builtin_choice(p, &pl, &rng, &m)) die("the referee found no action");
        for (int i = 0; i < list.count; i++)
            if (move_equal(list.moves[i], m)) counts[i]++;
    }
    Line l;
    line_open(&l, &pl.game, game_current(&pl.game));
    for (int i = 0; i < list.count; i++) {
        if (!counts[i]) continue;
        Text coord = TEXT_INIT;
        if (!cfg->variant->format_coord(&l, list.moves[i], &coord)) die("out of memory");
        printf("%s %d\n", text_str(&coord), counts[i]);
        text_free(&coord);
    }
    line_close(&l);
    free(counts);
    movelist_free(&list);
    text_free(&err);
    text_free(&pl.position);
    text_free(&pl.record);
    game_free(&pl.game);
}

static long number_arg(const char *what, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        die("%s must be a number from %ld to %ld, not '%s'", what, min, max, text);
    return v;
}

int main(int argc, char **argv)
{
    Config cfg = { .games = 10, .movetime = 100, .max_plies = 400, .seed = 1 };
    const char *specs[2] = { NULL, NULL };
    const char *names[2] = { NULL, NULL };
    const char *opts[2][MAX_OPTIONS];
    int opt_count[2] = { 0, 0 };
    const char *variant_options = NULL, *openings = NULL, *log_path = NULL;
    int positional = 0, choose = 0, movetime2 = 0;
    signal(SIGPIPE, SIG_IGN);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!strcmp(a, "--quiet")) {
            cfg.quiet = true;
        } else if (!strcmp(a, "--merge")) {
            return merge_results();
        } else if (a[0] == '-' && a[1] == '-' && !has_value) {
            die("%s needs a value (see --help)", a);
        } else if (!strcmp(a, "--variant")) {
            cfg.variant = variant_find(argv[++i]);
            if (!cfg.variant) die("no variant '%s' (see 'ttchess variants')", argv[i]);
        } else if (!strcmp(a, "--options")) {
            variant_options = argv[++i];
        } else if (!strcmp(a, "--games")) {
            cfg.games = (int)number_arg("--games", argv[++i], 1, 1000000);
        } else if (!strcmp(a, "--first-game")) {
            cfg.first_game = (int)number_arg("--first-game", argv[++i], 1, 1000000) - 1;
        } else if (!strcmp(a, "--openings")) {
            openings = argv[++i];
        } else if (!strcmp(a, "--movetime")) {
            cfg.movetime = (int)number_arg("--movetime", argv[++i], 1, 3600000);
        } else if (!strcmp(a, "--movetime2")) {
            movetime2 = (int)number_arg("--movetime2", argv[++i], 1, 3600000);
        } else if (!strcmp(a, "--tc")) {
            const char *v = argv[++i];
            char *end;
            double base = strtod(v, &end), inc = 0;
            bool ok = end != v;
            if (ok && *end == '+') {
                const char *rest = end + 1;
                inc = strtod(rest, &end);
                ok = end != rest;
            }
            if (!ok || *end || !(base > 0 && base <= 86400) || !(inc >= 0 && inc <= 3600))
                die("--tc is BASE+INC in seconds, as 10+0.1, not '%s'", v);
            cfg.base_ms = (int)(base * 1000);
            cfg.inc_ms = (int)(inc * 1000);
        } else if (!strcmp(a, "--max-plies")) {
            cfg.max_plies = (int)number_arg("--max-plies", argv[++i], 1, 100000);
        } else if (!strcmp(a, "--option1") || !strcmp(a, "--option2")) {
            int who = a[8] - '1';
            if (opt_count[who] == MAX_OPTIONS) die("at most %d options a player", MAX_OPTIONS);
            opts[who][opt_count[who]++] = argv[++i];
        } else if (!strcmp(a, "--name1") || !strcmp(a, "--name2")) {
            names[a[6] - '1'] = argv[++i];
        } else if (!strcmp(a, "--seed")) {
            cfg.seed = (uint64_t)number_arg("--seed", argv[++i], 0, 2147483647L);
        } else if (!strcmp(a, "--choose")) {
            choose = (int)number_arg("--choose", argv[++i], 1, 10000000);
        } else if (!strcmp(a, "--log")) {
            log_path = argv[++i];
        } else if (a[0] == '-' && a[1] == '-') {
            die("unknown option '%s' (see --help)", a);
        } else {
            if (positional == 2) die("two players, not more (see --help)");
            specs[positional++] = a;
        }
    }
    if (!cfg.variant) die("which game? --variant V (see --help)");
    if (choose && positional != 1) die("--choose takes one player (see --help)");
    if (!choose && positional != 2) die("name two players (see --help)");
    options_default(cfg.variant, &cfg.options);
    Text err = TEXT_INIT;
    if (variant_options && !options_parse(cfg.variant, &cfg.options, variant_options, &err))
        die("--options: %s", text_str(&err));
    if (openings) load_openings(&cfg, openings);
    else {
        cfg.openings = calloc(1, sizeof *cfg.openings);
        if (!cfg.openings) die("out of memory");
        cfg.opening_count = 1;
    }
    if (choose) {
        Player p = make_player(specs[0]);
        choose_only(&p, &cfg.openings[0], &cfg, choose);
        for (int i = 0; i < cfg.opening_count; i++) {
            free(cfg.openings[i].fen);
            free(cfg.openings[i].moves);
        }
        free(cfg.openings);
        return 0;
    }
    if (log_path) {
        cfg.log = fopen(log_path, "w");
        if (!cfg.log) die("cannot write '%s': %s", log_path, strerror(errno));
    }
    Player players[2];
    for (int i = 0; i < 2; i++) {
        players[i] = make_player(specs[i]);
        memcpy(players[i].options, opts[i], (size_t)opt_count[i] * sizeof opts[i][0]);
        players[i].option_count = opt_count[i];
        players[i].movetime = i == 1 && movetime2 ? movetime2 : cfg.movetime;
        if (names[i]) snprintf(players[i].name, sizeof players[i].name, "%s", names[i]);
        if (players[i].kind == PLAYER_UCI) start_engine(&players[i], &cfg);
    }
    Tally t = { .games = cfg.games };
    for (int g = cfg.first_game; g < cfg.first_game + cfg.games; g++) {
        const Opening *o = &cfg.openings[(g / 2) % cfg.opening_count];
        /* Each game's own sequence of the built-in players' choices, from
         * the seed and the game's number: a part of a match played alone
         * (--first-game) plays the games the whole match would. */
        uint64_t rng = cfg.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)g + 1;
        bool first_white = g % 2 == 0;
        Player *white = first_white ? &players[0] : &players[1];
        Player *black = first_white ? &players[1] : &players[0];
        GameResult r = play_game(white, black, o, &cfg, &rng);
        if (r.result == RESULT_DRAW) t.draws++;
        else if (r.result == RESULT_BOTH_LOSE) t.both_lose++;
        else if ((r.result == RESULT_WHITE_WINS) == first_white) t.wins++;
        else t.losses++;
        if (!cfg.quiet)
            printf("game %d: %s - %s  %s  %s\n", g + 1, white->name, black->name, result_string(r.result), text_str(&r.words));
        fflush(stdout);
        text_free(&r.words);
    }
    for (int i = 0; i < 2; i++) stop_engine(&players[i]);
    char tc[64];
    if (cfg.base_ms) snprintf(tc, sizeof tc, "%g+%g s", cfg.base_ms / 1000.0, cfg.inc_ms / 1000.0);
    else if (players[0].movetime != players[1].movetime)
        snprintf(tc, sizeof tc, "%d / %d ms a move", players[0].movetime, players[1].movetime);
    else snprintf(tc, sizeof tc, "%d ms a move", cfg.movetime);
    snprintf(t.variant, sizeof t.variant, "%s", cfg.variant->name);
    snprintf(t.names[0], sizeof t.names[0], "%s", players[0].name);
    snprintf(t.names[1], sizeof t.names[1], "%s", players[1].name);
    snprintf(t.tc, sizeof t.tc, "%s", tc);
    t.errors = players[0].errors + players[1].errors;
    t.errors_of[0] = players[0].errors;
    t.errors_of[1] = players[1].errors;
    t.forfeits[0] = players[0].forfeits;
    t.forfeits[1] = players[1].forfeits;
    report(&t, true);
    if (cfg.log) fclose(cfg.log);
    for (int i = 0; i < cfg.opening_count; i++) {
        free(cfg.openings[i].fen);
        free(cfg.openings[i].moves);
    }
    free(cfg.openings);
    text_free(&err);
    return 0;
}
