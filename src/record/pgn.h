/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PGN: the game file of every variant.  Movetext lists every action in the
 * order played, in the variant's human notation; an action that travels
 * back starts a new timeline by itself when replayed, and the writer marks
 * it with a comment {Timeline N}.  Move numbers in movetext are read and
 * ignored (after a travel back they go down).  Variations are skipped on
 * import (they may nest to any depth); comments and NAGs are skipped too,
 * or kept by pgn_read_notes.  docs/notation.md describes the format.
 */
#ifndef TTCHESS_PGN_H
#define TTCHESS_PGN_H

#include "game.h"

typedef struct PgnTag {
    char *name;
    char *value;
} PgnTag;

/* The tags of a game, as many as it has, each as long as it is. */
typedef struct PgnHeader {
    PgnTag *tags;
    int count, capacity;
} PgnHeader;

void pgn_header_init(PgnHeader *h);
void pgn_header_free(PgnHeader *h);
/* Tag value, or NULL if absent. */
const char *pgn_tag(const PgnHeader *h, const char *name);
/* Sets (adds or replaces) a tag; false only when out of memory. */
bool pgn_set_tag(PgnHeader *h, const char *name, const char *value);

/* The annotations of a movetext that are no action, kept in their order:
 * NAGs ("$1") and comments ("{[%clk 0:04:58]}", a ';' comment becomes a
 * {comment}), each as the token it is written as, with the node it
 * follows (0: before the first action).  Variations are not kept. */
typedef struct PgnNote {
    int node;
    char *token;
} PgnNote;

typedef struct PgnNotes {
    PgnNote *notes;
    int count, capacity;
} PgnNotes;

void pgn_notes_init(PgnNotes *n);
void pgn_notes_free(PgnNotes *n);

/* Reads the first game of `text` into a new game.  The variant comes from
 * the [Variant] tag (a variant's title or name; standard chess when
 * absent), or is `force` when not NULL; its options from [Options], with
 * `force_options` ("name=value ...", may be NULL) on top; the start from
 * [FEN].  Every action is checked.  On failure writes e.g. "move 7 (Nf6):
 * no knight can reach f6" and returns false; the game then holds what was
 * read before the error and must still be freed.  `next` (may be NULL)
 * receives where the following game begins (just after the result token,
 * or at the next tag pair; the end of `text` when there is no more; where
 * reading stopped on failure).  A decisive or drawn [Result] the rules do
 * not reach (a resignation, say) is kept as the game's declared outcome,
 * its reason read from [Termination] ("result recorded in the game file"
 * when absent).  The movetext's result token, when not "*", must agree
 * with [Result]; a recorded result that contradicts the rules' own (1-0
 * after Black mated) is an error.  `h` (may be NULL; else initialised,
 * and freed by the caller) receives the tags.  A text with neither tags
 * nor movetext is an error ("no game found"). */
bool pgn_read(const char *text, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
              const char **next, Text *err);

/* pgn_read that also keeps the movetext's annotations in `notes`
 * (initialised; freed by the caller), for pgn_write_notes. */
bool pgn_read_notes(const char *text, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
                    PgnNotes *notes, const char **next, Text *err);

/* Writes the game: the Seven Tag Roster (from h where given, "?"
 * otherwise), [Variant] for a variant other than chess, [Options] for
 * options other than the defaults, [FEN]/[SetUp] when the game did not
 * start from the variant's start position, [Termination] for a declared
 * result, then the movetext, wrapped at 80 columns, and an empty line.
 * Each action is written in the position where it was played (a travel
 * back: in the position it left); a turn at which the game ended without
 * an action gets the variant's note as a last comment.  A "both lose"
 * result is written [Result "0-0"] with the token "*" (PGN has no token
 * for it).  `h` may be NULL.  False only when out of memory. */
bool pgn_write(const Game *g, const PgnHeader *h, Text *out);

/* pgn_write for a site's download: [Variant] even for standard chess, so
 * that every file names its game, and comments[i] (when comments and it
 * are not NULL, nor "") written as a comment after node i's action, e.g.
 * "[%clk 0:04:58]" (comments holds game_count(g) entries). */
bool pgn_write_annotated(const Game *g, const PgnHeader *h, const char *const *comments, Text *out);

/* pgn_write with the annotations a file had (pgn_read_notes), each after
 * its node; a comment the writer writes itself there ({Timeline N}, the
 * variant's note) is not written twice.  `notes` may be NULL. */
bool pgn_write_notes(const Game *g, const PgnHeader *h, const PgnNotes *notes, Text *out);

#endif
