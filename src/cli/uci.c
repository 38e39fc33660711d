/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess engine: the Universal Chess Interface over standard input and
 * output, for every variant (docs/engine.md).  The search runs in a thread
 * of its own so that "stop", "isready" and "quit" are answered while it
 * thinks; one lock keeps the lines of the two threads whole.
 *
 * Positions are games: "position" plays its actions on a record, so an
 * action that needs the history (a king going back, a general travel)
 * finds it, and the search reads every timeline.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine.h"

const char HELP_ENGINE[] =
    "usage: ttchess engine\n"
    "\n"
    "Speaks UCI on standard input and output, for every variant: choose one\n"
    "with 'setoption name UCI_Variant value gifford' (then 'ucinewgame').\n"
    "Actions are given and answered in each game's coordinate form, time travel\n"
    "included (see 'ttchess help' for the forms).  Options: UCI_Variant,\n"
    "VariantOptions (the game's rule limits, \"forward=8 back=3\"), Hash, Threads,\n"
    "MultiPV, Skill Level.  Besides UCI: 'd' prints the position's FEN.\n"
    "See docs/engine.md.\n";

typedef struct Uci {
    Engine *engine;
    const Variant *variant;
    Options options;
    Game game;
    bool have_game;
    int multipv;
    pthread_t thread;
    bool searching;
    SearchLimits limits;
    pthread_mutex_t out;
} Uci;

static void say(Uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&u->out);
    va_end(ap);
}

/* Writes the actions of a line from the game's present position, each in
 * the game's coordinate form at the position where it is played. */
static void format_line(const Game *g, const Move *moves, int count, Text *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < count; i++) {
        if (i) text_add(out, " ");
        if (!g->variant->format_coord(&l, moves[i], out) || !line_push(&l, moves[i])) break;
    }
    line_close(&l);
}

static void print_info(void *context, const SearchInfo *info)
{
    Uci *u = context;
    Text pv = TEXT_INIT, score = TEXT_INIT;
    format_line(&u->game, info->pv, info->pv_length, &pv);
    if (engine_score_is_mate(info->score)) text_addf(&score, "mate %d", engine_mate_moves(info->score));
    else text_addf(&score, "cp %d", info->score);
    say(u, "info depth %d seldepth %d multipv %d score %s nodes %llu nps %llu hashfull %d time %lld pv %s", info->depth,
        info->seldepth, info->multipv, text_str(&score), (unsigned long long)info->nodes, (unsigned long long)info->nps,
        info->hashfull, (long long)info->time_ms, text_str(&pv));
    text_free(&pv);
    text_free(&score);
}

static void *search_thread(void *arg)
{
    Uci *u = arg;
    SearchResult r;
    Text err = TEXT_INIT;
    if (!engine_search(u->engine, &u->game, &u->limits, print_info, u, &r, &err)) {
        say(u, "info string error: %s", text_str(&err));
        r.has_move = false;
    }
    text_free(&err);
    if (!r.has_move) {
        Outcome o;
        Text line = TEXT_INIT;
        if (game_outcome(&u->game, &o) && o.result != RESULT_NONE) {
            outcome_line(o, u->game.declared_words, &line);
            say(u, "info string game over: %s", text_str(&line));
        }
        text_free(&line);
        say(u, "bestmove (none)");
        return NULL;
    }
    Text best = TEXT_INIT, ponder = TEXT_INIT;
    Move pv[2] = { r.best, r.ponder };
    format_line(&u->game, pv, 1, &best);
    if (r.ponder.kind != MOVE_NULL) format_line(&u->game, pv, 2, &ponder);
    const char *p = strchr(text_str(&ponder), ' ');
    if (p) say(u, "bestmove %s ponder %s", text_str(&best), p + 1);
    else say(u, "bestmove %s", text_str(&best));
    text_free(&best);
    text_free(&ponder);
    return NULL;
}

static void wait_search(Uci *u)
{
    if (!u->searching) return;
    pthread_join(u->thread, NULL);
    u->searching = false;
}

static void stop_search(Uci *u)
{
    if (!u->searching) return;
    engine_stop(u->engine);
    wait_search(u);
}

