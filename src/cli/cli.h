/* SPDX-License-Identifier: GPL-3.0-or-later
 * The command-line tool's shared pieces: options, errors, setting up a game. */
#ifndef TTCHESS_CLI_H
#define TTCHESS_CLI_H

#include <stdio.h>

#include "game.h"
#include "registry.h"

/* Options common to the commands that start from a position. */
typedef struct CliPosition {
    const char *variant;  /* --variant, default "chess"                       */
    const char *fen;      /* --fen, default the variant's start                */
    const char *moves;    /* --moves "m1 m2 ...", default none                 */
    Text options;         /* every --option name=value, separated by spaces   */
} CliPosition;

/* Prints "error: ..." on one line to stderr and exits with status 2. */
_Noreturn void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a library error text ("out of memory" if it failed). */
_Noreturn void cli_fail_text(const char *prefix, const Text *why);

/* If argv[*i] is one of --variant/--fen/--moves/--option (also
 * --opt=value), stores it, advances *i past its value and returns true. */
bool cli_position_option(CliPosition *p, int argc, char **argv, int *i);
/* The variant --variant names (chess when none); fails on an unknown one. */
const Variant *cli_variant(const char *name);
/* Sets up the game the options describe, or fails with a message. */
void cli_position_game(const CliPosition *p, Game *g);
/* Prints the game's result line ("ongoing", "1-0 checkmate", ...) after prefix. */
void cli_print_outcome(const Game *g, const char *prefix);
/* Does argv hold -h or --help? */
bool cli_wants_help(int argc, char **argv);
/* Writes a text to standard output in full, or fails. */
void cli_print_text(const Text *t);

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_fen(int argc, char **argv);
int cmd_end(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_supports(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* src/server/serve.c */
int cmd_serve(int argc, char **argv);
extern const char HELP_SERVE[];

/* Help texts, also printed by "ttchess help COMMAND". */
extern const char HELP_PERFT[], HELP_MOVES[], HELP_STATUS[], HELP_FEN[], HELP_END[], HELP_PLAY[], HELP_REPLAY[], HELP_EXPORT[],
    HELP_VARIANTS[], HELP_CHECK[], HELP_ENGINE[], HELP_ANALYZE[], HELP_SOLVE[], HELP_BENCH[];
/* The help and the summary of supports, worded from the tables of the
 * games that have it (explain.c). */
void help_supports(Text *out);
void help_supports_summary(Text *out);

#endif
