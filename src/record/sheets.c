/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Score sheets, one per timeline (see sheets.h).  Writing walks each
 * timeline from the first position to its last; reading replays the sheets
 * in order, joining the two halves of each travel back (the end of one
 * sheet and the start of the next) into one action through the variant,
 * and checks that a later sheet repeats exactly the moves it shares with
 * the record.  Nothing here knows any game's notation.
 */
#include "sheets.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "registry.h"

/* ---- Writing ------------------------------------------------------------ */

/* Node i's action in sheet notation, formatted in the position it was
 * played in, or for the arrival half of a travel back in the position it
 * lands in (the node it follows). */
static bool node_text(const Game *g, int i, int part, Text *out)
{
    const Node *n = game_node(g, i);
    Line l;
    line_open(&l, g, part == SHEET_ARRIVAL ? n->parent : i - 1);
    bool ok = variant_format_sheet(g->variant, &l, n->move, part, out);
    line_close(&l);
    return ok;
}

typedef struct SheetWriter {
    Text *out;
    int move;          /* move number of the open line, 0 if none */
} SheetWriter;

/* Writes a cell for the turn of `before` (its move number and side). */
static void sheet_cell(SheetWriter *w, const Board *before, const char *text)
{
    if (w->move && (w->move != before->fullmove || before->side == WHITE)) {
        text_add_char(w->out, '\n');
        w->move = 0;
    }
    if (!w->move) {
        w->move = before->fullmove;
        text_addf(w->out, "%d. ", w->move);
        if (before->side == WHITE) {
            text_add(w->out, text);
            return;
        }
        text_add(w->out, "...");
    }
    text_addf(w->out, "  |  %s", text);
}

static void sheet_end(SheetWriter *w)
{
    if (w->move) text_add_char(w->out, '\n');
    w->move = 0;
}

/* Writes a header line [Name "value"], escaping '"' and '\'. */
static void header_line(Text *out, const char *name, const char *value)
{
    text_addf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\') text_add_char(out, '\\');
        text_add_char(out, *c);
    }
    text_add(out, "\"]\n");
}

/* [Variant] (and [VariantMode]) for any game but chess, [FEN] when the
 * game did not start from the variant's start position, [Options] when
 * its options are not the defaults. */
static bool write_header(const Game *g, Text *out)
{
    const Variant *v = g->variant;
    Text fen = TEXT_INIT, start = TEXT_INIT, opts = TEXT_INIT;
    v->to_fen(&g->options, game_node(g, 0)->state, &fen);
    State *s = v->from_fen(&g->options, v->start_fen, NULL);
    bool ok = s != NULL;
    if (s) v->to_fen(&g->options, s, &start);
    free(s);
    options_format(v, &g->options, false, &opts);
    if (v != &VARIANT_CHESS) header_line(out, "Variant", v->title);
    if (v->mode) header_line(out, "VariantMode", v->mode);
    if (ok && strcmp(text_str(&fen), text_str(&start))) header_line(out, "FEN", text_str(&fen));
    if (ok && opts.len) header_line(out, "Options", text_str(&opts));
    ok = ok && !fen.failed && !start.failed && !opts.failed;
    text_free(&fen);
    text_free(&start);
    text_free(&opts);
    return ok;
}

/* The cell for the turn at which the game ended without an action (a
 * Gifford king lost in time, "[K]"), if the rules ended it so. */
static bool write_no_action(const Game *g, SheetWriter *w)
{
    Text cell = TEXT_INIT;
    bool ok = record_end_cell(g, &cell);
    if (ok && cell.len) sheet_cell(w, game_board(g), text_str(&cell));
    text_free(&cell);
    return ok;
}

