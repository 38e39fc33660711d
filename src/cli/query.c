/* SPDX-License-Identifier: GPL-3.0-or-later
 * perft, moves, status: the commands other tools rely on. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

const char HELP_PERFT[] =
    "usage: ttchess perft [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "                     [--divide] DEPTH\n"
    "\n"
    "Counts the leaf nodes of the tree of legal actions DEPTH plies deep from the\n"
    "position (perft).  With --divide, first prints each legal action in\n"
    "coordinate form with the count below it.  The last line is always\n"
    "'Nodes searched: N'; the speed goes to standard error.  DEPTH is 1 to 20.\n";

const char HELP_MOVES[] =
    "usage: ttchess moves [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "\n"
    "Prints every legal action of the final position in coordinate form, one a\n"
    "line; nothing when the game is over.\n";

const char HELP_STATUS[] =
    "usage: ttchess status [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "\n"
    "Prints one line: 'ongoing', or the result and its reason: '1-0 checkmate',\n"
    "'0-1 checkmate', '1/2-1/2 stalemate', '1/2-1/2 threefold repetition',\n"
    "'1/2-1/2 fifty-move rule', '1/2-1/2 insufficient material', or a variant's\n"
    "own (e.g. '0-1 white king lost in time').\n";

static void parse_common(int argc, char **argv, CliPosition *pos, bool *divide, long *depth, bool want_depth)
{
    bool have_depth = false;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(pos, argc, argv, &i)) continue;
        if (divide && !strcmp(argv[i], "--divide")) {
            *divide = true;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] && !(want_depth && argv[i][1] >= '0' && argv[i][1] <= '9'))
            cli_fail("unknown option '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        if (!want_depth) cli_fail("unexpected argument '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        if (have_depth) cli_fail("more than one depth given ('%s')", argv[i]);
        /* strtol alone would also take " 3" and "+3": a depth is digits only. */
        char *end;
        errno = 0;
        long d = strtol(argv[i], &end, 10);
        if (argv[i][0] < '0' || argv[i][0] > '9' || *end || errno || d < 1 || d > 20)
            cli_fail("bad depth '%s': give a whole number from 1 to 20", argv[i]);
        *depth = d;
        have_depth = true;
    }
    if (want_depth && !have_depth) cli_fail("perft needs a depth (e.g. 'ttchess perft 5')");
}

/* Each legal action in coordinate form with its own count, then the total. */
static uint64_t perft_divide(const Game *g, int depth)
{
    Line l;
    MoveList list;
    Text text = TEXT_INIT;
    line_open(&l, g, game_current(g));
    movelist_init(&list);
    if (!line_generate(&l, &list)) cli_fail("out of memory");
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        uint64_t n;
        text_clear(&text);
        if (!g->variant->format_coord(&l, list.moves[i], &text) || !line_push(&l, list.moves[i]) ||
            !line_perft(&l, depth - 1, &n))
            cli_fail("out of memory");
        line_pop(&l);
        printf("%s: %llu\n", text_str(&text), (unsigned long long)n);
        total += n;
    }
    printf("\n");
    text_free(&text);
    movelist_free(&list);
    line_close(&l);
    return total;
}

int cmd_perft(int argc, char **argv)
{
    CliPosition pos = { 0 };
    bool divide = false;
    long depth = 0;
    parse_common(argc, argv, &pos, &divide, &depth, true);
    Game g;
    cli_position_game(&pos, &g);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t total = 0;
    if (divide) total = perft_divide(&g, (int)depth);
    else if (!game_perft(&g, (int)depth, &total)) cli_fail("out of memory");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? (double)total / secs : 0.0);
    printf("Nodes searched: %llu\n", (unsigned long long)total);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}

