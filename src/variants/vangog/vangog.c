/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * van Gog's Time Travel Chess (seed 002; rules as decided in
 * docs/rules/vangog.md).  Besides chess moves a player may bring a piece
 * from the future ("Qd1-d4*"), which obliges him to send the same piece
 * back later by the same move ("Qd1-d4**"); and may send a piece into the
 * future by a move ("Qh5†"), from where it may reappear on that square
 * later ("Qh5††").  Whoever ends the game with an obligation open, or a
 * traveller whose square is not as it left it, loses.  Three modes share
 * this file: vangog-past (arrivals and departures to the past),
 * vangog-future (departures to the future and reappearances) and vangog
 * (all four).  The FEN is vangog_fen.c, the notation vangog_notation.c,
 * the evaluation vangog_eval.c.
 */
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "vangog.h"
#include "movegen.h"
#include "zobrist.h"

/* ---- Facts about squares and pieces -------------------------------------- */

int vangog_capture_at(const Board *b, Color c, Square t)
{
    Piece p = b->squares[t];
    if (p == NO_PIECE) return CAPTURE_NONE;
    /* Kings are never captured, by anyone. */
    if (piece_type(p) == KING) return -1;
    return piece_color(p) == c ? CAPTURE_SELF : CAPTURE_ENEMY;
}

bool obligation_matches(const Obligation *o, Color c, PieceType x, Square f, Square t, int capture, bool check)
{
    return o->color == c && o->type == x && o->from == f && o->to == t && o->capture == capture && o->check == check;
}

bool vangog_descends_from(const State *s, int o, int k)
{
    const Link *links = vangog_links(s);
    int n = vangog_cstate(s)->links;
    /* The chain o, link(o), link(link(o)), ... ends at 0 (a piece of the
     * start position) or at an arrival still open.  A FEN with a loop of
     * links is refused, and the steps are counted anyway. */
    for (int steps = 0; o != 0 && steps <= n; steps++) {
        if (o == k) return true;
        int next = -1;
        for (int i = 0; i < n && next < 0; i++)
            if (links[i].number == o) next = links[i].origin;
        if (next < 0) return false;
        o = next;
    }
    return false;
}

const Obligation *vangog_fulfils(const State *s, int origin, Color c, PieceType x, Square f, Square t, int capture,
                                 bool check, bool *banned)
{
    const Obligation *ob = vangog_obligations(s);
    *banned = false;
    /* The list is in the order of the arrivals, so the first match
     * the ban permits is the oldest. */
    for (int i = 0; i < vangog_cstate(s)->obligations; i++) {
        if (!obligation_matches(&ob[i], c, x, f, t, capture, check)) continue;
        if (!vangog_descends_from(s, origin, ob[i].number)) return &ob[i];
        *banned = true;
    }
    return NULL;
}

void vangog_board_after_departure(const Board *b, Square f, Square t, Board *out)
{
    *out = *b;
    board_remove(out, f);
    if (out->squares[t] != NO_PIECE) board_remove(out, t);
}

void vangog_board_after_landing(const Board *b, Color c, PieceType x, Square t, Board *out)
{
    *out = *b;
    if (out->squares[t] != NO_PIECE) board_remove(out, t);
    board_put(out, t, make_piece(c, x));
}

bool vangog_vacancy_ok(const Board *b, const VanGogTraveller *t)
{
    return vangog_capture_at(b, t->color, t->to) == t->capture;
}

const VanGogTraveller *vangog_traveller_for(const Board *b, const State *s, PieceType x, Square t)
{
    Color us = b->side;
    int capture = vangog_capture_at(b, us, t);
    const VanGogTraveller *tr = vangog_travellers(s);
    Board after;
    bool landed = false, safe = false, check = false;
    for (int i = 0; i < vangog_cstate(s)->travellers; i++) {
        if (tr[i].color != us || tr[i].type != x || tr[i].to != t || tr[i].capture != capture) continue;
        if (!landed) {
            vangog_board_after_landing(b, us, x, t, &after);
            safe = !board_in_check(&after, us);
            check = board_in_check(&after, (Color)!us);
            landed = true;
        }
        if (safe && tr[i].check == check) return &tr[i];
    }
    return NULL;
}

bool vangog_unmet(const State *s, Color c)
{
    const Obligation *ob = vangog_obligations(s);
    for (int i = 0; i < vangog_cstate(s)->obligations; i++)
        if (ob[i].color == c) return true;
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vangog_cstate(s)->travellers; i++)
        if (tr[i].color == c && !vangog_vacancy_ok(&s->board, &tr[i])) return true;
    return false;
}

