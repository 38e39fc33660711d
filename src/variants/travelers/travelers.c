/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Traveler's Chess: the rules (see travelers.h for the idea, and
 * docs/rules/travelers.md for each rule with the seed text it rests on).
 *
 * The rules are decided on "men": the board's bitboards with the
 * traveling and traveled pieces marked.  Every question the rules ask of
 * an action (is the mover still grammatically correct? is the opponent?
 * could the opponent now leave the mover kingless while resolving?) is
 * asked of the men after it, so an explosion, of which a position has
 * hundreds, is judged on a few bitboards rather than on a whole board.
 * One judge (judge_action) says whether an action is legal and, if not,
 * why; the generator asks it of every candidate, and the refusals of the
 * notation ask it of the one action a player wrote, so the two can never
 * disagree.
 */
#include "travelers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "zobrist.h"
#include "ttchess/movegen.h"

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

static void men_from_state(const State *s, Men *m)
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

static PieceType men_type_at(const Men *m, Square s)
{
    for (PieceType t = PAWN; t <= KING; t++)
        if (m->by_type[t] & BB(s)) return t;
    return NO_TYPE;
}

static void men_remove(Men *m, Square s)
{
    Bitboard keep = ~BB(s);
    for (int t = 0; t <= KING; t++) m->by_type[t] &= keep;
    m->by_color[WHITE] &= keep;
    m->by_color[BLACK] &= keep;
    m->traveling &= keep;
    m->traveled &= keep;
}

static void men_put(Men *m, Square s, Color c, PieceType t, int state)
{
    men_remove(m, s);
    m->by_type[0] |= BB(s);
    m->by_type[t] |= BB(s);
    m->by_color[c] |= BB(s);
    if (state == TRAVELING) m->traveling |= BB(s);
    if (state == TRAVELED) m->traveled |= BB(s);
}

static int men_state_at(const Men *m, Square s)
{
    return (m->traveling & BB(s)) ? TRAVELING : (m->traveled & BB(s)) ? TRAVELED : UNTRAVELED;
}

/* Moves the piece on f to t as it stands, whatever stood on t going. */
static void men_move(Men *m, Square f, Square t)
{
    Color c = (m->by_color[BLACK] & BB(f)) ? BLACK : WHITE;
    PieceType x = men_type_at(m, f);
    int state = men_state_at(m, f);
    men_remove(m, f);
    men_put(m, t, c, x, state);
}

int travelers_piece_state(const State *s, Square sq)
{
    const TravelersState *ts = travelers_cstate(s);
    return (ts->traveling & BB(sq)) ? TRAVELING : (ts->traveled & BB(sq)) ? TRAVELED : UNTRAVELED;
}

/* ---- Grammatical correctness -------------------------------------------- */

static Bitboard same_color_squares(Square q) { return square_is_dark(q) ? DARK_SQUARES : ~DARK_SQUARES; }

/* The untraveled pieces of colour c that could in theory annihilate a
 * traveling piece of type x on q: any of that type (a bishop only on
 * q's colour), and a pawn that could promote to it; a pawn q lies ahead
 * of, for a traveling pawn (never on c's last rank). */
static Bitboard resonator_candidates(const Men *m, Color c, PieceType x, Square q)
{
    Bitboard u = men_untraveled(m, c);
    Bitboard pawns = u & m->by_type[PAWN];
    switch (x) {
    case PAWN: return relative_rank(c, q) == 7 ? 0 : pawns & pawn_cone_behind(c, q);
    case KING: return u & m->by_type[KING];
    case BISHOP: return (u & m->by_type[BISHOP] & same_color_squares(q)) | pawns;
    default: return (u & m->by_type[x]) | pawns;
    }
}

/* One step of Kuhn's matching: finds a resonator for traveling piece j,
 * moving earlier matches along if need be. */
static bool augment(int j, const Bitboard *cand, int8_t *owner, Bitboard *seen)
{
    Bitboard c = cand[j] & ~*seen;
    while (c) {
        Square sq = bb_pop(&c);
        *seen |= BB(sq);
        if (owner[sq] < 0 || augment(owner[sq], cand, owner, seen)) {
            owner[sq] = (int8_t)j;
            return true;
        }
    }
    return false;
}

/* Can every traveling piece of colour c be given a distinct resonator?
 * If not, *unmatched (when given) is the square of one that cannot. */
static bool men_matched(const Men *m, Color c, Square *unmatched)
{
    Bitboard travelers = m->traveling & m->by_color[c];
    if (!travelers) return true;
    Bitboard cand[64];
    Square where[64];
    int n = 0;
    while (travelers) {
        Square q = bb_pop(&travelers);
        where[n] = q;
        cand[n++] = resonator_candidates(m, c, men_type_at(m, q), q);
    }
    if (n == 1 && cand[0]) return true;
    int8_t owner[64];
    memset(owner, -1, sizeof owner);
    for (int j = 0; j < n; j++) {
        Bitboard seen = 0;
        if (!augment(j, cand, owner, &seen)) {
            if (unmatched) *unmatched = where[j];
            return false;
        }
    }
    return true;
}

static bool men_correct(const Men *m, const uint8_t lost[2], Color c)
{
    return !lost[c] && men_matched(m, c, NULL);
}

bool travelers_correct(const State *s, Color c)
{
    Men m;
    men_from_state(s, &m);
    return men_correct(&m, travelers_cstate(s)->lost, c);
}

Bitboard travelers_resonators_of(const State *s, Square sq)
{
    Men m;
    men_from_state(s, &m);
    if (!(m.traveling & BB(sq))) return 0;
    Color c = (m.by_color[BLACK] & BB(sq)) ? BLACK : WHITE;
    return resonator_candidates(&m, c, men_type_at(&m, sq), sq);
}

/* Every untraveled piece of colour c that resonates with some friendly
 * traveling piece. */
static Bitboard men_resonators(const Men *m, Color c)
{
    Bitboard travelers = m->traveling & m->by_color[c], all = 0;
    while (travelers) {
        Square q = bb_pop(&travelers);
        all |= resonator_candidates(m, c, men_type_at(m, q), q);
    }
    return all;
}

bool travelers_is_resonator(const State *s, Square sq)
{
    Men m;
    men_from_state(s, &m);
    Color c = (m.by_color[BLACK] & BB(sq)) ? BLACK : WHITE;
    return (men_resonators(&m, c) & BB(sq)) != 0;
}

/* ---- Kings and check ---------------------------------------------------- */

/* Kingless: no king at all, or an untraveled and a traveling king but no
 * traveled one.  `gone` is a square to count as empty (a king the
 * opponent would take), or SQ_NONE. */
static bool men_kingless(const Men *m, Color c, Square gone)
{
    Bitboard kings = men_of(m, c, KING);
    if (gone < 64) kings &= ~BB(gone);
    if (!kings) return true;
    Bitboard traveling = kings & m->traveling, traveled = kings & m->traveled;
    Bitboard untraveled = kings & ~(traveling | traveled);
    return untraveled && traveling && !traveled;
}

bool travelers_kingless(const State *s, Color c)
{
    Men m;
    men_from_state(s, &m);
    return men_kingless(&m, c, SQ_NONE);
}

bool travelers_resolved(const State *s, Color c)
{
    return !(travelers_cstate(s)->traveling & s->board.by_color[c]);
}

/* The opponent's pieces that may move (its untraveled and traveled ones)
 * and attack s with the given occupancy. */
static Bitboard movers_attacking(const Men *m, Square s, Color by)
{
    Bitboard occ = m->by_type[0];
    Bitboard movers = m->by_color[by] & ~m->traveling;
    Bitboard diag = m->by_type[BISHOP] | m->by_type[QUEEN], line = m->by_type[ROOK] | m->by_type[QUEEN];
    Bitboard a = (pawn_attacks((Color)!by, s) & m->by_type[PAWN]) | (knight_attacks(s) & m->by_type[KNIGHT]) |
                 (king_attacks(s) & m->by_type[KING]) | (bishop_attacks(s, occ) & diag) | (rook_attacks(s, occ) & line);
    return a & movers;
}

/* An untraveled piece of colour c that can move onto its traveling twin
 * on q (pawns only by a push, one or two squares); its square, or SQ_NONE. */
static Square annihilator_of(const Men *m, Color c, Square q)
{
    PieceType x = men_type_at(m, q);
    Bitboard own = men_untraveled(m, c) & m->by_type[x];
    Bitboard occ = m->by_type[0];
    Bitboard from;
    if (x == PAWN) {
        Square one = square_behind(c, q);
        from = own & BB(one);
        if (!from && !(occ & BB(one)) && relative_rank(c, q) == 3) from = own & BB(square_behind(c, one));
    } else {
        from = own & piece_attacks(x, q, occ);
    }
    return from ? bb_first(from) : SQ_NONE;
}

/* Does `by` have some move by the movement rules after which colour c
 * is still kingless?  (Used only when c is kingless already: taking one
 * of two kings that make c kingless, an untraveled and a traveling one,
 * would leave c with a king again.)  Castling and en passant are never a
 * side's only moves, so pushes and captures are enough to look at. */
static bool has_move_keeping_kingless(const Men *m, Color by, Color c)
{
    Bitboard spoil = 0, kings = men_of(m, c, KING);
    while (kings) {
        Square k = bb_pop(&kings);
        if (!men_kingless(m, c, k)) spoil |= BB(k);
    }
    Bitboard occ = m->by_type[0], movers = m->by_color[by] & ~m->traveling;
    Bitboard targets = ~m->by_color[by] & ~spoil;
    Bitboard pawns = movers & m->by_type[PAWN];
    if (bb_forward(pawns, by) & ~occ) return true;
    while (pawns)
        if (pawn_attacks(by, bb_pop(&pawns)) & m->by_color[c] & targets) return true;
    Bitboard pieces = movers & ~m->by_type[PAWN];
    while (pieces) {
        Square s = bb_pop(&pieces);
        if (piece_attacks(men_type_at(m, s), s, occ) & targets) return true;
    }
    return false;
}

/*
 * Is colour c in check: does its opponent have an action after which c
 * is kingless and the opponent resolved?  Explosions never resolve (they
 * add a traveling piece), so only two kinds of action can: with no
 * traveling piece, any move, which may take one of c's kings; with one,
 * the annihilation of it, which takes nothing.  The threat, when found,
 * goes to *how.
 */