bool sheets_write(const Game *g, Text *out)
{
    int *chain = malloc((size_t)game_count(g) * sizeof *chain);
    if (!chain || !write_header(g, out)) {
        free(chain);
        return false;
    }
    Text cell = TEXT_INIT;
    bool ok = true;
    int timelines = game_timelines(g);
    for (int t = 1; t <= timelines && ok; t++) {
        SheetWriter w = { out, 0 };
        text_addf(out, "[Timeline %d]\n", t);
        int n = 0;
        for (int i = game_timeline_tip(g, t); i > 0; i = game_node(g, i)->parent) chain[n++] = i;
        for (int k = n - 1; k >= 0 && ok; k--) {
            int i = chain[k];
            const Node *node = game_node(g, i);
            text_clear(&cell);
            ok = node_text(g, i, node->parent != i - 1 ? SHEET_ARRIVAL : SHEET_ACTION, &cell);
            sheet_cell(&w, &game_node(g, node->parent)->state->board, text_str(&cell));
        }
        int next = t < timelines ? game_timeline_start(g, t + 1) : -1;
        if (ok && next >= 0) {
            text_clear(&cell);
            ok = node_text(g, next, SHEET_DEPARTURE, &cell);
            sheet_cell(&w, &game_node(g, next - 1)->state->board, text_str(&cell));
        } else if (ok && t == timelines) {
            ok = write_no_action(g, &w);
        }
        sheet_end(&w);
    }
    ok = ok && !cell.failed && !out->failed;
    text_free(&cell);
    free(chain);
    return ok;
}

/* ---- Reading: the text -------------------------------------------------- */

typedef struct Cell {
    int timeline, move;
    Color side;
    char *text;
    int line;
} Cell;

typedef struct Sheets {
    Cell *cells;
    int count, capacity;
    int timelines;
    char *fen, *options, *variant, *mode;   /* header lines, or NULL */
} Sheets;

static void free_sheets(Sheets *sh)
{
    for (int i = 0; i < sh->count; i++) free(sh->cells[i].text);
    free(sh->cells);
    free(sh->fen);
    free(sh->options);
    free(sh->variant);
    free(sh->mode);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static bool add_cell(Sheets *sh, int move, Color side, const char *text, int line, Text *err)
{
    if (sh->count == sh->capacity) {
        int cap = sh->capacity ? sh->capacity * 2 : 64;
        Cell *c = realloc(sh->cells, (size_t)cap * sizeof *c);
        if (!c) return text_fail(err, "out of memory");
        sh->cells = c;
        sh->capacity = cap;
    }
    char *copy = strdup(text);
    if (!copy) return text_fail(err, "out of memory");
    sh->cells[sh->count++] = (Cell){ sh->timelines, move, side, copy, line };
    return true;
}

/* Splits the columns of a line: at '|', else at tabs, else at runs of two
 * or more spaces.  Returns the number of columns (3 means "too many"). */
static int split_columns(char *rest, char *cols[3])
{
    int n = 0;
    const char *sep = strchr(rest, '|') ? "|" : strchr(rest, '\t') ? "\t" : NULL;
    if (sep) {
        char *save = rest, *p;
        while (n < 3 && (p = strchr(save, sep[0]))) {
            *p = 0;
            cols[n++] = trim(save);
            save = p + 1;
        }
        if (n < 3) cols[n++] = trim(save);
        return n;
    }
    char *p = strstr(rest, "  ");
    cols[n++] = trim(rest);
    if (p) {
        *p = 0;
        cols[0] = trim(rest);
        cols[n++] = trim(p + 2);
    }
    return n;
}

static bool empty_cell(const char *c) { return !*c || !strcmp(c, "...") || !strcmp(c, "-") || !strcmp(c, ".."); }

/* A header line [Name "value"] before the first sheet. */
static bool parse_header(Sheets *sh, const char *s, int lineno, Text *err)
{
    static const char *const names[] = { "FEN", "Options", "Variant", "VariantMode" };
    char **slots[] = { &sh->fen, &sh->options, &sh->variant, &sh->mode };
    for (int k = 0; k < 4; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(s + 1, names[k], n) || s[1 + n] != ' ') continue;
        const char *p = s + 2 + n;
        while (*p == ' ') p++;
        if (*p++ != '"') break;
        Text value = TEXT_INIT;
        for (; *p && *p != '"'; p++) {
            if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
            text_add_char(&value, *p);
        }
        bool closed = *p == '"' && !strcmp(trim((char *)p + 1), "]");
        if (!closed || *slots[k]) {
            text_free(&value);
            return text_fail(err, closed ? "line %d: [%s] is given twice" : "line %d: expected [%s \"...\"]", lineno,
                             names[k]);
        }
        *slots[k] = text_take(&value);
        return *slots[k] ? true : text_fail(err, "out of memory");
    }
    return text_fail(err, "line %d: before the first sheet only [FEN \"...\"], [Options \"...\"], "
                     "[Variant \"...\"] and [VariantMode \"...\"] may stand", lineno);
}