/* ---- Legality helpers --------------------------------------------------- */

/* Are colour c's kings safe once a piece of c stands on t (whatever stood
 * there is gone)?  c's own pieces attack none of its kings, so only the
 * occupancy and an enemy piece captured on t matter. */
static bool kings_safe_with_piece_on(const Board *b, Color c, Square t)
{
    Bitboard occ = board_occupied(b) | BB(t), kings = board_kings(b, c);
    while (kings)
        if (board_attackers(b, bb_pop(&kings), (Color)!c, occ) & ~BB(t)) return false;
    return true;
}

/* Are colour c's kings safe once the piece on f and whatever stood on t
 * are gone from the board? */
static bool kings_safe_after_departure(const Board *b, Color c, Square f, Square t)
{
    Bitboard occ = board_occupied(b) & ~BB(f) & ~BB(t), kings = board_kings(b, c) & ~BB(f);
    while (kings)
        if (board_attackers(b, bb_pop(&kings), (Color)!c, occ) & ~BB(t)) return false;
    return true;
}

/* The squares from which a pawn of colour c can come to t in an arrival:
 * one or two steps straight on (t empty) or one diagonally (t occupied),
 * never from its first rank and never onto its last. */
static Bitboard pawn_arrival_sources(Color c, Square t, bool occupied)
{
    int rank = c == WHITE ? square_rank(t) : 7 - square_rank(t);
    if (rank == 7 || rank <= 1) return 0;
    if (occupied) return pawn_attacks((Color)!c, t);
    Bitboard from = BB(c == WHITE ? t - 8 : t + 8);
    if (rank == 3) from |= BB(c == WHITE ? t - 16 : t + 16);
    return from;
}

static Bitboard arrival_sources(Color c, PieceType x, Square t, bool occupied)
{
    return x == PAWN ? pawn_arrival_sources(c, t, occupied) : piece_attacks(x, t, 0);
}

bool vangog_arrival_shape(Color c, PieceType x, Square f, Square t, int capture)
{
    if (x == KING && capture == CAPTURE_SELF) return false;
    return (arrival_sources(c, x, t, capture != CAPTURE_NONE) & BB(f)) != 0;
}

/* Where the piece of colour c and type x on f can go by a move that is a
 * chess move's geometry: paths clear, pawn rules without en passant and
 * without reaching the last rank, never onto a king; it may land on a
 * piece of its own (a self-capture), except a king. */
static Bitboard departure_targets(const Board *b, Color c, PieceType x, Square f)
{
    Bitboard occ = board_occupied(b), kings = b->by_type[KING];
    if (x == PAWN) {
        Bitboard last = c == WHITE ? RANK_8 : RANK_1, second = c == WHITE ? RANK_2 : RANK_7;
        Bitboard push = bb_forward(BB(f), c) & ~occ;
        Bitboard push2 = (BB(f) & second) ? bb_forward(push, c) & ~occ : 0;
        Bitboard diagonal = pawn_attacks(c, f) & occ & ~kings;
        return (push | push2 | diagonal) & ~last;
    }
    if (x == KING) return king_attacks(f) & ~b->by_color[c] & ~kings;
    return piece_attacks(x, f, occ) & ~kings;
}

/* A departure's geometry, and for a king the rule that it may not step
 * onto an attacked square even to leave. */
bool vangog_departure_shape(const Board *b, Square f, Square t)
{
    Piece p = b->squares[f];
    if (p == NO_PIECE || !(departure_targets(b, piece_color(p), piece_type(p), f) & BB(t))) return false;
    return piece_type(p) != KING || !board_attackers(b, t, (Color)!piece_color(p), board_occupied(b) & ~BB(f));
}

bool vangog_departure_legal(const Board *b, Square f, Square t)
{
    return vangog_departure_shape(b, f, t) && kings_safe_after_departure(b, b->side, f, t);
}

/* ---- Action generation -------------------------------------------------- */

/* Every arrival: any piece type on any square but a king's (a king never
 * onto its own side's piece), from every square its move could start on.
 * Whether an arrival leaves the mover's kings safe depends only on t, and
 * while no king is in check every arrival but a king's does. */
