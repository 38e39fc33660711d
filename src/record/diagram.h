/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Board diagrams: a position as a standalone SVG document, drawn with the
 * rendering options a correspondence site offers (orientation, scale,
 * piece set, board colours, coordinates).  The document has no scripts
 * and no external references, so it can be served under a strict
 * Content-Security-Policy, shown through <img>, or saved to a file.
 *
 * Besides the board it shows what a game keeps beside it: a piece's mark
 * (Time Traveler's Chess: ' traveling, " traveled) as a small label at
 * the corner of its square; the pockets of a game that has them (Chessgi)
 * as a row of pieces with their counts above and below the board; the
 * side to move as a disc beside the board; and an optional caption.
 *
 * Geometry: the drawing is laid out in units, DIAGRAM_UNIT to a square;
 * square_px only sets the document's width and height, so that every
 * scale draws the same picture.  The board's left edge is at
 * diagram_board_x(st) units and its top at diagram_board_y(v, st) units.
 * The 64 squares are written a1, b1, ..., h8, one <rect> each.
 */
#ifndef TTCHESS_DIAGRAM_H
#define TTCHESS_DIAGRAM_H

#include "variant.h"

enum DiagramSet {
    DIAGRAM_SET_GLYPHS = 0,   /* the Unicode chess glyphs U+265A..U+265F as SVG text      */
    DIAGRAM_SET_LETTERS,      /* K Q R B N P in a disc: light discs for White, dark for Black */
    DIAGRAM_SET_CBURNETT,     /* the web page's default pieces, drawn as SVG paths         */
    DIAGRAM_SETS
};

enum DiagramColors {
    DIAGRAM_COLORS_BROWN = 0,
    DIAGRAM_COLORS_GREEN,
    DIAGRAM_COLORS_BLUE,
    DIAGRAM_COLORS_GREY,
    DIAGRAM_COLORS_COUNT
};

enum {
    DIAGRAM_UNIT = 100,            /* a square in the drawing's own units */
    DIAGRAM_SQUARE_MIN = 16,       /* square_px's range and default       */
    DIAGRAM_SQUARE_MAX = 128,
    DIAGRAM_SQUARE_DEFAULT = 48
};

typedef struct DiagramStyle {
    Color orientation;  /* WHITE: a1 bottom left; BLACK: h8 bottom left            */
    int square_px;      /* size of a square in px, DIAGRAM_SQUARE_MIN..MAX          */
    int piece_set;      /* enum DiagramSet                                          */
    int colors;         /* enum DiagramColors: the light and dark squares' colours  */
    bool coordinates;   /* files a-h and ranks 1-8 along the edges                  */
} DiagramStyle;

/* White at the bottom, 48 px squares, glyphs, brown, coordinates. */
void diagram_style_default(DiagramStyle *st);

/* Read the style's values as a URL query gives them; on a bad one, false
 * with a sentence naming the allowed values (*out is then unchanged).
 * Names are read without regard to case. */
bool diagram_parse_orientation(const char *name, Color *out, Text *err);   /* white, black            */
bool diagram_parse_set(const char *name, int *out, Text *err);             /* glyphs, letters         */
bool diagram_parse_colors(const char *name, int *out, Text *err);          /* brown, green, blue, grey (or gray) */
bool diagram_parse_size(const char *text, int *out, Text *err);            /* 16..128 (px a square)   */
bool diagram_parse_coordinates(const char *name, bool *out, Text *err);    /* on/off, yes/no, true/false, 1/0 */
/* Sets the field a query parameter names ("orientation", "set", "colors",
 * "size", "coordinates") from its value; false with a sentence on an
 * unknown field or a bad value (*st is then unchanged). */
bool diagram_style_set(DiagramStyle *st, const char *field, const char *value, Text *err);

/* Where the board's top left corner lies, in units. */
int diagram_board_x(const DiagramStyle *st);
int diagram_board_y(const Variant *v, const DiagramStyle *st);

/* Appends the position s of variant v (with options o) as a standalone
 * SVG document to out.  `caption` (NULL or "" for none) is a line of
 * text under the board, e.g. "Move 12, timeline 2"; it is escaped, and
 * bytes that are not UTF-8 become '?'.  Values of st out of range are
 * read as the nearest allowed (square_px) or the default.  False only
 * when out of memory. */
bool diagram_svg(const Variant *v, const Options *o, const State *s, const DiagramStyle *st, const char *caption,
                 Text *out);

#endif