static bool parse_line(Sheets *sh, char *line, int lineno, Text *err)
{
    char *s = trim(line);
    if (!*s || *s == '#') return true;
    if (!strncmp(s, "[Timeline", 9)) {
        char *end;
        long t = strtol(s + 9, &end, 10);
        end = trim(end);
        if (t != sh->timelines + 1 || (*end && strcmp(end, "]")))
            return text_fail(err, "line %d: expected [Timeline %d]", lineno, sh->timelines + 1);
        sh->timelines = (int)t;
        return true;
    }
    if (!sh->timelines && *s == '[') return parse_header(sh, s, lineno, err);
    if (!sh->timelines) return text_fail(err, "line %d: the first sheet must start with [Timeline 1]", lineno);
    char *p = s;
    long move = 0;
    while (isdigit((unsigned char)*p) && move < 100000) move = move * 10 + (*p++ - '0');
    if (p == s || move < 1 || move >= 100000)
        return text_fail(err, "line %d: a sheet line starts with its move number, e.g. '12. Nf3  |  Nc6'", lineno);
    int dots = 0;
    while (*p == '.') p++, dots++;
    char *cols[3];
    int n = split_columns(p, cols);
    if (n > 2) return text_fail(err, "line %d: a sheet line has at most two columns (White, Black)", lineno);
    bool black_only = dots >= 3 && n == 1;
    if (black_only) return empty_cell(cols[0]) || add_cell(sh, (int)move, BLACK, cols[0], lineno, err);
    if (!empty_cell(cols[0]) && !add_cell(sh, (int)move, WHITE, cols[0], lineno, err)) return false;
    if (n == 2 && !empty_cell(cols[1]) && !add_cell(sh, (int)move, BLACK, cols[1], lineno, err)) return false;
    return true;
}

static bool parse_sheets(const char *text, Sheets *sh, Text *err)
{
    char *copy = strdup(text);
    if (!copy) return text_fail(err, "out of memory");
    int lineno = 0;
    bool ok = true;
    for (char *p = copy, *nl; ok && p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        ok = parse_line(sh, p, ++lineno, err);
    }
    free(copy);
    if (ok && !sh->timelines) return text_fail(err, "no score sheet found (a sheet starts with [Timeline 1])");
    return ok;
}

bool sheets_detect(const char *text)
{
    const char *p = text;
    for (;;) {
        /* White space as the reader trims it (trim: isspace). */
        while (isspace((unsigned char)*p)) p++;
        if (!strncmp(p, "[Timeline", 9)) return true;
        bool header = !strncmp(p, "[FEN ", 5) || !strncmp(p, "[Options ", 9) || !strncmp(p, "[Variant ", 9) ||
                      !strncmp(p, "[VariantMode ", 13);
        if (*p != '#' && !header) return false;
        p = strchr(p, '\n');
        if (!p) return false;
    }
}

/* ---- Reading: replaying ------------------------------------------------- */

