/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Board diagrams as SVG (see diagram.h).  The drawing is laid out in
 * fixed units, DIAGRAM_UNIT to a square, and only the document's width
 * and height follow the chosen scale: every number written is an integer
 * printed without the C locale's help, so a program that sets a locale
 * with a decimal comma still writes a valid document.
 *
 * Everything the library knows nothing about is read through the
 * variant: a piece's mark through piece_mark, and the pockets from the
 * variant's FEN, whose first field ends with them between brackets
 * ("...RNBQKBNR[QNp]") in every game that has them.
 */
#include "diagram.h"

#include "diagram_cburnett.h"

#include <stdlib.h>
#include <string.h>

/* ---- Layout, in units --------------------------------------------------- */

enum {
    SQ = DIAGRAM_UNIT,
    BOARD = 8 * SQ,
    PAD = 10,           /* blank around the whole drawing                    */
    COORD = 40,         /* the band of rank labels (left) and file labels (below) */
    MARKER = 40,        /* the band right of the board with the side-to-move disc */
    POCKET_ROW = SQ,    /* a pocket: one row of pieces on a tray                  */
    POCKET_GAP = 10,    /* between a pocket and the board or its labels           */
    POCKET_CELL = 150,  /* a pocket piece and its count                           */
    CAPTION = 50        /* the caption's line                                     */
};

typedef struct Layout {
    int board_x, board_y;      /* the board's top left corner            */
    int pocket_y[2];           /* each side's pocket row, or -1 for none */
    int caption_y;             /* the caption's baseline, or -1          */
    int width, height;
} Layout;

/* ---- The look ----------------------------------------------------------- */

static const struct {
    const char *name;
    const char *light, *dark;
} COLORS[DIAGRAM_COLORS_COUNT] = {
    [DIAGRAM_COLORS_BROWN] = { "brown", "#f0d9b5", "#b58863" },
    [DIAGRAM_COLORS_GREEN] = { "green", "#eeeed2", "#769656" },
    [DIAGRAM_COLORS_BLUE] = { "blue", "#dee3e6", "#8ca2ad" },
    [DIAGRAM_COLORS_GREY] = { "grey", "#e4e4e4", "#a9a9a9" },
};

static const char *const SET_NAMES[DIAGRAM_SETS] = { "glyphs", "letters", "cburnett" };
static const char *const ORIENTATION_NAMES[2] = { "white", "black" };

/* The filled glyphs U+265A..U+265F for both sides, by piece type; White's
 * are filled white and outlined, which reads on light and dark squares
 * alike and needs no second glyph to line up with the first.  The pawn is
 * the one chess glyph that is also an emoji, so it asks for the text form
 * (U+FE0E), else some systems draw a coloured picture. */
static const char *const GLYPHS[7] = {
    [PAWN] = "\xE2\x99\x9F\xEF\xB8\x8E", [KNIGHT] = "\xE2\x99\x9E", [BISHOP] = "\xE2\x99\x9D",
    [ROOK] = "\xE2\x99\x9C",             [QUEEN] = "\xE2\x99\x9B",  [KING] = "\xE2\x99\x9A",
};

/* Light and dark ink: White's pieces are light with dark lines, Black's
 * the other way round. */
static const char *const INK_LIGHT = "#fff", *const INK_DARK = "#111";

/* The order a pocket is shown in, as the FEN writes it. */
static const PieceType POCKET_ORDER[] = { QUEEN, ROOK, BISHOP, KNIGHT, PAWN };

/* ---- Styles ------------------------------------------------------------- */

void diagram_style_default(DiagramStyle *st)
{
    st->orientation = WHITE;
    st->square_px = DIAGRAM_SQUARE_DEFAULT;
    st->piece_set = DIAGRAM_SET_GLYPHS;
    st->colors = DIAGRAM_COLORS_BROWN;
    st->coordinates = true;
}

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        if (ca != *b) return false;
    }
    return *a == *b;
}

/* A value is repeated in an error only when it is short plain ASCII, so
 * that the sentence stays readable and valid UTF-8 wherever it goes. */
static void add_value(Text *err, const char *value)
{
    size_t n = strlen(value);
    for (size_t i = 0; i < n; i++)
        if (value[i] < ' ' || value[i] > '~' || value[i] == '\'') return;
    if (n && n <= 32) text_addf(err, " '%s'", value);
}

