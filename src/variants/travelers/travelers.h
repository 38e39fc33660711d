/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Traveler's Chess (Time Travel Institute of Columbia): the variant's
 * own state and the parts of its rules that its notation and the command
 * line need.  The rules are in travelers.c, the notation in
 * travelers_notation.c; docs/rules/travelers.md states each rule with the
 * seed text it rests on.
 *
 * Every chessman is untraveled, traveling or traveled.  An explosion puts
 * a traveling and a traveled piece of one type on an empty square that an
 * untraveled piece of that type could reach in three moves (its
 * "supports"); the traveled half then moves on at once.  An untraveled
 * piece that moves onto a friendly traveling piece of its type
 * annihilates with it.  A side must keep every traveling piece matched
 * with an untraveled piece that could in theory annihilate it
 * ("grammatical correctness"), and is in check when the opponent could in
 * one action both leave it without a king and be rid of its own
 * traveling pieces.
 */
#ifndef TTCHESS_TRAVELERS_H
#define TTCHESS_TRAVELERS_H

#include "game.h"
#include "tags.h"

/* The three states of a chessman. */
enum TravelState { UNTRAVELED = 0, TRAVELING = 1, TRAVELED = 2 };

/* The rule limits of the seed, as named constants.  A side can make at
 * most 16 explosions: each needs a support of its own, and supports are
 * untraveled pieces, of which a side has at most 16 (no action creates
 * one).  Identities are given only to untraveled pieces, so 32 of them
 * cover both sides. */
enum {
    TRAVELERS_SUPPORT_MOVES = 3,  /* "reachable in no more than three moves" */
    TRAVELERS_MAX_UNTRAVELED = 16,
    TRAVELERS_MAX_EXPLOSIONS = 16,
    TRAVELERS_MAX_IDS = 32
};

/*
 * The state in State.ext.  A piece is untraveled unless its square is in
 * `traveling` or `traveled`.  Identities (1..32) are given to untraveled
 * pieces when they first support an explosion and follow them from then
 * on (a promotion keeps its pawn's identity); every other square's tag is
 * 0.  sets[c][i] is the support set of side c's i-th explosion, one bit
 * for each identity (bit id - 1); square and type say where it was and
 * of what, for the messages that name it.  lost[c] is 1 once side c has lost a
 * traveling piece to an enemy capture: it is then grammatically incorrect
 * for good.
 *
 * An en passant square with nothing on the square the double step ended
 * on means the double step was an annihilation (rules, en passant): the
 * board says so, and no flag is needed.
 */
typedef struct TravelersState {
    Bitboard traveling, traveled;
    PieceTags id;
    uint32_t sets[2][TRAVELERS_MAX_EXPLOSIONS];
    uint8_t square[2][TRAVELERS_MAX_EXPLOSIONS]; /* where each explosion was */
    uint8_t type[2][TRAVELERS_MAX_EXPLOSIONS];   /* of which piece type       */
    uint8_t explosions[2];
    uint8_t lost[2];
    uint8_t ids;        /* identities given so far */
    uint8_t zero[3];    /* 0; keeps equal states equal byte for byte */
} TravelersState;

static inline const TravelersState *travelers_cstate(const State *s) { return (const TravelersState *)s->ext; }

/* UNTRAVELED, TRAVELING or TRAVELED for the piece on sq (UNTRAVELED on an
 * empty square). */
int travelers_piece_state(const State *s, Square sq);

/* ---- Supports ----------------------------------------------------------- */

/*
 * Where each untraveled piece of one side could stand, as an untraveled
 * piece of each type, after at most three moves of that side (the
 * opponent passing; moves of any of the side's untraveled or traveled
 * pieces, captures of any enemy piece, promotions and castling included,
 * checks ignored, en passant only as the first move).  Only squares empty
 * in the position count: they are the possible explosion squares.
 */
typedef struct Supports {
    int count;                                  /* the side's untraveled pieces */
    Square square[TRAVELERS_MAX_UNTRAVELED];    /* where each stands */
    Bitboard reach[TRAVELERS_MAX_UNTRAVELED][7]; /* [piece][type]: squares */
} Supports;

void travelers_supports(const State *s, Color c, Supports *out);
/* The squares of the pieces that support an explosion of type x on e. */
Bitboard travelers_supporters(const Supports *sp, PieceType x, Square e);
/* One sequence of at most three moves of side c by which the untraveled
 * piece on `from` reaches e as a piece of type x, in coordinate form
 * separated by spaces ("b1c3 c3e4 e4f6"); false if there is none. */
bool travelers_support_path(const State *s, Color c, Square from, PieceType x, Square e, Text *out);

/* ---- Correctness and check ---------------------------------------------- */

/* Is side c grammatically correct: no traveling piece lost to a capture,
 * and every traveling piece matched with a distinct friendly resonator? */
bool travelers_correct(const State *s, Color c);
/* Is the untraveled piece on sq a resonator (it could in theory
 * annihilate some friendly traveling piece)? */
bool travelers_is_resonator(const State *s, Square sq);
/* The squares of side c's untraveled pieces that could in theory
 * annihilate the traveling piece on sq. */
Bitboard travelers_resonators_of(const State *s, Square sq);
/* Is side c kingless (no king, or an untraveled and a traveling king but
 * no traveled one)?  Resolved (no traveling piece)? */
bool travelers_kingless(const State *s, Color c);
bool travelers_resolved(const State *s, Color c);

/* An action of the opponent that would leave the side to move kingless
 * while resolving the opponent (what makes the side to move in check);
 * false if there is none.  The action is one of the opponent's moves by
 * the movement rules, its own legality aside. */
bool travelers_check_threat(const State *s, Move *threat);

/* Explains in a few lines why the side to move is or is not in check
 * (the command line's "check"). */
bool travelers_explain_check(const State *s, Text *out);

/* What the game tells the command line (travelers_explain.c; the
 * Variant slots explain_supports, explain_check and checked_kings): the
 * supports of an explosion on e, why the side to move is in check, and
 * its kings when it is. */
bool travelers_explain_supports(const Line *l, Square e, Text *out, Text *err);
bool travelers_explain_check_line(const Line *l, Text *out);
Bitboard travelers_checked_kings(const Line *l);

/* The state after an action, for a caller that has no record (the
 * command line's explanations).  `next` needs sizeof(State) +
 * sizeof(TravelersState) bytes. */
void travelers_apply_state(const State *now, Move m, State *next);

/* Why the action m, which the notation read as an action of the side to
 * move (an explosion, an annihilation or a move), is not legal: writes
 * the rule that forbids it in a player's words.  Returns false. */
bool travelers_refusal(const Line *l, Move m, Text *err);

/* The notation (travelers_notation.c). */
bool travelers_parse(const Line *l, const char *text, Move *out, Text *err);
bool travelers_format_coord(const Line *l, Move m, Text *out);
bool travelers_format_human(const Line *l, Move m, Text *out);

/* The engine's evaluator of the game (travelers_eval.c). */
extern const struct Evaluator EVAL_TRAVELERS;

#endif