static void gen_arrivals(const Board *b, MoveList *out)
{
    Color us = b->side, them = (Color)!us;
    Bitboard occ = board_occupied(b);
    bool check = board_in_check(b, us);
    Bitboard targets = ~b->by_type[KING];
    while (targets) {
        Square t = bb_pop(&targets);
        if (check && !kings_safe_with_piece_on(b, us, t)) continue;
        bool occupied = (occ & BB(t)) != 0;
        for (PieceType x = PAWN; x <= KING; x++) {
            if (x == KING && ((b->by_color[us] & BB(t)) || board_attackers(b, t, them, occ))) continue;
            Bitboard from = arrival_sources(us, x, t, occupied);
            if (!from || !movelist_reserve(out, bb_count(from))) continue;
            while (from) out->moves[out->count++] = move_make(bb_pop(&from), t, MOVE_ARRIVAL, x, 0);
        }
    }
}

/* Has an action from f to t of this kind been added since `start`? */
static bool added_since(const MoveList *out, int start, Square f, Square t)
{
    for (int i = start; i < out->count; i++)
        if (out->moves[i].from == f && out->moves[i].to == t) return true;
    return false;
}

/* A departure to the past for each open obligation of the side to move
 * that the piece on its square can fulfil now; obligations alike give one
 * action. */
static void gen_departures_past(const State *s, MoveList *out)
{
    const Board *b = &s->board;
    Color us = b->side;
    const Obligation *ob = vangog_obligations(s);
    int start = out->count;
    for (int i = 0; i < vangog_cstate(s)->obligations; i++) {
        Square f = ob[i].from, t = ob[i].to;
        if (ob[i].color != us || b->squares[f] != make_piece(us, ob[i].type) || added_since(out, start, f, t)) continue;
        if (!vangog_departure_legal(b, f, t)) continue;
        Board after;
        vangog_board_after_departure(b, f, t, &after);
        bool banned;
        if (vangog_fulfils(s, vangog_cstate(s)->origin.tag[f], us, ob[i].type, f, t, vangog_capture_at(b, us, t),
                           board_in_check(&after, (Color)!us), &banned))
            movelist_add(out, move_make(f, t, MOVE_DEPART_PAST, ob[i].type, 0));
    }
}

/* Are colour c's kings still shielded from the enemy's sliders once the
 * squares `gone` are emptied?  Enough for a departure while no king of c
 * is in check: taking pieces off the board only opens lines, so knights,
 * pawns and kings attack what they attacked before. */
static bool sliders_still_blocked(const Board *b, Color c, Bitboard gone)
{
    Color them = (Color)!c;
    Bitboard occ = board_occupied(b) & ~gone, kings = board_kings(b, c) & ~gone;
    Bitboard diagonal = (b->by_type[BISHOP] | b->by_type[QUEEN]) & b->by_color[them] & ~gone;
    Bitboard straight = (b->by_type[ROOK] | b->by_type[QUEEN]) & b->by_color[them] & ~gone;
    while (kings) {
        Square k = bb_pop(&kings);
        if ((bishop_attacks(k, occ) & diagonal) || (rook_attacks(k, occ) & straight)) return false;
    }
    return true;
}

/* Every departure to the future.  Taking pieces off the board can only
 * open lines: while no king of the mover is in check, a departure whose
 * squares lie on no line to one of its kings leaves them all safe, and
 * one whose squares do needs only the sliders looked at. */
static void gen_departures_future(const Board *b, MoveList *out)
{
    Color us = b->side;
    bool check = board_in_check(b, us);
    Bitboard lines = 0, kings = board_kings(b, us);
    while (kings) lines |= queen_attacks(bb_pop(&kings), 0);
    Bitboard pieces = b->by_color[us];
    while (pieces) {
        Square f = bb_pop(&pieces);
        PieceType x = piece_type(b->squares[f]);
        Bitboard targets = departure_targets(b, us, x, f);
        while (targets) {
            Square t = bb_pop(&targets);
            if (x == KING && board_attackers(b, t, (Color)!us, board_occupied(b) & ~BB(f))) continue;
            bool safe = check ? kings_safe_after_departure(b, us, f, t)
                              : !(lines & (BB(f) | BB(t))) || sliders_still_blocked(b, us, BB(f) | BB(t));
            if (!safe) continue;
            movelist_add(out, move_make(f, t, MOVE_DEPART_FUTURE, x, 0));
        }
    }
}

/* A reappearance for each traveller of the side to move whose departure's
 * conditions hold now; travellers alike give one action. */
static void gen_reappearances(const State *s, MoveList *out)
{
    const Board *b = &s->board;
    const VanGogTraveller *tr = vangog_travellers(s);
    int start = out->count;
    for (int i = 0; i < vangog_cstate(s)->travellers; i++) {
        if (tr[i].color != b->side) continue;
        bool added = false;
        for (int k = start; k < out->count && !added; k++)
            added = out->moves[k].to == tr[i].to && out->moves[k].piece == tr[i].type;
        if (!added && vangog_traveller_for(b, s, tr[i].type, tr[i].to))
            movelist_add(out, move_make(SQ_NONE, tr[i].to, MOVE_REAPPEAR, tr[i].type, 0));
    }
}

