/* SPDX-License-Identifier: GPL-3.0-or-later
 * engine, analyze, solve, bench: the engine from the command line (docs/engine.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "uci.h"

const char HELP_ANALYZE[] =
    "usage: ttchess analyze [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "                       [--depth N | --movetime MS] [--multipv K] [--threads T] [--hash MB]\n"
    "\n"
    "Searches the final position and prints, after each completed depth, the\n"
    "best lines in the game's own notation with their scores (+1.00 is a\n"
    "pawn's worth for White; #3 is a mate in three moves).  The default is\n"
    "--movetime 1000 (a depth means little across the games: some offer\n"
    "thousands of actions a position).  The last line is 'bestmove ACTION' in\n"
    "coordinate form.\n";

const char HELP_SOLVE[] =
    "usage: ttchess solve [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "                     --mate N\n"
    "\n"
    "Looks for a forced win in at most N moves of the side to move, time travel\n"
    "included: a checkmate, or any other end by which the game's rules make that\n"
    "side win (a king lost in time, obligations unmet, grammar).  Every defence\n"
    "is tried, so the answer 'no forced win in N' is a proof.  Prints the\n"
    "shortest win found and its main line, or that there is none.  N is 1 to 10.\n";

const char HELP_BENCH[] =
    "usage: ttchess bench [DEPTH]\n"
    "\n"
    "Searches fixed positions of every variant (a start and a game under way,\n"
    "each game's own), each to its own depth (from 2 plies for a game of\n"
    "thousands of actions to 12 for chess) or to DEPTH\n"
    "plies when given, with one thread and a new 16 MB hash each, and prints\n"
    "the nodes of each.  The\n"
    "last two lines are 'Nodes searched: N' and 'Nodes/second: N'; the node\n"
    "count is the engine's signature: it changes only when the search or an\n"
    "evaluation does.\n";

const char HELP_ENGINE[] =
    "usage: ttchess engine\n"
    "\n"
    "Speaks UCI on standard input and output, for every variant: choose one\n"
    "with 'setoption name UCI_Variant value V', V as for --variant (then\n"
    "'ucinewgame').\n"
    "Actions are given and answered in each game's coordinate form, time travel\n"
    "included (see 'ttchess help' for the forms).  Options: UCI_Variant,\n"
    "VariantOptions (the game's rule limits, \"forward=8 back=3\"), Hash, Threads,\n"
    "MultiPV, Skill Level, UCI_LimitStrength and UCI_Elo (1100-2000, Stockfish\n"
    "15.1's scale in chess), UCI_ShowWDL.  Besides UCI: 'd' prints the\n"
    "position's FEN.\n"
    "See docs/engine.md.\n";

static long parse_number(const char *what, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long n = text ? strtol(text, &end, 10) : 0;
    if (!text || text[0] < '0' || text[0] > '9' || *end || errno || n < min || n > max)
        cli_fail("bad %s '%s': give a whole number from %ld to %ld", what, text ? text : "", min, max);
    return n;
}

static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) cli_fail("%s needs a value", argv[*i]);
    return argv[++*i];
}

/* "1. e4 e5 2. Nf3", "12... Nf6 13. O-O": the actions of a line in the
 * game's own notation, numbered as a score sheet numbers them. */
static void human_line(const Game *g, const Move *moves, int count, Text *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < count; i++) {
        const Board *b = line_board(&l);
        if (b->side == WHITE) text_addf(out, "%s%d. ", i ? " " : "", b->fullmove);
        else if (i == 0) text_addf(out, "%d... ", b->fullmove);
        else text_add(out, " ");
        if (!g->variant->format_human(&l, moves[i], out) || !line_push(&l, moves[i])) break;
    }
    line_close(&l);
    if (out->failed) cli_fail("out of memory");
}