static bool men_threat(const Men *m, Color c, Move *how)
{
    Color o = (Color)!c;
    Bitboard theirs = m->traveling & m->by_color[o];
    if (bb_many(theirs)) return false;
    if (theirs) {
        if (!men_kingless(m, c, SQ_NONE)) return false;
        Square q = bb_first(theirs), f = annihilator_of(m, o, q);
        if (f == SQ_NONE) return false;
        if (how) *how = move_make(f, q, MOVE_ANNIHILATION, NO_TYPE, 0);
        return true;
    }
    Bitboard kings = men_of(m, c, KING);
    while (kings) {
        Square k = bb_pop(&kings);
        if (!men_kingless(m, c, k)) continue;
        Bitboard a = movers_attacking(m, k, o);
        if (a) {
            if (how) *how = move_make(bb_first(a), k, MOVE_NORMAL, NO_TYPE, 0);
            return true;
        }
    }
    if (men_kingless(m, c, SQ_NONE) && has_move_keeping_kingless(m, o, c)) {
        if (how) *how = move_none();
        return true;
    }
    return false;
}

/* ---- The support search ------------------------------------------------- */

/*
 * A sketch of one side's pieces for the support search, where only that
 * side moves.  The enemy pieces never move; they only disappear when
 * taken.  Each untraveled piece keeps the index it has in Supports, so
 * that a piece is followed through the moves however its type changes.
 */
typedef struct Sketch {
    Bitboard own, enemy;
    Bitboard type[7];      /* own pieces by type                        */
    Bitboard untraveled;   /* own untraveled pieces                     */
    Bitboard frozen;       /* own traveling pieces: they never move     */
    int8_t piece[64];      /* index of the own untraveled piece, or -1  */
    uint8_t castling;      /* the side's own castling rights            */
} Sketch;

/* One hypothetical move; promo is the new type of a promoting pawn. */
typedef struct SketchMove {
    Square from, to;
    uint8_t promo;
    uint8_t castle;        /* 1: castling (from, to: the king's squares)   */
    Square victim;         /* a pawn taken en passant, or SQ_NONE          */
    Square returns;        /* where a traveling enemy pawn comes back (en
                              passant after an annihilation), or SQ_NONE  */
} SketchMove;

typedef struct Search {
    Color c;
    Bitboard empty_now;    /* the possible explosion squares              */
    Square ep;             /* en passant, usable on the first move only   */
    bool ep_annihilated;   /* the double step was an annihilation         */
    Supports *out;
} Search;

static PieceType sketch_type(const Sketch *k, Square s)
{
    for (PieceType t = PAWN; t <= KING; t++)
        if (k->type[t] & BB(s)) return t;
    return NO_TYPE;
}

/* The castling moves of the sketch's king on `from`, given the rights
 * and the occupancy: king and rook untraveled in place, the path empty;
 * checks are ignored. */
static Bitboard castling_targets(const Sketch *k, Color c, Square from, uint8_t rights, Bitboard occ)
{
    Bitboard to = 0;
    for (int i = 0; i < 2; i++) {
        const CastleRule *r = &CASTLE_RULES[c][i];
        if ((rights & r->right) && from == r->king_from && (k->untraveled & k->type[ROOK] & BB(r->rook_from)) &&
            !(occ & r->must_be_empty))
            to |= BB(r->king_to);
    }
    return to;
}

/* Writes into the supports where untraveled piece i, a `t` on sq, could
 * stand after one more move, as a piece of each type, on a square empty
 * in the real position, given the occupancy and castling rights. */
static void record_reach(const Search *se, const Sketch *k, int i, PieceType t, Square sq, Bitboard occ,
                         uint8_t rights)
{
    Color c = se->c;
    if (i < 0) return;
    Bitboard free = se->empty_now & ~occ;
    Bitboard *reach = se->out->reach[i];
    if (t != PAWN) {
        reach[t] |= piece_attacks(t, sq, occ) & free;
        if (t == KING && rights) reach[KING] |= castling_targets(k, c, sq, rights, occ) & free;
        return;
    }
    if (relative_rank(c, sq) == 7) return;
    Square one = square_ahead(c, sq);
    if (occ & BB(one)) return;
    if (free & BB(one)) {
        if (relative_rank(c, one) == 7)
            for (int p = 0; p < 4; p++) reach[PROMOTIONS[p]] |= BB(one);
        else
            reach[PAWN] |= BB(one);
    }
    if (relative_rank(c, sq) == 1) reach[PAWN] |= BB(square_ahead(c, one)) & free;
}

static void record_final_move(const Search *se, const Sketch *k, Square sq)
{
    record_reach(se, k, k->piece[sq], sketch_type(k, sq), sq, k->own | k->enemy, k->castling);
}

static int add_sketch_move(SketchMove *list, int n, Square from, Square to, uint8_t promo)
{
    SketchMove m = { from, to, promo, 0, SQ_NONE, SQ_NONE };
    list[n] = m;
    return n + 1;
}

/* Every move of the sketch's side: its untraveled and traveled pieces, as
 * in chess, taking any enemy piece; en passant only when `first`. */
static int sketch_moves(const Search *se, const Sketch *k, bool first, SketchMove *list)
{
    Color c = se->c;
    Bitboard occ = k->own | k->enemy;
    Bitboard movers = k->own & ~k->frozen;
    int n = 0;
    while (movers) {
        Square s = bb_pop(&movers);
        PieceType t = sketch_type(k, s);
        if (t != PAWN) {
            Bitboard to = piece_attacks(t, s, occ) & ~k->own;
            while (to) n = add_sketch_move(list, n, s, bb_pop(&to), 0);
            if (t == KING && (k->untraveled & BB(s))) {
                Bitboard castles = castling_targets(k, c, s, k->castling, occ);
                while (castles) {
                    n = add_sketch_move(list, n, s, bb_pop(&castles), 0);
                    list[n - 1].castle = 1;
                }
            }
            continue;
        }
        if (relative_rank(c, s) == 7) continue;
        Bitboard to = pawn_attacks(c, s) & k->enemy;
        Square one = square_ahead(c, s);
        if (!(occ & BB(one))) {
            to |= BB(one);
            if (relative_rank(c, s) == 1 && !(occ & BB(square_ahead(c, one)))) to |= BB(square_ahead(c, one));
        }
        while (to) {
            Square d = bb_pop(&to);
            if (relative_rank(c, d) == 7)
                for (int p = 0; p < 4; p++) n = add_sketch_move(list, n, s, d, PROMOTIONS[p]);
            else
                n = add_sketch_move(list, n, s, d, 0);
        }
        if (first && se->ep != SQ_NONE && (pawn_attacks(c, s) & BB(se->ep))) {
            /* The pawn taken stands beyond the square it skipped; after
             * an annihilation it is taken there instead, and its
             * traveling twin comes back beyond. */
            n = add_sketch_move(list, n, s, se->ep, 0);
            if (se->ep_annihilated) list[n - 1].returns = square_ahead((Color)!c, se->ep);
            else list[n - 1].victim = square_ahead((Color)!c, se->ep);
        }
    }
    return n;
}

/* Plays a hypothetical move on the sketch. */
static void sketch_play(Sketch *k, Color c, const SketchMove *m)
{
    PieceType t = sketch_type(k, m->from);
    Bitboard from = BB(m->from), to = BB(m->to);
    k->enemy &= ~to;
    if (m->victim != SQ_NONE) k->enemy &= ~BB(m->victim);
    if (m->returns != SQ_NONE) k->enemy |= BB(m->returns);
    k->own ^= from | to;
    k->type[t] &= ~from;
    k->type[m->promo ? m->promo : t] |= to;
    if (k->untraveled & from) k->untraveled ^= from | to;
    k->piece[m->to] = k->piece[m->from];
    k->piece[m->from] = -1;
    if (m->castle) {
        const CastleRule *r = &CASTLE_RULES[c][m->to > m->from ? 0 : 1];
        Bitboard rook = BB(r->rook_from) | BB(r->rook_to);
        k->own ^= rook;
        k->type[ROOK] ^= rook;
        k->untraveled ^= rook;
        k->piece[r->rook_to] = k->piece[r->rook_from];
        k->piece[r->rook_from] = -1;
    }
    k->castling = castling_after_touch(castling_after_touch(k->castling, m->from), m->to) &
                  (c == WHITE ? (CASTLE_WK | CASTLE_WQ) : (CASTLE_BK | CASTLE_BQ));
}

/* The squares a move empties for others: where it came from, the rook's
 * corner when castling, a pawn taken en passant. */
static Bitboard vacated_by(Color c, const SketchMove *m)
{
    Bitboard v = BB(m->from);
    if (m->castle) v |= BB(CASTLE_RULES[c][m->to > m->from ? 0 : 1].rook_from);
    if (m->victim != SQ_NONE) v |= BB(m->victim);
    return v;
}

/* The squares a pawn's push needs empty: one ahead, and two from its
 * second rank.  (The second may have been empty at first, then taken by
 * a piece of the side's own that has moved on again.) */
static Bitboard pawn_path(Color c, Square s)
{
    if (relative_rank(c, s) == 7) return 0;
    Square one = square_ahead(c, s);
    return BB(one) | (relative_rank(c, s) == 1 ? BB(square_ahead(c, one)) : 0);
}

/*
 * The untraveled pieces of a sketch, each with the squares whose emptying
 * could give it a final move it does not have: the first piece on each of
 * a slider's lines (the squares it attacks that are taken), the squares
 * before a pawn, the castling paths.  A knight's or a king's squares
 * change only when it moves itself.
 */
typedef struct Watch {
    int count;
    Square square[TRAVELERS_MAX_UNTRAVELED];
    int8_t piece[TRAVELERS_MAX_UNTRAVELED];
    PieceType type[TRAVELERS_MAX_UNTRAVELED];
    Bitboard squares[TRAVELERS_MAX_UNTRAVELED];
    Bitboard any;
} Watch;

