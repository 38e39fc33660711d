/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Game Courier move logs (see ttchess/gc.h, gc_write and gc_read): a whole
 * game, one action a line in Game Courier notation (gc.c), with comment
 * lines for what the board cannot show.  The header and the end are read
 * and written as every record format does (record.h).
 */
#include "gc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gc_text.h"
#include "record.h"
#include "registry.h"

/* Does the Game Courier text name m alone?  Then it needs no comment. */
static bool names_alone(const Line *l, const char *text, Move m, bool *alone)
{
    Text err = TEXT_INIT;
    Move back;
    bool ok = gc_parse(l, text, &back, &err);
    *alone = ok && move_equal(back, m);
    ok = ok || !err.failed;
    text_free(&err);
    return ok;
}

/* ---- The move log ----------------------------------------------------------- */

static void header_comment(Text *out, const char *name, const char *value)
{
    text_addf(out, "// [%s \"%s\"]\n", name, value);
}

/* The comment lines before the first move: what the log is, the game, its
 * options and its start when they are not the defaults, and what Game
 * Courier cannot show. */
static bool write_log_header(const Game *g, Text *out)
{
    const Variant *v = g->variant;
    Text fen = TEXT_INIT, start = TEXT_INIT, opts = TEXT_INIT, err = TEXT_INIT;
    text_add(out, "// Game Courier move log written by ttchess: one move a line, as typed into Game Courier\n");
    header_comment(out, "Variant", v->name);
    v->to_fen(&g->options, game_node(g, 0)->state, &fen);
    State *s = v->from_fen(&g->options, v->start_fen, &err);
    if (s) v->to_fen(&g->options, s, &start);
    free(s);
    options_format(v, &g->options, false, &opts);
    if (opts.len) header_comment(out, "Options", text_str(&opts));
    if (!s || strcmp(text_str(&fen), text_str(&start))) header_comment(out, "FEN", text_str(&fen));
    if (v != &VARIANT_CHESS)
        text_add(out, "// Game Courier shows the board alone: pieces off it (in transit, in pockets), obligations and\n"
                      "// piece states are not written; a time-travel action is written as what it does to the board,\n"
                      "// followed by the action in ttchess's notation after //\n");
    bool ok = !fen.failed && !start.failed && !opts.failed && !err.failed;
    text_free(&fen);
    text_free(&start);
    text_free(&opts);
    text_free(&err);
    return ok;
}

/* Does the action need its own notation beside the board's: a time-travel
 * action, or one whose board effect other actions share? */
static bool wants_comment(const Line *l, Move m, const char *text, bool *want)
{
    bool alone = false;
    *want = true;
    if (m.flags || (!move_is_chess(m) && m.kind != MOVE_DROP)) return true;
    if (!names_alone(l, text, m, &alone)) return false;
    *want = !alone;
    return true;
}

/* Node i: "N. parts" or "N... parts", the game's notation after "//" where
 * wanted, then the variant's note on a line of its own. */
static bool write_log_action(const Game *g, int i, Text *out)
{
    const Node *node = game_node(g, i);
    const Board *b = &game_node(g, i - 1)->state->board;
    Line l;
    line_open(&l, g, i - 1);
    Text parts = TEXT_INIT, own = TEXT_INIT, note = TEXT_INIT;
    bool want = false;
    bool ok = gc_format(&l, node->move, &parts) && wants_comment(&l, node->move, text_str(&parts), &want);
    if (ok && want) ok = g->variant->format_human(&l, node->move, &own);
    if (ok) ok = variant_note(g->variant, &l, node->move, &note);
    line_close(&l);
    text_addf(out, "%u%s %s", (unsigned)b->fullmove, b->side == WHITE ? "." : "...", text_str(&parts));
    if (want) text_addf(out, "%s// %s", parts.len ? " " : "", text_str(&own));
    text_add_char(out, '\n');
    if (note.len) text_addf(out, "// %s\n", text_str(&note));
    if (node->parent != i - 1)
        text_addf(out, "// Timeline %d begins: the game went back to an earlier position, and the move above sets the "
                  "board as it stands there\n", node->timeline);
    ok = ok && !parts.failed && !own.failed && !note.failed;
    text_free(&parts);
    text_free(&own);
    text_free(&note);
    return ok;
}

/* The note on the turn at which the game ended without an action, the
 * result, and the words of a declared end. */
