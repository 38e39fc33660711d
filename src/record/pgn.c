/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PGN import and export for every variant.
 *
 * Import reads the tag section, picks the variant and the start position,
 * then hands each movetext token that is an action to game_play_text(),
 * so that every action is checked by the variant's own rules and read in
 * any notation the variant accepts.  Comments, NAGs, move numbers and
 * variations are skipped.  Nothing here recurses: nested variations are
 * skipped with a depth counter, so no input can exhaust the stack.
 *
 * Export writes the actions in the order they were played.  An action that
 * travels back starts a new timeline when it is replayed, so the reader
 * needs nothing more than the list; the writer adds a "{Timeline N}"
 * comment after such an action for the human reader.
 */
#include "pgn.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "registry.h"

/* Export wraps movetext lines at this many columns. */
enum { PGN_COLUMNS = 80 };

/* Room for one movetext token; a longer one is no action of any game. */
enum { TOKEN_MAX = 128 };

/* What a movetext reader stopped on. */
enum TokenKind {
    TOKEN_END,        /* the text ends                                  */
    TOKEN_NEXT_GAME,  /* a tag pair: the next game begins here          */
    TOKEN_ACTION,     /* an action, in the token buffer                 */
    TOKEN_RESULT,     /* a result token; the game ends                  */
    TOKEN_ERROR       /* malformed movetext; err says why               */
};

/* Where the reader stands in the text.  `start` is kept to turn a
 * position into a line number for error messages. */
typedef struct Reader {
    const char *start;
    const char *p;
    Text *err;
    PgnNotes *notes;  /* where annotations are kept; NULL: skipped      */
    int node;         /* the node the next annotation follows           */
} Reader;

/* The state of movetext output: the column reached on the current line,
 * and whether the last token written was a comment (after which Black's
 * move number is repeated). */
typedef struct Writer {
    Text *out;
    int column;
    bool after_comment;
} Writer;

/* ------------------------------------------------------------------ */
/* Tags                                                                */
/* ------------------------------------------------------------------ */

void pgn_header_init(PgnHeader *h) { memset(h, 0, sizeof *h); }

void pgn_header_free(PgnHeader *h)
{
    for (int i = 0; i < h->count; i++) {
        free(h->tags[i].name);
        free(h->tags[i].value);
    }
    free(h->tags);
    pgn_header_init(h);
}

const char *pgn_tag(const PgnHeader *h, const char *name)
{
    if (!h || !name) return NULL;
    for (int i = 0; i < h->count; i++)
        if (!strcmp(h->tags[i].name, name)) return h->tags[i].value;
    return NULL;
}

bool pgn_set_tag(PgnHeader *h, const char *name, const char *value)
{
    char *copy = strdup(value ? value : "");
    if (!copy) return false;
    for (int i = 0; i < h->count; i++) {
        if (strcmp(h->tags[i].name, name)) continue;
        free(h->tags[i].value);
        h->tags[i].value = copy;
        return true;
    }
    if (h->count == h->capacity) {
        int cap = h->capacity ? h->capacity * 2 : 16;
        PgnTag *tags = realloc(h->tags, (size_t)cap * sizeof *tags);
        if (!tags) {
            free(copy);
            return false;
        }
        h->tags = tags;
        h->capacity = cap;
    }
    char *key = strdup(name);
    if (!key) {
        free(copy);
        return false;
    }
    h->tags[h->count++] = (PgnTag){ key, copy };
    return true;
}

void pgn_notes_init(PgnNotes *n) { memset(n, 0, sizeof *n); }

void pgn_notes_free(PgnNotes *n)
{
    for (int i = 0; i < n->count; i++) free(n->notes[i].token);
    free(n->notes);
    pgn_notes_init(n);
}

