/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evaluation of Time Traveler's Chess (docs/rules/travelers.md; the
 * state is described in travelers.h).
 *
 * The game is chess in which a side may explode a traveling and a
 * traveled piece onto the board, and must then keep every traveling piece
 * matched with a friendly untraveled piece that could in theory
 * annihilate it.  Losing a traveling piece to a capture, or the last
 * resonator a traveling piece had, makes the side grammatically incorrect,
 * and an incorrect side has lost at once.  So beyond the shared chess
 * evaluation of the board the evaluation asks: what is each piece worth in
 * its state, which traveling pieces can the opponent take, which
 * resonators is a side's correctness hanging on, and is a side kingless
 * (it is then in check whenever its opponent is resolved).
 *
 * Every term is a cheap proxy for the rules (attacks on the board, the
 * resonator candidates of each traveling piece), never a generation of
 * actions, because it runs at every node of the search.  early_end, in
 * contrast, is exact: it answers what travelers_outcome answers first.
 *
 * docs/engine-eval-timetravel.md explains each term and weight.
 */
#include "attacks.h"
#include "eval.h"
#include "travelers.h"

/* The weights, in centipawns (percentages where the name says so).  They
 * are hand-set from the rules, not yet tuned (docs/engine-eval-timetravel.md). */
typedef struct TravelersWeights {
    int state_percent[3];          /* [enum TravelState]: what a piece keeps of its chess value      */
    int exposed_to_move;           /* per traveling piece of the side to move that is attacked       */
    int exposed_waiting;           /* per traveling piece of the other side that the mover attacks   */
    int critical_resonator;        /* per resonator a side's correctness cannot do without          */
    int critical_attacked_to_move; /* ... that the opponent attacks, the owner to move               */
    int critical_attacked_waiting; /* ... that the side to move attacks                              */
    int kingless;                  /* a side with no king that counts (travelers_kingless)           */
    int kingless_facing_resolved;  /* more when the opponent is resolved: every turn is then check   */
} TravelersWeights;

static const TravelersWeights TRAVELERS_WEIGHTS = {
    /* An untraveled piece is a chess piece that may also support
     * explosions and resonate.  A traveled one moves like a chess piece
     * but can do neither.  A traveling one never moves: it is a blocker
     * that the owner must protect from every capture and that keeps the
     * owner unresolved (unable to give check), so it keeps little of its
     * value. */
    .state_percent = { [UNTRAVELED] = 100, [TRAVELING] = 25, [TRAVELED] = 92 },
    /* The owner must block, take the attacker or annihilate the piece at
     * once: defending it does not help, because the capture itself ends
     * the game. */
    .exposed_to_move = 250,
    /* The side to move takes it and wins, unless the capture happens to be
     * illegal for it (it would leave the taker itself incorrect); the
     * search will see the capture, so this only keeps the static score
     * honest where the search stops. */
    .exposed_waiting = 900,
    .critical_resonator = 25,
    .critical_attacked_to_move = 120,
    .critical_attacked_waiting = 600,
    .kingless = 60,
    .kingless_facing_resolved = 300,
};

/* ---- Pieces and their states ------------------------------------------- */

/* The value colour c's traveling and traveled pieces gain or lose
 * against the chess value the board evaluation gave them. */
static int state_adjustment(const TravelersWeights *w, const State *s, Color c)
{
    const TravelersState *ts = travelers_cstate(s);
    const Board *b = &s->board;
    Bitboard marked = (ts->traveling | ts->traveled) & b->by_color[c];
    int adjust = 0;
    while (marked) {
        Square sq = bb_pop(&marked);
        int state = (ts->traveling & BB(sq)) ? TRAVELING : TRAVELED;
        adjust += eval_piece_value(piece_type(b->squares[sq])) * (w->state_percent[state] - 100) / 100;
    }
    return adjust;
}

/* The pieces of colour `by` that may capture something: traveling
 * pieces never move. */
static Bitboard movers(const State *s, Color by)
{
    return s->board.by_color[by] & ~travelers_cstate(s)->traveling;
}

/* Is sq attacked by a piece of colour `by` that can move?  Whether the
 * capture would be legal for `by` (it must not leave `by` itself
 * incorrect or in check) is not asked: a proxy, and nearly always right. */
static bool attacked_by(const State *s, Square sq, Color by)
{
    return (board_attackers(&s->board, sq, by, board_occupied(&s->board)) & movers(s, by)) != 0;
}

/* The penalty, for colour c, of each of its traveling pieces that the
 * opponent attacks: a capture would make c incorrect. */