static bool set_position(Uci *u, const char *fen, const char *moves)
{
    Game g;
    Text err = TEXT_INIT;
    bool ok = game_init(&g, u->variant, &u->options, fen, &err);
    if (!ok) {
        say(u, "info string error: bad position: %s", text_str(&err));
        game_free(&g);
        text_free(&err);
        return false;
    }
    char *copy = strdup(moves ? moves : "");
    int n = 0;
    for (char *save = NULL, *tok = copy ? strtok_r(copy, " \t", &save) : NULL; tok; tok = strtok_r(NULL, " \t", &save)) {
        n++;
        text_clear(&err);
        if (!game_play_text(&g, tok, &err)) {
            say(u, "info string error: action %d '%s': %s (the position stops before it)", n, tok, text_str(&err));
            break;
        }
    }
    free(copy);
    text_free(&err);
    if (u->have_game) game_free(&u->game);
    u->game = g;
    u->have_game = true;
    return true;
}

static void cmd_position(Uci *u, char *args)
{
    char *moves = strstr(args, " moves ");
    if (moves) {
        *moves = 0;
        moves += 7;
    } else if (!strncmp(args, "moves ", 6)) {
        moves = args + 6;
        *args = 0;
    }
    while (*args == ' ') args++;
    if (!strncmp(args, "startpos", 8)) {
        set_position(u, NULL, moves);
    } else if (!strncmp(args, "fen ", 4)) {
        set_position(u, args + 4, moves);
    } else if (!strcmp(args, "startpos") || !*args) {
        set_position(u, NULL, moves);
    } else {
        say(u, "info string error: 'position' needs 'startpos' or 'fen FEN'");
    }
}

static long long next_number(char **save)
{
    char *t = strtok_r(NULL, " \t", save);
    return t ? strtoll(t, NULL, 10) : 0;
}

static void cmd_go(Uci *u, char *args)
{
    stop_search(u);
    SearchLimits lim = { 0 };
    lim.multipv = u->multipv;
    char *save = NULL;
    for (char *t = strtok_r(args, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (!strcmp(t, "depth")) lim.depth = (int)next_number(&save);
        else if (!strcmp(t, "nodes")) lim.nodes = (uint64_t)next_number(&save);
        else if (!strcmp(t, "movetime")) lim.movetime = next_number(&save);
        else if (!strcmp(t, "wtime")) lim.time[WHITE] = next_number(&save);
        else if (!strcmp(t, "btime")) lim.time[BLACK] = next_number(&save);
        else if (!strcmp(t, "winc")) lim.inc[WHITE] = next_number(&save);
        else if (!strcmp(t, "binc")) lim.inc[BLACK] = next_number(&save);
        else if (!strcmp(t, "movestogo")) lim.movestogo = (int)next_number(&save);
        else if (!strcmp(t, "mate")) lim.mate = (int)next_number(&save);
        else if (!strcmp(t, "infinite")) lim.infinite = true;
        else if (!strcmp(t, "ponder")) lim.infinite = true;
        else say(u, "info string ignoring '%s' in go", t);
    }
    if (!u->have_game) set_position(u, NULL, NULL);
    u->limits = lim;
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        say(u, "info string error: cannot start the search thread");
        say(u, "bestmove (none)");
        return;
    }
    u->searching = true;
}

static void print_options(Uci *u)
{
    Text vars = TEXT_INIT;
    for (int i = 0; VARIANTS[i]; i++) text_addf(&vars, " var %s", VARIANTS[i]->name);
    say(u, "option name UCI_Variant type combo default chess%s", text_str(&vars));
    text_free(&vars);
    say(u, "option name VariantOptions type string default <empty>");
    say(u, "option name Hash type spin default %d min 1 max %d", ENGINE_HASH_DEFAULT_MB, ENGINE_HASH_MAX_MB);
    say(u, "option name Threads type spin default 1 min 1 max %d", ENGINE_MAX_THREADS);
    say(u, "option name MultiPV type spin default 1 min 1 max %d", ENGINE_MAX_MULTIPV);
    say(u, "option name Skill Level type spin default %d min 0 max %d", ENGINE_SKILL_MAX, ENGINE_SKILL_MAX);
    say(u, "option name Clear Hash type button");
}

