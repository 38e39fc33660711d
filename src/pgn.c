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
#include "ttchess/pgn.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Export wraps movetext lines at this many columns. */
enum { PGN_COLUMNS = 80 };

/* Room for one movetext token; a longer one is no action of any game. */
enum { TOKEN_MAX = 128 };

/* Room for a position in any variant's FEN. */
enum { FEN_MAX = 1024 };

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
    char *err;
    size_t errlen;
} Reader;

/* The state of movetext output: the column reached on the current line,
 * and whether the last token written was a comment (after which Black's
 * move number is repeated). */
typedef struct Writer {
    FILE *out;
    int column;
    bool after_comment;
} Writer;

/* ------------------------------------------------------------------ */
/* Tags                                                                */
/* ------------------------------------------------------------------ */

const char *pgn_tag(const PgnHeader *h, const char *name)
{
    if (!h || !name) return NULL;
    for (int i = 0; i < h->count; i++)
        if (!strcmp(h->tags[i].name, name)) return h->tags[i].value;
    return NULL;
}

/* A header holds at most PGN_MAX_TAGS tags; further new tags are dropped
 * (a replaced tag always takes effect). */
void pgn_set_tag(PgnHeader *h, const char *name, const char *value)
{
    if (!h || !name) return;
    PgnTag *t = NULL;
    for (int i = 0; i < h->count && !t; i++)
        if (!strcmp(h->tags[i].name, name)) t = &h->tags[i];
    if (!t) {
        if (h->count >= PGN_MAX_TAGS) return;
        t = &h->tags[h->count++];
        snprintf(t->name, sizeof t->name, "%s", name);
    }
    snprintf(t->value, sizeof t->value, "%s", value ? value : "");
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
    if (r->err && r->errlen) snprintf(r->err, r->errlen, "line %d: %s", line_of(r, at), msg);
    return false;
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

static bool same_text_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
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

/* Reads a tag name into buf; false (with err) if there is none or it is
 * too long. */
static bool read_tag_name(Reader *r, char *buf, size_t len, const char *open)
{
    size_t n = 0;
    while (*r->p == ' ' || *r->p == '\t') r->p++;
    if (!is_name_char(*r->p)) return fail(r, "bad tag: expected a tag name after '['", open);
    while (is_name_char(*r->p)) {
        if (n + 1 >= len) return fail(r, "bad tag: the tag name is too long", open);
        buf[n++] = *r->p++;
    }
    buf[n] = 0;
    return true;
}

/* Reads a quoted tag value, undoing the escapes \" and \\.  A value longer
 * than the header holds is cut short, and *cut says so. */
static bool read_tag_value(Reader *r, char *buf, size_t len, const char *open, bool *cut)
{
    size_t n = 0;
    *cut = false;
    while (*r->p == ' ' || *r->p == '\t') r->p++;
    if (*r->p != '"') return fail(r, "bad tag: expected a value in double quotes after the tag name", open);
    r->p++;
    for (;;) {
        char c = *r->p;
        if (c == 0 || c == '\n') return fail(r, "bad tag: the value has no closing double quote", open);
        r->p++;
        if (c == '"') break;
        if (c == '\\' && (*r->p == '"' || *r->p == '\\')) c = *r->p++;
        if (n + 1 < len) buf[n++] = c;
        else *cut = true;
    }
    buf[n] = 0;
    return true;
}

static bool read_tag(Reader *r, PgnHeader *h)
{
    const char *open = r->p;
    char name[sizeof h->tags[0].name];
    char value[sizeof h->tags[0].value];
    bool cut;
    r->p++;
    if (!read_tag_name(r, name, sizeof name, open)) return false;
    if (!read_tag_value(r, value, sizeof value, open, &cut)) return false;
    /* Any other tag may lose its end; a position may not. */
    if (cut && !strcmp(name, "FEN")) return fail(r, "bad tag: the [FEN] value is longer than 255 characters", open);
    while (*r->p == ' ' || *r->p == '\t') r->p++;
    if (*r->p != ']') return fail(r, "bad tag: expected ']' after the value", open);
    r->p++;
    pgn_set_tag(h, name, value);
    return true;
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
            if (!skip_comment(r)) return TOKEN_ERROR;
            continue;
        }
        if (c == ';') {
            skip_to_line_end(r);
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
        if (!*action || is_ignored_token(action)) continue;
        snprintf(buf, len, "%s", action);
        return result_of_token(buf) >= 0 ? TOKEN_RESULT : TOKEN_ACTION;
    }
}

/* ------------------------------------------------------------------ */
/* Reading: variant, start and result                                  */
/* ------------------------------------------------------------------ */

/* Finds the variant whose name or title is `label`, ignoring case.  The
 * names come from variant_names(), a ", "-separated list. */
