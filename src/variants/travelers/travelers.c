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
 *
 * This file: the men's states, grammar, kings and check, applying an
 * action, the outcome, the play screen and the table.  The support search
 * is travelers_support.c, the judge and the generator travelers_judge.c,
 * the FEN travelers_fen.c; travelers_men.h is what they share.
 */
#include "travelers_men.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "zobrist.h"
#include "movegen.h"

/* ---- Men ---------------------------------------------------------------- */

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
bool men_matched(const Men *m, Color c, Square *unmatched)
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

bool men_correct(const Men *m, const uint8_t lost[2], Color c)
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
Bitboard men_resonators(const Men *m, Color c)
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
bool men_kingless(const Men *m, Color c, Square gone)
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
bool men_threat(const Men *m, Color c, Move *how)
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

static bool travelers_generate(const Line *l, MoveList *out) { return travelers_gen_state(line_state(l), out); }

static bool travelers_generate_chess(const Line *l, MoveList *out) { return travelers_gen_chess(line_state(l), out); }

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

/* The key of everything besides the board that makes a position itself:
 * the states of the pieces, the support sets, the identities of the
 * pieces in them, a lost traveling piece.  The board's own key counts the
 * en passant file when a chess capture is legal; this one puts it right
 * for this game's en passant (travelers_ep_counts). */
uint64_t travelers_ext_key(const Options *o, const State *s)
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
    if (b->ep != SQ_NONE && board_ep_capture_legal(b) != travelers_ep_counts(s)) key ^= ZOBRIST_EP_FILE[square_file(b->ep)];
    return key;
}

static bool travelers_same_position(const State *a, const State *b)
{
    const TravelersState *ta = travelers_cstate(a), *tb = travelers_cstate(b);
    if (!same_pieces_side_castling(&a->board, &b->board)) return false;
    Square ea = travelers_ep_counts(a) ? a->board.ep : SQ_NONE, eb = travelers_ep_counts(b) ? b->board.ep : SQ_NONE;
    if (ea != eb || ta->traveling != tb->traveling || ta->traveled != tb->traveled) return false;
    if (memcmp(ta->lost, tb->lost, sizeof ta->lost) || memcmp(ta->explosions, tb->explosions, sizeof ta->explosions))
        return false;
    for (Color c = WHITE; c <= BLACK; c++)
        if (memcmp(ta->sets[c], tb->sets[c], ta->explosions[c] * sizeof ta->sets[c][0])) return false;
    return !memcmp(&ta->id, &tb->id, sizeof ta->id);
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

/* Positions worth trying (Variant.samples): the bench's, with their
 * depths, then starts for the fuzz harnesses. */
static const SamplePosition TRAVELERS_SAMPLES[] = {
    { NULL, NULL, NULL, 4 },
    { NULL, "Qc5/e7 Qc4/e4 Bg4/e6 Nb3/c1 b1a3 Nd4/e6 Rh3/f3 Bd6/f4 Nd5/f6 b6/b5 Ke3/f4 g5/f4", NULL, 6 },
    /* The seed's game 4 before 5.Qd6: explosions and annihilations made by both. */
    { NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4 Bb4/e1", NULL, 0 },
    /* The same game before 3...Nb8//c6: explosions made by both, no annihilation yet. */
    { NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5", NULL, 0 },
    /* The seed's game 2 after 2.Bb5/e8+: Black kingless and in check. */
    { NULL, "e4 d6 Bb5/e8+", NULL, 0 },
    /* After 3.b4/c5: two white traveling pawns that Black attacks. */
    { NULL, "e4 e5 d4/e5 c5 b4/c5", NULL, 0 },
    { "k7/8/8/4P3/8/8/1p6/4K3 w - - 0 1", NULL, NULL, 0 },
};

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
    .generate_chess = travelers_generate_chess,
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
    .checked_kings = travelers_checked_kings,
    .explain_check = travelers_explain_check_line,
    .explain_supports = travelers_explain_supports,
    .supports_summary = "what supports an explosion on a square",
    .supports_help = "for each piece type, the untraveled pieces of the\n"
                     "side to move that support an explosion on SQUARE (they could reach it as\n"
                     "that type in at most three moves of their side, the opponent passing),\n"
                     "each with one such sequence of moves, then the explosions on SQUARE that\n"
                     "are legal now.  SQUARE must be empty.\n",
    .samples = TRAVELERS_SAMPLES,
    .sample_count = sizeof TRAVELERS_SAMPLES / sizeof TRAVELERS_SAMPLES[0],
    .fen_parts = TRAVELERS_FEN_PARTS,
};