static bool cell_error(const Cell *c, const char *why, Text *err)
{
    return text_fail(err, "timeline %d, move %d (%s, %s): %s", c->timeline, c->move, color_name(c->side), c->text, why);
}

/* The cell must be the next turn of the game. */
static bool check_turn(const Game *g, const Cell *c, Text *err)
{
    const Board *b = game_board(g);
    if (c->move == b->fullmove && c->side == b->side) return true;
    Text why = TEXT_INIT;
    text_addf(&why, "out of turn: the game is at %s's move %d", color_name(b->side), b->fullmove);
    cell_error(c, text_str(&why), err);
    text_free(&why);
    return false;
}

/* Plays a cell's action; the error names the cell. */
static bool play_cell(Game *g, const Cell *c, Text *err)
{
    Text why = TEXT_INIT;
    bool ok = game_play_text(g, c->text, &why);
    if (!ok) cell_error(c, why.failed ? "out of memory" : text_str(&why), err);
    text_free(&why);
    return ok;
}

/* Text without spaces and annotation marks, for comparing cells. */
static char *squeezed(const char *in)
{
    Text t = TEXT_INIT;
    for (; *in; in++)
        if (!isspace((unsigned char)*in) && !strchr("*!?", *in)) text_add_char(&t, *in);
    return text_take(&t);
}

