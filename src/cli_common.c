/* SPDX-License-Identifier: GPL-3.0-or-later
 * Shared pieces of the command-line tool. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    return false;
}

bool cli_position_option(CliPosition *p, int argc, char **argv, int *i)
{
    static const char *const names[] = { "--variant", "--fen", "--moves" };
    const char **slots[] = { &p->variant, &p->fen, &p->moves };
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(names[k]);
        const char *arg = argv[*i];
        if (strncmp(arg, names[k], n)) continue;
        if (arg[n] == '=') {
            *slots[k] = arg + n + 1;
            return true;
        }
        if (arg[n]) continue;
        if (*i + 1 >= argc) cli_fail("%s needs a value", names[k]);
        *slots[k] = argv[++*i];
        return true;
    }
    return false;
}

/* Skips a move number such as "1.", "12..." at the start of a token, also
 * when it is glued to the move that follows ("1.e4", "3...Nf6", as PGN
 * allows); returns what is left, which is empty for a bare number. */
static const char *skip_move_number(const char *tok)
{
    size_t digits = strspn(tok, "0123456789");
    if (digits == 0 || tok[digits] != '.') return tok;
    return tok + digits + strspn(tok + digits, ".");
}

void cli_position_game(const CliPosition *p, Game *g)
{
    const char *vname = p->variant ? p->variant : "chess";
    const Variant *v = variant_find(vname);
    if (!v) cli_fail("unknown variant '%s' (known: %s)", vname, variant_names());
    char err[256];
    if (!game_init(g, v, p->fen, err, sizeof err)) {
        game_free(g);
        cli_fail("%s", err);
    }
    if (!p->moves) return;
    char *copy = strdup(p->moves);
    if (!copy) cli_fail("out of memory");
    int index = 0;
    for (char *tok = strtok(copy, " \t\n\r,"); tok; tok = strtok(NULL, " \t\n\r,")) {
        const char *move = skip_move_number(tok);
        if (!*move) continue;
        index++;
        if (!game_play_text(g, move, err, sizeof err)) {
            char tokcopy[64];
            snprintf(tokcopy, sizeof tokcopy, "%s", tok);
            free(copy);
            game_free(g);
            cli_fail("move %d (%s): %s", index, tokcopy, err);
        }
    }
    free(copy);
}

void cli_print_outcome(const Game *g, const char *prefix)
{
    Outcome o = game_outcome(g);
    char line[128];
    outcome_format(&o, line, sizeof line);
    printf("%s%s\n", prefix, line);
}
