/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Game Courier notation.  Game Courier, the correspondence server of the
 * Chess Variant Pages, knows no rules: a move says what happens on the
 * board, part by part.  "P e2-e4" moves the piece labelled P from e2 to
 * e4 (the label may be left out); "e5-" or "@-e5" removes the piece on
 * e5; "Q-e8" puts a queen on e8; parts are joined by ';' ("P e7-e8;
 * Q-e8" promotes, "P d5-e6; e5-" takes en passant).  Labels are upper
 * case for White and lower case for Black.
 *
 * The reader finds the one legal action whose effect on the board the
 * text describes; the writer writes an action, and a whole game as a
 * Game Courier move log, by its effect on the board.  Time travel shows
 * on the board as pieces removed and pieces placed; what the board cannot
 * tell apart (which move a piece is sent to) the reader refuses as
 * ambiguous, naming the actions in the game's own notation, and the writer
 * says in a comment ("// Bf1>9"), which its reader uses to choose.
 * docs/notation.md, "Game Courier notation", has the forms of each game.
 */
#ifndef TTCHESS_GC_H
#define TTCHESS_GC_H

#include "game.h"

/* Is the text written in Game Courier notation in a way no other notation
 * here writes it: a label and a space before a square ("P e2-e4"), parts
 * joined by ';', a removal ("e4-", "@-e4") or a placement with '-'
 * ("N-e4")?  game_play_text hands such text to gc_parse; plain "e2-e4"
 * and "Ng1-f3" stay with the game's own reader, which means the same. */
bool gc_is_notation(const char *text);

/* Reads one action in Game Courier notation at the line's present
 * position: the one legal action with that effect on the board.  A single
 * move or placement ("e2-e4", "N-e4") is also read in the game's own
 * notation, and both readings count.  On failure writes a sentence for the
 * player: no legal action has that effect (and why, where it can tell: no
 * piece there, a label that is not the piece's, a pawn that must promote),
 * or several have and which, in the game's own notation, to type instead. */
bool gc_parse(const Line *l, const char *text, Move *out, Text *err);

/* The same, where several actions have the effect the text describes:
 * `hint`, an action in the game's own notation, picks the one it names
 * among them (the comment gc_write puts after such a move).  With no hint
 * (NULL), the text's own comment is the hint: gc_parse reads "B f1- //
 * Bf1>9" as Bf1>9. */
bool gc_parse_hinted(const Line *l, const char *text, const char *hint, Move *out, Text *err);

/* Writes the legal action m of the line's present position in Game Courier
 * notation: "P e2-e4", "K e1-g1; R h1-f1", "P e7-e8; Q-e8", "P d5-e6; e5-",
 * "n-e4", "B f1-", "Q d1-h5; h5-"; an action that takes the game back to
 * an earlier position as every square it changes.  False only when out of
 * memory. */
bool gc_format(const Line *l, Move m, Text *out);

/* Writes the game as a Game Courier move log: "1. P e2-e4", "1... p
 * e7-e5", one action a line, every timeline in the order played; comment
 * lines "// ..." carry the variant, options and start position, timelines,
 * notes and the result, and a time-travel action is followed by the
 * game's own notation ("5. B f1- // Bf1>9").  False only when out of
 * memory. */
bool gc_write(const Game *g, Text *out);

/* Reads a move log as gc_write writes it into a new game (move numbers
 * optional, "//" comments, headers [Variant "..."], [Options "..."] and
 * [FEN "..."] in comment lines before the first move).  The game is
 * `force` if not NULL, else the one the header names, else chess;
 * `force_options` ("name=value ...", may be NULL) go on top of the header's.
 * On failure writes e.g. "line 3 (N g1-f4): ..." and returns false; the
 * game must still be freed. */
bool gc_read(const char *text, const Variant *force, const char *force_options, Game *g, Text *err);

/* Does the text look like a Game Courier move log rather than PGN or score
 * sheets: its first line that is not blank starts with "//", or is a
 * numbered move in Game Courier notation ("1. P e2-e4")? */
bool gc_detect(const char *text);

#endif
