/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Score sheets, one per timeline (see sheets.h).  Writing walks each
 * timeline from the first position to its last; reading replays the sheets
 * in order, joining the two halves of each travel back (the end of one
 * sheet and the start of the next) into one action, and checks that a
 * later sheet repeats exactly the moves it shares with the record.
 */
#include "ttchess/sheets.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Writing ------------------------------------------------------------ */

/* The action of node i in sheet notation, formatted in its own position. */
static void node_text(Game *g, int i, int part, char *buf, size_t len)
{
    const Node *n = &g->nodes[i];
    int from = part == SHEET_DEPARTURE ? n->previous : n->parent;
    int was = game_goto(g, from);
    if (g->variant->format_sheet) g->variant->format_sheet(g, n->move, part, buf, len);
    else g->variant->format_human(g, n->move, buf, len);
    game_goto(g, was);
}

/* The first node of timeline t (t >= 2), or -1. */
static int timeline_start(const Game *g, int t)
{
    for (int i = 1; i < g->count; i++)
        if (g->nodes[i].timeline == t && g->nodes[i].parent != g->nodes[i].previous) return i;
    return -1;
}

typedef struct SheetWriter {
    FILE *out;
    int move;          /* move number of the open line, 0 if none */
    bool white_done;   /* the open line has White's column        */
} SheetWriter;

static void sheet_cell(SheetWriter *w, const Board *before, const char *text)
{
    if (w->move && (w->move != before->fullmove || before->side == WHITE)) {
        fputc('\n', w->out);
        w->move = 0;
    }
    if (!w->move) {
        w->move = before->fullmove;
        fprintf(w->out, "%d. ", w->move);
        if (before->side == BLACK) fprintf(w->out, "...");
        w->white_done = before->side == WHITE;
        if (before->side == WHITE) {
            fprintf(w->out, "%s", text);
            return;
        }
    }
    fprintf(w->out, "  |  %s", text);
}

static void sheet_end(SheetWriter *w)
{
    if (w->move) fputc('\n', w->out);
    w->move = 0;
}

void sheets_write(Game *g, FILE *out)
{
    int *chain = malloc((size_t)g->count * sizeof *chain);
    if (!chain) return;
    char text[96];
    for (int t = 1; t <= g->timelines; t++) {
        SheetWriter w = { out, 0, false };
        fprintf(out, "[Timeline %d]\n", t);
        int tip = game_timeline_tip(g, t);
        if (tip < 0) tip = 0;
        int n = 0;
        for (int i = tip; i > 0; i = g->nodes[i].parent) chain[n++] = i;
        for (int k = n - 1; k >= 0; k--) {
            int i = chain[k];
            bool starts = g->nodes[i].parent != g->nodes[i].previous;
            node_text(g, i, starts ? SHEET_ARRIVAL : SHEET_ACTION, text, sizeof text);
            sheet_cell(&w, &g->nodes[g->nodes[i].parent].state.board, text);
        }
        int next = t < g->timelines ? timeline_start(g, t + 1) : -1;
        if (next >= 0) {
            node_text(g, next, SHEET_DEPARTURE, text, sizeof text);
            sheet_cell(&w, &g->nodes[g->nodes[next].previous].state.board, text);
        } else if (t == g->timelines && g->variant->format_sheet && game_outcome(g).result != RESULT_NONE) {
            /* A turn with no action: what the sheet shows for it (Gifford's
             * "[K]" for a king lost in time), if anything. */
            Move none = move_make(SQ_NONE, SQ_NONE, MOVE_NULL, 0, 0);
            g->variant->format_sheet(g, none, SHEET_ACTION, text, sizeof text);
            if (text[0]) sheet_cell(&w, game_board(g), text);
        }
        sheet_end(&w);
    }
    free(chain);
}

/* ---- Reading ------------------------------------------------------------ */

typedef struct Cell {
    int timeline, move;
    Color side;
    char text[96];
    int line;
} Cell;

typedef struct Sheets {
    Cell *cells;
    int count, capacity;
    int timelines;
} Sheets;

__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return false;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static bool add_cell(Sheets *sh, int move, Color side, const char *text, int line, char *err, size_t len)
{
    if (sh->count == sh->capacity) {
        int cap = sh->capacity ? sh->capacity * 2 : 64;
        Cell *c = realloc(sh->cells, (size_t)cap * sizeof *c);
        if (!c) return fail(err, len, "out of memory");
        sh->cells = c;
        sh->capacity = cap;
    }
    Cell *c = &sh->cells[sh->count++];
    c->timeline = sh->timelines;
    c->move = move;
    c->side = side;
    c->line = line;
    snprintf(c->text, sizeof c->text, "%s", text);
    return true;
}

/* Splits the columns of a line: at '|', else at tabs, else at runs of two
 * or more spaces. Returns the number of columns (at most 2 kept). */
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