static bool vangog_generate(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    const VanGogRules *r = vangog_rules(l);
    if (!gen_legal(b, out)) return false;
    if (r->from_future) {
        if (vangog_arrivals(s) < VANGOG_MAX_ARRIVALS) gen_arrivals(b, out);
        gen_departures_past(s, out);
    }
    if (r->to_future) {
        gen_departures_future(b, out);
        gen_reappearances(s, out);
    }
    return !out->failed;
}

/* Its chess moves alone (Variant.generate_chess): the moves gen_legal
 * lists, without the thousands of arrivals a position may offer. */
static bool vangog_generate_chess(const Line *l, MoveList *out)
{
    int first = out->count;
    if (!gen_legal(&line_state(l)->board, out)) return false;
    int kept = first;
    for (int i = first; i < out->count; i++)
        if (move_is_chess(out->moves[i])) out->moves[kept++] = out->moves[i];
    out->count = kept;
    return !out->failed;
}

/* ---- Applying an action ------------------------------------------------- */

/* Opens `inserted` bytes of room at byte `at` of ext, or closes `removed`
 * bytes there, moving what follows; returns where the room begins.  The
 * record gave the new position room for the largest growth (ext_room). */
static unsigned char *ext_splice(State *s, size_t at, size_t removed, size_t inserted)
{
    unsigned char *p = s->ext + at;
    memmove(p + inserted, p + removed, s->ext_size - at - removed);
    s->ext_size = (uint32_t)(s->ext_size - removed + inserted);
    return p;
}

static size_t travellers_at(const State *s)
{
    return sizeof(VanGogState) + vangog_cstate(s)->obligations * sizeof(Obligation);
}

/* Every action adds at most one entry to the lists. */
static size_t vangog_ext_room(const Line *l, Move m)
{
    (void)m;
    return line_state(l)->ext_size + sizeof(Obligation);
}

/* The mover's piece on f and whatever stood on t leave the board. */
static void depart(Board *b, VanGogState *vs, Square f, Square t)
{
    board_remove(b, f);
    if (b->squares[t] != NO_PIECE) board_remove(b, t);
    vs->origin.tag[f] = vs->origin.tag[t] = 0;
}

/* A piece lands on t, taking whatever stood there. */
static void land(Board *b, VanGogState *vs, Piece p, Square t, uint16_t origin)
{
    if (b->squares[t] != NO_PIECE) board_remove(b, t);
    board_put(b, t, p);
    vs->origin.tag[t] = origin;
}

static void apply_arrival(State *next, Move m)
{
    Board *b = &next->board;
    VanGogState *vs = vangog_state(next);
    Color us = b->side;
    Obligation o = { (uint16_t)(vangog_arrivals(next) + 1), us, m.piece, m.from, m.to,
                     (uint8_t)vangog_capture_at(b, us, m.to), 0 };
    land(b, vs, make_piece(us, m.piece), m.to, o.number);
    o.check = board_in_check(b, (Color)!us);
    memcpy(ext_splice(next, travellers_at(next), 0, sizeof o), &o, sizeof o);
    vs->obligations++;
}

static void apply_departure_past(State *next, Move m)
{
    Board *b = &next->board;
    VanGogState *vs = vangog_state(next);
    Color us = b->side;
    PieceType x = piece_type(b->squares[m.from]);
    Link link = { 0, vs->origin.tag[m.from] };
    int capture = vangog_capture_at(b, us, m.to);
    depart(b, vs, m.from, m.to);
    bool banned;
    const Obligation *o =
        vangog_fulfils(next, link.origin, us, x, m.from, m.to, capture, board_in_check(b, (Color)!us), &banned);
    link.number = o->number;
    ext_splice(next, (size_t)((const unsigned char *)o - next->ext), sizeof *o, 0);
    vs->obligations--;
    memcpy(ext_splice(next, next->ext_size, 0, sizeof link), &link, sizeof link);
    vs->links++;
}

static void apply_departure_future(State *next, Move m)
{
    Board *b = &next->board;
    VanGogState *vs = vangog_state(next);
    Color us = b->side;
    VanGogTraveller t = { vs->origin.tag[m.from], us, piece_type(b->squares[m.from]), m.to,
                    (uint8_t)vangog_capture_at(b, us, m.to), 0, 0 };
    depart(b, vs, m.from, m.to);
    t.check = board_in_check(b, (Color)!us);
    memcpy(ext_splice(next, travellers_at(next) + vs->travellers * sizeof t, 0, sizeof t), &t, sizeof t);
    vs->travellers++;
}

