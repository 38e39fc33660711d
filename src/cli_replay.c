/* SPDX-License-Identifier: GPL-3.0-or-later
 * replay and export: reading a game record (PGN or score sheets), checking
 * every action, and writing it again. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ttchess/pgn.h"
#include "ttchess/sheets.h"

const char HELP_REPLAY[] =
    "usage: ttchess replay [--variant V] FILE\n"
    "\n"
    "Reads a game record, checks every action, prints every timeline as a score\n"
    "sheet and, as the last line, the result and its reason ('ongoing' if the\n"
    "game goes on), e.g. '0-1 white king lost in time'.  FILE is PGN (the game\n"
    "file; its [Variant] tag names the game) or score sheets (one per timeline,\n"
    "each opened by '[Timeline N]'; give --variant, default chess).  '-' reads\n"
    "standard input.  See docs/notation.md.\n";

const char HELP_EXPORT[] =
    "usage: ttchess export (--pgn | --sheets) [--variant V] FILE\n"
    "\n"
    "Reads a game record like 'ttchess replay' and writes it to standard output:\n"
    "--pgn as the game file (PGN with every timeline in the order played),\n"
    "--sheets as score sheets in the game's own notation, one per timeline.\n";

static char *read_all(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) cli_fail("cannot open '%s'", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            if (cap > (64u << 20)) cli_fail("'%s' is too large to be a game record", path);
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    if (f != stdin) fclose(f);
    if (!buf) cli_fail("out of memory");
    buf[n] = 0;
    if (strlen(buf) != n) cli_fail("'%s' is not a text file", path);
    return buf;
}

/* Score sheets start, after comments and blank lines, with "[Timeline". */
static bool looks_like_sheets(const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p == '#') {
            p = strchr(p, '\n');
            if (!p) return false;
            continue;
        }
        return !strncmp(p, "[Timeline", 9);
    }
    return false;
}

/* Reads FILE into g; exits with a message on any error. */
static void read_record(int argc, char **argv, bool *want_pgn, bool *want_sheets, Game *g, PgnHeader *h)
{
    const char *variant = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--variant")) {
            if (++i >= argc) cli_fail("--variant needs a value");
            variant = argv[i];
        } else if (!strncmp(argv[i], "--variant=", 10)) {
            variant = argv[i] + 10;
        } else if (want_pgn && !strcmp(argv[i], "--pgn")) {
            *want_pgn = true;
        } else if (want_sheets && !strcmp(argv[i], "--sheets")) {
            *want_sheets = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_fail("unknown option '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        } else if (file) {
            cli_fail("more than one file given ('%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file) cli_fail("%s needs a game file (see 'ttchess %s --help')", argv[0], argv[0]);
    const Variant *v = NULL;
    if (variant && !(v = variant_find(variant))) cli_fail("unknown variant '%s' (known: %s)", variant, variant_names());
    char *text = read_all(file);
    char err[320];
    memset(h, 0, sizeof *h);
    bool ok = looks_like_sheets(text) ? sheets_read(text, v ? v : &VARIANT_CHESS, g, err, sizeof err)
                                      : pgn_read(text, v, g, h, NULL, err, sizeof err);
    free(text);
    if (!ok) {
        game_free(g);
        cli_fail("%s: %s", file, err);
    }
}

int cmd_replay(int argc, char **argv)
{
    Game g;
    PgnHeader h;
    read_record(argc, argv, NULL, NULL, &g, &h);
    sheets_write(&g, stdout);
    cli_print_outcome(&g, "");
    game_free(&g);
    return 0;
}

int cmd_export(int argc, char **argv)
{
    bool pgn = false, sheets = false;
    Game g;
    PgnHeader h;
    /* Check the format before reading, so a missing one is the first error. */
    for (int i = 1; i < argc; i++) {
        pgn |= !strcmp(argv[i], "--pgn");
        sheets |= !strcmp(argv[i], "--sheets");
    }
    if (pgn == sheets) cli_fail("export needs exactly one of --pgn and --sheets");
    read_record(argc, argv, &pgn, &sheets, &g, &h);
    if (pgn) {
        pgn_write(&g, &h, stdout);
    } else {
        sheets_write(&g, stdout);
        cli_print_outcome(&g, "# Result: ");
    }
    game_free(&g);
    return 0;
}