static int exposure(const TravelersWeights *w, const State *s, Color c)
{
    Bitboard traveling = travelers_cstate(s)->traveling & s->board.by_color[c];
    int per_piece = c == s->board.side ? w->exposed_to_move : w->exposed_waiting;
    int penalty = 0;
    while (traveling)
        if (attacked_by(s, bb_pop(&traveling), (Color)!c)) penalty += per_piece;
    return penalty;
}

/* ---- Grammar ----------------------------------------------------------- */

/* The resonators colour c cannot lose without becoming incorrect, as a
 * cheap proxy for the matching of travelers_correct: when the traveling
 * pieces have, all together, no more candidates than they number, every
 * candidate is needed; otherwise a candidate is needed when it is the
 * only one of some traveling piece.  (Tighter subsets, which only the
 * full matching finds, are missed.) */
static Bitboard critical_resonators(const State *s, Color c)
{
    Bitboard traveling = travelers_cstate(s)->traveling & s->board.by_color[c];
    Bitboard all = 0, sole = 0;
    int count = 0;
    while (traveling) {
        Bitboard mine = travelers_resonators_of(s, bb_pop(&traveling));
        all |= mine;
        if (!bb_many(mine)) sole |= mine;
        count++;
    }
    return bb_count(all) <= count ? all : sole;
}

/* The penalty, for colour c, of being one capture away from
 * incorrectness: each critical resonator is a weakness, more so when the
 * opponent attacks it. */
static int grammar_risk(const TravelersWeights *w, const State *s, Color c)
{
    if (travelers_resolved(s, c)) return 0;
    Bitboard critical = critical_resonators(s, c);
    int attacked_cost = c == s->board.side ? w->critical_attacked_to_move : w->critical_attacked_waiting;
    int risk = bb_count(critical) * w->critical_resonator;
    while (critical)
        if (attacked_by(s, bb_pop(&critical), (Color)!c)) risk += attacked_cost;
    return risk;
}

/* A kingless side is in check whenever its opponent is resolved and
 * keeps it kingless (rules, Check), and can then be mated. */
static int kingless_risk(const TravelersWeights *w, const State *s, Color c)
{
    if (!travelers_kingless(s, c)) return 0;
    return w->kingless + (travelers_resolved(s, (Color)!c) ? w->kingless_facing_resolved : 0);
}

/* ---- The evaluation ---------------------------------------------------- */

/* What the game's own rules add for colour c, in c's favour. */
static int side_terms(const TravelersWeights *w, const State *s, Color c)
{
    return state_adjustment(w, s, c) - exposure(w, s, c) - grammar_risk(w, s, c) - kingless_risk(w, s, c);
}

static int clamp_score(int v)
{
    int limit = EVAL_KNOWN_WIN - 1;
    return v > limit ? limit : v < -limit ? -limit : v;
}

static int travelers_evaluate(const Line *l)
{
    const State *s = line_state(l);
    Color us = s->board.side;
    const TravelersWeights *w = &TRAVELERS_WEIGHTS;
    int own = side_terms(w, s, us) - side_terms(w, s, (Color)!us);
    return clamp_score(chess_eval_board(&s->board, NULL) + own);
}

/* Is colour c grammatically incorrect?  A side that has lost a traveling
 * piece is, for good; a side with no traveling piece is not, and needs no
 * matching: the common case costs two bitboard tests. */
static bool incorrect(const State *s, Color c)
{
    const TravelersState *ts = travelers_cstate(s);
    if (ts->lost[c]) return true;
    if (!(ts->traveling & s->board.by_color[c])) return false;
    return !travelers_correct(s, c);
}

/* The game ends at any node where a side is incorrect, whatever the side
 * to move could do: travelers_outcome asks it before anything else, of
 * the side to move first and then of the other, and so does this, so that
 * the search scores the node as the rules will. */
static bool travelers_early_end(const Line *l, Outcome *out)
{
    const State *s = line_state(l);
    Color order[2] = { s->board.side, (Color)!s->board.side };
    for (int i = 0; i < 2; i++) {
        if (!incorrect(s, order[i])) continue;
        *out = outcome_make(result_loss_for(order[i]), REASON_GRAMMATICALLY_INCORRECT, order[i]);
        return true;
    }
    return false;
}

/* No null move, ever.  Passing is never sound here: a side's correctness
 * and check depend on the opponent's resolution, so handing over the turn
 * can turn a position in which the side to move was safe into one in
 * which it is in check (its opponent resolved, itself kingless) or in
 * which the opponent could capture a traveling piece and win at once, and
 * the side to move is often obliged to act (to annihilate, to shield a
 * traveling piece) where a pass would claim it could afford to wait.  The
 * null-move search would then prune lines on a bound the game cannot
 * give. */
const Evaluator EVAL_TRAVELERS = { "travelers", travelers_evaluate, NULL, travelers_early_end, false, 0, NULL, false };