static const Variant *variant_by_label(const char *label)
{
    const char *names = variant_names();
    while (names && *names) {
        const char *end = strchr(names, ',');
        size_t n = end ? (size_t)(end - names) : strlen(names);
        char name[64];
        if (n < sizeof name) {
            memcpy(name, names, n);
            name[n] = 0;
            const Variant *v = variant_find(name);
            if (v && (same_text_nocase(label, v->name) || same_text_nocase(label, v->title))) return v;
        }
        names = end ? end + 1 : NULL;
        while (names && *names == ' ') names++;
    }
    return NULL;
}

static bool choose_variant(const Variant *force, const PgnHeader *h, const Variant **v, char *err, size_t errlen)
{
    const char *label = pgn_tag(h, "Variant");
    *v = force;
    if (*v) return true;
    *v = &VARIANT_CHESS;
    if (!label || !*label) return true;
    const Variant *found = variant_by_label(label);
    if (found) {
        *v = found;
        return true;
    }
    if (err && errlen) snprintf(err, errlen, "unknown variant '%s'", label);
    return false;
}

/* Sets up the game for the header; the game is valid (possibly at the
 * variant's start position) even when this fails. */
static bool start_game(Game *g, const Variant *force, const PgnHeader *h, bool header_ok, char *err, size_t errlen)
{
    const Variant *v = NULL;
    bool ok = header_ok && choose_variant(force, h, &v, err, errlen);
    if (!v) v = force ? force : &VARIANT_CHESS;
    const char *fen = ok ? pgn_tag(h, "FEN") : NULL;
    char why[256] = "";
    if (!game_init(g, v, fen && *fen ? fen : NULL, why, sizeof why) && ok) {
        if (err && errlen) snprintf(err, errlen, "bad [FEN] \"%s\": %s", fen, why);
        ok = false;
    }
    return ok;
}

/* Checks the result the file records (the movetext's result token, else
 * the [Result] tag) against the rules, and keeps one the rules do not
 * reach as the declared outcome. */
static bool settle_result(Game *g, const PgnHeader *h, int token_result, char *err, size_t errlen)
{
    int tag_result = result_of_tag(pgn_tag(h, "Result"));
    if (token_result > RESULT_NONE && tag_result >= 0 && token_result != tag_result) {
        if (err && errlen)
            snprintf(err, errlen, "the movetext ends with %s but the [Result] tag says %s",
                     result_string((uint8_t)token_result), result_string((uint8_t)tag_result));
        return false;
    }
    int recorded = token_result > RESULT_NONE ? token_result : tag_result;
    if (recorded <= RESULT_NONE) return true;
    Outcome rules = game_outcome(g);
    if (rules.result == RESULT_NONE) {
        const char *why = pgn_tag(h, "Termination");
        game_declare(g, (uint8_t)recorded, why && *why ? why : "result recorded in the game file");
        return true;
    }
    if (rules.result == recorded) return true;
    char line[96];
    outcome_format(&rules, line, sizeof line);
    if (err && errlen)
        snprintf(err, errlen, "the result %s contradicts the end of the game by the rules (%s)",
                 result_string((uint8_t)recorded), line);
    return false;
}

/* Plays one action, writing the error with its place in the movetext. */
static bool play_action(Game *g, const char *action, int index, char *err, size_t errlen)
{
    char why[256] = "";
    if (game_play_text(g, action, why, sizeof why)) return true;
    if (err && errlen) snprintf(err, errlen, "move %d (%s): %s", index, action, why);
    return false;
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
        if (!strcmp(token, "0-0") && game_outcome(g).result != RESULT_NONE) {
            *result = RESULT_BOTH_LOSE;
            return true;
        }
        if (!play_action(g, token, ++index, r->err, r->errlen)) return false;
    }
}

bool pgn_read(const char *text, const Variant *force, Game *g, PgnHeader *h, const char **next, char *err,
              size_t errlen)
{
    PgnHeader local;
    if (!h) h = &local;
    memset(h, 0, sizeof *h);
    if (err && errlen) err[0] = 0;
    if (!text) text = "";
    Reader r = { text, text, err, errlen };
    /* A UTF-8 byte order mark is no part of the game. */
    if (!strncmp(r.p, "\xEF\xBB\xBF", 3)) r.p += 3;

    bool any = false;
    bool ok = read_tag_section(&r, h, &any);
    ok = start_game(g, force, h, ok, err, errlen) && ok;
    int result = -1;
    if (ok) ok = read_movetext(&r, g, &result, &any);
    if (ok && !any) {
        if (err && errlen) snprintf(err, errlen, "no game found: there are no tags and no moves");
        ok = false;
    }
    if (ok) ok = settle_result(g, h, result, err, errlen);
    if (next) *next = r.p;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* Writes a tag pair, escaping '"' and '\' and flattening line breaks. */
static void write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\') fputc('\\', out);
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, out);
    }
    fputs("\"]\n", out);
}