static bool parse_line(Sheets *sh, char *line, int lineno, char *err, size_t len)
{
    char *s = trim(line);
    if (!*s || *s == '#') return true;
    if (!strncmp(s, "[Timeline", 9)) {
        int t;
        if (sscanf(s + 9, "%d", &t) != 1 || t != sh->timelines + 1)
            return fail(err, len, "line %d: expected [Timeline %d]", lineno, sh->timelines + 1);
        sh->timelines = t;
        return true;
    }
    if (!sh->timelines) return fail(err, len, "line %d: the first sheet must start with [Timeline 1]", lineno);
    char *p = s;
    int move = 0;
    while (isdigit((unsigned char)*p) && move < 100000) move = move * 10 + (*p++ - '0');
    if (p == s || move < 1) return fail(err, len, "line %d: a sheet line starts with its move number, e.g. '12. Nf3  |  Nc6'", lineno);
    int dots = 0;
    while (*p == '.') p++, dots++;
    char *cols[3];
    int n = split_columns(p, cols);
    if (n > 2) return fail(err, len, "line %d: a sheet line has at most two columns (White, Black)", lineno);
    bool black_only = dots >= 3 && n == 1;
    if (black_only) return empty_cell(cols[0]) || add_cell(sh, move, BLACK, cols[0], lineno, err, len);
    if (!empty_cell(cols[0]) && !add_cell(sh, move, WHITE, cols[0], lineno, err, len)) return false;
    if (n == 2 && !empty_cell(cols[1]) && !add_cell(sh, move, BLACK, cols[1], lineno, err, len)) return false;
    return true;
}

static bool parse_sheets(const char *text, Sheets *sh, char *err, size_t len)
{
    char *copy = strdup(text);
    if (!copy) return fail(err, len, "out of memory");
    int lineno = 0;
    bool ok = true;
    for (char *p = copy, *nl; ok && p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        ok = parse_line(sh, p, ++lineno, err, len);
    }
    free(copy);
    if (ok && !sh->timelines) return fail(err, len, "no score sheet found (a sheet starts with [Timeline 1])");
    return ok;
}

static bool is_departure(const char *text)
{
    char s[96];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof s; p++)
        if (!isspace((unsigned char)*p)) s[n++] = (char)tolower((unsigned char)*p);
    s[n] = 0;
    return s[0] == 'k' && strstr(s, "//back");
}

/* Reads "K// Back to 2" or "K(e8)// Back to 2": the king's square (SQ_NONE
 * if not given) and the move. */
static bool read_departure(const char *text, Square *king, int *move)
{
    const char *p = strchr(text, '(');
    const char *slash = strstr(text, "//");
    *king = (p && p < slash) ? square_parse(p + 1) : SQ_NONE;
    const char *to = strstr(slash, "to");
    if (!to) to = strstr(slash, "To");
    return to && sscanf(to + 2, "%d", move) == 1;
}

static bool is_bare_arrival(const char *text)
{
    char s[96];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof s; p++)
        if (!isspace((unsigned char)*p) && !strchr("*!?+#", *p)) s[n++] = *p;
    s[n] = 0;
    return s[0] == '[' && s[n - 1] == ']' && n <= 4;
}

static bool cell_error(const Cell *c, const char *why, char *err, size_t len)
{
    return fail(err, len, "timeline %d, move %d (%s, %s): %s", c->timeline, c->move, color_name(c->side), c->text, why);
}

/* The cell must be the next turn of the game. */
static bool check_turn(const Game *g, const Cell *c, char *err, size_t len)
{
    const Board *b = game_board(g);
    if (c->move == b->fullmove && c->side == b->side) return true;
    char why[96];
    snprintf(why, sizeof why, "out of turn: the game is at %s's move %d", color_name(b->side), b->fullmove);
    return cell_error(c, why, err, len);
}

/* Joins a departure ("K// Back to M" at the end of the previous sheet) with
 * its arrival cell ("K [FTF] f8") and plays the whole travel. */
static bool play_travel_back(Game *g, const Cell *dep, const Cell *arr, char *err, size_t len)
{
    Square king, to;
    int m;
    if (!read_departure(dep->text, &king, &m)) return cell_error(dep, "expected e.g. K// Back to 4", err, len);
    if (arr->move != m || arr->side != dep->side) {
        char why[128];
        snprintf(why, sizeof why, "the next sheet must go on with %s's king from the future at move %d",
                 color_name(dep->side), m);
        return cell_error(dep, why, err, len);
    }
    const char *sq = arr->text + strlen(arr->text);
    while (sq > arr->text && !(sq[-1] >= '1' && sq[-1] <= '8' && sq - 1 > arr->text && sq[-2] >= 'a' && sq[-2] <= 'h')) sq--;
    to = sq - 2 >= arr->text ? square_parse(sq - 2) : SQ_NONE;
    if (to == SQ_NONE) return cell_error(arr, "expected the king's square, e.g. K [FTF] f8", err, len);
    const Board *b = game_board(g);
    if (king == SQ_NONE) {
        Bitboard k = board_kings(b, b->side);
        if (!k) return cell_error(dep, "there is no king to travel back", err, len);
        if (k & (k - 1)) return cell_error(dep, "several kings could travel: write K(e8)// Back to N", err, len);
        king = (Square)__builtin_ctzll(k);
    }
    char action[32], from[3], dest[3], why[200];
    square_name(king, from);
    square_name(to, dest);
    snprintf(action, sizeof action, "K%s<%d@%s", from, m, dest);
    if (!game_play_text(g, action, why, sizeof why)) return cell_error(dep, why, err, len);
    return true;
}