static void watch_sketch(const Search *se, const Sketch *k, Watch *w)
{
    Bitboard u = k->untraveled, occ = k->own | k->enemy;
    w->count = 0;
    w->any = 0;
    while (u && w->count < TRAVELERS_MAX_UNTRAVELED) {
        Square s = bb_pop(&u);
        PieceType t = sketch_type(k, s);
        Bitboard watched = 0;
        if (t == BISHOP || t == ROOK || t == QUEEN) watched = piece_attacks(t, s, occ) & occ;
        else if (t == PAWN) watched = pawn_path(se->c, s);
        else if (t == KING && k->castling) watched = CASTLE_RULES[se->c][0].must_be_empty | CASTLE_RULES[se->c][1].must_be_empty;
        int n = w->count++;
        w->square[n] = s;
        w->piece[n] = k->piece[s];
        w->type[n] = t;
        w->squares[n] = watched;
        w->any |= watched;
    }
}

/* The occupancy and the side's castling rights after a move. */
static Bitboard occupancy_after(const Sketch *k, Color c, const SketchMove *m, uint8_t *rights)
{
    Bitboard occ = (k->own | k->enemy) & ~BB(m->from);
    occ |= BB(m->to);
    if (m->castle) {
        const CastleRule *r = &CASTLE_RULES[c][m->to > m->from ? 0 : 1];
        occ = (occ & ~BB(r->rook_from)) | BB(r->rook_to);
    }
    if (m->victim != SQ_NONE) occ &= ~BB(m->victim);
    if (m->returns != SQ_NONE) occ |= BB(m->returns);
    *rights = castling_after_touch(castling_after_touch(k->castling, m->from), m->to) &
              (c == WHITE ? (CASTLE_WK | CASTLE_WQ) : (CASTLE_BK | CASTLE_BQ));
    return occ;
}

/* After move m, records the final moves that may have changed: the
 * mover's own (and a castling rook's), if untraveled, and those of the
 * pieces whose watched squares m emptied.  Every other piece's final
 * moves can only have shrunk.  Needs no copy of the sketch. */
static void record_after(const Search *se, const Sketch *k, const Watch *w, const SketchMove *m)
{
    uint8_t rights;
    Bitboard occ = occupancy_after(k, se->c, m, &rights), v = vacated_by(se->c, m);
    if (k->untraveled & BB(m->from)) {
        PieceType t = m->promo ? m->promo : sketch_type(k, m->from);
        record_reach(se, k, k->piece[m->from], t, m->to, occ, rights);
    }
    if (m->castle) {
        const CastleRule *r = &CASTLE_RULES[se->c][m->to > m->from ? 0 : 1];
        record_reach(se, k, k->piece[r->rook_from], ROOK, r->rook_to, occ, rights);
    }
    if (!(w->any & v)) return;
    for (int j = 0; j < w->count; j++)
        if ((w->squares[j] & v) && !(BB(w->square[j]) & v))
            record_reach(se, k, w->piece[j], w->type[j], w->square[j], occ, rights);
}

enum { SKETCH_MOVES_MAX = 16 * 27 + 64 };

/*
 * Walks every sequence of up to two moves, recording after each the final
 * move of every untraveled piece that may have changed: every sequence of
 * at most three moves is then counted.  The final move never needs
 * trying, since its square is what is recorded; nor does the second,
 * whose effect on final moves record_after works out on the first's
 * sketch.  A second move that neither moves an untraveled piece nor
 * empties a watched square cannot change a final move.
 */
static void search_from(const Search *se, const Sketch *k, int made)
{
    SketchMove list[SKETCH_MOVES_MAX];
    int n = sketch_moves(se, k, made == 0, list);
    Watch w;
    watch_sketch(se, k, &w);
    for (int i = 0; i < n; i++) {
        const SketchMove *m = &list[i];
        bool untraveled = (k->untraveled & BB(m->from)) != 0;
        if (!untraveled && !(vacated_by(se->c, m) & w.any)) {
            if (made + 1 == TRAVELERS_SUPPORT_MOVES - 1) continue;
        } else {
            record_after(se, k, &w, m);
        }
        if (made + 1 < TRAVELERS_SUPPORT_MOVES - 1) {
            Sketch next = *k;
            sketch_play(&next, se->c, m);
            search_from(se, &next, made + 1);
        }
    }
}

static void sketch_from_state(const State *s, Color c, Sketch *k, Supports *sp)
{
    const Board *b = &s->board;
    const TravelersState *ts = travelers_cstate(s);
    memset(k, 0, sizeof *k);
    memset(k->piece, -1, sizeof k->piece);
    k->own = b->by_color[c];
    k->enemy = b->by_color[!c];
    for (int t = PAWN; t <= KING; t++) k->type[t] = b->by_type[t] & k->own;
    k->frozen = ts->traveling & k->own;
    k->untraveled = k->own & ~(ts->traveling | ts->traveled);
    k->castling = b->castling & (c == WHITE ? (CASTLE_WK | CASTLE_WQ) : (CASTLE_BK | CASTLE_BQ));
    memset(sp, 0, sizeof *sp);
    Bitboard u = k->untraveled;
    while (u && sp->count < TRAVELERS_MAX_UNTRAVELED) {
        Square sq = bb_pop(&u);
        k->piece[sq] = (int8_t)sp->count;
        sp->square[sp->count++] = sq;
    }
}

/* An en passant square after an annihilation: nothing stands where the
 * double step ended. */
static bool ep_after_annihilation(const Board *b)
{
    return b->ep != SQ_NONE && !(board_occupied(b) & BB(square_ahead((Color)!b->side, b->ep)));
}

static void search_setup(const State *s, Color c, Search *se, Sketch *k, Supports *out)
{
    const Board *b = &s->board;
    sketch_from_state(s, c, k, out);
    se->c = c;
    se->empty_now = ~board_occupied(b);
    se->ep = c == b->side ? b->ep : SQ_NONE;
    se->ep_annihilated = se->ep != SQ_NONE && ep_after_annihilation(b);
    se->out = out;
}

void travelers_supports(const State *s, Color c, Supports *out)
{
    Search se;
    Sketch k;
    search_setup(s, c, &se, &k, out);
    for (int i = 0; i < out->count; i++) record_final_move(&se, &k, out->square[i]);
    /* Taking en passant, possible as the first move only, lands a pawn on
     * the empty square it skipped. */
    if (se.ep != SQ_NONE) {
        Bitboard takers = pawn_attacks((Color)!c, se.ep) & k.untraveled & k.type[PAWN];
        while (takers) out->reach[k.piece[bb_pop(&takers)]][PAWN] |= BB(se.ep);
    }
    search_from(&se, &k, 0);
}

Bitboard travelers_supporters(const Supports *sp, PieceType x, Square e)
{
    Bitboard who = 0;
    for (int i = 0; i < sp->count; i++)
        if (sp->reach[i][x] & BB(e)) who |= BB(sp->square[i]);
    return who;
}

/* ---- One way to reach: for the command line ----------------------------- */

static void path_move_text(const SketchMove *m, Text *out)
{
    Move mv = move_make(m->from, m->to, m->promo ? MOVE_PROMOTION : MOVE_NORMAL, m->promo, 0);
    move_to_coord(mv, out);
}

/* Depth-first: the first sequence found, shortest first by iterating
 * the depth. */
static bool find_path(const Search *se, const Sketch *k, int piece, PieceType x, Square e, int left,
                      SketchMove *path, int made, Text *out)
{
    Square at = SQ_NONE;
    for (Square s = 0; s < 64; s++)
        if (k->piece[s] == piece) at = s;
    if (at == SQ_NONE) return false;
    if (left == 1) {
        Supports one;
        memset(&one, 0, sizeof one);
        Search local = *se;
        local.out = &one;
        record_final_move(&local, k, at);
        if (!(one.reach[piece][x] & BB(e))) return false;
        for (int i = 0; i < made; i++) {
            path_move_text(&path[i], out);
            text_add_char(out, ' ');
        }
        SketchMove last = { at, e, (uint8_t)(sketch_type(k, at) == PAWN && x != PAWN ? x : 0), 0, SQ_NONE, SQ_NONE };
        path_move_text(&last, out);
        return true;
    }
    SketchMove list[SKETCH_MOVES_MAX];
    int n = sketch_moves(se, k, made == 0, list);
    for (int i = 0; i < n; i++) {
        Sketch next = *k;
        sketch_play(&next, se->c, &list[i]);
        path[made] = list[i];
        if (find_path(se, &next, piece, x, e, left - 1, path, made + 1, out)) return true;
    }
    return false;
}

bool travelers_support_path(const State *s, Color c, Square from, PieceType x, Square e, Text *out)
{
    Search se;
    Sketch k;
    Supports sp;
    search_setup(s, c, &se, &k, &sp);
    if (from >= 64 || k.piece[from] < 0 || (board_occupied(&s->board) & BB(e))) return false;
    SketchMove path[TRAVELERS_SUPPORT_MOVES];
    for (int moves = 1; moves <= TRAVELERS_SUPPORT_MOVES; moves++)
        if (find_path(&se, &k, k.piece[from], x, e, moves, path, 0, out)) return true;
    return false;
}

/* ---- Judging actions ---------------------------------------------------- */

/* What every judgement of one position shares. */
typedef struct Ctx {
    const State *s;
    const Board *b;
    const TravelersState *ts;
    Color us, them;
    Men men;
    bool checked;      /* the side to move is in check now                    */
    bool quiet_safe;   /* a quiet explosion of a piece other than a king
                          cannot leave it in check (see explosion_move_ok)  */
    Bitboard banned;   /* what an exploding piece may not take: the enemy's
                          traveling pieces and resonators                   */
    bool have_supports;
    Supports sp;
} Ctx;

static void ctx_init(Ctx *cx, const State *s)
{
    cx->s = s;
    cx->b = &s->board;
    cx->ts = travelers_cstate(s);
    cx->us = s->board.side;
    cx->them = (Color)!cx->us;
    men_from_state(s, &cx->men);
    cx->checked = men_threat(&cx->men, cx->us, NULL);
    /* Putting pieces on empty squares only blocks the opponent's lines;
     * it can give the opponent something to take only when the side is
     * kingless already and the opponent resolved. */
    cx->quiet_safe = !cx->checked && !((!(cx->men.traveling & cx->men.by_color[cx->them])) &&
                                       men_kingless(&cx->men, cx->us, SQ_NONE));
    cx->banned = (cx->men.traveling & cx->men.by_color[cx->them]) | men_resonators(&cx->men, cx->them);
    cx->have_supports = false;
}

