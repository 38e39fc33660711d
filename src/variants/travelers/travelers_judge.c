/* SPDX-License-Identifier: GPL-3.0-or-later
 * Time Traveler's Chess: the judge of actions (judge_action), which the
 * generator asks of every candidate and the notation of the one a player
 * wrote, so that the two never disagree; and the generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "travelers_men.h"
#include "zobrist.h"
#include "movegen.h"

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
bool sets_matchable(const uint32_t *sets, int n)
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

static bool gen_chess_moves(Ctx *cx, MoveList *out)
{
    int first = out->count;
    if (!gen_pseudo(cx->b, out)) return false;
    int kept = first;
    for (int i = first; i < out->count; i++)
        if (chess_move_ok(cx, out->moves[i], NULL)) out->moves[kept++] = out->moves[i];
    out->count = kept;
    return true;
}

bool travelers_gen_state(const State *s, MoveList *out)
{
    Ctx cx;
    ctx_init(&cx, s);
    if (!gen_chess_moves(&cx, out)) return false;
    gen_annihilations(&cx, out);
    gen_explosions(&cx, out);
    return !out->failed;
}

/* The chess moves alone, as travelers_gen_state lists them first: no
 * support search, which only explosions need. */
bool travelers_gen_chess(const State *s, MoveList *out)
{
    Ctx cx;
    ctx_init(&cx, s);
    return gen_chess_moves(&cx, out) && !out->failed;
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

/* ---- En passant in the key ---------------------------------------------- */

/* Is there a legal action that takes en passant (a pawn's move, or the
 * traveled half of an exploding pawn)?  Only then does the en passant
 * square make a position what it is. */
bool travelers_ep_counts(const State *s)
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
