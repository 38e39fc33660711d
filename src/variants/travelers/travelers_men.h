/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Traveler's Chess: what the files of its rules share, and only
 * they (travelers.h is the game's header for the rest of the library):
 * the "men" every rule is decided on, and the functions one file of the
 * rules gives another.  travelers.c: the men's states, grammar, kings,
 * check, applying and the table; travelers_support.c: the support search;
 * travelers_judge.c: judging and generating actions; travelers_fen.c: the
 * FEN.
 */
#ifndef TTCHESS_TRAVELERS_MEN_H
#define TTCHESS_TRAVELERS_MEN_H

#include <string.h>

#include "bitboard.h"
#include "travelers.h"

static inline TravelersState *tstate(State *s) { return (TravelersState *)s->ext; }

static const PieceType PROMOTIONS[4] = { QUEEN, ROOK, BISHOP, KNIGHT };

static inline int relative_rank(Color c, Square s) { return c == WHITE ? square_rank(s) : 7 - square_rank(s); }
static inline Square square_ahead(Color c, Square s) { return (Square)(c == WHITE ? s + 8 : s - 8); }
static inline Square square_behind(Color c, Square s) { return (Square)(c == WHITE ? s - 8 : s + 8); }

/* ---- Men ---------------------------------------------------------------- */

/* The pieces of a position with their states: by_type[0] is every
 * occupied square, as on the board. */
typedef struct Men {
    Bitboard by_type[7];
    Bitboard by_color[2];
    Bitboard traveling, traveled;
} Men;

static inline void men_from_state(const State *s, Men *m)
{
    const Board *b = &s->board;
    memcpy(m->by_type, b->by_type, sizeof m->by_type);
    memcpy(m->by_color, b->by_color, sizeof m->by_color);
    m->traveling = travelers_cstate(s)->traveling;
    m->traveled = travelers_cstate(s)->traveled;
}

static inline Bitboard men_of(const Men *m, Color c, PieceType t) { return m->by_type[t] & m->by_color[c]; }
static inline Bitboard men_untraveled(const Men *m, Color c)
{
    return m->by_color[c] & ~(m->traveling | m->traveled);
}

static inline PieceType men_type_at(const Men *m, Square s)
{
    for (PieceType t = PAWN; t <= KING; t++)
        if (m->by_type[t] & BB(s)) return t;
    return NO_TYPE;
}

static inline void men_remove(Men *m, Square s)
{
    Bitboard keep = ~BB(s);
    for (int t = 0; t <= KING; t++) m->by_type[t] &= keep;
    m->by_color[WHITE] &= keep;
    m->by_color[BLACK] &= keep;
    m->traveling &= keep;
    m->traveled &= keep;
}

static inline void men_put(Men *m, Square s, Color c, PieceType t, int state)
{
    men_remove(m, s);
    m->by_type[0] |= BB(s);
    m->by_type[t] |= BB(s);
    m->by_color[c] |= BB(s);
    if (state == TRAVELING) m->traveling |= BB(s);
    if (state == TRAVELED) m->traveled |= BB(s);
}

static inline int men_state_at(const Men *m, Square s)
{
    return (m->traveling & BB(s)) ? TRAVELING : (m->traveled & BB(s)) ? TRAVELED : UNTRAVELED;
}

/* Moves the piece on f to t as it stands, whatever stood on t going. */
static inline void men_move(Men *m, Square f, Square t)
{
    Color c = (m->by_color[BLACK] & BB(f)) ? BLACK : WHITE;
    PieceType x = men_type_at(m, f);
    int state = men_state_at(m, f);
    men_remove(m, f);
    men_put(m, t, c, x, state);
}

/* An en passant square after an annihilation: nothing stands where the
 * double step ended. */
static inline bool ep_after_annihilation(const Board *b)
{
    return b->ep != SQ_NONE && !(board_occupied(b) & BB(square_ahead((Color)!b->side, b->ep)));
}

/* Is a pawn exploding on e and taking on t an en passant capture? */
static inline bool is_en_passant(const Board *b, PieceType x, Square e, Square t)
{
    return x == PAWN && t == b->ep && square_file(e) != square_file(t);
}

/* ---- What one file of the rules gives another ---------------------------- */

/* travelers.c: grammar and kings, on men. */
/* Can every traveling piece of colour c be given a distinct resonator?
 * If not, *unmatched (when given) is the square of one that cannot. */
bool men_matched(const Men *m, Color c, Square *unmatched);
/* Is colour c grammatically correct (`lost`: the traveling pieces each
 * side has lost)? */
bool men_correct(const Men *m, const uint8_t lost[2], Color c);
/* Every untraveled piece of colour c that resonates with some friendly
 * traveling piece. */
Bitboard men_resonators(const Men *m, Color c);
/* Kingless: no king at all, or an untraveled and a traveling king but no
 * traveled one.  `gone`: a square to count as empty, or SQ_NONE. */
bool men_kingless(const Men *m, Color c, Square gone);
/* Could the side to move's opponent leave colour c kingless at once?
 * The threat, when found, goes to *how. */
bool men_threat(const Men *m, Color c, Move *how);
/* The key of ext computed from nothing. */
uint64_t travelers_ext_key(const Options *o, const State *s);

/* travelers_judge.c: the legal actions of position s, or its chess moves
 * alone; false only when out of memory.  And: can each of the n support sets be given a
 * distinct support? */
bool travelers_gen_state(const State *s, MoveList *out);
bool travelers_gen_chess(const State *s, MoveList *out);
bool sets_matchable(const uint32_t *sets, int n);

/* travelers_fen.c. */
State *travelers_from_fen(const Options *o, const char *fen, Text *err);
void travelers_to_fen(const Options *o, const State *s, Text *out);
/* The FEN's parts beyond chess's, for an editor. */
extern const FenPart TRAVELERS_FEN_PARTS[];

/* travelers_judge.c: is there a legal action that takes en passant?  Only
 * then does the en passant square make a position what it is. */
bool travelers_ep_counts(const State *s);

#endif