static const Supports *ctx_supports(Ctx *cx)
{
    if (!cx->have_supports) {
        travelers_supports(cx->s, cx->us, &cx->sp);
        cx->have_supports = true;
    }
    return &cx->sp;
}

static void say_square(Text *t, Square s)
{
    char name[3];
    square_name(s, name);
    text_add(t, name);
}

static void say_piece(Text *why, const char *state, PieceType x, Square s)
{
    text_addf(why, "%s%s%s on ", state, *state ? " " : "", piece_type_name(x));
    say_square(why, s);
}

/* The verdicts every action ends with: the mover must stay grammatically
 * correct; an action that makes the opponent incorrect wins at once;
 * otherwise the mover must not be left in check. */
static bool final_verdict(const Ctx *cx, const Men *after, const uint8_t lost[2], bool opponent_may_change, Text *why)
{
    Square unmatched = SQ_NONE;
    if (lost[cx->us] || !men_matched(after, cx->us, &unmatched)) {
        if (why) {
            if (lost[cx->us]) {
                text_add(why, "you have lost a traveling piece to a capture: your position is grammatically incorrect for good");
            } else {
                text_add(why, "this leaves your ");
                say_piece(why, "traveling", men_type_at(after, unmatched), unmatched);
                text_add(why, " with no resonator");
            }
        }
        return false;
    }
    if (opponent_may_change && !men_correct(after, lost, cx->them)) return true;
    Move threat;
    if (men_threat(after, cx->us, &threat)) {
        if (why) text_addf(why, "you would be in check: %s could leave you kingless", cx->them == WHITE ? "White" : "Black");
        return false;
    }
    return true;
}

/* ---- Explosions --------------------------------------------------------- */

/* The identities of the supporters on `who`; *fresh tells whether one of
 * them has none yet (it has supported nothing, so it is free). */
static uint32_t support_ids(const TravelersState *ts, Bitboard who, bool *fresh)
{
    uint32_t set = 0;
    *fresh = false;
    while (who) {
        uint16_t id = ts->id.tag[bb_pop(&who)];
        if (id) set |= 1u << (id - 1);
        else *fresh = true;
    }
    return set;
}

static bool augment_ids(int j, const uint32_t *sets, int8_t *owner, uint32_t *seen)
{
    uint32_t c = sets[j] & ~*seen;
    while (c) {
        int id = __builtin_ctz(c);
        c &= c - 1;
        *seen |= 1u << id;
        if (owner[id] < 0 || augment_ids(owner[id], sets, owner, seen)) {
            owner[id] = (int8_t)j;
            return true;
        }
    }
    return false;
}

/* Can each of the n support sets be given a distinct support? */
static bool sets_matchable(const uint32_t *sets, int n)
{
    int8_t owner[TRAVELERS_MAX_IDS];
    memset(owner, -1, sizeof owner);
    for (int j = 0; j < n; j++) {
        uint32_t seen = 0;
        if (!augment_ids(j, sets, owner, &seen)) return false;
    }
    return true;
}

/* Names, for a refusal, the earlier explosions the supporters serve. */
static void say_supports_taken(const Ctx *cx, PieceType x, Square e, Bitboard who, Text *why)
{
    text_add(why, "every explosion needs its own support: ");
    bool first = true;
    while (who) {
        Square s = bb_pop(&who);
        uint16_t id = cx->ts->id.tag[s];
        for (int i = 0; i < cx->ts->explosions[cx->us]; i++) {
            if (!(cx->ts->sets[cx->us][i] & (1u << (id - 1)))) continue;
            text_add(why, first ? "the " : ", and the ");
            say_piece(why, "", piece_type(cx->b->squares[s]), s);
            text_add(why, " already supports the explosion on ");
            say_square(why, cx->ts->square[cx->us][i]);
            first = false;
            break;
        }
    }
    text_add(why, first ? "no support is left for " : "; none is left for ");
    text_addf(why, "%s %s on ", x == PAWN ? "a" : "a", piece_type_name(x));
    say_square(why, e);
}

/* The parts of an explosion's legality that do not depend on where the
 * traveled half goes: the square, its supports, and the mover's grammar
 * with a new traveling piece there. */
static bool explosion_support_ok(Ctx *cx, PieceType x, Square e, Text *why)
{
    if (cx->ts->lost[cx->us]) {
        if (why) text_add(why, "you have lost a traveling piece to a capture: your position is grammatically incorrect for good");
        return false;
    }
    if (board_occupied(cx->b) & BB(e)) {
        if (why) {
            say_square(why, e);
            text_add(why, " is not empty: an explosion needs an empty square");
        }
        return false;
    }
    Bitboard who = travelers_supporters(ctx_supports(cx), x, e);
    if (!who) {
        if (why) {
            text_addf(why, "no untraveled %s can reach ", piece_type_name(x));
            say_square(why, e);
            text_add(why, " in three moves");
            if (x != PAWN && x != KING) text_add(why, " (nor a pawn promoting on the way)");
        }
        return false;
    }
    int n = cx->ts->explosions[cx->us];
    if (n >= TRAVELERS_MAX_EXPLOSIONS) {
        if (why) text_add(why, "every explosion needs its own support, and all your untraveled pieces support one already");
        return false;
    }
    bool fresh;
    uint32_t sets[TRAVELERS_MAX_EXPLOSIONS + 1];
    memcpy(sets, cx->ts->sets[cx->us], (size_t)n * sizeof *sets);
    sets[n] = support_ids(cx->ts, who, &fresh);
    if (!fresh && !sets_matchable(sets, n + 1)) {
        if (why) say_supports_taken(cx, x, e, who, why);
        return false;
    }
    Men after = cx->men;
    men_put(&after, e, cx->us, x, TRAVELING);
    Square unmatched = SQ_NONE;
    if (!men_matched(&after, cx->us, &unmatched)) {
        if (why) {
            text_add(why, "this leaves your ");
            say_piece(why, "traveling", men_type_at(&after, unmatched), unmatched);
            text_add(why, " with no resonator");
        }
        return false;
    }
    return true;
}

/* The squares the traveled half of type x can move to from e, as a piece
 * of the side to move would (pawns: pushes, captures, en passant). */
static Bitboard traveled_targets(const Ctx *cx, PieceType x, Square e)
{
    const Board *b = cx->b;
    Bitboard occ = board_occupied(b) | BB(e), own = b->by_color[cx->us];
    if (x != PAWN) return piece_attacks(x, e, occ) & ~own;
    Bitboard to = pawn_attacks(cx->us, e) & b->by_color[cx->them];
    if (b->ep != SQ_NONE) to |= pawn_attacks(cx->us, e) & BB(b->ep);
    if (relative_rank(cx->us, e) == 7) return 0;
    Square one = square_ahead(cx->us, e);
    if (!(occ & BB(one))) {
        to |= BB(one);
        if (relative_rank(cx->us, e) == 1 && !(occ & BB(square_ahead(cx->us, one)))) to |= BB(square_ahead(cx->us, one));
    }
    return to;
}

static bool is_en_passant(const Board *b, PieceType x, Square e, Square t)
{
    return x == PAWN && t == b->ep && square_file(e) != square_file(t);
}

/* The rest of an explosion's legality: where the traveled half goes, and
 * what the mover is left with. */
static bool explosion_move_ok(const Ctx *cx, PieceType x, Square e, Square t, PieceType promo, Text *why)
{
    const Board *b = cx->b;
    bool last = relative_rank(cx->us, t) == 7;
    if (!(traveled_targets(cx, x, e) & BB(t)) || (x == PAWN && last) != (promo != NO_TYPE) ||
        (promo != NO_TYPE && promo != QUEEN && promo != ROOK && promo != BISHOP && promo != KNIGHT)) {
        if (why) {
            text_addf(why, "a traveled %s on ", piece_type_name(x));
            say_square(why, e);
            text_add(why, " cannot move to ");
            say_square(why, t);
            if (x == PAWN && last && promo == NO_TYPE) text_add(why, " without promoting");
        }
        return false;
    }
    bool ep = is_en_passant(b, x, e, t);
    Square victim = ep ? square_behind(cx->us, t) : t;
    /* After an annihilation the pawn taken en passant is not on the board
     * before the explosion, so it is no resonator then (rules: the ban
     * uses the resonators as they were before the explosion); its
     * traveling twin comes back. */
    bool undo = ep && ep_after_annihilation(b);
    if (cx->banned & BB(victim)) {
        if (why) text_addf(why, "the traveled %s may not capture a traveling piece or a resonator", piece_type_name(x));
        return false;
    }
    bool capture = ep || (b->by_color[cx->them] & BB(t));
    if (x != KING && !capture && cx->quiet_safe) return true;
    Men after = cx->men;
    men_put(&after, e, cx->us, x, TRAVELING);
    if (undo) men_put(&after, victim, cx->them, PAWN, TRAVELING);
    else if (ep) men_remove(&after, victim);
    men_put(&after, t, cx->us, promo ? promo : x, TRAVELED);
    return final_verdict(cx, &after, cx->ts->lost, undo, why);
}

static void gen_explosions(Ctx *cx, MoveList *out)
{
    const Supports *sp = ctx_supports(cx);
    for (PieceType x = PAWN; x <= KING; x++) {
        Bitboard squares = 0;
        for (int i = 0; i < sp->count; i++) squares |= sp->reach[i][x];
        while (squares) {
            Square e = bb_pop(&squares);
            if (!explosion_support_ok(cx, x, e, NULL)) continue;
            Bitboard targets = traveled_targets(cx, x, e);
            while (targets) {
                Square t = bb_pop(&targets);
                bool promotes = x == PAWN && relative_rank(cx->us, t) == 7;
                for (int p = 0; p < (promotes ? 4 : 1); p++) {
                    PieceType promo = promotes ? PROMOTIONS[p] : NO_TYPE;
                    if (!explosion_move_ok(cx, x, e, t, promo, NULL)) continue;
                    Move m = move_make(e, t, MOVE_EXPLOSION, x, 0);
                    m.promo = promo;
                    movelist_add(out, m);
                }
            }
        }
    }
}

/* ---- Moves and annihilations -------------------------------------------- */

/* The men after a chess move of the side to move, and whether it takes a
 * traveling piece (which makes the opponent incorrect for good). */
