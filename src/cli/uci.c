/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess engine: the Universal Chess Interface over standard input and
 * output, for every variant (docs/engine.md).  This file is the protocol
 * loop: it reads one command a line and hands it, by the table below, to
 * the session's engine-facing side (uci_engine.c), which runs the search
 * in a thread of its own so that "stop", "isready" and "quit" are
 * answered while it thinks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uci.h"
#include "uci_engine.h"

static void run_uci(Uci *u, char *args)
{
    (void)args;
    uci_say(u, "id name ttchess");
    uci_say(u, "id author the ttchess authors");
    uci_print_options(u);
    uci_say(u, "uciok");
}

static void run_isready(Uci *u, char *args)
{
    (void)args;
    uci_say(u, "readyok");
}

static void run_ucinewgame(Uci *u, char *args)
{
    (void)args;
    uci_new_game(u);
}

static void run_stop(Uci *u, char *args)
{
    (void)args;
    uci_stop(u);
}

/* "ponderhit": the move pondered on was played; the search goes on, now
 * on the clock. */
static void run_ponderhit(Uci *u, char *args)
{
    (void)args;
    uci_ponderhit(u);
}

/* "d": the variant and FEN of the present position. */
static void run_d(Uci *u, char *args)
{
    (void)args;
    uci_stop(u);
    uci_print_fen(u);
}

typedef struct UciCommand {
    const char *name;
    void (*run)(Uci *u, char *args);   /* NULL: "quit", which ends the loop */
} UciCommand;

static const UciCommand COMMANDS[] = {
    { "uci", run_uci },
    { "isready", run_isready },
    { "ucinewgame", run_ucinewgame },
    { "setoption", uci_setoption },
    { "position", uci_position },
    { "go", uci_go },
    { "stop", run_stop },
    { "ponderhit", run_ponderhit },
    { "quit", NULL },
    { "d", run_d },
};

static const UciCommand *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(name, COMMANDS[i].name)) return &COMMANDS[i];
    return NULL;
}

/* Cuts a line into its command and the words after it (in place), without
 * its line end and the blanks before the command. */
static char *split_command(char *line, ssize_t len, char **args)
{
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    char *cmd = line;
    while (*cmd == ' ' || *cmd == '\t') cmd++;
    *args = cmd + strcspn(cmd, " \t");
    if (**args) *(*args)++ = 0;
    return cmd;
}

int uci_run(FILE *in, FILE *out)
{
    Uci u;
    if (!uci_open(&u, out)) return 1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool quitting = false;
    while (!quitting && (len = getline(&line, &cap, in)) >= 0) {
        char *args;
        char *cmd = split_command(line, len, &args);
        const UciCommand *c = find_command(cmd);
        if (c && c->run) c->run(&u, args);
        else if (c) quitting = true;
        else if (*cmd) uci_say(&u, "info string unknown command '%s'", cmd);
    }
    free(line);
    uci_close(&u, quitting);
    return 0;
}