/* "bad colors 'pink': use brown, green, blue or grey". */
static bool name_refused(Text *err, const char *what, const char *value, const char *const *names, int count,
                         const char *more)
{
    text_clear(err);
    text_addf(err, "bad %s", what);
    add_value(err, value);
    text_add(err, ": use ");
    for (int i = 0; i < count; i++) text_addf(err, "%s%s", i == 0 ? "" : i == count - 1 ? " or " : ", ", names[i]);
    text_add(err, more);
    return false;
}

/* The index of name in names, or -1. */
static int find_name(const char *name, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (same_name(name, names[i])) return i;
    return -1;
}

bool diagram_parse_orientation(const char *name, Color *out, Text *err)
{
    int i = find_name(name ? name : "", ORIENTATION_NAMES, 2);
    if (i < 0) return name_refused(err, "orientation", name ? name : "", ORIENTATION_NAMES, 2, "");
    *out = i == 0 ? WHITE : BLACK;
    return true;
}

bool diagram_parse_set(const char *name, int *out, Text *err)
{
    int i = find_name(name ? name : "", SET_NAMES, DIAGRAM_SETS);
    if (i < 0) return name_refused(err, "piece set", name ? name : "", SET_NAMES, DIAGRAM_SETS, "");
    *out = i;
    return true;
}

bool diagram_parse_colors(const char *name, int *out, Text *err)
{
    static const char *const names[DIAGRAM_COLORS_COUNT] = { "brown", "green", "blue", "grey" };
    const char *n = name ? name : "";
    int i = same_name(n, "gray") ? DIAGRAM_COLORS_GREY : find_name(n, names, DIAGRAM_COLORS_COUNT);
    if (i < 0) return name_refused(err, "colors", n, names, DIAGRAM_COLORS_COUNT, "");
    *out = i;
    return true;
}

bool diagram_parse_size(const char *text, int *out, Text *err)
{
    const char *t = text ? text : "";
    int value = 0;
    size_t n = strlen(t);
    bool ok = n > 0 && n <= 4;
    for (size_t i = 0; ok && i < n; i++) {
        ok = t[i] >= '0' && t[i] <= '9';
        value = value * 10 + (t[i] - '0');
    }
    if (!ok || value < DIAGRAM_SQUARE_MIN || value > DIAGRAM_SQUARE_MAX) {
        text_clear(err);
        text_add(err, "bad size");
        add_value(err, t);
        text_addf(err, ": use a whole number of px a square from %d to %d", DIAGRAM_SQUARE_MIN, DIAGRAM_SQUARE_MAX);
        return false;
    }
    *out = value;
    return true;
}

bool diagram_parse_coordinates(const char *name, bool *out, Text *err)
{
    static const char *const names[] = { "on", "off", "yes", "no", "true", "false", "1", "0" };
    int i = find_name(name ? name : "", names, 8);
    if (i < 0) return name_refused(err, "coordinates", name ? name : "", names, 2, " (or yes/no, true/false, 1/0)");
    *out = i % 2 == 0;
    return true;
}

bool diagram_style_set(DiagramStyle *st, const char *field, const char *value, Text *err)
{
    static const char *const fields[] = { "orientation", "set", "colors", "size", "coordinates" };
    DiagramStyle next = *st;
    bool ok;
    switch (find_name(field ? field : "", fields, 5)) {
    case 0: ok = diagram_parse_orientation(value, &next.orientation, err); break;
    case 1: ok = diagram_parse_set(value, &next.piece_set, err); break;
    case 2: ok = diagram_parse_colors(value, &next.colors, err); break;
    case 3: ok = diagram_parse_size(value, &next.square_px, err); break;
    case 4: ok = diagram_parse_coordinates(value, &next.coordinates, err); break;
    default: return name_refused(err, "diagram option", field ? field : "", fields, 5, "");
    }
    if (ok) *st = next;
    return ok;
}

/* ---- Reading the position ----------------------------------------------- */

/* Counts the pockets' letters in a FEN whose first field ends with them
 * between brackets, White's in capitals; false if it has no brackets. */
static bool read_pockets(const char *fen, int count[2][7])
{
    memset(count, 0, sizeof(int[2][7]));
    size_t field = strcspn(fen, " ");
    const char *open = memchr(fen, '[', field);
    if (!open) return false;
    for (const char *c = open + 1; c < fen + field && *c != ']'; c++) {
        PieceType t = piece_type_from_letter(*c);
        if (t != NO_TYPE) count[*c >= 'a' ? BLACK : WHITE][t]++;
    }
    return true;
}