static bool men_after_chess(const Ctx *cx, Move m, Men *after)
{
    *after = cx->men;
    Color us = cx->us;
    bool took_traveling = (after->traveling & after->by_color[cx->them] & BB(m.to)) != 0;
    switch (m.kind) {
    case MOVE_CASTLE: {
        const CastleRule *r = &CASTLE_RULES[us][m.to > m.from ? 0 : 1];
        men_move(after, m.from, m.to);
        men_move(after, r->rook_from, r->rook_to);
        break;
    }
    case MOVE_EN_PASSANT: {
        Square beyond = square_behind(us, m.to);
        men_move(after, m.from, m.to);
        /* An annihilation undone: the untraveled pawn is taken on the
         * square it skipped, and its traveling twin comes back. */
        if (ep_after_annihilation(cx->b)) men_put(after, beyond, cx->them, PAWN, TRAVELING);
        else men_remove(after, beyond);
        break;
    }
    case MOVE_PROMOTION: {
        int state = men_state_at(after, m.from);
        men_remove(after, m.from);
        men_put(after, m.to, us, m.piece, state);
        break;
    }
    default: men_move(after, m.from, m.to); break;
    }
    return took_traveling;
}

static bool chess_move_ok(const Ctx *cx, Move m, Text *why)
{
    int state = men_state_at(&cx->men, m.from);
    if (state == TRAVELING) {
        if (why) {
            text_add(why, "the ");
            say_piece(why, "traveling", piece_type(cx->b->squares[m.from]), m.from);
            text_add(why, " cannot move: traveling pieces never move");
        }
        return false;
    }
    if (m.kind == MOVE_CASTLE) {
        const CastleRule *r = &CASTLE_RULES[cx->us][m.to > m.from ? 0 : 1];
        if (state != UNTRAVELED || men_state_at(&cx->men, r->rook_from) != UNTRAVELED) {
            if (why) text_add(why, "only an untraveled king and an untraveled rook may castle");
            return false;
        }
        if (cx->checked) {
            if (why) text_add(why, "you may not castle while in check");
            return false;
        }
        Men transit = cx->men;
        men_move(&transit, r->king_from, (Square)((r->king_from + r->king_to) / 2));
        if (men_threat(&transit, cx->us, NULL)) {
            if (why) text_add(why, "you may not castle through a square where you would be in check");
            return false;
        }
    }
    Men after;
    uint8_t lost[2] = { cx->ts->lost[0], cx->ts->lost[1] };
    if (men_after_chess(cx, m, &after)) lost[cx->them] = 1;
    return final_verdict(cx, &after, lost, true, why);
}

/* Can the untraveled piece on f move onto its traveling twin on t (a
 * pawn only by a push)? */
static bool annihilation_shape(const Ctx *cx, Square f, Square t)
{
    const Board *b = cx->b;
    Piece p = b->squares[f];
    if (p == NO_PIECE || piece_color(p) != cx->us || b->squares[t] != p) return false;
    if (men_state_at(&cx->men, f) != UNTRAVELED || men_state_at(&cx->men, t) != TRAVELING) return false;
    if (piece_type(p) != PAWN) return (piece_attacks(piece_type(p), f, board_occupied(b)) & BB(t)) != 0;
    Square one = square_ahead(cx->us, f);
    if (t == one) return true;
    return relative_rank(cx->us, f) == 1 && t == square_ahead(cx->us, one) && !(board_occupied(b) & BB(one));
}

static bool annihilation_ok(const Ctx *cx, Square f, Square t, Text *why)
{
    if (!annihilation_shape(cx, f, t)) {
        if (why) {
            Piece p = cx->b->squares[f];
            if (p == NO_PIECE || piece_color(p) != cx->us) {
                text_add(why, "an annihilation starts from one of your untraveled pieces, and ");
                say_square(why, f);
                text_add(why, " holds none");
            } else if (men_state_at(&cx->men, f) != UNTRAVELED) {
                text_add(why, "only an untraveled piece can annihilate");
            } else if (cx->b->squares[t] != p || men_state_at(&cx->men, t) != TRAVELING) {
                text_addf(why, "an annihilation needs your traveling %s on ", piece_type_name(piece_type(p)));
                say_square(why, t);
            } else {
                text_add(why, "the ");
                say_piece(why, "untraveled", piece_type(p), f);
                text_add(why, " cannot move to ");
                say_square(why, t);
                if (piece_type(p) == PAWN) text_add(why, " (a pawn annihilates only by a push)");
            }
        }
        return false;
    }
    Men after = cx->men;
    men_remove(&after, f);
    men_remove(&after, t);
    return final_verdict(cx, &after, cx->ts->lost, false, why);
}

static void gen_annihilations(const Ctx *cx, MoveList *out)
{
    Bitboard travelers = cx->men.traveling & cx->men.by_color[cx->us];
    Bitboard occ = board_occupied(cx->b);
    while (travelers) {
        Square t = bb_pop(&travelers);
        PieceType x = piece_type(cx->b->squares[t]);
        Bitboard from = men_untraveled(&cx->men, cx->us) & cx->men.by_type[x];
        if (x == PAWN) from &= BB(square_behind(cx->us, t)) | (relative_rank(cx->us, t) == 3 ? BB(square_behind(cx->us, square_behind(cx->us, t))) : 0);
        else from &= piece_attacks(x, t, occ);
        while (from) {
            Square f = bb_pop(&from);
            if (annihilation_ok(cx, f, t, NULL)) movelist_add(out, move_make(f, t, MOVE_ANNIHILATION, NO_TYPE, 0));
        }
    }
}

static bool gen_state(const State *s, MoveList *out)
{
    Ctx cx;
    ctx_init(&cx, s);
    int first = out->count;
    if (!gen_pseudo(cx.b, out)) return false;
    int kept = first;
    for (int i = first; i < out->count; i++)
        if (chess_move_ok(&cx, out->moves[i], NULL)) out->moves[kept++] = out->moves[i];
    out->count = kept;
    gen_annihilations(&cx, out);
    gen_explosions(&cx, out);
    return !out->failed;
}

/* Is m legal?  If not, why writes the rule that forbids it. */
static bool judge_action(const State *s, Move m, Text *why)
{
    Ctx cx;
    ctx_init(&cx, s);
    if (m.from >= 64 || m.to >= 64) {
        if (why) text_add(why, "not an action of this game");
        return false;
    }
    if (m.kind == MOVE_EXPLOSION) {
        PieceType x = m.piece;
        if (x < PAWN || x > KING) {
            if (why) text_add(why, "an explosion names a piece type");
            return false;
        }
        return explosion_support_ok(&cx, x, m.from, why) && explosion_move_ok(&cx, x, m.from, m.to, m.promo, why);
    }
    if (m.kind == MOVE_ANNIHILATION) return annihilation_ok(&cx, m.from, m.to, why);
    Piece p = cx.b->squares[m.from];
    if (p == NO_PIECE || piece_color(p) != cx.us) {
        if (why) {
            text_add(why, "you have no piece on ");
            say_square(why, m.from);
        }
        return false;
    }
    MoveList pseudo;
    movelist_init(&pseudo);
    if (!gen_pseudo(cx.b, &pseudo)) {
        if (why) text_add(why, "out of memory");
        return false;
    }
    bool shape = movelist_contains(&pseudo, m);
    movelist_free(&pseudo);
    if (!shape) {
        if (why) {
            text_add(why, "the ");
            say_piece(why, "", piece_type(p), m.from);
            text_add(why, " cannot move to ");
            say_square(why, m.to);
        }
        return false;
    }
    return chess_move_ok(&cx, m, why);
}

bool travelers_refusal(const Line *l, Move m, Text *err)
{
    Text why = TEXT_INIT;
    if (judge_action(line_state(l), m, &why)) text_add(&why, "that action is legal");
    bool ok = !why.failed;
    text_fail(err, "%s", ok ? text_str(&why) : "out of memory");
    text_free(&why);
    return false;
}

/* ---- Applying an action ------------------------------------------------- */

static void state_bits_move(TravelersState *ts, Square f, Square t)
{
    Bitboard from = BB(f), to = BB(t);
    ts->traveling &= ~to;
    ts->traveled &= ~to;
    if (ts->traveling & from) ts->traveling ^= from | to;
    if (ts->traveled & from) ts->traveled ^= from | to;
}

static void apply_chess(State *next, Move m)
{
    Board *b = &next->board;
    TravelersState *ts = tstate(next);
    Color us = b->side, them = (Color)!us;
    if (ts->traveling & b->by_color[them] & BB(m.to)) ts->lost[them] = 1;
    bool undone = m.kind == MOVE_EN_PASSANT && ep_after_annihilation(b);
    Square beyond = square_behind(us, m.to);
    tags_after_move(&ts->id, b, m);
    state_bits_move(ts, m.from, m.to);
    if (m.kind == MOVE_CASTLE) {
        const CastleRule *r = &CASTLE_RULES[us][m.to > m.from ? 0 : 1];
        state_bits_move(ts, r->rook_from, r->rook_to);
    }
    board_make(b, m);
    if (m.kind == MOVE_EN_PASSANT) {
        ts->traveling &= ~BB(beyond);
        ts->traveled &= ~BB(beyond);
    }
    if (undone) {
        board_put(b, beyond, make_piece(them, PAWN));
        ts->traveling |= BB(beyond);
    }
}

/* Gives identities to the supporters that have none, in square order,
 * and records the explosion's support set. */
static void record_explosion(TravelersState *ts, Color us, Bitboard who, PieceType x, Square e)
{
    uint32_t set = 0;
    while (who) {
        Square s = bb_pop(&who);
        if (!ts->id.tag[s]) ts->id.tag[s] = ++ts->ids;
        set |= 1u << (ts->id.tag[s] - 1);
    }
    int n = ts->explosions[us]++;
    ts->sets[us][n] = set;
    ts->square[us][n] = e;
    ts->type[us][n] = x;
}

