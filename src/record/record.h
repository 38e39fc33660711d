/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every record format shares (PGN, score sheets, Game Courier's move
 * log), written once so that the formats cannot disagree: the header read
 * into a new game, the result a file records kept against the rules, and
 * the end of the game written out.  Private to src/record.
 */
#ifndef TTCHESS_RECORD_H
#define TTCHESS_RECORD_H

#include "game.h"

/* What a record's header says about its game; any of them may be NULL. */
typedef struct RecordStart {
    const char *variant;  /* [Variant]: a variant's name or title; NULL or empty: standard chess */
    const char *mode;     /* [VariantMode]: which of the variants that share the title         */
    const char *options;  /* [Options]: "name=value ..."                                        */
    const char *fen;      /* [FEN]: the start; NULL or empty: the variant's start position      */
} RecordStart;

/* Starts the game the header names: `force` if not NULL, else the header's
 * variant (with its mode), else standard chess; the header's options with
 * `force_options` (may be NULL) on top; from the header's FEN.  On
 * failure writes why ("unknown variant 'x'", "bad [FEN] \"...\": ...") and
 * returns false; the game can be freed either way. */
bool record_start_game(const RecordStart *h, const Variant *force, const char *force_options, Game *g, Text *err);

/* Keeps the result a file records (RESULT_NONE: it records none) once its
 * actions are played.  A result the rules reach must be theirs; one they
 * do not reach becomes the game's declared end: the end the `termination`
 * words name where ttchess writes them so (a resignation, an agreed draw)
 * when that end gives the recorded result, before or after the game's own
 * rules have judged it (their judgement is kept: a van Gog draw agreed
 * with obligations unmet is lost by the side that has them), else the
 * recorded result with those words as they are.
 * False, with why, on a contradiction or out of memory. */
bool record_settle_result(Game *g, uint8_t recorded, const char *termination, Text *err);

/* The end of a game as a record writes it. */
typedef struct RecordEnd {
    Outcome outcome;   /* game_outcome: a declared end, else the rules'          */
    Text note;         /* the variant's note on the turn at which the game ended
                          without an action (van Gog's unmet obligations, an
                          arrival lost in time); empty if none                    */
    Text line;         /* the result line: "ongoing", "1-0 checkmate"             */
    Text termination;  /* the words of a declared end; empty if none declared     */
} RecordEnd;

/* Fills e (which the caller frees with record_end_free, whatever this
 * returns); false only when out of memory. */
bool record_end(const Game *g, RecordEnd *e);
void record_end_free(RecordEnd *e);

/* The score sheet's cell for the turn at which the game ended without an
 * action ("[K]": a king lost in time), where the rules ended it so: a
 * sheet records no declared end, so only an end its reader finds again
 * by the rules gets a cell.  Empty if none; false only when out of memory. */
bool record_end_cell(const Game *g, Text *out);

#endif
