/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Score sheets: one sheet per timeline, as a person keeps them by hand.
 * Each sheet opens with a line "[Timeline N]" and then has lines
 * "N. <white> <black>" (columns separated by a tab, '|' or two or more
 * spaces).  A later sheet repeats the moves it shares with the timeline it
 * branched from.  An action that ends a timeline (Gifford's "K// Back to
 * 2") closes its sheet; its other half ("K [FTF] f8") stands at its move
 * in the next sheet; the variant reads and writes both halves.  '#'
 * starts a comment line.  Before the first sheet, lines [FEN "..."],
 * [Options "..."] and [Variant "..."] may give the start position, the
 * rule options and the game.
 */
#ifndef TTCHESS_SHEETS_H
#define TTCHESS_SHEETS_H

#include "game.h"

/* Writes every timeline as a score sheet, in the variant's sheet
 * notation, after [FEN] and [Options] lines where the game needs them.
 * False only when out of memory. */
bool sheets_write(const Game *g, Text *out);

/* Reads score sheets into a new game (checking every action, and that
 * each later sheet repeats its shared moves).  The game is `variant` if
 * not NULL, else the one a [Variant] line names, else standard chess; its
 * options are those of an [Options] line with `options` ("name=value
 * ...", may be NULL) on top.  On failure writes e.g. "timeline 2, move 5
 * (white, [P] g5): ..." and returns false; the game must still be freed. */
bool sheets_read(const char *text, const Variant *variant, const char *options, Game *g, Text *err);

/* Does the text look like score sheets rather than PGN (after comments,
 * blank lines and header lines, a "[Timeline" line)? */
bool sheets_detect(const char *text);

#endif