static bool write_log_end(const Game *g, Text *out)
{
    RecordEnd end;
    bool ok = record_end(g, &end);
    if (ok) {
        if (end.note.len) text_addf(out, "// %s\n", text_str(&end.note));
        text_addf(out, "// Result: %s\n", text_str(&end.line));
        if (g->declared.result != RESULT_NONE) text_addf(out, "// Termination: %s\n", text_str(&end.termination));
    }
    record_end_free(&end);
    return ok;
}

bool gc_write(const Game *g, Text *out)
{
    bool ok = write_log_header(g, out);
    for (int i = 1; i < game_count(g) && ok; i++) ok = write_log_action(g, i, out);
    return ok && write_log_end(g, out) && !out->failed;
}

/* ---- Reading a move log ----------------------------------------------------- */

typedef struct LogLine {
    const char *start;   /* the line, without its line end */
    size_t len;
    int number;          /* 1-based */
} LogLine;

/* The next line of the text at *p; false at the end. */
static bool next_line(const char **p, LogLine *line)
{
    if (!**p) return false;
    const char *s = *p, *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    *p = nl ? nl + 1 : s + len;
    if (len && s[len - 1] == '\r') len--;
    line->start = s;
    line->len = len;
    line->number++;
    return true;
}

static char *line_copy(const LogLine *line)
{
    char *s = malloc(line->len + 1);
    if (s) {
        memcpy(s, line->start, line->len);
        s[line->len] = 0;
    }
    return s;
}

/* A comment line: "//" first, after white space; *rest is what follows. */
static bool comment_line(const char *s, const char **rest)
{
    while (isspace((unsigned char)*s)) s++;
    if (strncmp(s, "//", 2)) return false;
    s += 2;
    while (isspace((unsigned char)*s)) s++;
    *rest = s;
    return true;
}

/* A header [Name "value"] in a comment line: 1 with the value (malloc'd)
 * when it is the one named, 0 when it is not, -1 when out of memory. */
static int header_value(const char *s, const char *name, char **value)
{
    size_t n = strlen(name);
    if (*s != '[' || strncmp(s + 1, name, n) || s[1 + n] != ' ' || s[2 + n] != '"') return 0;
    const char *v = s + n + 3, *q = strchr(v, '"');
    if (!q || q[1] != ']') return 0;
    *value = malloc((size_t)(q - v) + 1);
    if (!*value) return -1;
    memcpy(*value, v, (size_t)(q - v));
    (*value)[q - v] = 0;
    return 1;
}

/* Skips a move number ("12.", "12...") and the white space around it. */
static const char *skip_number(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t digits = strspn(s, "0123456789");
    if (digits && s[digits] == '.') s += digits + strspn(s + digits, ".");
    while (isspace((unsigned char)*s)) s++;
    return s;
}

typedef struct LogHeader {
    char *variant, *mode, *options, *fen;
    char *result, *termination;  /* the words after "Result:" and "Termination:" */
} LogHeader;

static void free_header(LogHeader *h)
{
    free(h->variant);
    free(h->mode);
    free(h->options);
    free(h->fen);
    free(h->result);
    free(h->termination);
}

/* Keeps what a comment line says about the game: a header before the
 * first move, the result and the words of a declared end anywhere; other
 * comments are for the reader.  False only when out of memory. */
static bool keep_comment(const char *rest, bool before_moves, LogHeader *h)
{
    static const char *const names[] = { "Variant", "VariantMode", "Options", "FEN" };
    char **slots[] = { &h->variant, &h->mode, &h->options, &h->fen };
    for (size_t k = 0; k < sizeof names / sizeof names[0] && before_moves; k++) {
        char *value = NULL;
        int found = header_value(rest, names[k], &value);
        if (found < 0) return false;
        if (!found) continue;
        free(*slots[k]);
        *slots[k] = value;
        return true;
    }
    char **slot = !strncmp(rest, "Result:", 7) ? &h->result : !strncmp(rest, "Termination:", 12) ? &h->termination : NULL;
    if (!slot) return true;
    const char *words = strchr(rest, ':') + 1;
    while (isspace((unsigned char)*words)) words++;
    free(*slot);
    *slot = strdup(words);
    return *slot != NULL;
}

/* The game the header names, with its options and start. */
static bool start_game(const LogHeader *h, const Variant *force, const char *force_options, Game *g, Text *err)
{
    RecordStart start = { h->variant, h->mode, h->options, h->fen };
    return record_start_game(&start, force, force_options, g, err);
}

