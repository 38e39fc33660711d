/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PGN: the game file of every variant.  Movetext lists every action in the
 * order played, in the variant's human notation; an action that travels
 * back starts a new timeline by itself when replayed, and the writer marks
 * it with a comment {Timeline N}.  Move numbers in movetext are read and
 * ignored (after a travel back they go down).  Comments, NAGs and
 * variations are skipped on import (variations are not imported; they
 * may nest to any depth).  docs/notation.md describes the format.
 */
#ifndef TTCHESS_PGN_H
#define TTCHESS_PGN_H

#include <stdio.h>

#include "ttchess/game.h"

enum { PGN_MAX_TAGS = 32 };

typedef struct PgnTag {
    char name[32];
    char value[256];
} PgnTag;

typedef struct PgnHeader {
    int count;
    PgnTag tags[PGN_MAX_TAGS];
} PgnHeader;

/* Tag value, or NULL if absent. */
const char *pgn_tag(const PgnHeader *h, const char *name);
/* Sets (adds or replaces) a tag.  A header holds PGN_MAX_TAGS tags: a new
 * tag beyond that is dropped; values are cut at 255 characters. */
void pgn_set_tag(PgnHeader *h, const char *name, const char *value);

/* Reads the first game of `text`.  The variant comes from the [Variant]
 * tag (a variant's title or name; standard chess when absent), or is
 * `force` when not NULL; the start from [FEN].  Every action is checked.
 * On failure writes e.g. "move 7 (Nf6): no knight can reach f6" and
 * returns false; the game then holds what was read before the error and
 * must still be freed.  `next` (may be NULL) receives where the following
 * game begins (just after the result token, or at the next tag pair; the
 * end of `text` when there is no more; where reading stopped on failure).
 * A decisive or drawn [Result] the rules do not reach (a resignation,
 * say) is kept as the game's declared outcome, with the reason from
 * [Termination] when given ("result recorded in the game file"
 * otherwise).  The movetext's result token, when not "*", must agree with
 * [Result]; a recorded result that contradicts the rules' own (1-0 after
 * Black mated) is an error.  `h` may be NULL.  A text with neither tags
 * nor movetext is an error ("no game found"). */
bool pgn_read(const char *text, const Variant *force, Game *g, PgnHeader *h, const char **next, char *err,
              size_t errlen);

/* Writes the game: the Seven Tag Roster (from h where given, "?"
 * otherwise), [Variant] for a variant other than chess, [FEN]/[SetUp]
 * when the game did not start from the variant's start position,
 * [Termination] for a declared result, then the movetext, wrapped at 80
 * columns, and an empty line.  Each action is written in the position
 * where it was played (a travel back: in the position it left).  A
 * "both lose" result is written [Result "0-0"] with the token "*" (PGN
 * has no token for it).  `h` may be NULL. */
void pgn_write(Game *g, const PgnHeader *h, FILE *out);

#endif