/* Keeps one annotation token after `node`; false only when out of memory. */
static bool notes_add(PgnNotes *n, int node, const char *token, size_t len)
{
    if (n->count == n->capacity) {
        int cap = n->capacity ? n->capacity * 2 : 16;
        PgnNote *grown = realloc(n->notes, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        n->notes = grown;
        n->capacity = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy) return false;
    memcpy(copy, token, len);
    copy[len] = 0;
    n->notes[n->count++] = (PgnNote){ node, copy };
    return true;
}

/* ------------------------------------------------------------------ */
/* Reading: small helpers                                              */
/* ------------------------------------------------------------------ */

static int line_of(const Reader *r, const char *at)
{
    int line = 1;
    for (const char *c = r->start; c < at && *c; c++)
        if (*c == '\n') line++;
    return line;
}

static bool fail(Reader *r, const char *msg, const char *at)
{
    return text_fail(r->err, "line %d: %s", line_of(r, at), msg);
}

static bool at_line_start(const Reader *r, const char *at)
{
    return at == r->start || at[-1] == '\n';
}

static void skip_to_line_end(Reader *r)
{
    while (*r->p && *r->p != '\n') r->p++;
}

/* Skips white space and '%' escape lines (a '%' in the first column hides
 * the whole line from PGN readers). */
static void skip_space(Reader *r)
{
    for (;;) {
        while (isspace((unsigned char)*r->p)) r->p++;
        if (*r->p == '%' && at_line_start(r, r->p)) skip_to_line_end(r);
        else return;
    }
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Does a tag pair, '[' Name '"', begin at `s`?  Only this shape ends a
 * game's movetext, because some variants write actions that start with
 * '[' (a Chessgi traveller drop "[N]@e5"). */
static bool tag_pair_starts(const char *s)
{
    if (*s++ != '[') return false;
    while (*s == ' ' || *s == '\t') s++;
    if (!is_name_char(*s)) return false;
    while (is_name_char(*s)) s++;
    while (*s == ' ' || *s == '\t') s++;
    return *s == '"';
}

/* In the tag section a '[' opens a tag, well-formed or not, except where it
 * begins an action such as "[N]@e5" or "[Bb]": one or two letters and ']'
 * (no tag name is that short and closed at once). */
static bool bracket_is_action(const char *s)
{
    int letters = 0;
    for (s++; isalpha((unsigned char)*s); s++) letters++;
    return letters >= 1 && letters <= 2 && *s == ']';
}

/* ------------------------------------------------------------------ */
/* Reading: the tag section                                            */
/* ------------------------------------------------------------------ */

/* Reads a tag name; false (with err) if there is none. */
static bool read_tag_name(Reader *r, Text *name, const char *open)
{
    while (*r->p == ' ' || *r->p == '\t') r->p++;
    if (!is_name_char(*r->p)) return fail(r, "bad tag: expected a tag name after '['", open);
    while (is_name_char(*r->p)) text_add_char(name, *r->p++);
    return true;
}

/* Reads a quoted tag value, undoing the escapes \" and \\. */
static bool read_tag_value(Reader *r, Text *value, const char *open)
{
    while (*r->p == ' ' || *r->p == '\t') r->p++;
    if (*r->p != '"') return fail(r, "bad tag: expected a value in double quotes after the tag name", open);
    r->p++;
    for (;;) {
        char c = *r->p;
        if (c == 0 || c == '\n') return fail(r, "bad tag: the value has no closing double quote", open);
        r->p++;
        if (c == '"') break;
        if (c == '\\' && (*r->p == '"' || *r->p == '\\')) c = *r->p++;
        text_add_char(value, c);
    }
    return true;
}

static bool read_tag(Reader *r, PgnHeader *h)
{
    const char *open = r->p;
    Text name = TEXT_INIT, value = TEXT_INIT;
    r->p++;
    bool ok = read_tag_name(r, &name, open) && read_tag_value(r, &value, open);
    if (ok) {
        while (*r->p == ' ' || *r->p == '\t') r->p++;
        if (*r->p != ']') ok = fail(r, "bad tag: expected ']' after the value", open);
        else r->p++;
    }
    if (ok && (name.failed || value.failed || !pgn_set_tag(h, text_str(&name), text_str(&value))))
        ok = text_fail(r->err, "out of memory");
    text_free(&name);
    text_free(&value);
    return ok;
}

/* Reads every tag pair up to the movetext; *any says whether there was
 * one. */
static bool read_tag_section(Reader *r, PgnHeader *h, bool *any)
{
    *any = false;
    for (;;) {
        skip_space(r);
        if (*r->p != '[' || bracket_is_action(r->p)) return true;
        if (!read_tag(r, h)) return false;
        *any = true;
    }
}

/* ------------------------------------------------------------------ */
/* Reading: movetext tokens                                            */
/* ------------------------------------------------------------------ */

/* Skips a {comment}; r->p is on the '{'. */
static bool skip_comment(Reader *r)
{
    const char *open = r->p;
    const char *close = strchr(r->p, '}');
    if (!close) return fail(r, "unterminated comment: the '{' is never closed", open);
    r->p = close + 1;
    return true;
}

/* Keeps an annotation token where the reader keeps them; its line breaks
 * become spaces, so that the writer can wrap the movetext around it. */
static bool keep_note(Reader *r, const char *token, size_t len)
{
    if (!r->notes) return true;
    char *flat = malloc(len + 1);
    if (!flat) return text_fail(r->err, "out of memory");
    for (size_t i = 0; i < len; i++) flat[i] = token[i] == '\n' || token[i] == '\r' ? ' ' : token[i];
    bool ok = notes_add(r->notes, r->node, flat, len);
    free(flat);
    return ok || text_fail(r->err, "out of memory");
}

/* A {comment} in the movetext: skipped, and kept as it is written. */
static bool read_comment(Reader *r)
{
    const char *open = r->p;
    return skip_comment(r) && keep_note(r, open, (size_t)(r->p - open));
}

/* A ';' comment, to the end of the line: kept as a {comment}, without the
 * '}' it cannot hold. */
static bool read_line_comment(Reader *r)
{
    const char *open = r->p + 1;
    skip_to_line_end(r);
    if (!r->notes) return true;
    Text braced = TEXT_INIT;
    text_add_char(&braced, '{');
    for (const char *c = open; c < r->p; c++)
        if (*c != '}' && *c != '\r') text_add_char(&braced, *c);
    text_add_char(&braced, '}');
    bool ok = !braced.failed ? keep_note(r, text_str(&braced), braced.len) : text_fail(r->err, "out of memory");
    text_free(&braced);
    return ok;
}

/* Skips a variation and every variation nested in it; r->p is on the
 * '('.  A depth counter, not recursion, follows the nesting. */
static bool skip_variation(Reader *r)
{
    const char *open = r->p;
    long depth = 0;
    do {
        char c = *r->p;
        if (c == 0) return fail(r, "unterminated variation: the '(' is never closed", open);
        if (c == '{') {
            if (!skip_comment(r)) return false;
            continue;
        }
        if (c == ';') {
            skip_to_line_end(r);
            continue;
        }
        if (c == '(') depth++;
        if (c == ')') depth--;
        r->p++;
    } while (depth > 0);
    return true;
}

static bool is_token_end(char c)
{
    return c == 0 || isspace((unsigned char)c) || strchr("{}();", c) != NULL;
}

/* A move number ("12.", "12...") before an action may be glued to it
 * ("12...Nf6"); returns where the action starts, or `s` if there is no
 * number.  Castling written with zeros ("0-0") has no dot and stays. */
static const char *skip_move_number(const char *s)
{
    const char *c = s;
    while (isdigit((unsigned char)*c)) c++;
    if (c == s || *c != '.') return s;
    while (*c == '.') c++;
    return c;
}

/* Tokens that stand for no action: a NAG ($12), annotation marks written
 * apart from their move ("!?"), and a detached "e.p.". */
static bool is_ignored_token(const char *t)
{
    if (t[0] == '$') return true;
    if (!strcmp(t, "e.p.")) return true;
    return strspn(t, "!?") == strlen(t);
}

/* The result a token stands for, or -1 if it is no result token.  "0-0"
 * (both lose) is not here: it is castling unless the game is over. */
static int result_of_token(const char *t)
{
    if (!strcmp(t, "1-0")) return RESULT_WHITE_WINS;
    if (!strcmp(t, "0-1")) return RESULT_BLACK_WINS;
    if (!strcmp(t, "1/2-1/2")) return RESULT_DRAW;
    if (!strcmp(t, "*")) return RESULT_NONE;
    return -1;
}

/* The result a [Result] tag value stands for, or -1 if it says none. */
static int result_of_tag(const char *v)
{
    if (!v) return -1;
    if (!strcmp(v, "0-0")) return RESULT_BOTH_LOSE;
    int r = result_of_token(v);
    return r == RESULT_NONE ? -1 : r;
}

/* Copies the symbol at r->p into buf and moves past it. */
static bool read_symbol(Reader *r, char *buf, size_t len)
{
    const char *s = r->p;
    while (!is_token_end(*r->p)) r->p++;
    size_t n = (size_t)(r->p - s);
    if (n >= len) return fail(r, "a movetext token is too long to be an action", s);
    memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

/* Finds the next action or result token, skipping everything else. */
static enum TokenKind next_token(Reader *r, char *buf, size_t len)
{
    for (;;) {
        skip_space(r);
        char c = *r->p;
        if (c == 0) return TOKEN_END;
        if (c == '[' && tag_pair_starts(r->p)) return TOKEN_NEXT_GAME;
        if (c == '{') {
            if (!read_comment(r)) return TOKEN_ERROR;
            continue;
        }
        if (c == ';') {
            if (!read_line_comment(r)) return TOKEN_ERROR;
            continue;
        }
        if (c == '(') {
            if (!skip_variation(r)) return TOKEN_ERROR;
            continue;
        }
        if (c == ')' || c == '}') {
            fail(r, c == ')' ? "')' without a matching '('" : "'}' without a matching '{'", r->p);
            return TOKEN_ERROR;
        }
        char symbol[TOKEN_MAX];
        if (!read_symbol(r, symbol, sizeof symbol)) return TOKEN_ERROR;
        const char *action = skip_move_number(symbol);
        if (action[0] == '$' && !keep_note(r, action, strlen(action))) return TOKEN_ERROR;
        if (!*action || is_ignored_token(action)) continue;
        snprintf(buf, len, "%s", action);
        return result_of_token(buf) >= 0 ? TOKEN_RESULT : TOKEN_ACTION;
    }
}

/* ------------------------------------------------------------------ */
/* Reading: variant, start and result                                  */
/* ------------------------------------------------------------------ */

/* The game the tags name, set up; the game can be freed even when this
 * fails. */
static bool start_game(Game *g, const Variant *force, const char *force_options, const PgnHeader *h, Text *err)
{
    RecordStart start = { pgn_tag(h, "Variant"), pgn_tag(h, "VariantMode"), pgn_tag(h, "Options"), pgn_tag(h, "FEN") };
    return record_start_game(&start, force, force_options, g, err);
}

/* Checks the result the file records (the movetext's result token, else
 * the [Result] tag) against the rules, and keeps one the rules do not
 * reach as the declared outcome, its words from [Termination]. */
static bool settle_result(Game *g, const PgnHeader *h, int token_result, Text *err)
{
    int tag_result = result_of_tag(pgn_tag(h, "Result"));
    if (token_result > RESULT_NONE && tag_result >= 0 && token_result != tag_result)
        return text_fail(err, "the movetext ends with %s but the [Result] tag says %s",
                         result_string((uint8_t)token_result), result_string((uint8_t)tag_result));
    int recorded = token_result > RESULT_NONE ? token_result : tag_result;
    if (recorded <= RESULT_NONE) return true;
    return record_settle_result(g, (uint8_t)recorded, pgn_tag(h, "Termination"), err);
}

/* Plays one action, writing the error with its place in the movetext. */
static bool play_action(Game *g, const char *action, int index, Text *err)
{
    Text why = TEXT_INIT;
    bool ok = game_play_text(g, action, &why);
    if (!ok) text_fail(err, "move %d (%s): %s", index, action, why.failed ? "out of memory" : text_str(&why));
    text_free(&why);
    return ok;
}

/* Reads the movetext up to the end of the game, playing every action;
 * *result receives the result token's result, or -1 if there was none. */
static bool read_movetext(Reader *r, Game *g, int *result, bool *any)
{
    char token[TOKEN_MAX];
    int index = 0;
    *result = -1;
    for (;;) {
        enum TokenKind kind = next_token(r, token, sizeof token);
        if (kind == TOKEN_ERROR) return false;
        if (kind == TOKEN_END || kind == TOKEN_NEXT_GAME) return true;
        *any = true;
        if (kind == TOKEN_RESULT) {
            *result = result_of_token(token);
            return true;
        }
        /* Written results never include "0-0" (see pgn_write), but a
         * hand-written file may end a both-lose game with it. */
        Outcome o;
        if (!strcmp(token, "0-0") && game_outcome(g, &o) && o.result != RESULT_NONE) {
            *result = RESULT_BOTH_LOSE;
            return true;
        }
        if (!play_action(g, token, ++index, r->err)) return false;
        r->node = game_count(g) - 1;
    }
}

bool pgn_read(const char *text, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
              const char **next, Text *err)
{
    return pgn_read_notes(text, force, force_options, g, h, NULL, next, err);
}

bool pgn_read_notes(const char *text, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
                    PgnNotes *notes, const char **next, Text *err)
{
    PgnHeader local;
    pgn_header_init(&local);
    if (!h) h = &local;
    if (!text) text = "";
    Reader r = { text, text, err, notes, 0 };
    /* A UTF-8 byte order mark is no part of the game. */
    if (!strncmp(r.p, "\xEF\xBB\xBF", 3)) r.p += 3;

    bool any = false;
    bool ok = read_tag_section(&r, h, &any);
    if (ok) ok = start_game(g, force, force_options, h, err);
    else memset(g, 0, sizeof *g);
    int result = -1;
    if (ok) ok = read_movetext(&r, g, &result, &any);
    if (ok && !any) ok = text_fail(err, "no game found: there are no tags and no moves");
    if (ok) ok = settle_result(g, h, result, err);
    if (next) *next = r.p;
    pgn_header_free(&local);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* Writes a tag pair, escaping '"' and '\\' and flattening line breaks. */
static void write_tag(Text *out, const char *name, const char *value)
{
    text_addf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\') text_add_char(out, '\\');
        text_add_char(out, *c == '\n' || *c == '\r' ? ' ' : *c);
    }
    text_add(out, "\"]\n");
}

static const char *const ROSTER[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

/* Tags the writer computes from the game, not copied from the header. */
static bool is_computed_tag(const char *name, bool declared)
{
    for (size_t i = 0; i < sizeof ROSTER / sizeof ROSTER[0]; i++)
        if (!strcmp(name, ROSTER[i])) return true;
    static const char *const computed[] = { "Variant", "VariantMode", "Options", "SetUp", "FEN" };
    for (size_t i = 0; i < sizeof computed / sizeof computed[0]; i++)
        if (!strcmp(name, computed[i])) return true;
    return declared && !strcmp(name, "Termination");
}

/* Does the game start elsewhere than the variant's start position?  Both
 * are written by the variant's own to_fen, so that two spellings of one
 * position compare equal.  The game's FEN is left in fen. */
static bool starts_from_fen(const Game *g, Text *fen, bool *differs)
{
    const Variant *v = g->variant;
    v->to_fen(&g->options, game_node(g, 0)->state, fen);
    State *start = v->from_fen(&g->options, v->start_fen, NULL);
    Text standard = TEXT_INIT;
    if (start) v->to_fen(&g->options, start, &standard);
    /* A start position the options make impossible: the game's own FEN. */
    *differs = !start || strcmp(text_str(fen), text_str(&standard)) != 0;
    bool ok = !standard.failed && !fen->failed;
    free(start);
    text_free(&standard);
    return ok;
}

static bool write_tags(const Game *g, const PgnHeader *h, const RecordEnd *end, bool variant_always, Text *out)
{
    bool declared = g->declared.result != RESULT_NONE;
    for (size_t i = 0; i < sizeof ROSTER / sizeof ROSTER[0]; i++) {
        const char *value = pgn_tag(h, ROSTER[i]);
        if (!strcmp(ROSTER[i], "Result")) value = result_string(end->outcome.result);
        else if (!value) value = strcmp(ROSTER[i], "Date") ? "?" : "????.??.??";
        write_tag(out, ROSTER[i], value);
    }
    for (int i = 0; h && i < h->count; i++)
        if (!is_computed_tag(h->tags[i].name, declared)) write_tag(out, h->tags[i].name, h->tags[i].value);
    if (variant_always || g->variant != &VARIANT_CHESS) write_tag(out, "Variant", g->variant->title);
    if (g->variant->mode) write_tag(out, "VariantMode", g->variant->mode);
    Text text = TEXT_INIT;
    options_format(g->variant, &g->options, false, &text);
    if (text.len) write_tag(out, "Options", text_str(&text));
    text_clear(&text);
    bool differs;
    bool ok = starts_from_fen(g, &text, &differs);
    if (ok && differs) {
        write_tag(out, "SetUp", "1");
        write_tag(out, "FEN", text_str(&text));
    }
    if (declared) write_tag(out, "Termination", text_str(&end->termination));
    ok = ok && !text.failed;
    text_free(&text);
    return ok;
}

/* Writes one movetext token, starting a new line where it would pass the
 * last column. */
static void write_token(Writer *w, const char *token)
{
    int len = (int)strlen(token);
    if (w->column > 0 && w->column + 1 + len > PGN_COLUMNS) {
        text_add_char(w->out, '\n');
        w->column = 0;
    } else if (w->column > 0) {
        text_add_char(w->out, ' ');
        w->column++;
    }
    text_add(w->out, token);
    w->column += len;
    w->after_comment = false;
}

/* Writes a comment {text} as one token. */
static void write_comment(Writer *w, const char *text)
{
    Text comment = TEXT_INIT;
    text_addf(&comment, "{%s}", text);
    write_token(w, text_str(&comment));
    w->after_comment = true;
    if (comment.failed) w->out->failed = true;
    text_free(&comment);
}

/* Node i's action with the move number before it: "N." before White's,
 * "N..." before Black's where the reader could not tell it is Black's (at
 * the start, after a comment), then the
 * variant's note on it.  Each action is formatted in the position where it
 * was played: node i - 1, the present one then (for a travel back, its
 * parent is the earlier position it returns to). */
static bool write_action(Writer *w, const Game *g, int i, Text *note)
{
    const Node *node = game_node(g, i);
    const Board *b = &game_node(g, i - 1)->state->board;
    Line l;
    line_open(&l, g, i - 1);
    Text unit = TEXT_INIT;
    if (b->side == WHITE) text_addf(&unit, "%u. ", (unsigned)b->fullmove);
    else if (i == 1 || w->after_comment) text_addf(&unit, "%u... ", (unsigned)b->fullmove);
    bool ok = g->variant->format_human(&l, node->move, &unit);
    if (ok) ok = variant_note(g->variant, &l, node->move, note);
    line_close(&l);
    if (ok) {
        write_token(w, text_str(&unit));
        if (note->len) write_comment(w, text_str(note));
    }
    ok = ok && !unit.failed && !note->failed;
    text_free(&unit);
    return ok;
}

/* Is the kept token the comment {own}, one the writer has written itself? */
static bool is_own_comment(const char *token, const char *own)
{
    size_t len = strlen(own);
    return len && token[0] == '{' && !strncmp(token + 1, own, len) && !strcmp(token + 1 + len, "}");
}

/* Writes the kept annotations that follow `node` (from *at on, where the
 * last call stopped), leaving out the comments the writer itself writes
 * there, `own` (NULL-ended), so that a file ttchess wrote keeps one copy
 * of each. */
static void write_notes(Writer *w, const PgnNotes *notes, int *at, int node, const char *const *own)
{
    for (; notes && *at < notes->count && notes->notes[*at].node <= node; (*at)++) {
        const char *token = notes->notes[*at].token;
        bool mine = false;
        for (int k = 0; own[k] && !mine; k++) mine = is_own_comment(token, own[k]);
        if (mine) continue;
        write_token(w, token);
        w->after_comment = token[0] == '{';
    }
}

/* The movetext, ending with the note on the turn at which the game ended,
 * by the rules or by the players, without an action (an arrival that
 * could not land when the side was mated, van Gog's obligations left
 * unmet), and the result token. */
static bool write_movetext(const Game *g, const RecordEnd *end, const char *const *comments, const PgnNotes *notes,
                           Text *out)
{
    Writer w = { out, 0, false };
    bool ok = true;
    int at = 0, last = game_count(g) - 1;
    /* A game with no action ends with its note after node 0. */
    const char *before[] = { last == 0 ? text_str(&end->note) : "", NULL };
    write_notes(&w, notes, &at, 0, before);
    for (int i = 1; i <= last && ok; i++) {
        Text note = TEXT_INIT;
        ok = write_action(&w, g, i, &note);
        const char *clock = comments && comments[i] ? comments[i] : "";
        if (ok && *clock) write_comment(&w, clock);
        const Node *node = game_node(g, i);
        char timeline[32] = "";
        if (ok && node->parent != i - 1) {
            snprintf(timeline, sizeof timeline, "Timeline %d", node->timeline);
            write_comment(&w, timeline);
        }
        const char *own[] = { text_str(&note), clock, timeline, i == last ? text_str(&end->note) : "", NULL };
        if (ok) write_notes(&w, notes, &at, i, own);
        text_free(&note);
    }
    if (ok && end->note.len) write_comment(&w, text_str(&end->note));
    /* PGN has no token for "both lose"; [Result "0-0"] carries it. */
    write_token(&w, end->outcome.result == RESULT_BOTH_LOSE ? "*" : result_string(end->outcome.result));
    text_add(out, "\n\n");
    return ok;
}

static bool write_game(const Game *g, const PgnHeader *h, const char *const *comments, const PgnNotes *notes,
                       bool variant_always, Text *out)
{
    RecordEnd end;
    bool ok = record_end(g, &end) && write_tags(g, h, &end, variant_always, out);
    if (ok) text_add_char(out, '\n');
    ok = ok && write_movetext(g, &end, comments, notes, out) && !out->failed;
    record_end_free(&end);
    return ok;
}

bool pgn_write(const Game *g, const PgnHeader *h, Text *out)
{
    return write_game(g, h, NULL, NULL, false, out);
}

bool pgn_write_notes(const Game *g, const PgnHeader *h, const PgnNotes *notes, Text *out)
{
    return write_game(g, h, NULL, notes, false, out);
}

bool pgn_write_annotated(const Game *g, const PgnHeader *h, const char *const *comments, Text *out)
{
    return write_game(g, h, comments, NULL, true, out);
}