/* One move line: its number skipped, its comment the hint. */
static bool play_log_line(Game *g, const LogLine *line, Text *err)
{
    char *s = line_copy(line);
    if (!s) return text_fail(err, "out of memory");
    char *text = (char *)skip_number(s), *comment = (char *)gc_comment_start(text);
    const char *hint = NULL;
    if (*comment) {
        *comment = 0;
        hint = comment + 2;
        while (isspace((unsigned char)*hint)) hint++;
    }
    bool ok = true;
    if (gc_skip_spaces(text, text + strlen(text)) < text + strlen(text) || (hint && *hint)) {
        Line l;
        line_open(&l, g, game_current(g));
        Outcome o;
        Text why = TEXT_INIT, words = TEXT_INIT;
        Move m = move_none();
        ok = line_outcome(&l, &o);
        if (!ok) {
            text_add(&why, "out of memory");
        } else if (o.result != RESULT_NONE || g->declared.result != RESULT_NONE) {
            game_outcome(g, &o);
            outcome_line(o, g->declared_words, &words);
            text_addf(&why, "the game is over (%s)", text_str(&words));
            ok = false;
        } else {
            ok = gc_parse_hinted(&l, text, hint, &m, &why);
        }
        line_close(&l);
        if (ok && !game_push(g, m)) ok = text_fail(&why, "out of memory");
        if (!ok) {
            char *shown = line_copy(line);
            text_fail(err, "line %d (%s): %s", line->number, shown ? skip_number(shown) : "",
                      why.failed ? "out of memory" : text_str(&why));
            free(shown);
        }
        text_free(&why);
        text_free(&words);
    }
    free(s);
    return ok;
}

/* A result the log records ("1-0", "0-1", "1/2-1/2", "0-0"), or
 * RESULT_NONE ("*", "ongoing", nothing). */
static uint8_t recorded_result(const char *words)
{
    static const uint8_t results[] = { RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_BOTH_LOSE };
    if (!words) return RESULT_NONE;
    for (size_t i = 0; i < sizeof results; i++) {
        const char *token = result_string(results[i]);
        size_t n = strlen(token);
        if (!strncmp(words, token, n) && (!words[n] || isspace((unsigned char)words[n]))) return results[i];
    }
    return RESULT_NONE;
}

bool gc_read(const char *text, const Variant *force, const char *force_options, Game *g, Text *err)
{
    LogHeader h = { 0 };
    LogLine line = { 0 };
    const char *p = text, *first_move = NULL;
    int first_number = 0;
    bool ok = true;
    memset(g, 0, sizeof *g);
    /* The header first: the game must be set up before the first move. */
    while (ok && next_line(&p, &line)) {
        const char *rest;
        char *s = line_copy(&line);
        if (!s) ok = text_fail(err, "out of memory");
        else if (comment_line(s, &rest)) ok = keep_comment(rest, true, &h) || text_fail(err, "out of memory");
        else if (*gc_skip_spaces(s, s + strlen(s)) && !first_move) first_move = line.start, first_number = line.number;
        free(s);
        if (first_move) break;
    }
    if (ok) ok = start_game(&h, force, force_options, g, err);
    if (ok && first_move) {
        p = first_move;
        line.number = first_number - 1;
        while (ok && next_line(&p, &line)) {
            const char *rest;
            char *s = line_copy(&line);
            if (!s) ok = text_fail(err, "out of memory");
            else if (comment_line(s, &rest)) ok = keep_comment(rest, false, &h) || text_fail(err, "out of memory");
            else if (*gc_skip_spaces(s, s + strlen(s))) ok = play_log_line(g, &line, err);
            free(s);
        }
    }
    if (ok) ok = record_settle_result(g, recorded_result(h.result), h.termination, err);
    free_header(&h);
    return ok;
}

bool gc_detect(const char *text)
{
    LogLine line = { 0 };
    const char *p = text;
    while (next_line(&p, &line)) {
        char *s = line_copy(&line);
        if (!s) return false;
        const char *rest, *first = gc_skip_spaces(s, s + strlen(s));
        bool blank = !*first;
        bool log = !blank && (comment_line(s, &rest) || (isdigit((unsigned char)*first) && gc_is_notation(skip_number(first))));
        free(s);
        if (!blank) return log;
    }
    return false;
}
