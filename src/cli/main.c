/* SPDX-License-Identifier: GPL-3.0-or-later
 * ttchess: the command-line tool.  Each command is a thin layer over the
 * library; this file only finds the command and prints help. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
    const char *summary;
    /* For a command only some games have: its help and summary, worded
     * from the games' tables (help and summary are then NULL). */
    void (*write_help)(Text *out);
    void (*write_summary)(Text *out);
} Command;

static const Command COMMANDS[] = {
    { "play", cmd_play, HELP_PLAY, "play a game in the terminal (two people at one keyboard)", NULL, NULL },
    { "perft", cmd_perft, HELP_PERFT, "count the leaves of the legal-action tree", NULL, NULL },
    { "moves", cmd_moves, HELP_MOVES, "list the legal actions of a position", NULL, NULL },
    { "status", cmd_status, HELP_STATUS, "say whether a game is over, and why", NULL, NULL },
    { "fen", cmd_fen, HELP_FEN, "print the position in the variant's FEN", NULL, NULL },
    { "check", cmd_check, HELP_CHECK, "say whether the side to move is in check, and why", NULL, NULL },
    { "supports", cmd_supports, NULL, NULL, help_supports, help_supports_summary },
    { "end", cmd_end, HELP_END, "end a game by a resignation or an agreed draw: its result", NULL, NULL },
    { "replay", cmd_replay, HELP_REPLAY, "check a game record (PGN or score sheets) and show its timelines", NULL, NULL },
    { "export", cmd_export, HELP_EXPORT, "write a game record as PGN or as score sheets", NULL, NULL },
    { "variants", cmd_variants, HELP_VARIANTS, "list the games and their options", NULL, NULL },
    { "engine", cmd_engine, HELP_ENGINE, "the computer opponent, speaking UCI (for GUIs and match runners)", NULL, NULL },
    { "analyze", cmd_analyze, HELP_ANALYZE, "search a position and print the best lines", NULL, NULL },
    { "solve", cmd_solve, HELP_SOLVE, "find a forced mate (or win) in N moves, or prove there is none", NULL, NULL },
    { "bench", cmd_bench, HELP_BENCH, "search fixed positions of every variant: the engine's node signature", NULL, NULL },
    { "serve", cmd_serve, HELP_SERVE, "the web server: play live or by correspondence in the browser", NULL, NULL },
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static void print_help(void)
{
    printf("ttchess — time-travel chess\n\n"
           "usage: ttchess COMMAND [OPTIONS]\n"
           "       ttchess help [COMMAND]\n"
           "       ttchess COMMAND --help\n\n"
           "Commands:\n");
    Text summary = TEXT_INIT;
    for (int i = 0; i < COMMAND_COUNT; i++) {
        text_clear(&summary);
        if (COMMANDS[i].write_summary) COMMANDS[i].write_summary(&summary);
        else text_add(&summary, COMMANDS[i].summary);
        if (summary.failed) cli_fail("out of memory");
        printf("  %-8s %s\n", COMMANDS[i].name, text_str(&summary));
    }
    text_free(&summary);
    Text names = TEXT_INIT;
    variant_names(&names);
    printf("\nVariants (--variant): %s.  The default is chess.\n\n"
           "Options common to perft, moves, status, fen and end:\n"
           "  --variant V          the game to play\n"
           "  --option NAME=VALUE  change one of the game's rule limits (see 'ttchess\n"
           "                       variants'); may be given several times\n"
           "  --fen FEN            start from this position (the variant's FEN)\n"
           "  --moves \"m1 m2\"      then play these actions, in coordinate form (e2e4,\n"
           "                       e7e8q, e1g1), SAN (Nf3, O-O) or Game Courier's\n"
           "                       notation (P e2-e4, K e1-g1; R h1-f1, P e7-e8; Q-e8,\n"
           "                       e5-, N-e4); move numbers such as \"1.\" are skipped;\n"
           "                       each game adds its own forms:\n",
           text_str(&names));
    text_free(&names);
    for (int i = 0; VARIANTS[i]; i++) {
        if (!VARIANTS[i]->notation_help) continue;
        printf("\n%s:\n%s", VARIANTS[i]->name, VARIANTS[i]->notation_help);
    }
    printf("\nErrors: any bad input prints one line 'error: ...' to standard error and the\n"
           "command exits with status 2; 'move N' in a message is the Nth action of\n"
           "--moves.  Success exits with status 0.  See docs/notation.md.\n");
}

/* Prints a command's help, written from the games' tables where the
 * command is one of theirs. */
static void print_command_help(const Command *c)
{
    if (!c->write_help) {
        fputs(c->help, stdout);
        return;
    }
    Text help = TEXT_INIT;
    c->write_help(&help);
    cli_print_text(&help);
    text_free(&help);
}

static const Command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(COMMANDS[i].name, name)) return &COMMANDS[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc >= 3 && argv[1][0] == 'h') {
            const Command *c = find_command(argv[2]);
            if (!c) cli_fail("unknown command '%s' (see 'ttchess help')", argv[2]);
            print_command_help(c);
            return 0;
        }
        print_help();
        return 0;
    }
    const Command *c = find_command(argv[1]);
    if (!c) cli_fail("unknown command '%s' (see 'ttchess help')", argv[1]);
    if (cli_wants_help(argc - 1, argv + 1)) {
        print_command_help(c);
        return 0;
    }
    return c->run(argc - 1, argv + 1);
}
