/* SPDX-License-Identifier: GPL-3.0-or-later
 * supports, check: commands that explain a position of Time Traveler's
 * Chess, where support and check are hard to see on the board. */
#include <string.h>

#include "cli.h"
#include "travelers.h"

const char HELP_SUPPORTS[] =
    "usage: ttchess supports --variant travelers [--fen FEN] [--moves \"m1 m2 ...\"] SQUARE\n"
    "\n"
    "Time Traveler's Chess: for each piece type, the untraveled pieces of the\n"
    "side to move that support an explosion on SQUARE (they could reach it as\n"
    "that type in at most three moves of their side, the opponent passing),\n"
    "each with one such sequence of moves, then the explosions on SQUARE that\n"
    "are legal now.  SQUARE must be empty.\n";

const char HELP_CHECK[] =
    "usage: ttchess check [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "\n"
    "Says whether the side to move is in check, and why.  In Time Traveler's\n"
    "Chess it names the opponent's action that would leave the side kingless\n"
    "while the opponent is resolved, or says why there is none.\n";

/* The position options and one plain argument (supports' square). */
static const char *parse_args(int argc, char **argv, CliPosition *pos, bool want_arg)
{
    const char *arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(pos, argc, argv, &i)) continue;
        if (argv[i][0] == '-' && argv[i][1]) cli_fail("unknown option '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        if (!want_arg || arg) cli_fail("unexpected argument '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        arg = argv[i];
    }
    return arg;
}

static bool is_travelers(const Game *g) { return !strcmp(g->variant->name, "travelers"); }

static void print_supports_of(const Game *g, const Supports *sp, PieceType x, Square e)
{
    Bitboard who = travelers_supporters(sp, x, e);
    printf("  %-7s", piece_type_name(x));
    if (!who) {
        printf("none\n");
        return;
    }
    bool first = true;
    Text path = TEXT_INIT;
    while (who) {
        Square s = (Square)__builtin_ctzll(who);
        who &= who - 1;
        char name[3];
        square_name(s, name);
        text_clear(&path);
        if (!travelers_support_path(game_state(g), game_board(g)->side, s, x, e, &path) || path.failed)
            cli_fail("no move sequence found for the support on %s (please report this)", name);
        printf("%s%s %s (%s)\n", first ? "" : "         ", piece_type_name(piece_type(game_board(g)->squares[s])), name,
               text_str(&path));
        first = false;
    }
    text_free(&path);
}

int cmd_supports(int argc, char **argv)
{
    CliPosition pos = { 0 };
    const char *arg = parse_args(argc, argv, &pos, true);
    if (!arg) cli_fail("supports needs a square (e.g. 'ttchess supports --variant travelers f6')");
    Square e = square_parse(arg);
    if (e == SQ_NONE || strlen(arg) != 2) cli_fail("bad square '%s': give a square such as f6", arg);
    Game g;
    cli_position_game(&pos, &g);
    if (!is_travelers(&g)) cli_fail("supports is a command of Time Traveler's Chess (--variant travelers)");
    if (board_occupied(game_board(&g)) & (1ULL << e))
        cli_fail("%s is not empty: an explosion needs an empty square", arg);
    Supports sp;
    travelers_supports(game_state(&g), game_board(&g)->side, &sp);
    printf("Supports of an explosion on %s (%s to move):\n", arg, color_name(game_board(&g)->side));
    for (PieceType x = PAWN; x <= KING; x++) print_supports_of(&g, &sp, x, e);
    MoveList list;
    Line l;
    Text text = TEXT_INIT;
    movelist_init(&list);
    line_open(&l, &g, game_current(&g));
    if (!line_generate(&l, &list)) cli_fail("out of memory");
    printf("Legal explosions on %s:", arg);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i].kind != MOVE_EXPLOSION || list.moves[i].from != e) continue;
        text_clear(&text);
        if (!g.variant->format_coord(&l, list.moves[i], &text)) cli_fail("out of memory");
        printf(" %s", text_str(&text));
        n++;
    }
    printf("%s\n", n ? "" : " none");
    text_free(&text);
    line_close(&l);
    movelist_free(&list);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    CliPosition pos = { 0 };
    parse_args(argc, argv, &pos, false);
    Game g;
    cli_position_game(&pos, &g);
    Text out = TEXT_INIT;
    if (is_travelers(&g)) {
        if (!travelers_explain_check(game_state(&g), &out)) cli_fail("out of memory");
    } else {
        const char *side = game_board(&g)->side == WHITE ? "White" : "Black";
        text_addf(&out, "%s is %sin check", side, game_in_check(&g) ? "" : "not ");
        text_add(&out, game_in_check(&g) ? ": a king of its is attacked.\n" : ".\n");
    }
    cli_print_text(&out);
    text_free(&out);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}