static void apply_explosion(const State *now, State *next, Move m)
{
    Board *b = &next->board;
    TravelersState *ts = tstate(next);
    Color us = b->side;
    Supports sp;
    travelers_supports(now, us, &sp);
    record_explosion(ts, us, travelers_supporters(&sp, m.piece, m.from), m.piece, m.from);
    bool ep = is_en_passant(b, m.piece, m.from, m.to);
    bool undo = ep && ep_after_annihilation(b);
    Square victim = ep ? square_behind(us, m.to) : m.to;
    board_remove(b, victim);
    ts->id.tag[victim] = 0;
    ts->traveling &= ~BB(victim);
    ts->traveled &= ~BB(victim);
    if (undo) {
        board_put(b, victim, make_piece((Color)!us, PAWN));
        ts->traveling |= BB(victim);
    }
    board_put(b, m.from, make_piece(us, m.piece));
    ts->traveling |= BB(m.from);
    board_put(b, m.to, make_piece(us, m.promo ? m.promo : m.piece));
    ts->traveled |= BB(m.to);
    board_set_castling(b, castling_after_touch(castling_after_touch(b->castling, m.from), m.to));
    bool dbl = m.piece == PAWN && square_file(m.from) == square_file(m.to) &&
               (m.to > m.from ? m.to - m.from : m.from - m.to) == 16;
    board_end_turn(b, true);
    if (dbl) board_set_ep(b, (Square)((m.from + m.to) / 2));
}

static void apply_annihilation(State *next, Move m)
{
    Board *b = &next->board;
    TravelersState *ts = tstate(next);
    bool dbl = piece_type(b->squares[m.from]) == PAWN && (m.to > m.from ? m.to - m.from : m.from - m.to) == 16;
    board_remove(b, m.from);
    board_remove(b, m.to);
    ts->id.tag[m.from] = ts->id.tag[m.to] = 0;
    ts->traveling &= ~BB(m.to);
    board_set_castling(b, castling_after_touch(castling_after_touch(b->castling, m.from), m.to));
    board_end_turn(b, true);
    /* A double step that annihilates can still be taken en passant,
     * which undoes the annihilation (rules, en passant). */
    if (dbl) board_set_ep(b, (Square)((m.from + m.to) / 2));
}

static uint64_t travelers_ext_key(const Options *o, const State *s);

void travelers_apply_state(const State *now, Move m, State *next)
{
    memcpy(next, now, sizeof(State) + sizeof(TravelersState));
    if (m.kind == MOVE_EXPLOSION) apply_explosion(now, next, m);
    else if (m.kind == MOVE_ANNIHILATION) apply_annihilation(next, m);
    else apply_chess(next, m);
    next->ext_key = travelers_ext_key(NULL, next);
}

static int travelers_apply(const Line *l, Move m, State *next)
{
    travelers_apply_state(line_state(l), m, next);
    return line_current(l);
}

/* ---- Check, outcome, repetition ----------------------------------------- */

bool travelers_check_threat(const State *s, Move *threat)
{
    Men m;
    men_from_state(s, &m);
    return men_threat(&m, s->board.side, threat);
}

static bool travelers_in_check(const Line *l) { return travelers_check_threat(line_state(l), NULL); }

static bool travelers_generate(const Line *l, MoveList *out) { return gen_state(line_state(l), out); }

/* Incorrectness ends the game before anything else: the side that just
 * moved cannot be incorrect, so it is the side to move (rules, status
 * order). */
static bool travelers_outcome(const Line *l, Outcome *out)
{
    const State *s = line_state(l);
    for (Color c = WHITE; c <= BLACK; c++) {
        Color who = c == WHITE ? s->board.side : (Color)!s->board.side;
        if (!travelers_correct(s, who)) {
            *out = outcome_make(result_loss_for(who), REASON_GRAMMATICALLY_INCORRECT, who);
            return true;
        }
    }
    int count;
    if (!legal_count(l, &count)) return false;
    *out = standard_outcome(l, count, false);
    return true;
}

/* Could `side` still win, by checkmate or by leaving its opponent
 * grammatically incorrect (docs/rules/travelers.md, "Time")?  Only a
 * side whose men are all kings, none untraveled, may be unable to: an
 * untraveled king can explode, its traveled half take the opponent's
 * last king, and the untraveled king then annihilate the traveling one,
 * which leaves the opponent kingless before a resolved side.  Then:
 *  - with no traveled king, none of its men can ever move;
 *  - if the opponent has an untraveled man (which can explode) or a
 *    traveling one, a traveled king can take a traveling piece of the
 *    opponent's, which leaves the opponent incorrect;
 *  - otherwise the opponent can never be incorrect, and mate needs the
 *    side resolved (it never is with a traveling king, which nothing can
 *    annihilate) and a check, which one king cannot give (the king next
 *    to the opponent's would be taken, the side left kingless); two
 *    traveled kings can mate a king together. */
static bool travelers_can_win(const Line *l, Color side)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    const TravelersState *ts = travelers_cstate(s);
    Bitboard mine = b->by_color[side], kings = board_kings(b, side), theirs = b->by_color[!side];
    if ((mine & ~kings) || (kings & ~ts->traveling & ~ts->traveled)) return true;
    Bitboard traveled_kings = kings & ts->traveled;
    if (!traveled_kings) return false;
    if (theirs & ~ts->traveled) return true;
    return !(kings & ts->traveling) && bb_many(traveled_kings);
}

/* Is there a legal action that takes en passant (a pawn's move, or the
 * traveled half of an exploding pawn)?  Only then does the en passant
 * square make a position what it is. */
static bool ep_counts(const State *s)
{
    const Board *b = &s->board;
    if (b->ep == SQ_NONE) return false;
    Ctx cx;
    ctx_init(&cx, s);
    Bitboard pawns = pawn_attacks((Color)!b->side, b->ep) & board_pieces(b, b->side, PAWN) & ~cx.men.traveling;
    while (pawns)
        if (chess_move_ok(&cx, move_make(bb_pop(&pawns), b->ep, MOVE_EN_PASSANT, NO_TYPE, 0), NULL)) return true;
    Bitboard squares = pawn_attacks((Color)!b->side, b->ep) & ~board_occupied(b);
    while (squares) {
        Square e = bb_pop(&squares);
        if (explosion_support_ok(&cx, PAWN, e, NULL) && explosion_move_ok(&cx, PAWN, e, b->ep, NO_TYPE, NULL))
            return true;
    }
    return false;
}

/* The key of everything besides the board that makes a position itself:
 * the states of the pieces, the support sets, the identities of the
 * pieces in them, a lost traveling piece.  The board's own key counts the
 * en passant file when a chess capture is legal; this one puts it right
 * for this game's en passant (ep_counts). */
static uint64_t travelers_ext_key(const Options *o, const State *s)
{
    enum { DOMAIN = 3, TRAVELING_AT = 1, TRAVELED_AT = 2, ID_AT = 3, SET = 4, LOST = 5 };
    (void)o;
    const TravelersState *ts = travelers_cstate(s);
    uint64_t key = 0;
    Bitboard bits = ts->traveling;
    while (bits) key ^= zobrist_feature(DOMAIN, ((uint64_t)TRAVELING_AT << 56) | bb_pop(&bits));
    bits = ts->traveled;
    while (bits) key ^= zobrist_feature(DOMAIN, ((uint64_t)TRAVELED_AT << 56) | bb_pop(&bits));
    if (ts->ids) {
        bits = board_occupied(&s->board);
        while (bits) {
            Square sq = bb_pop(&bits);
            if (ts->id.tag[sq]) key ^= zobrist_feature(DOMAIN, ((uint64_t)ID_AT << 56) | ((uint64_t)ts->id.tag[sq] << 8) | sq);
        }
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        for (int i = 0; i < ts->explosions[c]; i++)
            key ^= zobrist_feature(DOMAIN, ((uint64_t)SET << 56) | ((uint64_t)c << 48) | ((uint64_t)i << 40) | ts->sets[c][i]);
        if (ts->lost[c]) key ^= zobrist_feature(DOMAIN, ((uint64_t)LOST << 56) | c);
    }
    const Board *b = &s->board;
    if (b->ep != SQ_NONE && board_ep_capture_legal(b) != ep_counts(s)) key ^= ZOBRIST_EP_FILE[square_file(b->ep)];
    return key;
}

static bool travelers_same_position(const State *a, const State *b)
{
    const TravelersState *ta = travelers_cstate(a), *tb = travelers_cstate(b);
    if (!same_pieces_side_castling(&a->board, &b->board)) return false;
    Square ea = ep_counts(a) ? a->board.ep : SQ_NONE, eb = ep_counts(b) ? b->board.ep : SQ_NONE;
    if (ea != eb || ta->traveling != tb->traveling || ta->traveled != tb->traveled) return false;
    if (memcmp(ta->lost, tb->lost, sizeof ta->lost) || memcmp(ta->explosions, tb->explosions, sizeof ta->explosions))
        return false;
    for (Color c = WHITE; c <= BLACK; c++)
        if (memcmp(ta->sets[c], tb->sets[c], ta->explosions[c] * sizeof ta->sets[c][0])) return false;
    return !memcmp(&ta->id, &tb->id, sizeof ta->id);
}

/* ---- FEN ---------------------------------------------------------------- */

/*
 * Time Traveler's Chess FEN: the placement marks a traveling piece N' and
 * a traveled one N"; then the six usual fields; then three of the game's
 * own, each "-" when empty (trailing ones may be left out):
 *   identities   b1:1,g1:2      untraveled pieces that have supported an
 *                               explosion: square, identity
 *   explosions   Nf6:1,pd3:3+4  each explosion in the order made (White's,
 *                               then Black's): the piece letter (White upper
 *                               case), the square, the identities of its
 *                               supports joined by +
 *   flags        WB             a side that has lost a traveling piece
 * An en passant square with nothing beyond it follows a double step that
 * annihilated.  docs/notation.md has the whole story.
 */
enum { FEN_MAX = 512 };

/* Splits the placement's marks off: writes the placement without them
 * to `plain` and each square's state to `states`. */
static bool read_marked_placement(const char *p, size_t len, char *plain, size_t room, uint8_t states[64],
                                  Text *err)
{
    size_t n = 0;
    int rank = 7, file = 0;
    memset(states, 0, 64);
    for (size_t i = 0; i < len; i++) {
        char ch = p[i];
        if (ch == '\'' || ch == '"') {
            if (i == 0 || !strchr("PNBRQKpnbrqk", p[i - 1]))
                return text_fail(err, "bad FEN: a mark %c must follow a piece letter (N' traveling, N\" traveled)", ch);
            if (file >= 1 && file <= 8 && rank >= 0) states[make_square(file - 1, rank)] = ch == '\'' ? TRAVELING : TRAVELED;
            continue;
        }
        if (ch == '/') {
            rank--;
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
        } else {
            file++;
        }
        if (n + 1 >= room) return text_fail(err, "bad FEN: the placement is too long");
        plain[n++] = ch;
    }
    plain[n] = 0;
    return true;
}