static void apply_reappearance(State *next, Move m)
{
    Board *b = &next->board;
    VanGogState *vs = vangog_state(next);
    const VanGogTraveller *t = vangog_traveller_for(b, next, m.piece, m.to);
    uint16_t origin = t->origin;
    ext_splice(next, (size_t)((const unsigned char *)t - next->ext), sizeof *t, 0);
    vs->travellers--;
    land(b, vs, make_piece(b->side, m.piece), m.to, origin);
}


static int vangog_apply(const Line *l, Move m, State *next)
{
    const State *now = line_state(l);
    memcpy(next, now, state_bytes(now));
    Board *b = &next->board;
    if (move_is_chess(m)) {
        tags_after_move(&vangog_state(next)->origin, b, m);
        board_make(b, m);
    } else {
        switch (m.kind) {
        case MOVE_ARRIVAL: apply_arrival(next, m); break;
        case MOVE_DEPART_PAST: apply_departure_past(next, m); break;
        case MOVE_DEPART_FUTURE: apply_departure_future(next, m); break;
        default: apply_reappearance(next, m); break;
        }
        /* Any action that touches a corner or a king's square takes the
         * castling rights tied to it away for good; a time-travel action
         * resets the fifty-move count and leaves no en passant right. */
        uint8_t rights = b->castling;
        if (m.from < 64) rights = castling_after_touch(rights, m.from);
        board_set_castling(b, castling_after_touch(rights, m.to));
        board_end_turn(b, true);
    }
    next->ext_key = vangog_ext_key(line_options(l), next);
    return line_current(l);
}

/* ---- Check, outcome, repetition ----------------------------------------- */

static bool vangog_in_check(const Line *l)
{
    const Board *b = line_board(l);
    return board_in_check(b, b->side);
}

/* Unmet obligations decide the result of an ended game: one side's lose
 * it whatever happened on the board, both sides' lose it for both. */
static Outcome vangog_settle(const Line *l, Outcome end)
{
    const State *s = line_state(l);
    if (end.result == RESULT_NONE) return end;
    bool white = vangog_unmet(s, WHITE), black = vangog_unmet(s, BLACK);
    if (!white && !black) return end;
    Outcome o = outcome_make(RESULT_BOTH_LOSE, REASON_OBLIGATIONS_UNMET, SIDE_BOTH);
    if (!(white && black)) {
        Color loser = white ? WHITE : BLACK;
        /* The board already gave this result: its own words stand. */
        if (end.result == result_loss_for(loser)) return end;
        o = outcome_make(result_loss_for(loser), REASON_OBLIGATIONS_UNMET, loser);
    }
    o.board = end.board;
    return o;
}

/* Has colour c an open obligation, or a piece gone to the future? */
static bool travel_pending(const State *s, Color c)
{
    const Obligation *ob = vangog_obligations(s);
    for (int i = 0; i < vangog_cstate(s)->obligations; i++)
        if (ob[i].color == c) return true;
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vangog_cstate(s)->travellers; i++)
        if (tr[i].color == c) return true;
    return false;
}

/* Kings alone never give check.  A side with nothing but kings and no
 * travel pending may still call a piece from the future (modes past and
 * full), but never meet that obligation: it needs the departure of a
 * piece of another origin, whose own arrival must be met in the same way,
 * and the ex nihilo ban lets such a chain end only at a piece of the
 * start position.  A chain that begins with a piece other than a king
 * never passes through a king (a pawn may become a queen, never a king),
 * and the side's only pieces of the start position are kings: the call
 * can only lose (docs/rules/vangog.md, "Time").  The opponent's own
 * obligations judge the end itself (settle). */
static bool vangog_can_win(const Line *l, Color side)
{
    const State *s = line_state(l);
    return has_men_besides_kings(&s->board, side) || travel_pending(s, side);
}

static bool vangog_outcome(const Line *l, Outcome *out)
{
    int count;
    if (!legal_count(l, &count)) return false;
    /* No dead position: an arrival can always bring material back. */
    *out = vangog_settle(l, standard_outcome(l, count, false));
    return true;
}

/* The key of what makes a position itself besides the board: each
 * piece's origin, the open obligations with their numbers, the travellers
 * in the order they left.  The links and the count of arrivals are no
 * part of it (docs/rules/vangog.md, repetition). */