/* Text without spaces and annotation marks, for comparing cells. */
static void squeeze(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; *in && n + 1 < len; in++)
        if (!isspace((unsigned char)*in) && !strchr("*!?", *in)) out[n++] = *in;
    out[n] = 0;
}

/* A repeated cell where an earlier travel back landed ("K [FTF] f8") must
 * show that same landing. */
static bool same_arrival(Game *g, int node, const Cell *c, char *err, size_t len)
{
    char want[96], a[96], b[96];
    node_text(g, node, SHEET_ARRIVAL, want, sizeof want);
    squeeze(want, a, sizeof a);
    squeeze(c->text, b, sizeof b);
    if (!strcmp(a, b)) return true;
    char why[160];
    snprintf(why, sizeof why, "differs from the timeline this sheet branched from (%s)", want);
    return cell_error(c, why, err, len);
}

/* A later sheet repeats the moves before its branch: each must be the
 * action recorded at that point of the new timeline's history. */
static bool check_shared(Game *g, const Cell *cells, int n, char *err, size_t len)
{
    int *chain = malloc((size_t)g->count * sizeof *chain);
    if (!chain) return fail(err, len, "out of memory");
    int depth = 0;
    for (int i = g->nodes[g->current].parent; i > 0; i = g->nodes[i].parent) chain[depth++] = i;
    bool ok = true;
    if (n != depth) {
        ok = n ? cell_error(&cells[0], "this sheet must repeat every move before the travel back", err, len)
               : fail(err, len, "timeline %d must repeat the moves before the travel back", g->timelines);
    }
    for (int k = 0; ok && k < n; k++) {
        int node = chain[depth - 1 - k];
        int was = game_goto(g, g->nodes[node].parent);
        Move m;
        char why[200];
        const Board *b = game_board(g);
        if (cells[k].move != b->fullmove || cells[k].side != b->side) ok = cell_error(&cells[k], "out of turn", err, len);
        else if (g->nodes[node].parent != g->nodes[node].previous) ok = same_arrival(g, node, &cells[k], err, len);
        else if (!g->variant->parse_move(g, cells[k].text, &m, why, sizeof why)) ok = cell_error(&cells[k], why, err, len);
        else if (!move_equal(m, g->nodes[node].move))
            ok = cell_error(&cells[k], "differs from the timeline this sheet branched from", err, len);
        game_goto(g, was);
    }
    free(chain);
    return ok;
}

static bool replay(Game *g, const Sheets *sh, char *err, size_t len)
{
    const Cell *pending = NULL;
    int i = 0;
    for (int t = 1; t <= sh->timelines; t++) {
        int start = i;
        while (i < sh->count && sh->cells[i].timeline == t) i++;
        int first = start;
        if (t > 1) {
            if (!pending) return fail(err, len, "timeline %d follows, but timeline %d does not end with a king going back", t, t - 1);
            /* The arrival half of the travel: the same side's cell at the
             * move the king went back to. */
            Square king;
            int m = 0;
            read_departure(pending->text, &king, &m);
            int a = start;
            while (a < i && !(sh->cells[a].side == pending->side && sh->cells[a].move == m)) a++;
            if (a == i) return cell_error(pending, "the next sheet has no K [FTF] placement for this king at the move it went back to", err, len);
            if (!play_travel_back(g, pending, &sh->cells[a], err, len)) return false;
            if (!check_shared(g, sh->cells + start, a - start, err, len)) return false;
            first = a + 1;
            pending = NULL;
        }
        for (int k = first; k < i; k++) {
            const Cell *c = &sh->cells[k];
            if (pending) return cell_error(c, "a sheet ends with its king going back: nothing may follow", err, len);
            if (!check_turn(g, c, err, len)) return false;
            if (is_departure(c->text)) {
                pending = c;
                continue;
            }
            char why[200];
            if (is_bare_arrival(c->text) && game_outcome(g).result != RESULT_NONE) {
                if (k + 1 < i) return cell_error(c, "the game ended here; nothing may follow", err, len);
                continue;
            }
            if (!game_play_text(g, c->text, why, sizeof why)) return cell_error(c, why, err, len);
        }
    }
    if (pending) return cell_error(pending, "the sheet for the timeline this king starts is missing", err, len);
    return true;
}

bool sheets_read(const char *text, const Variant *variant, Game *g, char *err, size_t errlen)
{
    Sheets sh = { 0 };
    if (!game_init(g, variant, NULL, err, errlen)) return false;
    bool ok = parse_sheets(text, &sh, err, errlen) && replay(g, &sh, err, errlen);
    free(sh.cells);
    return ok;
}
