/* SPDX-License-Identifier: GPL-3.0-or-later
 * replay and export: reading a game record (PGN or score sheets), checking
 * every action, and writing it again. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gc.h"
#include "pgn.h"
#include "sheets.h"

const char HELP_REPLAY[] =
    "usage: ttchess replay [--variant V] [--option NAME=VALUE ...] FILE\n"
    "\n"
    "Reads a game record, checks every action, prints every timeline as a score\n"
    "sheet and, as the last line, the result and its reason ('ongoing' if the\n"
    "game goes on), e.g. '0-1 white king lost in time'.  FILE is PGN (the game\n"
    "file; its [Variant] tag names the game) or score sheets (one per timeline,\n"
    "each opened by '[Timeline N]'; give --variant, default chess) or a Game\n"
    "Courier move log (as 'export --gc' writes it: '1. P e2-e4', '//' comments).\n"
    "'-' reads standard input.  --variant and --option override what the file says.\n"
    "See docs/notation.md.\n";

const char HELP_EXPORT[] =
    "usage: ttchess export (--pgn | --sheets | --gc) [--variant V] [--option NAME=VALUE ...] FILE\n"
    "\n"
    "Reads a game record like 'ttchess replay' and writes it to standard output:\n"
    "--pgn as the game file (PGN with every timeline in the order played),\n"
    "--sheets as score sheets in the game's own notation, one per timeline,\n"
    "--gc as a Game Courier move log: one action a line in Game Courier's full\n"
    "algebraic notation ('1. P e2-e4', '1... p e7-e5', 'K e1-g1; R h1-f1',\n"
    "'P e7-e8; Q-e8', 'P d5-e6; e5-', drops 'N-e4'), every timeline in the\n"
    "order played; a time-travel action is written as what it does to the board\n"
    "('B f1-', 'B-c4') with the game's own notation after '//' (Game Courier's\n"
    "comment), and comment lines give the variant, options, start position and\n"
    "result.  Game Courier shows the board alone: what is off it (pieces in\n"
    "transit, pockets, obligations, piece states) is not written.  'replay'\n"
    "reads the log back.  See docs/notation.md, \"Game Courier notation\".\n";

/* The largest game record read; real ones are far smaller. */
enum { RECORD_LIMIT = 64 << 20 };

static char *read_all(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f && errno == ENOMEM) cli_fail("out of memory");
    if (!f) cli_fail("cannot open '%s'", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            if (cap > RECORD_LIMIT) cli_fail("'%s' is too large to be a game record", path);
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown) free(buf);
            buf = grown;
        }
    }
    bool failed = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf) cli_fail("out of memory");
    if (failed) cli_fail("cannot read '%s'", path);
    buf[n] = 0;
    if (strlen(buf) != n) cli_fail("'%s' is not a text file", path);
    return buf;
}

/* Reads FILE into g; exits with a message on any error. */
static void read_record(int argc, char **argv, bool *want_pgn, bool *want_sheets, bool *want_gc, Game *g, PgnHeader *h)
{
    CliPosition pos = { 0 };
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(&pos, argc, argv, &i)) {
            if (pos.fen || pos.moves) cli_fail("%s reads its position from the file: --fen and --moves are not allowed", argv[0]);
        } else if (want_pgn && !strcmp(argv[i], "--pgn")) {
            *want_pgn = true;
        } else if (want_sheets && !strcmp(argv[i], "--sheets")) {
            *want_sheets = true;
        } else if (want_gc && !strcmp(argv[i], "--gc")) {
            *want_gc = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_fail("unknown option '%s' (see 'ttchess %s --help')", argv[i], argv[0]);
        } else if (file) {
            cli_fail("more than one file given ('%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file) cli_fail("%s needs a game file (see 'ttchess %s --help')", argv[0], argv[0]);
    const Variant *v = pos.variant ? cli_variant(pos.variant) : NULL;
    char *text = read_all(file);
    Text err = TEXT_INIT;
    pgn_header_init(h);
    bool ok = gc_detect(text)       ? gc_read(text, v, text_str(&pos.options), g, &err)
              : sheets_detect(text) ? sheets_read(text, v, text_str(&pos.options), g, &err)
                                    : pgn_read(text, v, text_str(&pos.options), g, h, NULL, &err);
    free(text);
    text_free(&pos.options);
    if (!ok) {
        game_free(g);
        cli_fail_text(file, &err);
    }
}

int cmd_replay(int argc, char **argv)
{
    Game g;
    PgnHeader h;
    Text out = TEXT_INIT;
    read_record(argc, argv, NULL, NULL, NULL, &g, &h);
    if (!sheets_write(&g, &out)) cli_fail("out of memory");
    cli_print_text(&out);
    cli_print_outcome(&g, "");
    text_free(&out);
    pgn_header_free(&h);
    game_free(&g);
    return 0;
}

int cmd_export(int argc, char **argv)
{
    bool pgn = false, sheets = false, gc = false;
    Game g;
    PgnHeader h;
    Text out = TEXT_INIT;
    /* Check the format before reading, so a missing one is the first error. */
    for (int i = 1; i < argc; i++) {
        pgn |= !strcmp(argv[i], "--pgn");
        sheets |= !strcmp(argv[i], "--sheets");
        gc |= !strcmp(argv[i], "--gc");
    }
    if (pgn + sheets + gc != 1) cli_fail("export needs exactly one of --pgn, --sheets and --gc");
    read_record(argc, argv, &pgn, &sheets, &gc, &g, &h);
    bool ok = pgn ? pgn_write(&g, &h, &out) : sheets ? sheets_write(&g, &out) : gc_write(&g, &out);
    if (!ok) cli_fail("out of memory");
    cli_print_text(&out);
    if (sheets) cli_print_outcome(&g, "# Result: ");
    text_free(&out);
    pgn_header_free(&h);
    game_free(&g);
    return 0;
}
