/* SPDX-License-Identifier: GPL-3.0-or-later
 * replay and export: reading a game record (PGN or score sheets), checking
 * every action, and writing it again. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
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

/* What replay and export were asked to read, and where they stand in it. */
typedef struct RecordFile {
    const char *name;
    const Variant *variant;  /* --variant, or NULL       */
    Text options;            /* --option, "name=value ..." */
    char *text;              /* the whole file            */
    const char *next;        /* where the next game begins */
    int games;               /* games read so far          */
} RecordFile;

/* Reads the command line and the whole file; exits with a message on any
 * error. */
static void open_record(int argc, char **argv, bool *want_pgn, bool *want_sheets, bool *want_gc, RecordFile *rf)
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
    rf->name = file;
    rf->variant = pos.variant ? cli_variant(pos.variant) : NULL;
    rf->options = pos.options;
    rf->text = read_all(file);
    rf->next = rf->text;
    rf->games = 0;
}

static void close_record(RecordFile *rf)
{
    free(rf->text);
    text_free(&rf->options);
}

/* Does only white space (and '%' escape lines) remain where the next game
 * would begin?  A PGN file ends so after its last game. */
static bool nothing_left(const char *p)
{
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (*p != '%') return *p == 0;
        while (*p && *p != '\n') p++;
    }
}

/* Reads the file's next game into g: false when the file has no more
 * (always after the first game of score sheets or a Game Courier log, which
 * hold one).  Exits with a message on any error; from the second game of a
 * PGN file on, the message names the game by its number. */
static bool next_record(RecordFile *rf, Game *g, PgnHeader *h, PgnNotes *notes)
{
    if (rf->games > 0 && (!rf->next || nothing_left(rf->next))) return false;
    Text err = TEXT_INIT;
    pgn_header_init(h);
    pgn_notes_init(notes);
    const char *opts = text_str(&rf->options);
    bool ok;
    if (rf->games == 0 && gc_detect(rf->text)) {
        ok = gc_read(rf->text, rf->variant, opts, g, &err);
        rf->next = NULL;
    } else if (rf->games == 0 && sheets_detect(rf->text)) {
        ok = sheets_read(rf->text, rf->variant, opts, g, &err);
        rf->next = NULL;
    } else {
        ok = pgn_read_notes(rf->next, rf->variant, opts, g, h, notes, &rf->next, &err);
    }
    rf->games++;
    if (!ok) {
        game_free(g);
        pgn_header_free(h);
        pgn_notes_free(notes);
        char where[64] = "";
        if (rf->games > 1) snprintf(where, sizeof where, "game %d", rf->games);
        Text prefix = TEXT_INIT;
        text_addf(&prefix, rf->games > 1 ? "%s, %s" : "%s", rf->name, where);
        cli_fail_text(text_str(&prefix), &err);
    }
    return true;
}

int cmd_replay(int argc, char **argv)
{
    RecordFile rf;
    Game g;
    PgnHeader h;
    PgnNotes notes;
    open_record(argc, argv, NULL, NULL, NULL, &rf);
    while (next_record(&rf, &g, &h, &notes)) {
        Text out = TEXT_INIT;
        if (!sheets_write(&g, &out)) cli_fail("out of memory");
        cli_print_text(&out);
        cli_print_outcome(&g, "");
        text_free(&out);
        pgn_header_free(&h);
        pgn_notes_free(&notes);
        game_free(&g);
    }
    close_record(&rf);
    return 0;
}

int cmd_export(int argc, char **argv)
{
    bool pgn = false, sheets = false, gc = false;
    RecordFile rf;
    Game g;
    PgnHeader h;
    PgnNotes notes;
    /* Check the format before reading, so a missing one is the first error. */
    for (int i = 1; i < argc; i++) {
        pgn |= !strcmp(argv[i], "--pgn");
        sheets |= !strcmp(argv[i], "--sheets");
        gc |= !strcmp(argv[i], "--gc");
    }
    if (pgn + sheets + gc != 1) cli_fail("export needs exactly one of --pgn, --sheets and --gc");
    open_record(argc, argv, &pgn, &sheets, &gc, &rf);
    while (next_record(&rf, &g, &h, &notes)) {
        Text out = TEXT_INIT;
        bool ok = pgn ? pgn_write_notes(&g, &h, &notes, &out) : sheets ? sheets_write(&g, &out) : gc_write(&g, &out);
        if (!ok) cli_fail("out of memory");
        cli_print_text(&out);
        if (sheets) cli_print_outcome(&g, "# Result: ");
        text_free(&out);
        pgn_header_free(&h);
        pgn_notes_free(&notes);
        game_free(&g);
    }
    close_record(&rf);
    return 0;
}