static void score_text(int score, Color side, Text *out)
{
    if (engine_score_is_mate(score)) {
        int n = engine_mate_moves(score);
        bool white_mates = (n > 0) == (side == WHITE);
        text_addf(out, "%s#%d", white_mates ? "+" : "-", abs(n));
        return;
    }
    int white = side == WHITE ? score : -score;
    text_addf(out, "%+.2f", white / 100.0);
}

typedef struct AnalyzeContext {
    const Game *game;
} AnalyzeContext;

static void print_analysis(void *context, const SearchInfo *info)
{
    const AnalyzeContext *a = context;
    Text line = TEXT_INIT, score = TEXT_INIT;
    score_text(info->score, game_board(a->game)->side, &score);
    human_line(a->game, info->pv, info->pv_length, &line);
    printf("depth %2d  line %d  %7s  nodes %10llu  %6lld ms  %s\n", info->depth, info->multipv, text_str(&score),
           (unsigned long long)info->nodes, (long long)info->time_ms, text_str(&line));
    fflush(stdout);
    text_free(&line);
    text_free(&score);
}

static void print_coord(const Game *g, Move m, const char *prefix)
{
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, g, game_current(g));
    if (!g->variant->format_coord(&l, m, &t)) cli_fail("out of memory");
    line_close(&l);
    printf("%s%s\n", prefix, text_str(&t));
    text_free(&t);
}

/* Opens the position the options name; a game already over is said so
 * ("the game is over: 1-0 checkmate") and false comes back, with nothing
 * left to free. */
static bool open_unfinished(CliPosition *pos, Game *g)
{
    cli_position_game(pos, g);
    text_free(&pos->options);
    Outcome o;
    if (!game_outcome(g, &o)) cli_fail("out of memory");
    if (o.result == RESULT_NONE) return true;
    cli_print_outcome(g, "the game is over: ");
    game_free(g);
    return false;
}

int cmd_analyze(int argc, char **argv)
{
    CliPosition pos = { 0 };
    SearchLimits lim = { 0 };
    lim.multipv = 1;
    int threads = 1, hash = ENGINE_HASH_DEFAULT_MB;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(&pos, argc, argv, &i)) continue;
        if (!strcmp(argv[i], "--depth")) lim.depth = (int)parse_number("depth", option_value(argc, argv, &i), 1, ENGINE_MAX_PLY - 1);
        else if (!strcmp(argv[i], "--movetime")) lim.movetime = parse_number("movetime", option_value(argc, argv, &i), 1, 86400000);
        else if (!strcmp(argv[i], "--multipv")) lim.multipv = (int)parse_number("multipv", option_value(argc, argv, &i), 1, ENGINE_MAX_MULTIPV);
        else if (!strcmp(argv[i], "--threads")) threads = (int)parse_number("threads", option_value(argc, argv, &i), 1, ENGINE_MAX_THREADS);
        else if (!strcmp(argv[i], "--hash")) hash = (int)parse_number("hash", option_value(argc, argv, &i), 1, ENGINE_HASH_MAX_MB);
        else cli_fail("unknown option '%s' (see 'ttchess analyze --help')", argv[i]);
    }
    if (lim.depth && lim.movetime) cli_fail("give --depth or --movetime, not both");
    if (!lim.depth && !lim.movetime) lim.movetime = 1000;
    Game g;
    if (!open_unfinished(&pos, &g)) return 0;
    Engine *e = engine_new();
    if (!e || !engine_set_hash(e, hash)) cli_fail("out of memory");
    engine_set_threads(e, threads);
    AnalyzeContext a = { &g };
    SearchResult r;
    Text err = TEXT_INIT;
    if (!engine_search(e, &g, &lim, print_analysis, &a, &r, &err)) cli_fail_text(NULL, &err);
    if (r.has_move) print_coord(&g, r.best, "bestmove ");
    engine_free(e);
    game_free(&g);
    return 0;
}