static bool has_pockets(const Variant *v)
{
    int count[2][7];
    return v->start_fen && read_pockets(v->start_fen, count);
}

/* Style values out of range are read as the nearest allowed, or the
 * default, so that drawing never fails on them. */
static DiagramStyle checked_style(const DiagramStyle *st)
{
    DiagramStyle c = *st;
    if (c.square_px < DIAGRAM_SQUARE_MIN) c.square_px = DIAGRAM_SQUARE_MIN;
    if (c.square_px > DIAGRAM_SQUARE_MAX) c.square_px = DIAGRAM_SQUARE_MAX;
    if (c.piece_set < 0 || c.piece_set >= DIAGRAM_SETS) c.piece_set = DIAGRAM_SET_GLYPHS;
    if (c.colors < 0 || c.colors >= DIAGRAM_COLORS_COUNT) c.colors = DIAGRAM_COLORS_BROWN;
    c.orientation = c.orientation == WHITE ? WHITE : BLACK;
    return c;
}

/* From the top: the pocket of the side at the top, the board, the file
 * labels, the pocket of the side at the bottom, the caption. */
static Layout layout(const DiagramStyle *st, bool pockets, bool caption)
{
    Layout l;
    int coord = st->coordinates ? COORD : 0;
    Color top = st->orientation == WHITE ? BLACK : WHITE;
    int y = PAD;
    l.pocket_y[0] = l.pocket_y[1] = -1;
    if (pockets) {
        l.pocket_y[top] = y;
        y += POCKET_ROW + POCKET_GAP;
    }
    l.board_x = PAD + coord;
    l.board_y = y;
    y += BOARD + coord;
    if (pockets) {
        l.pocket_y[!top] = y + POCKET_GAP;
        y += POCKET_GAP + POCKET_ROW;
    }
    l.caption_y = caption ? y + 36 : -1;
    if (caption) y += CAPTION;
    l.width = l.board_x + BOARD + MARKER + PAD;
    l.height = y + PAD;
    return l;
}

int diagram_board_x(const DiagramStyle *st)
{
    DiagramStyle c = checked_style(st);
    return layout(&c, false, false).board_x;
}

int diagram_board_y(const Variant *v, const DiagramStyle *st)
{
    DiagramStyle c = checked_style(st);
    return layout(&c, has_pockets(v), false).board_y;
}

/* ---- Writing ------------------------------------------------------------ */

/* The length of the well-formed UTF-8 character at s that XML allows, or
 * 0 if there is none there. */
static size_t utf8_char(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;   /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    /* U+FFFE and U+FFFF are not characters XML admits. */
    if (c == 0xEF && s[1] == 0xBF && s[2] >= 0xBE) return 0;
    return n;
}

/* Writes text as XML character data: the five special characters as
 * entities, control characters as spaces and bytes that are not UTF-8 as
 * '?', so that no caption can break the document. */
static void add_escaped(Text *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t n;
        switch (*s) {
        case '&': text_add(out, "&amp;"); break;
        case '<': text_add(out, "&lt;"); break;
        case '>': text_add(out, "&gt;"); break;
        case '"': text_add(out, "&quot;"); break;
        case '\'': text_add(out, "&apos;"); break;
        default:
            if (*s < 0x80) {
                text_add_char(out, *s < ' ' ? ' ' : (char)*s);
            } else if ((n = utf8_char(s)) != 0) {
                text_add_n(out, (const char *)s, n);
                s += n;
                continue;
            } else {
                text_add_char(out, '?');
            }
        }
        s++;
    }
}

/* A length in px: units * square_px / DIAGRAM_UNIT, with decimals only
 * when it has them, written without printf's locale. */
static void add_px(Text *out, int units, int square_px)
{
    int hundredths = units * square_px * 100 / DIAGRAM_UNIT;
    int cents = hundredths % 100;
    text_addf(out, "%d", hundredths / 100);
    if (cents % 10) text_addf(out, ".%02d", cents);
    else if (cents) text_addf(out, ".%d", cents / 10);
}

