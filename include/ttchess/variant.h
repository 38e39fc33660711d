/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The variant interface.  Every rule of a game is reached through one
 * table of functions; the core (board, attacks, chess moves) knows no game,
 * and the record (game.h) knows no rule.  A variant keeps its own state
 * beside the board in State.ext: Gifford's schedules of arrivals and
 * backward-travel counts, van Gog's obligations, the travelers' piece
 * states, Chessgi's pockets.  Actions that need the history (a king going
 * back to an earlier position, a whole-board travel) read it from the Game
 * and say, through apply(), which earlier position the new one follows:
 * that is how a new timeline starts.
 */
#ifndef TTCHESS_VARIANT_H
#define TTCHESS_VARIANT_H

#include "ttchess/board.h"

/* Room for the largest game's own state; each variant checks at compile
 * time that its state fits, and copies only the bytes it uses. */
enum { STATE_EXT_BYTES = 512 };

typedef struct State {
    Board board;
    union {
        unsigned char bytes[STATE_EXT_BYTES];
        uint64_t align;
    } ext;
} State;

enum Result { RESULT_NONE = 0, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_BOTH_LOSE };

typedef struct Outcome {
    uint8_t result;     /* enum Result                                      */
    char reason[64];    /* "checkmate", "white king lost in time", ...      */
} Outcome;

struct Game;

typedef struct Variant {
    const char *name;        /* "chess", "gifford", ... (--variant)          */
    const char *title;       /* "Time Travel Chess (Gifford)" (PGN Variant)  */
    const char *start_fen;   /* the start position in this variant's FEN     */
    const char *notation_help; /* the game's own action forms, for help; or NULL */
    size_t ext_size;         /* bytes of State.ext the variant uses          */

    /* Reads a position in the variant's FEN; on failure writes why. */
    bool (*from_fen)(State *s, const char *fen, char *err, size_t errlen);
    void (*to_fen)(const State *s, char *buf, size_t len);

    /* Appends every legal action of the side to move in the game's current
     * position. */
    void (*generate)(const struct Game *g, MoveList *out);
    /* Writes the state after the legal action m to *next and returns the
     * index of the history node the new state follows: the current node for
     * an ordinary action, an earlier one for an action that travels back. */
    int (*apply)(const struct Game *g, Move m, State *next);
    /* The result by the rules (checkmate, stalemate, draws, the game's own
     * ends); RESULT_NONE while the game goes on. */
    Outcome (*outcome)(const struct Game *g);
    /* Do two states count as the same position for repetition? */
    bool (*same_position)(const State *a, const State *b);

    /* Notation.  parse_move accepts every notation the game reads; on
     * failure it writes a sentence saying what was wrong, naming the rule
     * that forbids an illegal action. */
    bool (*parse_move)(struct Game *g, const char *text, Move *out, char *err, size_t errlen);
    void (*format_coord)(const struct Game *g, Move m, char *buf, size_t len);
    void (*format_human)(struct Game *g, Move m, char *buf, size_t len);
    /* The action as a score sheet writes it (Gifford's own notation);
     * `part` is an enum SheetPart (sheets.h).  NULL: the human form. */
    void (*format_sheet)(struct Game *g, Move m, int part, char *buf, size_t len);
    /* A note on what the action does besides itself (Gifford: an arrival
     * lost in time), in the present position; "" when none.  Records keep
     * it as a comment.  May be NULL. */
    void (*note)(const struct Game *g, Move m, char *buf, size_t len);
    /* Extra lines for the play screen (pending arrivals, travels left,
     * what the side to move must do); may be NULL. */
    void (*describe)(const struct Game *g, char *buf, size_t len);
} Variant;

/* Looks a variant up by name; NULL if there is none. */
const Variant *variant_find(const char *name);
/* The names of every variant, separated by ", " (for help and errors). */
const char *variant_names(void);

extern const Variant VARIANT_CHESS;

/* Result lines: "1-0 checkmate", "1/2-1/2 stalemate", ... */
void outcome_format(const Outcome *o, char *buf, size_t len);
const char *result_string(uint8_t result);
Outcome outcome_make(uint8_t result, const char *reason);

#endif