static const char *const ROSTER[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

/* Tags the writer computes from the game, not copied from the header. */
static bool is_computed_tag(const char *name, bool declared)
{
    for (size_t i = 0; i < sizeof ROSTER / sizeof ROSTER[0]; i++)
        if (!strcmp(name, ROSTER[i])) return true;
    if (!strcmp(name, "Variant") || !strcmp(name, "SetUp") || !strcmp(name, "FEN")) return true;
    return declared && !strcmp(name, "Termination");
}

/* Does the game start elsewhere than the variant's start position?  Both
 * are written by the variant's own to_fen, so that two spellings of one
 * position compare equal. */
static bool starts_from_fen(const Game *g, char *fen, size_t len)
{
    const Variant *v = g->variant;
    v->to_fen(&g->nodes[0].state, fen, len);
    State start;
    char standard[FEN_MAX];
    if (!v->from_fen(&start, v->start_fen, NULL, 0)) return true;
    v->to_fen(&start, standard, sizeof standard);
    return strcmp(fen, standard) != 0;
}

static void write_tags(Game *g, const PgnHeader *h, Outcome outcome, FILE *out)
{
    bool declared = g->declared.result != RESULT_NONE;
    for (size_t i = 0; i < sizeof ROSTER / sizeof ROSTER[0]; i++) {
        const char *value = pgn_tag(h, ROSTER[i]);
        if (!strcmp(ROSTER[i], "Result")) value = result_string(outcome.result);
        else if (!value) value = strcmp(ROSTER[i], "Date") ? "?" : "????.??.??";
        write_tag(out, ROSTER[i], value);
    }
    for (int i = 0; h && i < h->count; i++)
        if (!is_computed_tag(h->tags[i].name, declared)) write_tag(out, h->tags[i].name, h->tags[i].value);
    if (g->variant != &VARIANT_CHESS) write_tag(out, "Variant", g->variant->title);
    char fen[FEN_MAX];
    if (starts_from_fen(g, fen, sizeof fen)) {
        write_tag(out, "SetUp", "1");
        write_tag(out, "FEN", fen);
    }
    if (declared) write_tag(out, "Termination", g->declared.reason);
}

/* Writes one movetext token, starting a new line where it would pass the
 * last column. */
static void write_token(Writer *w, const char *token)
{
    int len = (int)strlen(token);
    if (w->column > 0 && w->column + 1 + len > PGN_COLUMNS) {
        fputc('\n', w->out);
        w->column = 0;
    } else if (w->column > 0) {
        fputc(' ', w->out);
        w->column++;
    }
    fputs(token, w->out);
    w->column += len;
    w->after_comment = false;
}

/* Formats node i's action in the position where it was played: the node
 * that was current before it (for an ordinary action that is its parent;
 * for a travel back, the parent is the earlier position it returns to). */
static void format_action(Game *g, int i, char *buf, size_t len)
{
    Move m = g->nodes[i].move;
    int was = game_goto(g, g->nodes[i].previous);
    g->variant->format_human(g, m, buf, len);
    game_goto(g, was);
}

/* Node i's action with the move number before it: "N." before White's,
 * "N..." before Black's where the reader could not tell it is Black's (at
 * the start, after a comment, after a jump in the record).  The two make
 * one unit, so that a line never ends between a number and its action. */
static void numbered_action(const Writer *w, Game *g, int i, char *buf, size_t len)
{
    char action[TOKEN_MAX];
    format_action(g, i, action, sizeof action);
    const Board *b = &g->nodes[g->nodes[i].previous].state.board;
    bool jump = g->nodes[i].previous != i - 1;
    unsigned number = b->fullmove;
    if (b->side == WHITE) snprintf(buf, len, "%u. %s", number, action);
    else if (i == 1 || w->after_comment || jump) snprintf(buf, len, "%u... %s", number, action);
    else snprintf(buf, len, "%s", action);
}

static void write_movetext(Game *g, Outcome outcome, FILE *out)
{
    Writer w = { out, 0, false };
    for (int i = 1; i < g->count; i++) {
        char unit[TOKEN_MAX + 16];
        numbered_action(&w, g, i, unit, sizeof unit);
        write_token(&w, unit);
        if (g->variant->note) {
            char note[TOKEN_MAX], comment[TOKEN_MAX + 2];
            int was = game_goto(g, g->nodes[i].previous);
            g->variant->note(g, g->nodes[i].move, note, sizeof note);
            game_goto(g, was);
            if (note[0]) {
                snprintf(comment, sizeof comment, "{%s}", note);
                write_token(&w, comment);
                w.after_comment = true;
            }
        }
        if (g->nodes[i].parent != g->nodes[i].previous) {
            char comment[32];
            snprintf(comment, sizeof comment, "{Timeline %d}", g->nodes[i].timeline);
            write_token(&w, comment);
            w.after_comment = true;
        }
    }
    /* PGN has no token for "both lose"; [Result "0-0"] carries it. */
    write_token(&w, outcome.result == RESULT_BOTH_LOSE ? "*" : result_string(outcome.result));
    fputs("\n\n", out);
}

void pgn_write(Game *g, const PgnHeader *h, FILE *out)
{
    Outcome outcome = game_outcome(g);
    write_tags(g, h, outcome, out);
    fputc('\n', out);
    write_movetext(g, outcome, out);
}