int cmd_moves(int argc, char **argv)
{
    CliPosition pos = { 0 };
    parse_common(argc, argv, &pos, NULL, NULL, false);
    Game g;
    cli_position_game(&pos, &g);
    Outcome o;
    MoveList list;
    Line l;
    Text text = TEXT_INIT;
    movelist_init(&list);
    line_open(&l, &g, game_current(&g));
    if (!game_outcome(&g, &o) || !line_generate(&l, &list)) cli_fail("out of memory");
    if (o.result != RESULT_NONE) list.count = 0;
    for (int i = 0; i < list.count; i++) {
        text_clear(&text);
        if (!g.variant->format_coord(&l, list.moves[i], &text)) cli_fail("out of memory");
        printf("%s\n", text_str(&text));
    }
    text_free(&text);
    line_close(&l);
    movelist_free(&list);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}

int cmd_status(int argc, char **argv)
{
    CliPosition pos = { 0 };
    parse_common(argc, argv, &pos, NULL, NULL, false);
    Game g;
    cli_position_game(&pos, &g);
    cli_print_outcome(&g, "");
    game_free(&g);
    text_free(&pos.options);
    return 0;
}

const char HELP_FEN[] =
    "usage: ttchess fen [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "\n"
    "Prints the final position in the variant's FEN: the six fields of chess\n"
    "and the variant's own (pending arrivals, pockets, pieces' states, ...;\n"
    "docs/notation.md).  Read back with --fen it gives the same\n"
    "position, though not the game's history, which a travel back needs.\n";

int cmd_fen(int argc, char **argv)
{
    CliPosition pos = { 0 };
    parse_common(argc, argv, &pos, NULL, NULL, false);
    Game g;
    cli_position_game(&pos, &g);
    Text out = TEXT_INIT;
    g.variant->to_fen(&g.options, game_state(&g), &out);
    text_add_char(&out, '\n');
    cli_print_text(&out);
    text_free(&out);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}

const char HELP_END[] =
    "usage: ttchess end [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "                   --how white-resigns|black-resigns|draw\n"
    "\n"
    "Ends the game at the final position by a resignation or an agreed draw\n"
    "and prints the result line of the game ended there: '0-1 white resigns',\n"
    "'1-0 black resigns', '1/2-1/2 agreed draw', or what the game's own rules\n"
    "make of that end (in a game of obligations unmet ones still lose:\n"
    "'0-1 white obligations unmet', '0-0 both obligations unmet').  Either side\n"
    "may resign, whoever is to move.  A game the rules have already ended cannot\n"
    "be ended again.\n";

/* The end --how names. */
static Outcome parse_how(const char *how)
{
    if (!strcmp(how, "white-resigns")) return outcome_make(RESULT_BLACK_WINS, REASON_RESIGNATION, SIDE_WHITE);
    if (!strcmp(how, "black-resigns")) return outcome_make(RESULT_WHITE_WINS, REASON_RESIGNATION, SIDE_BLACK);
    if (!strcmp(how, "draw")) return outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE);
    cli_fail("bad --how '%s': give white-resigns, black-resigns or draw", how);
}

int cmd_end(int argc, char **argv)
{
    CliPosition pos = { 0 };
    const char *how = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(&pos, argc, argv, &i)) continue;
        if (!strncmp(argv[i], "--how=", 6)) {
            how = argv[i] + 6;
        } else if (!strcmp(argv[i], "--how")) {
            if (i + 1 >= argc) cli_fail("--how needs a value (white-resigns, black-resigns or draw)");
            how = argv[++i];
        } else {
            cli_fail("%s '%s' (see 'ttchess end --help')", argv[i][0] == '-' ? "unknown option" : "unexpected argument",
                     argv[i]);
        }
    }
    if (!how) cli_fail("end needs --how white-resigns, black-resigns or draw");
    Outcome declared = parse_how(how);
    Game g;
    cli_position_game(&pos, &g);
    Text line = TEXT_INIT;
    Outcome o;
    if (!game_outcome(&g, &o)) cli_fail("out of memory");
    if (o.result != RESULT_NONE) {
        if (!game_outcome_line(&g, &line)) cli_fail("out of memory");
        cli_fail("the game is already over (%s)", text_str(&line));
    }
    if (!game_declare(&g, declared, NULL) || !game_outcome_line(&g, &line)) cli_fail("out of memory");
    printf("%s\n", text_str(&line));
    text_free(&line);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}