/* Is the square empty in a placement (without marks)? */
static bool states_square_empty(const char *placement, Square target)
{
    int rank = 7, file = 0;
    for (const char *c = placement; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            int n = *c - '0';
            if (rank == square_rank(target) && square_file(target) >= file && square_file(target) < file + n) return true;
            file += n;
        } else {
            if (rank == square_rank(target) && file == square_file(target)) return false;
            file++;
        }
    }
    return true;
}

static bool read_id_number(const char **p, const char *end, int *id)
{
    int v = 0, digits = 0;
    while (*p < end && **p >= '0' && **p <= '9' && digits < 3) v = v * 10 + (*(*p)++ - '0'), digits++;
    *id = v;
    return digits > 0 && v >= 1 && v <= TRAVELERS_MAX_IDS;
}

static bool read_identities(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    const char *end = p + len;
    if (len == 1 && *p == '-') return true;
    while (p < end) {
        char name[3] = { p[0], p + 1 < end ? p[1] : 0, 0 };
        Square sq = square_parse(name);
        p += 2;
        int id;
        if (sq == SQ_NONE || p >= end || *p++ != ':' || !read_id_number(&p, end, &id) || (p < end && *p++ != ','))
            return text_fail(err, "bad FEN: identities are written b1:1,g1:2 (square:identity 1-%d)", TRAVELERS_MAX_IDS);
        Piece pc = s->board.squares[sq];
        if (pc == NO_PIECE || travelers_piece_state(s, sq) != UNTRAVELED)
            return text_fail(err, "bad FEN: an identity belongs to an untraveled piece, and %s holds none", name);
        if (ts->id.tag[sq]) return text_fail(err, "bad FEN: %s has two identities", name);
        for (int q = 0; q < 64; q++)
            if (ts->id.tag[q] == id) return text_fail(err, "bad FEN: identity %d is given twice", id);
        ts->id.tag[sq] = (uint16_t)id;
    }
    return true;
}

static bool read_explosions(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    const char *end = p + len;
    if (len == 1 && *p == '-') return true;
    while (p < end) {
        char letter = *p++;
        PieceType x = piece_type_from_letter(letter);
        Color c = letter >= 'a' ? BLACK : WHITE;
        char name[3] = { p < end ? p[0] : 0, p + 1 < end ? p[1] : 0, 0 };
        Square sq = square_parse(name);
        p += 2;
        if (x == NO_TYPE || sq == SQ_NONE || p >= end || *p++ != ':')
            return text_fail(err, "bad FEN: explosions are written Nf6:1,pd3:2+3 (piece, square, identities of its supports)");
        uint32_t set = 0;
        for (;;) {
            int id;
            if (!read_id_number(&p, end, &id))
                return text_fail(err, "bad FEN: an explosion's supports are identities 1-%d joined by +", TRAVELERS_MAX_IDS);
            set |= 1u << (id - 1);
            if (id > ts->ids) ts->ids = (uint8_t)id;
            if (p < end && *p == '+') {
                p++;
                continue;
            }
            break;
        }
        if (p < end && *p++ != ',') return text_fail(err, "bad FEN: explosions are separated by commas");
        if (ts->explosions[c] >= TRAVELERS_MAX_EXPLOSIONS)
            return text_fail(err, "bad FEN: %s has more than %d explosions", color_name(c), TRAVELERS_MAX_EXPLOSIONS);
        int n = ts->explosions[c]++;
        ts->sets[c][n] = set;
        ts->square[c][n] = sq;
        ts->type[c][n] = x;
    }
    return true;
}

static bool read_flags(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    if (len == 1 && *p == '-') return true;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == 'W') ts->lost[WHITE] = 1;
        else if (p[i] == 'B') ts->lost[BLACK] = 1;
        else return text_fail(err, "bad FEN: the flags are '-', W or B (a side that has lost a traveling piece)");
    }
    return true;
}

/* What must hold of a position for the game to have reached it. */
static bool check_position(const State *s, Text *err)
{
    const TravelersState *ts = travelers_cstate(s);
    const Board *b = &s->board;
    for (Color c = WHITE; c <= BLACK; c++) {
        Bitboard untraveled = b->by_color[c] & ~(ts->traveling | ts->traveled);
        if (bb_count(untraveled) > TRAVELERS_MAX_UNTRAVELED)
            return text_fail(err, "bad FEN: %s has %d untraveled pieces, and a side starts with %d and never gains one",
                             color_name(c), bb_count(untraveled), TRAVELERS_MAX_UNTRAVELED);
        int travelers = bb_count(b->by_color[c] & ts->traveling);
        if (travelers > ts->explosions[c])
            return text_fail(err, "bad FEN: %s has %d traveling pieces but has made %d explosions", color_name(c),
                             travelers, ts->explosions[c]);
        if (!sets_matchable(ts->sets[c], ts->explosions[c]))
            return text_fail(err, "bad FEN: %s's explosions cannot each have a support of their own", color_name(c));
        uint32_t all = 0;
        for (int i = 0; i < ts->explosions[c]; i++) all |= ts->sets[c][i];
        Bitboard own = b->by_color[c];
        while (own) {
            Square sq = bb_pop(&own);
            uint16_t id = ts->id.tag[sq];
            if (id && !(all & (1u << (id - 1)))) {
                char name[3];
                square_name(sq, name);
                return text_fail(err, "bad FEN: the identity %d of %s supports none of %s's explosions", id, name,
                                 color_name(c));
            }
        }
        for (int i = 0; i < 2; i++) {
            const CastleRule *r = &CASTLE_RULES[c][i];
            if ((b->castling & r->right) && ((ts->traveling | ts->traveled) & (BB(r->king_from) | BB(r->rook_from))))
                return text_fail(err, "bad FEN: castling needs an untraveled king and rook");
        }
    }
    Color mover = b->side, other = (Color)!mover;
    if (!travelers_correct(s, other))
        return text_fail(err, "bad FEN: %s, not to move, is grammatically incorrect (that position cannot arise)",
                         color_name(other));
    Men m;
    men_from_state(s, &m);
    if (travelers_correct(s, mover) && men_threat(&m, other, NULL))
        return text_fail(err, "bad FEN: %s is in check, but %s is to move (that position cannot arise)",
                         color_name(other), color_name(mover));
    return true;
}

static State *travelers_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    State *s = state_new(sizeof(TravelersState), err);
    if (!s) return NULL;
    TravelersState *ts = tstate(s);
    const char *p = fen, *start;
    char plain[FEN_MAX];
    uint8_t states[64];
    size_t len = fen_next_field(&p, &start);
    if (!read_marked_placement(start, len, plain, sizeof plain, states, err)) goto fail;
    /* The board's reader wants a pawn beyond an en passant square; after
     * an annihilation there is none, so such a square is read here. */
    size_t used = strlen(plain);
    Square ep_annihilated = SQ_NONE;
    for (int field = 1; field < 6; field++) {
        size_t n = fen_next_field(&p, &start);
        if (!n) break;
        if (used + n + 2 >= sizeof plain) {
            text_fail(err, "bad FEN: too long");
            goto fail;
        }
        plain[used++] = ' ';
        if (field == 3 && n == 2) {
            Square ep = square_parse((char[3]){ start[0], start[1], 0 });
            Square beyond = ep < 64 && square_rank(ep) == 2 ? (Square)(ep + 8) : ep < 64 && square_rank(ep) == 5 ? (Square)(ep - 8) : SQ_NONE;
            if (beyond != SQ_NONE && plain[0] && states_square_empty(plain, beyond)) {
                ep_annihilated = ep;
                start = "-";
                n = 1;
            }
        }
        memcpy(plain + used, start, n);
        used += n;
        plain[used] = 0;
    }
    const char *rest;
    if (!board_from_fen(&s->board, plain, &rest, err)) goto fail;
    if (ep_annihilated != SQ_NONE) {
        Board *bd = &s->board;
        Color mover = (Color)!bd->side;
        Square from = square_behind(mover, ep_annihilated), beyond = square_ahead(mover, ep_annihilated);
        if (square_rank(ep_annihilated) != (bd->side == WHITE ? 5 : 2) ||
            (board_occupied(bd) & (BB(from) | BB(ep_annihilated) | BB(beyond)))) {
            text_fail(err, "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank that a pawn "
                           "has just skipped");
            goto fail;
        }
        board_set_ep(bd, ep_annihilated);
    }
    for (Square sq = 0; sq < 64; sq++) {
        if (!states[sq]) continue;
        if (s->board.squares[sq] == NO_PIECE) {
            text_fail(err, "bad FEN: a state mark on an empty square");
            goto fail;
        }
        if (states[sq] == TRAVELING) ts->traveling |= BB(sq);
        else ts->traveled |= BB(sq);
    }
    size_t n = fen_next_field(&p, &start);
    if (n && !read_identities(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n && !read_explosions(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n && !read_flags(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n) {
        text_fail(err, "bad FEN: unexpected '%.*s' after the flags", (int)(n > 20 ? 20 : n), start);
        goto fail;
    }
    for (Square sq = 0; sq < 64; sq++)
        if (ts->id.tag[sq] > ts->ids) ts->ids = (uint8_t)ts->id.tag[sq];
    if (!check_position(s, err)) goto fail;
    s->ext_key = travelers_ext_key(o, s);
    return s;
fail:
    free(s);
    return NULL;
}

static void travelers_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    const Board *b = &s->board;
    const TravelersState *ts = travelers_cstate(s);
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Square sq = make_square(file, rank);
            Piece p = b->squares[sq];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) text_addf(out, "%d", empty);
            empty = 0;
            char letter = piece_letter(piece_type(p));
            text_add_char(out, piece_color(p) == WHITE ? letter : (char)(letter - 'A' + 'a'));
            int state = travelers_piece_state(s, sq);
            if (state == TRAVELING) text_add_char(out, '\'');
            if (state == TRAVELED) text_add_char(out, '"');
        }
        if (empty) text_addf(out, "%d", empty);
        if (rank) text_add_char(out, '/');
    }
    /* The six fields of the board's own FEN after its placement. */
    Text board = TEXT_INIT;
    Board copy = *b;
    bool annihilated = ep_after_annihilation(b);
    if (annihilated) board_set_ep(&copy, SQ_NONE);
    board_to_fen(&copy, &board);
    const char *fields = strchr(text_str(&board), ' ');
    if (annihilated) {
        /* The board writes '-' for the square it does not know. */
        const char *f = fields;
        for (int i = 0; i < 2 && f; i++) f = strchr(f + 1, ' ');
        char name[3];
        square_name(b->ep, name);
        if (f) text_addf(out, "%.*s %s %s", (int)(f - fields), fields, name, f + 3);
    } else if (fields) {
        text_add(out, fields);
    }
    text_free(&board);
    bool any = ts->explosions[WHITE] || ts->explosions[BLACK] || ts->lost[WHITE] || ts->lost[BLACK];
    if (!any) return;
    text_add_char(out, ' ');
    int n = 0;
    for (Square sq = 0; sq < 64; sq++) {
        if (!ts->id.tag[sq]) continue;
        char name[3];
        square_name(sq, name);
        text_addf(out, "%s%s:%u", n++ ? "," : "", name, (unsigned)ts->id.tag[sq]);
    }
    if (!n) text_add_char(out, '-');
    text_add_char(out, ' ');
    n = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int i = 0; i < ts->explosions[c]; i++) {
            char letter = piece_letter(ts->type[c][i]), name[3];
            square_name(ts->square[c][i], name);
            text_addf(out, "%s%c%s:", n++ ? "," : "", c == WHITE ? letter : (char)(letter - 'A' + 'a'), name);
            uint32_t set = ts->sets[c][i];
            for (int k = 0; set; k++) {
                int id = __builtin_ctz(set) + 1;
                set &= set - 1;
                text_addf(out, "%s%d", k ? "+" : "", id);
            }
        }
    if (!n) text_add_char(out, '-');
    text_add_char(out, ' ');
    if (ts->lost[WHITE]) text_add_char(out, 'W');
    if (ts->lost[BLACK]) text_add_char(out, 'B');
    if (!ts->lost[WHITE] && !ts->lost[BLACK]) text_add_char(out, '-');
}