/* A piece in the 100-unit cell whose top left corner is (x, y). */
static void add_piece(Text *out, int set, Piece p, int x, int y)
{
    bool white = piece_color(p) == WHITE;
    PieceType t = piece_type(p);
    if (set == DIAGRAM_SET_CBURNETT) {
        /* A drawing of its own, 45 units square as the pieces were drawn,
         * stretched over the cell: no fraction to print. */
        text_addf(out, "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" viewBox=\"0 0 45 45\">%s</svg>", x, y, SQ,
                  SQ, white ? CBURNETT_WHITE[t] : CBURNETT_BLACK[t]);
    } else if (set == DIAGRAM_SET_LETTERS) {
        text_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"38\" fill=\"%s\" stroke=\"#111\"/>", x + SQ / 2, y + SQ / 2,
                  white ? INK_LIGHT : INK_DARK);
        text_addf(out, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%c</text>", x + SQ / 2, y + 67,
                  white ? INK_DARK : INK_LIGHT, piece_letter(t));
    } else {
        text_addf(out, "<text x=\"%d\" y=\"%d\"%s>%s</text>", x + SQ / 2, y + 87,
                  white ? " fill=\"#fff\" stroke=\"#111\"" : "", GLYPHS[t]);
    }
}

/* Opens the group of attributes that every piece of the set shares. */
static void open_pieces(Text *out, int set)
{
    if (set == DIAGRAM_SET_CBURNETT)
        text_add(out, "<g>");
    else if (set == DIAGRAM_SET_LETTERS)
        text_add(out, "<g font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\" font-weight=\"bold\" font-size=\"50\" "
                      "text-anchor=\"middle\" stroke-width=\"4\">");
    else
        text_add(out, "<g font-family=\"'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols 2',FreeSerif,serif\" "
                      "font-size=\"100\" text-anchor=\"middle\" fill=\"#111\" stroke-width=\"4\" "
                      "stroke-linejoin=\"round\" paint-order=\"stroke\">");
}

/* Where square sq's top left corner lies. */
static void square_at(const Layout *l, Color orientation, Square sq, int *x, int *y)
{
    int col = orientation == WHITE ? square_file(sq) : 7 - square_file(sq);
    int row = orientation == WHITE ? 7 - square_rank(sq) : square_rank(sq);
    *x = l->board_x + col * SQ;
    *y = l->board_y + row * SQ;
}

static void add_squares(Text *out, const Layout *l, const DiagramStyle *st)
{
    for (int sq = 0; sq < 64; sq++) {
        int x, y;
        square_at(l, st->orientation, (Square)sq, &x, &y);
        bool light = (square_file((Square)sq) + square_rank((Square)sq)) % 2 == 1;
        text_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x, y, SQ, SQ,
                  light ? COLORS[st->colors].light : COLORS[st->colors].dark);
    }
}

static void add_coordinates(Text *out, const Layout *l, const DiagramStyle *st)
{
    text_add(out, "<g font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\" font-size=\"30\" fill=\"#444\" "
                  "text-anchor=\"middle\">");
    for (int i = 0; i < 8; i++) {
        int col = st->orientation == WHITE ? i : 7 - i;
        int row = st->orientation == WHITE ? 7 - i : i;
        text_addf(out, "<text x=\"%d\" y=\"%d\">%c</text>", l->board_x + col * SQ + SQ / 2,
                  l->board_y + BOARD + 31, 'a' + i);
        text_addf(out, "<text x=\"%d\" y=\"%d\">%c</text>", l->board_x - COORD / 2, l->board_y + row * SQ + SQ / 2 + 11,
                  '1' + i);
    }
    text_add(out, "</g>");
}

/* Each piece on the board, then the marks over them. */
static void add_board_pieces(Text *out, const Layout *l, const Variant *v, const State *s, const DiagramStyle *st)
{
    open_pieces(out, st->piece_set);
    for (int sq = 0; sq < 64; sq++) {
        Piece p = s->board.squares[sq];
        if (p == NO_PIECE) continue;
        int x, y;
        square_at(l, st->orientation, (Square)sq, &x, &y);
        add_piece(out, st->piece_set, p, x, y);
    }
    text_add(out, "</g>");
    bool open = false;
    for (int sq = 0; sq < 64; sq++) {
        char mark = s->board.squares[sq] != NO_PIECE ? variant_piece_mark(v, s, (Square)sq) : 0;
        if (!mark) continue;
        if (!open)
            text_add(out, "<g font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\" font-weight=\"bold\" "
                          "font-size=\"48\" text-anchor=\"middle\">");
        open = true;
        int x, y;
        square_at(l, st->orientation, (Square)sq, &x, &y);
        char text[2] = { mark, 0 };
        text_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"20\" fill=\"#fff\" stroke=\"#c00\" stroke-width=\"4\"/>",
                  x + 78, y + 22);
        text_addf(out, "<text x=\"%d\" y=\"%d\" fill=\"#c00\">", x + 78, y + 50);
        add_escaped(out, text);
        text_add(out, "</text>");
    }
    if (open) text_add(out, "</g>");
}

