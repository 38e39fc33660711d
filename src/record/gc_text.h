/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the move log (gc_log.c) shares with the reader of one action in
 * Game Courier notation (gc.c): where a text's comment starts and where
 * its white space ends, read the same way by both.  Private to src/record.
 */
#ifndef TTCHESS_GC_TEXT_H
#define TTCHESS_GC_TEXT_H

/* The first character of [p, end) that is not white space (end if none). */
const char *gc_skip_spaces(const char *p, const char *end);

/* Where the text's comment starts: "//" at its start or after white
 * space; the end of the text if it has none. */
const char *gc_comment_start(const char *text);

#endif