uint64_t vangog_ext_key(const Options *o, const State *s)
{
    enum { DOMAIN = 2, ORIGIN = 1, OBLIGATION = 2, TRAVELLER = 3 };
    (void)o;
    const VanGogState *vs = vangog_cstate(s);
    uint64_t key = 0;
    /* Origins other than 0 come only from arrivals. */
    Bitboard occ = vangog_arrivals(s) ? board_occupied(&s->board) : 0;
    while (occ) {
        Square sq = bb_pop(&occ);
        if (vs->origin.tag[sq]) key ^= zobrist_feature(DOMAIN, ((uint64_t)ORIGIN << 56) | ((uint64_t)sq << 16) | vs->origin.tag[sq]);
    }
    const Obligation *ob = vangog_obligations(s);
    for (int i = 0; i < vs->obligations; i++) {
        uint64_t f = ((uint64_t)ob[i].number << 24) | ((uint64_t)ob[i].color << 23) | ((uint64_t)ob[i].type << 20) |
                     ((uint64_t)ob[i].from << 14) | ((uint64_t)ob[i].to << 8) | ((uint64_t)ob[i].capture << 1) | ob[i].check;
        key ^= zobrist_feature(DOMAIN, ((uint64_t)OBLIGATION << 56) | f);
    }
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vs->travellers; i++) {
        uint64_t f = ((uint64_t)tr[i].origin << 16) | ((uint64_t)tr[i].color << 15) | ((uint64_t)tr[i].type << 12) |
                     ((uint64_t)tr[i].to << 4) | ((uint64_t)tr[i].capture << 1) | tr[i].check;
        key ^= zobrist_feature(DOMAIN, ((uint64_t)TRAVELLER << 56) | ((uint64_t)i << 32) | f);
    }
    return key;
}

static bool vangog_same_position(const State *a, const State *b)
{
    const VanGogState *va = vangog_cstate(a), *vb = vangog_cstate(b);
    return chess_same_board_position(&a->board, &b->board) && !memcmp(&va->origin, &vb->origin, sizeof va->origin) &&
           va->obligations == vb->obligations && va->travellers == vb->travellers &&
           !memcmp(vangog_obligations(a), vangog_obligations(b),
                   va->obligations * sizeof(Obligation) + va->travellers * sizeof(VanGogTraveller));
}

/* ---- Notes and the play screen ------------------------------------------ */

/* What colour c has unmet if the game ends here, in the seed's notation. */
static void unmet_words(const State *s, Color c, Text *out)
{
    const Obligation *ob = vangog_obligations(s);
    int n = 0;
    for (int i = 0; i < vangog_cstate(s)->obligations; i++) {
        if (ob[i].color != c) continue;
        text_add(out, n++ ? ", " : "");
        text_addf(out, "obligation %d ", ob[i].number);
        obligation_text(&ob[i], out);
    }
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vangog_cstate(s)->travellers; i++) {
        if (tr[i].color != c || vangog_vacancy_ok(&s->board, &tr[i])) continue;
        text_add(out, n++ ? ", " : "");
        traveller_text(&tr[i], out);
        text_add(out, " cannot return");
    }
}

static bool vangog_note(const Line *l, Move m, Text *out)
{
    const State *s = line_state(l);
    if (m.kind == MOVE_DEPART_PAST) {
        bool banned;
        Board after;
        vangog_board_after_departure(&s->board, m.from, m.to, &after);
        Color us = s->board.side;
        const Obligation *o = vangog_fulfils(s, vangog_cstate(s)->origin.tag[m.from], us, m.piece, m.from, m.to,
                                             vangog_capture_at(&s->board, us, m.to), board_in_check(&after, (Color)!us),
                                             &banned);
        if (o) {
            text_addf(out, "fulfils obligation %d ", o->number);
            obligation_text(o, out);
        }
        return !out->failed;
    }
    /* The note on the end of the game (the caller asks only then): what
     * each side left unmet. */
    if (m.kind != MOVE_NULL) return true;
    for (Color c = WHITE; c <= BLACK; c++) {
        if (!vangog_unmet(s, c)) continue;
        text_addf(out, "%sunmet by %s: ", out->len ? "; " : "", color_name(c));
        unmet_words(s, c, out);
    }
    return !out->failed;
}

/* What a traveller needs on its square to return (and not to lose), and
 * whether it has it now: "h5 empty (now: yes)". */
static void traveller_condition(const Board *b, const VanGogTraveller *t, Text *out)
{
    static const char *const NEEDS[] = { "empty", "an enemy on it", "a %s piece on it" };
    char sq[3];
    square_name(t->to, sq);
    text_addf(out, "%s ", sq);
    text_addf(out, NEEDS[t->capture], color_name(t->color));
    text_addf(out, " (now: %s)", vangog_vacancy_ok(b, t) ? "yes" : "no");
}