/* ---- Explaining check --------------------------------------------------- */

static void say_men(Text *out, const Men *m, Bitboard squares)
{
    int n = bb_count(squares), i = 0;
    while (squares) {
        Square q = bb_pop(&squares);
        text_addf(out, "%s%s on ", i == 0 ? "" : i == n - 1 ? " and " : ", ", piece_type_name(men_type_at(m, q)));
        say_square(out, q);
        i++;
    }
}

bool travelers_explain_check(const State *s, Text *out)
{
    Men m;
    men_from_state(s, &m);
    Color c = s->board.side, o = (Color)!c;
    const char *us = c == WHITE ? "White" : "Black", *them = o == WHITE ? "White" : "Black";
    Bitboard theirs = m.traveling & m.by_color[o];
    bool kingless = men_kingless(&m, c, SQ_NONE);
    Move threat;
    bool checked = men_threat(&m, c, &threat);
    text_addf(out, "%s is %sin check.\n", us, checked ? "" : "not ");
    text_addf(out, "A side is in check when its opponent has an action after which it is kingless (no king,\n"
                   "or an untraveled and a traveling king but no traveled one) while the opponent is resolved\n"
                   "(has no traveling pieces).\n");
    text_addf(out, "%s is %s; %s has %d traveling piece%s", us, kingless ? "kingless already" : "not kingless", them,
              bb_count(theirs), bb_count(theirs) == 1 ? "" : "s");
    if (theirs) {
        text_add(out, " (");
        say_men(out, &m, theirs);
        text_add(out, ")");
    }
    text_add(out, ".\n");
    if (checked) {
        char f[3], t[3];
        if (threat.kind == MOVE_ANNIHILATION) {
            square_name(threat.from, f);
            square_name(threat.to, t);
            text_addf(out, "%s could annihilate %s//%s and be resolved, and %s would stay kingless.\n", them, f, t, us);
        } else if (threat.kind == MOVE_NULL) {
            text_addf(out, "Any move of %s's leaves %s kingless, and %s is resolved.\n", them, us, them);
        } else {
            square_name(threat.from, f);
            square_name(threat.to, t);
            text_addf(out, "%s could take the %s on %s with the %s on %s (%s%s), which would leave %s kingless while %s is resolved.\n",
                      them, travelers_piece_state(s, threat.to) == TRAVELED ? "traveled king" : travelers_piece_state(s, threat.to) == TRAVELING ? "traveling king" : "king",
                      t, piece_type_name(men_type_at(&m, threat.from)), f, f, t, us, them);
        }
        return !out->failed;
    }
    if (bb_many(theirs)) {
        text_addf(out, "No single action can rid %s of %d traveling pieces (an annihilation removes one, an explosion adds one).\n",
                  them, bb_count(theirs));
    } else if (theirs) {
        if (!kingless) text_addf(out, "Only an annihilation could resolve %s, and it takes nothing, so %s keeps a king.\n", them, us);
        else text_addf(out, "%s is kingless, but no untraveled piece of %s's can annihilate its traveling piece this move.\n", us, them);
    } else if (kingless) {
        text_addf(out, "%s is kingless, but %s has no move that keeps it so.\n", us, them);
    } else {
        Bitboard kings = men_of(&m, c, KING), safe = 0, spare = 0;
        while (kings) {
            Square k = bb_pop(&kings);
            if (men_kingless(&m, c, k)) safe |= BB(k);
            else spare |= BB(k);
        }
        if (safe) {
            text_addf(out, "%s is resolved, but no piece of %s's can take ", them, them);
            say_men(out, &m, safe);
            text_addf(out, "%s.\n", spare ? " (the only kings whose loss would leave it kingless)" : "");
        } else {
            text_addf(out, "%s is resolved, but losing any one king would still leave %s a king.\n", them, us);
        }
    }
    return !out->failed;
}

/* ---- The play screen ---------------------------------------------------- */

static void describe_side(const State *s, Color c, Text *out)
{
    const TravelersState *ts = travelers_cstate(s);
    const char *who = c == WHITE ? "White" : "Black";
    Bitboard travelers = ts->traveling & s->board.by_color[c];
    text_addf(out, "%s: %s, %s, %s\n", who, travelers ? "unresolved" : "resolved",
              travelers_kingless(s, c) ? "kingless" : "has a king",
              travelers_correct(s, c) ? "correct" : "INCORRECT");
    while (travelers) {
        Square q = bb_pop(&travelers);
        char name[3];
        square_name(q, name);
        text_addf(out, "  %c'%s resonators:", piece_letter(piece_type(s->board.squares[q])), name);
        Bitboard r = travelers_resonators_of(s, q);
        if (!r) text_add(out, " none");
        /* Eight squares a line keep the panel beside the board. */
        for (int n = 0; r; n++) {
            if (n && n % 8 == 0) text_add(out, "\n                  ");
            square_name(bb_pop(&r), name);
            text_addf(out, " %s", name);
        }
        text_add_char(out, '\n');
    }
    for (int i = 0; i < ts->explosions[c]; i++) {
        char name[3];
        square_name(ts->square[c][i], name);
        text_addf(out, "  %c%s supports:", piece_letter(ts->type[c][i]), name);
        uint32_t set = ts->sets[c][i];
        while (set) {
            int id = __builtin_ctz(set) + 1;
            set &= set - 1;
            Square at = SQ_NONE;
            for (Square sq = 0; sq < 64; sq++)
                if (ts->id.tag[sq] == id) at = sq;
            if (at == SQ_NONE) {
                text_add(out, " (taken)");
                continue;
            }
            square_name(at, name);
            text_addf(out, " %s", name);
        }
        text_add_char(out, '\n');
    }
    if (ts->lost[c]) text_addf(out, "  %s lost a traveling piece\n", who);
}

static bool travelers_describe(const Line *l, Text *out)
{
    const State *s = line_state(l);
    describe_side(s, WHITE, out);
    describe_side(s, BLACK, out);
    if (line_in_check(l)) {
        Move threat;
        travelers_check_threat(s, &threat);
        text_addf(out, "%s is in check", s->board.side == WHITE ? "White" : "Black");
        if (threat.kind != MOVE_NULL) {
            char f[3], t[3];
            square_name(threat.from, f);
            square_name(threat.to, t);
            text_addf(out, ": %s%s%s", f, threat.kind == MOVE_ANNIHILATION ? "//" : "", t);
        }
        text_add_char(out, '\n');
    }
    return !out->failed;
}

static char travelers_piece_mark(const State *s, Square sq)
{
    int state = travelers_piece_state(s, sq);
    return state == TRAVELING ? '\'' : state == TRAVELED ? '"' : 0;
}

/* ---- The variant -------------------------------------------------------- */

const Variant VARIANT_TRAVELERS = {
    .name = "travelers",
    .title = "Time Traveler's Chess",
    .evaluator = &EVAL_TRAVELERS,
    .start_fen = STARTPOS_FEN,
    .notation_help = "Time travel (human form / coordinate form):\n"
                     "  Nf6/e8  / Nf6/e8   a knight explodes on f6; its traveled half moves to e8\n"
                     "  d4/e5   / d4/e5    a pawn explodes on d4 and takes on e5 (e7/e8q promotes)\n"
                     "  Nb8//c6 / b8//c6   the untraveled knight on b8 annihilates with its twin on c6\n"
                     "  d2//d4  / d2//d4   the same for pawns (by a push only)\n"
                     "FEN marks a traveling piece N' and a traveled one N\".\n",
    .ext_size = sizeof(TravelersState),
    .from_fen = travelers_from_fen,
    .to_fen = travelers_to_fen,
    .generate = travelers_generate,
    .apply = travelers_apply,
    .in_check = travelers_in_check,
    .outcome = travelers_outcome,
    .can_win = travelers_can_win,
    .ext_key = travelers_ext_key,
    .same_position = travelers_same_position,
    .parse = travelers_parse,
    .format_coord = travelers_format_coord,
    .format_human = travelers_format_human,
    .piece_mark = travelers_piece_mark,
    .describe = travelers_describe,
};