/* Each side's pocket: a tray with every type it holds and its count. */
static void add_pockets(Text *out, const Layout *l, const DiagramStyle *st, int count[2][7])
{
    for (Color c = WHITE; c <= BLACK; c++)
        text_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"8\" fill=\"#f2f2f2\" stroke=\"#ccc\" "
                       "stroke-width=\"2\"/>",
                  l->board_x, l->pocket_y[c], BOARD, POCKET_ROW);
    open_pieces(out, st->piece_set);
    for (Color c = WHITE; c <= BLACK; c++) {
        int x = l->board_x + 10;
        for (size_t k = 0; k < sizeof POCKET_ORDER / sizeof *POCKET_ORDER; k++) {
            if (!count[c][POCKET_ORDER[k]]) continue;
            add_piece(out, st->piece_set, make_piece(c, POCKET_ORDER[k]), x, l->pocket_y[c]);
            x += POCKET_CELL;
        }
    }
    text_add(out, "</g><g font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\" font-size=\"32\" fill=\"#222\">");
    for (Color c = WHITE; c <= BLACK; c++) {
        int x = l->board_x + 10;
        for (size_t k = 0; k < sizeof POCKET_ORDER / sizeof *POCKET_ORDER; k++) {
            int n = count[c][POCKET_ORDER[k]];
            if (!n) continue;
            /* U+00D7, the multiplication sign. */
            text_addf(out, "<text x=\"%d\" y=\"%d\">\xC3\x97%d</text>", x + SQ, l->pocket_y[c] + 78, n);
            x += POCKET_CELL;
        }
    }
    text_add(out, "</g>");
}

/* A disc of the mover's colour beside the mover's side of the board. */
static void add_side_to_move(Text *out, const Layout *l, const DiagramStyle *st, Color side)
{
    int y = l->board_y + (side == st->orientation ? BOARD - SQ / 2 : SQ / 2);
    text_addf(out,
              "<circle cx=\"%d\" cy=\"%d\" r=\"14\" fill=\"%s\" stroke=\"#111\" stroke-width=\"3\">"
              "<title>%s to move</title></circle>",
              l->board_x + BOARD + MARKER / 2, y, side == WHITE ? INK_LIGHT : INK_DARK,
              side == WHITE ? "White" : "Black");
}

bool diagram_svg(const Variant *v, const Options *o, const State *s, const DiagramStyle *style, const char *caption,
                 Text *out)
{
    DiagramStyle st = checked_style(style);
    bool captioned = caption && *caption;
    int count[2][7] = { { 0 } };
    bool pockets = has_pockets(v);
    if (pockets) {
        Text fen = TEXT_INIT;
        v->to_fen(o, s, &fen);
        bool ok = !fen.failed;
        if (ok) read_pockets(text_str(&fen), count);
        text_free(&fen);
        if (!ok) return false;
    }
    Layout l = layout(&st, pockets, captioned);

    text_add(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
    add_px(out, l.width, st.square_px);
    text_add(out, "\" height=\"");
    add_px(out, l.height, st.square_px);
    text_addf(out, "\" viewBox=\"0 0 %d %d\">\n<title>", l.width, l.height);
    add_escaped(out, v->title);
    if (captioned) {
        text_add(out, ": ");
        add_escaped(out, caption);
    }
    text_addf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", l.width, l.height);
    add_squares(out, &l, &st);
    text_add_char(out, '\n');
    if (st.coordinates) {
        add_coordinates(out, &l, &st);
        text_add_char(out, '\n');
    }
    add_board_pieces(out, &l, v, s, &st);
    text_add_char(out, '\n');
    if (pockets) {
        add_pockets(out, &l, &st, count);
        text_add_char(out, '\n');
    }
    add_side_to_move(out, &l, &st, s->board.side);
    text_add_char(out, '\n');
    if (captioned) {
        text_addf(out,
                  "<text x=\"%d\" y=\"%d\" font-family=\"DejaVu Sans,Arial,Helvetica,sans-serif\" font-size=\"34\" "
                  "fill=\"#222\" text-anchor=\"middle\">",
                  l.width / 2, l.caption_y);
        add_escaped(out, caption);
        text_add(out, "</text>\n");
    }
    text_add(out, "</svg>\n");
    return !out->failed;
}