/* "setoption name NAME [value VALUE]": names may hold spaces. */
static void cmd_setoption(Uci *u, char *args)
{
    stop_search(u);
    char *name = strstr(args, "name ");
    if (!name) {
        say(u, "info string error: setoption needs 'name'");
        return;
    }
    name += 5;
    char *value = strstr(name, " value ");
    if (value) {
        *value = 0;
        value += 7;
    } else {
        value = "";
    }
    while (*name == ' ') name++;
    for (char *end = name + strlen(name); end > name && end[-1] == ' ';) *--end = 0;
    if (!strcasecmp(name, "UCI_Variant")) {
        const Variant *v = variant_find(value);
        if (!v) {
            Text names = TEXT_INIT;
            variant_names(&names);
            say(u, "info string error: unknown variant '%s' (one of: %s)", value, text_str(&names));
            text_free(&names);
            return;
        }
        u->variant = v;
        options_default(v, &u->options);
        if (u->have_game) game_free(&u->game);
        u->have_game = false;
    } else if (!strcasecmp(name, "VariantOptions")) {
        Options o;
        Text err = TEXT_INIT;
        options_default(u->variant, &o);
        if (strcmp(value, "<empty>") && !options_parse(u->variant, &o, value, &err))
            say(u, "info string error: %s", text_str(&err));
        else u->options = o;
        text_free(&err);
    } else if (!strcasecmp(name, "Hash")) {
        if (!engine_set_hash(u->engine, atoi(value))) say(u, "info string error: out of memory for the hash");
    } else if (!strcasecmp(name, "Threads")) {
        engine_set_threads(u->engine, atoi(value));
    } else if (!strcasecmp(name, "MultiPV")) {
        int n = atoi(value);
        u->multipv = n < 1 ? 1 : n > ENGINE_MAX_MULTIPV ? ENGINE_MAX_MULTIPV : n;
    } else if (!strcasecmp(name, "Skill Level")) {
        engine_set_skill(u->engine, atoi(value));
    } else if (!strcasecmp(name, "Clear Hash")) {
        engine_new_game(u->engine);
    } else {
        say(u, "info string error: no option named '%s'", name);
    }
}

static void print_fen(Uci *u)
{
    if (!u->have_game) set_position(u, NULL, NULL);
    Text fen = TEXT_INIT;
    u->variant->to_fen(&u->game.options, game_state(&u->game), &fen);
    say(u, "info string variant %s fen %s", u->variant->name, text_str(&fen));
    text_free(&fen);
}

int cmd_engine(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) cli_fail("'engine' takes no arguments (see 'ttchess engine --help')");
    Uci u;
    memset(&u, 0, sizeof u);
    u.engine = engine_new();
    if (!u.engine) cli_fail("out of memory");
    u.variant = &VARIANT_CHESS;
    options_default(u.variant, &u.options);
    u.multipv = 1;
    pthread_mutex_init(&u.out, NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        char *cmd = line;
        while (*cmd == ' ' || *cmd == '\t') cmd++;
        char *args = cmd + strcspn(cmd, " \t");
        if (*args) *args++ = 0;
        if (!strcmp(cmd, "uci")) {
            say(&u, "id name ttchess");
            say(&u, "id author the ttchess authors");
            print_options(&u);
            say(&u, "uciok");
        } else if (!strcmp(cmd, "isready")) {
            say(&u, "readyok");
        } else if (!strcmp(cmd, "ucinewgame")) {
            stop_search(&u);
            engine_new_game(u.engine);
            if (u.have_game) game_free(&u.game);
            u.have_game = false;
        } else if (!strcmp(cmd, "setoption")) {
            cmd_setoption(&u, args);
        } else if (!strcmp(cmd, "position")) {
            stop_search(&u);
            cmd_position(&u, args);
        } else if (!strcmp(cmd, "go")) {
            cmd_go(&u, args);
        } else if (!strcmp(cmd, "stop")) {
            stop_search(&u);
        } else if (!strcmp(cmd, "ponderhit")) {
            stop_search(&u);
        } else if (!strcmp(cmd, "quit")) {
            break;
        } else if (!strcmp(cmd, "d")) {
            stop_search(&u);
            print_fen(&u);
        } else if (*cmd) {
            say(&u, "info string unknown command '%s'", cmd);
        }
    }
    stop_search(&u);
    free(line);
    if (u.have_game) game_free(&u.game);
    engine_free(u.engine);
    pthread_mutex_destroy(&u.out);
    return 0;
}