static bool same_cell_text(const char *a, const char *b)
{
    char *x = squeezed(a), *y = squeezed(b);
    bool same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* Is the cell what the variant writes for a turn without an action, at
 * the end of a game the rules have ended?  ("[K]": a king lost in time.) */
static bool is_no_action(const Game *g, const Cell *c, bool *yes)
{
    Text want = TEXT_INIT;
    bool ok = record_end_cell(g, &want);
    *yes = ok && want.len && same_cell_text(text_str(&want), c->text);
    text_free(&want);
    return ok;
}

/* Joins a departure (the end of the previous sheet) with its arrival cell
 * and plays the whole travel. */
static bool play_travel(Game *g, const Cell *dep, const Cell *arr, Text *err)
{
    Line l;
    line_open(&l, g, game_current(g));
    Text why = TEXT_INIT;
    Move m;
    bool ok = variant_sheet_join(g->variant, &l, dep->text, arr->text, &m, &why);
    line_close(&l);
    if (!ok) {
        /* The arrival cell is the one to look at; the message names the
         * departure it should complete. */
        Text where = TEXT_INIT;
        text_addf(&where, "the other half of '%s' (timeline %d, move %d): %s", dep->text, dep->timeline, dep->move,
                  why.failed ? "out of memory" : text_str(&why));
        cell_error(arr, where.failed ? "out of memory" : text_str(&where), err);
        text_free(&where);
    }
    else if (!game_push(g, m)) ok = text_fail(err, "out of memory");
    text_free(&why);
    return ok;
}

/* A repeated cell: the action recorded at node k of the new timeline's
 * history, or for a node that started a timeline, its arrival half. */
static bool same_as_node(const Game *g, int k, const Cell *c, Text *err)
{
    const Node *node = game_node(g, k);
    const Board *b = &game_node(g, node->parent)->state->board;
    if (c->move != b->fullmove || c->side != b->side) return cell_error(c, "out of turn", err);
    Text want = TEXT_INIT, why = TEXT_INIT;
    bool ok;
    if (node->parent != k - 1) {
        ok = node_text(g, k, SHEET_ARRIVAL, &want);
        if (ok && !same_cell_text(text_str(&want), c->text)) {
            text_addf(&why, "differs from the timeline this sheet branched from (%s)", text_str(&want));
            ok = cell_error(c, text_str(&why), err);
        } else if (!ok) {
            text_fail(err, "out of memory");
        }
    } else {
        Line l;
        line_open(&l, g, node->parent);
        Move m;
        ok = line_parse(&l, c->text, &m, &why);
        line_close(&l);
        if (!ok) cell_error(c, why.failed ? "out of memory" : text_str(&why), err);
        else if (!move_equal(m, node->move)) ok = cell_error(c, "differs from the timeline this sheet branched from", err);
    }
    text_free(&want);
    text_free(&why);
    return ok;
}

/* A later sheet repeats the moves before its branch: each must be the
 * action recorded at that point of the new timeline's history. */
static bool check_shared(const Game *g, const Cell *cells, int n, Text *err)
{
    int *chain = malloc((size_t)game_count(g) * sizeof *chain);
    if (!chain) return text_fail(err, "out of memory");
    int depth = 0;
    for (int i = game_node(g, game_current(g))->parent; i > 0; i = game_node(g, i)->parent) chain[depth++] = i;
    bool ok = true;
    if (n != depth)
        ok = n ? cell_error(&cells[0], "this sheet must repeat every move before the travel back", err)
               : text_fail(err, "timeline %d must repeat the moves before the travel back", game_timelines(g));
    for (int k = 0; ok && k < n; k++) ok = same_as_node(g, chain[depth - 1 - k], &cells[k], err);
    free(chain);
    return ok;
}

/* Plays the cells of one sheet from `first` to `end`; a departure ends the
 * sheet and is left in *pending. */
static bool play_sheet(Game *g, const Sheets *sh, int first, int end, const Cell **pending, Text *err)
{
    for (int k = first; k < end; k++) {
        const Cell *c = &sh->cells[k];
        int move;
        bool no_action;
        if (*pending) return cell_error(c, "a sheet ends with its travel back: nothing may follow", err);
        if (!check_turn(g, c, err)) return false;
        if (variant_sheet_departure(g->variant, c->text, &move)) {
            *pending = c;
            continue;
        }
        if (!is_no_action(g, c, &no_action)) return text_fail(err, "out of memory");
        if (no_action) {
            if (k + 1 < end || c->timeline < sh->timelines) return cell_error(c, "the game ended here; nothing may follow", err);
            continue;
        }
        if (!play_cell(g, c, err)) return false;
    }
    return true;
}

static bool replay(Game *g, const Sheets *sh, Text *err)
{
    const Cell *pending = NULL;
    int i = 0;
    for (int t = 1; t <= sh->timelines; t++) {
        int start = i;
        while (i < sh->count && sh->cells[i].timeline == t) i++;
        int first = start;
        if (t > 1) {
            if (!pending)
                return text_fail(err, "timeline %d follows, but timeline %d does not end with a travel back", t, t - 1);
            /* The arrival half of the travel: the same side's cell at the
             * move the departure names. */
            int m = 0;
            variant_sheet_departure(g->variant, pending->text, &m);
            int a = start;
            while (a < i && !(sh->cells[a].side == pending->side && sh->cells[a].move == m)) a++;
            if (a == i)
                return cell_error(pending, "the next sheet has no cell for the other half of this travel at the move it "
                                  "names", err);
            if (!play_travel(g, pending, &sh->cells[a], err)) return false;
            if (!check_shared(g, sh->cells + start, a - start, err)) return false;
            first = a + 1;
            pending = NULL;
        }
        if (!play_sheet(g, sh, first, i, &pending, err)) return false;
    }
    if (pending) return cell_error(pending, "the sheet for the timeline this travel starts is missing", err);
    return true;
}

bool sheets_read(const char *text, const Variant *variant, const char *options, Game *g, Text *err)
{
    Sheets sh = { 0 };
    memset(g, 0, sizeof *g);
    bool ok = parse_sheets(text, &sh, err);
    RecordStart start = { sh.variant, sh.mode, sh.options, sh.fen };
    if (ok) ok = record_start_game(&start, variant, options, g, err);
    if (ok) ok = replay(g, &sh, err);
    free_sheets(&sh);
    return ok;
}