/* The panel beside the board: each side's open obligations, numbered, in
 * the seed's notation with the squares they wait on, and its travellers
 * with the square each needs as it left it.  Short lines, so that the
 * play screen can put them beside the board. */
static bool vangog_describe(const Line *l, Text *out)
{
    const State *s = line_state(l);
    const VanGogRules *r = vangog_rules(l);
    for (Color c = WHITE; c <= BLACK; c++) {
        const char *who = c == WHITE ? "White" : "Black";
        if (r->from_future) {
            int n = 0;
            const Obligation *ob = vangog_obligations(s);
            for (int i = 0; i < vangog_cstate(s)->obligations; i++) {
                if (ob[i].color != c) continue;
                if (!n++) text_addf(out, "%s obligations:\n", who);
                char from[3], to[3];
                square_name(ob[i].from, from);
                square_name(ob[i].to, to);
                text_addf(out, "  %d. ", ob[i].number);
                obligation_text(&ob[i], out);
                text_addf(out, "  waits on %s, %s\n", from, to);
            }
            if (!n) text_addf(out, "%s obligations: none\n", who);
        }
        if (r->to_future) {
            int n = 0;
            const VanGogTraveller *tr = vangog_travellers(s);
            for (int i = 0; i < vangog_cstate(s)->travellers; i++) {
                if (tr[i].color != c) continue;
                if (!n++) text_addf(out, "%s travellers:\n", who);
                text_add(out, "  ");
                traveller_text(&tr[i], out);
                text_add(out, "  waits on ");
                traveller_condition(&s->board, &tr[i], out);
                text_add(out, "\n");
            }
            if (!n) text_addf(out, "%s travellers: none\n", who);
        }
    }
    return !out->failed;
}

/* ---- The three modes ---------------------------------------------------- */

static const VanGogRules RULES_FULL = { true, true }, RULES_PAST = { true, false }, RULES_FUTURE = { false, true };

static State *vangog_full_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    return vangog_from_fen_rules(&RULES_FULL, fen, err);
}

static State *vangog_past_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    return vangog_from_fen_rules(&RULES_PAST, fen, err);
}

static State *vangog_future_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    return vangog_from_fen_rules(&RULES_FUTURE, fen, err);
}

#define VANGOG_START STARTPOS_FEN " - - - -"
#define VANGOG_HELP_PAST                                                                                        \
    "  Qd1-d4*  / Qd1d4*   a queen arrives on d4 from the future, \"coming from d1\"\n"                         \
    "  Rd8xd4*  / Rd8d4*   ... capturing on d4 (x also for a self-capture)\n"                                    \
    "  Qd1-d4** / d1d4**   the queen on d1 moves to d4 and departs to the past,\n"                               \
    "                      fulfilling the open obligation Qd1-d4*\n"
#define VANGOG_HELP_FUTURE                                                                                      \
    "  Qh5†  or Qh5^ / d1h5^   the queen moves to h5 and departs to the future\n"                                \
    "  Qh5†† or Qh5^^ / Qh5^^  the queen reappears on h5 (as it left: empty, capture, check)\n"
#define VANGOG_HELP_END                                                                                         \
    "Pawns go without a letter in the human form (e2-e4*); figurines (♕ ♛ ...) may stand\n"                       \
    "for letters.  A game ends with every obligation met and every traveller's square as it\n"                    \
    "left it, or whoever has something unmet loses (0-0 if both do).\n"

#define VANGOG_COMMON                                   \
    .title = "Time Travel Chess (van Gog)",             \
    .start_fen = VANGOG_START,                          \
    .ext_size = sizeof(VanGogState),                    \
    .ext_room = vangog_ext_room,                        \
    .to_fen = vangog_to_fen,                            \
    .generate = vangog_generate,                        \
    .generate_chess = vangog_generate_chess,            \
    .apply = vangog_apply,                              \
    .in_check = vangog_in_check,                        \
    .outcome = vangog_outcome,                          \
    .settle = vangog_settle,                            \
    .can_win = vangog_can_win,                          \
    .ext_key = vangog_ext_key,                          \
    .same_position = vangog_same_position,              \
    .parse = vangog_parse,                              \
    .format_coord = vangog_format_coord,                \
    .format_human = vangog_format_human,                \
    .note = vangog_note,                                \
    .describe = vangog_describe

/* Positions worth trying (Variant.samples): the bench's, with their
 * depths, then starts for the fuzz harnesses. */