int cmd_solve(int argc, char **argv)
{
    CliPosition pos = { 0 };
    int mate = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(&pos, argc, argv, &i)) continue;
        if (!strcmp(argv[i], "--mate")) mate = (int)parse_number("--mate", option_value(argc, argv, &i), 1, 10);
        else cli_fail("unknown option '%s' (see 'ttchess solve --help')", argv[i]);
    }
    if (!mate) cli_fail("solve needs --mate N (e.g. 'ttchess solve --mate 2')");
    Game g;
    if (!open_unfinished(&pos, &g)) return 0;
    SolveResult r;
    Text err = TEXT_INIT;
    if (!engine_solve_mate(&g, mate, NULL, &r, &err)) cli_fail_text(NULL, &err);
    const char *side = color_name(game_board(&g)->side);
    if (r.found) {
        Text line = TEXT_INIT;
        human_line(&g, r.pv, r.pv_length, &line);
        printf("%s wins in %d: %s\n", side, r.moves, text_str(&line));
        text_free(&line);
        print_coord(&g, r.pv[0], "first action: ");
    } else {
        printf("no forced win for %s in %d (every defence tried)\n", side, mate);
    }
    printf("positions searched: %llu\n", (unsigned long long)r.nodes);
    game_free(&g);
    return 0;
}

/* Searches one bench position to `depth` and prints its line. */
static void bench_one(const Variant *v, const SamplePosition *p, int depth, int n, uint64_t *total, int64_t *ms)
{
    CliPosition pos = { .variant = v->name, .fen = p->fen, .moves = p->moves };
    if (p->options) text_add(&pos.options, p->options);
    Game g;
    cli_position_game(&pos, &g);
    Engine *e = engine_new();
    if (!e) cli_fail("out of memory");
    SearchLimits lim = { .depth = depth, .multipv = 1 };
    SearchResult r;
    Text err = TEXT_INIT;
    if (!engine_search(e, &g, &lim, NULL, NULL, &r, &err)) cli_fail_text(NULL, &err);
    Text best = TEXT_INIT;
    if (r.has_move) {
        Line l;
        line_open(&l, &g, game_current(&g));
        if (!g.variant->format_coord(&l, r.best, &best)) cli_fail("out of memory");
        line_close(&l);
    }
    printf("%2d %-16s depth %2d %12llu nodes %7lld ms  bestmove %s\n", n, v->name, lim.depth,
           (unsigned long long)r.nodes, (long long)r.time_ms, r.has_move ? text_str(&best) : "(none)");
    text_free(&best);
    *total += r.nodes;
    *ms += r.time_ms;
    engine_free(e);
    game_free(&g);
    text_free(&pos.options);
}

int cmd_bench(int argc, char **argv)
{
    int depth = 0;
    if (argc > 2) cli_fail("bench takes at most one argument, the depth (see 'ttchess bench --help')");
    if (argc == 2) depth = (int)parse_number("depth", argv[1], 1, 30);
    uint64_t total = 0;
    int64_t ms = 0;
    int n = 0;
    /* The positions are the games' own (Variant.samples with a bench
     * depth: a start and a game under way of each), in the order of the
     * registry, so that a game brings its bench positions with it. */
    for (int v = 0; VARIANTS[v]; v++) {
        for (int i = 0; i < VARIANTS[v]->sample_count; i++) {
            const SamplePosition *p = &VARIANTS[v]->samples[i];
            if (!p->bench_depth) continue;
            bench_one(VARIANTS[v], p, depth ? depth : p->bench_depth, ++n, &total, &ms);
        }
    }
    printf("Nodes searched: %llu\n", (unsigned long long)total);
    printf("Nodes/second: %llu\n", (unsigned long long)(ms > 0 ? total * 1000 / (uint64_t)ms : total * 1000));
    return 0;
}

int cmd_engine(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) cli_fail("'engine' takes no arguments (see 'ttchess engine --help')");
    if (uci_run(stdin, stdout) != 0) cli_fail("out of memory");
    return 0;
}
