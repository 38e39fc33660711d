/* SPDX-License-Identifier: GPL-3.0-or-later
 * supports, check: commands that explain a position where support and
 * check are hard to see on the board.  The game explains them (its
 * Variant's explain_supports and explain_check); this file finds the
 * games that have the command and words its help from their tables. */
#include <string.h>

#include "cli.h"

const char HELP_CHECK[] =
    "usage: ttchess check [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "\n"
    "Says whether the side to move is in check, and why: a king of its that is\n"
    "attacked or, in a game whose check is something else, the game's own\n"
    "explanation (the opponent's action that would make it lose).\n";

/* The games that have `supports`, as "TITLE (--variant NAME)" joined by
 * " or "; the count. */
static int supports_games(Text *out)
{
    int n = 0;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        if (!variant_has_supports(v)) continue;
        text_addf(out, "%s%s (--variant %s)", n ? " or " : "", v->title ? v->title : v->name, v->name);
        n++;
    }
    return n;
}

/* The first game that has `supports`, or NULL. */
static const Variant *first_supports_game(void)
{
    for (int i = 0; VARIANTS[i]; i++)
        if (variant_has_supports(VARIANTS[i])) return VARIANTS[i];
    return NULL;
}

/* The summary of supports in `ttchess help`: the games' titles and what
 * the first says it shows. */
void help_supports_summary(Text *out)
{
    int n = 0;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        if (!variant_has_supports(v)) continue;
        text_addf(out, "%s%s", n++ ? ", " : "", v->title ? v->title : v->name);
    }
    const Variant *first = first_supports_game();
    if (first) text_addf(out, ": %s", first->supports_summary ? first->supports_summary : "what supports an action");
    else text_add(out, "what supports an action on a square (no game of this build has it)");
}

void help_supports(Text *out)
{
    const Variant *first = first_supports_game();
    int n = 0;
    for (int i = 0; VARIANTS[i]; i++) n += variant_has_supports(VARIANTS[i]);
    text_addf(out, "usage: ttchess supports --variant %s [--fen FEN] [--moves \"m1 m2 ...\"] SQUARE\n\n",
              n == 1 ? first->name : "V");
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        if (!variant_has_supports(v)) continue;
        text_addf(out, "%s: %s", v->title ? v->title : v->name, v->supports_help ? v->supports_help : "\n");
    }
    if (!n) text_add(out, "No game of this build has supports.\n");
}

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

int cmd_supports(int argc, char **argv)
{
    CliPosition pos = { 0 };
    const char *arg = parse_args(argc, argv, &pos, true);
    const Variant *first = first_supports_game();
    if (!arg) cli_fail("supports needs a square (e.g. 'ttchess supports --variant %s f6')", first ? first->name : "V");
    Square e = square_parse(arg);
    if (e == SQ_NONE || strlen(arg) != 2) cli_fail("bad square '%s': give a square such as f6", arg);
    Game g;
    cli_position_game(&pos, &g);
    if (!variant_has_supports(g.variant)) {
        Text games = TEXT_INIT;
        if (!supports_games(&games)) cli_fail("supports is a command of no game of this build");
        cli_fail("supports is a command of %s", text_str(&games));
    }
    Line l;
    Text out = TEXT_INIT, err = TEXT_INIT;
    line_open(&l, &g, game_current(&g));
    bool ok = variant_explain_supports(g.variant, &l, e, &out, &err);
    line_close(&l);
    /* What the game wrote before a failure still shows, as it was found. */
    cli_print_text(&out);
    if (!ok) cli_fail_text(NULL, &err);
    text_free(&out);
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
    Line l;
    line_open(&l, &g, game_current(&g));
    if (!variant_explain_check(g.variant, &l, &out)) cli_fail("out of memory");
    line_close(&l);
    cli_print_text(&out);
    text_free(&out);
    game_free(&g);
    text_free(&pos.options);
    return 0;
}