static const SamplePosition VANGOG_SAMPLES[] = {
    { NULL, NULL, NULL, 3 },
    { NULL, "Bc6b7* Qb3c4* Re4e2* Rh8h6* Qf7h7* Qd6g6* Rc7f7* Qh5h8* Rb2f2* Qf7g8* Nb3a5* Qd5d8*", NULL, 2 },
    { NULL, "e4 e5 Qd1h5* d8h4^ b1c3 Qh4^^ h5h4 b8c6", NULL, 0 },
    { "rnb1kbnr/pppp1ppp/8/4p3/3Q4/3P4/PPP1PPPP/RNBQKBNR w KQkq - 0 3 d4:1,e5:2 1:Qd1d4,2:pe7e5 - qe7s", NULL, NULL,
      0 },
    /* The queen of origin 1 descends from arrival 2 through a link. */
    { "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 2:Qd1d3 1=2 Qa3,rh2", NULL, NULL, 0 },
};

const Variant VARIANT_VANGOG = {
    .name = "vangog",
    .mode = "full",
    .params = &RULES_FULL,
    .evaluator = &EVAL_VANGOG,
    .from_fen = vangog_full_from_fen,
    .notation_help = "Time travel both ways (human form / coordinate form):\n" VANGOG_HELP_PAST VANGOG_HELP_FUTURE
        VANGOG_HELP_END,
    VANGOG_COMMON,
    .samples = VANGOG_SAMPLES,
    .sample_count = sizeof VANGOG_SAMPLES / sizeof VANGOG_SAMPLES[0],
    .fen_parts = VANGOG_FEN_PARTS,
};

static const SamplePosition VANGOG_PAST_SAMPLES[] = {
    { NULL, NULL, NULL, 3 },
    { NULL, "Be8a4* Bg3h4* Bh8f6* Rg3g8* Bb2e5* Nf4h3* Rb6f6* Qb8h2* Qe6e3* Rg7f7* Ba8b7* Qa7g1*", NULL, 2 },
    { NULL, "d4 a6 Qd1-d3* a5 Qd1d2 a4 Qd2g5 b6 Qd3d1 b5", NULL, 0 },
    /* The same game two plies earlier, before Qd3d1. */
    { NULL, "d4 a6 Qd1-d3* a5 Qd1d2 a4 Qd2g5 b6", NULL, 0 },
    { "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 - 1:Qd1d3,2:Qd1d3 - -", NULL, NULL, 0 },
};

const Variant VARIANT_VANGOG_PAST = {
    .name = "vangog-past",
    .mode = "past",
    .params = &RULES_PAST,
    .evaluator = &EVAL_VANGOG_PAST,
    .from_fen = vangog_past_from_fen,
    .notation_help = "Pieces from the future (human form / coordinate form):\n" VANGOG_HELP_PAST VANGOG_HELP_END,
    VANGOG_COMMON,
    .samples = VANGOG_PAST_SAMPLES,
    .sample_count = sizeof VANGOG_PAST_SAMPLES / sizeof VANGOG_PAST_SAMPLES[0],
    .fen_parts = VANGOG_PAST_FEN_PARTS,
};

static const SamplePosition VANGOG_FUTURE_SAMPLES[] = {
    { NULL, NULL, NULL, 9 },
    { NULL, "b1a3 d7d6^ a3c4^ b8a6 d1e2^ c7c6^ f2f4^ Pd6^^ h2h3^ e8d7^ d2d3^ g8e7^", NULL, 9 },
    { NULL, "e4 f6 d1h5^ g5", NULL, 0 },
    { NULL, "e4 e5 d1h5^ a6", NULL, 0 },
    /* The only white king is away; it returns only where it is safe. */
    { "4k3/8/8/8/8/8/P6r/8 w - - 0 20 - - - Ke2,Qa3+", NULL, NULL, 0 },
};

const Variant VARIANT_VANGOG_FUTURE = {
    .name = "vangog-future",
    .mode = "future",
    .params = &RULES_FUTURE,
    .evaluator = &EVAL_VANGOG_FUTURE,
    .from_fen = vangog_future_from_fen,
    .notation_help = "Pieces to the future (human form / coordinate form):\n" VANGOG_HELP_FUTURE VANGOG_HELP_END,
    VANGOG_COMMON,
    .samples = VANGOG_FUTURE_SAMPLES,
    .sample_count = sizeof VANGOG_FUTURE_SAMPLES / sizeof VANGOG_FUTURE_SAMPLES[0],
    .fen_parts = VANGOG_FUTURE_FEN_PARTS,
};
