/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Score sheets: one sheet per timeline, as a person keeps them by hand.
 * Each sheet opens with a line "[Timeline N]" and then has lines
 * "N. <white> <black>" (columns separated by a tab, '|' or two or more
 * spaces).  A later sheet repeats the moves it shares with the timeline it
 * branched from.  An action that ends a timeline (Gifford's "K// Back to
 * 2") closes its sheet; its other half ("K [FTF] f8") stands at its move
 * in the next sheet.  '#' starts a comment line.
 */
#ifndef TTCHESS_SHEETS_H
#define TTCHESS_SHEETS_H

#include <stdio.h>

#include "ttchess/game.h"

/* How a score sheet shows an action (Variant.format_sheet's `part`). */
enum SheetPart {
    SHEET_ACTION = 0,   /* an action within one timeline                  */
    SHEET_DEPARTURE,    /* a travel back, where it ends the old sheet     */
    SHEET_ARRIVAL       /* the same travel, where it opens the new sheet  */
};

/* Writes every timeline as a score sheet, in the variant's sheet notation. */
void sheets_write(Game *g, FILE *out);

/* Reads score sheets into a fresh game of `variant` (checking every
 * action, and that each later sheet repeats its shared moves).  On
 * failure writes e.g. "timeline 2, move 5 (white, [P] g5): ..." and
 * returns false; the game must still be freed. */
bool sheets_read(const char *text, const Variant *variant, Game *g, char *err, size_t errlen);

#endif
