/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chess move generation.  A side with exactly one king, which is every
 * position of standard chess, takes the fast path: checks and pins are
 * found first, so every generated move is legal without being tried.  A
 * side with no king or several kings takes the general path: pseudo-legal
 * moves, each tried on a copy of the board.  Both paths answer the same
 * question ("are all of the mover's kings safe afterwards?"), and the tests
 * compare them on every position of the perft suite.
 */
#include "movegen.h"

#include <stdio.h>
#include <string.h>

#include "attacks.h"
#include "zobrist.h"

const CastleRule CASTLE_RULES[2][2] = {
    { { CASTLE_WK, 4, 6, 7, 5, 0x60ULL, 0x70ULL }, { CASTLE_WQ, 4, 2, 0, 3, 0x0EULL, 0x1CULL } },
    { { CASTLE_BK, 60, 62, 63, 61, 0x60ULL << 56, 0x70ULL << 56 },
      { CASTLE_BQ, 60, 58, 56, 59, 0x0EULL << 56, 0x1CULL << 56 } },
};

uint8_t castling_after_touch(uint8_t rights, Square s)
{
    switch (s) {
    case 0: return rights & (uint8_t)~CASTLE_WQ;
    case 7: return rights & (uint8_t)~CASTLE_WK;
    case 4: return rights & (uint8_t)~(CASTLE_WK | CASTLE_WQ);
    case 56: return rights & (uint8_t)~CASTLE_BQ;
    case 63: return rights & (uint8_t)~CASTLE_BK;
    case 60: return rights & (uint8_t)~(CASTLE_BK | CASTLE_BQ);
    default: return rights;
    }
}

/* Adds without a capacity check: every entry point below reserves room
 * for the most moves the board can have first (reserve_for_board). */
static inline void add(MoveList *l, Square from, Square to, uint8_t kind, uint8_t piece)
{
    l->moves[l->count++] = move_make(from, to, kind, piece, 0);
}

/* The most chess moves (pseudo-legal ones included) the side to move can
 * have: no piece has more than a queen's 27, a pawn's four promotions on
 * each of three squares are 12, and castling and en passant add at most
 * two each.  Reserving this much once lets the inner loops add freely. */
static bool reserve_for_board(const Board *b, MoveList *l)
{
    return movelist_reserve(l, bb_count(b->by_color[b->side]) * 27 + 4);
}

static void add_promotions(MoveList *l, Square from, Square to)
{
    add(l, from, to, MOVE_PROMOTION, QUEEN);
    add(l, from, to, MOVE_PROMOTION, ROOK);
    add(l, from, to, MOVE_PROMOTION, BISHOP);
    add(l, from, to, MOVE_PROMOTION, KNIGHT);
}

/* Pawn moves from `pawns` whose destination lies in `targets`. */
static void gen_pawns(const Board *b, Bitboard pawns, Bitboard targets, MoveList *l)
{
    Color us = b->side;
    Bitboard empty = ~board_occupied(b);
    Bitboard enemies = b->by_color[!us];
    Bitboard last = us == WHITE ? RANK_8 : RANK_1;
    Bitboard third = us == WHITE ? RANK_3 : RANK_6;
    int up = us == WHITE ? 8 : -8;

    Bitboard single = bb_forward(pawns, us) & empty;
    Bitboard dbl = bb_forward(single & third, us) & empty & targets;
    single &= targets;
    while (single) {
        Square to = bb_pop(&single);
        if (BB(to) & last) add_promotions(l, (Square)(to - up), to);
        else add(l, (Square)(to - up), to, MOVE_NORMAL, 0);
    }
    while (dbl) {
        Square to = bb_pop(&dbl);
        add(l, (Square)(to - 2 * up), to, MOVE_DOUBLE_PUSH, 0);
    }
    Bitboard left = us == WHITE ? (pawns & ~FILE_A) << 7 : (pawns & ~FILE_A) >> 9;
    Bitboard right = us == WHITE ? (pawns & ~FILE_H) << 9 : (pawns & ~FILE_H) >> 7;
    int dl = us == WHITE ? 7 : -9, dr = us == WHITE ? 9 : -7;
    left &= enemies & targets;
    right &= enemies & targets;
    while (left) {
        Square to = bb_pop(&left);
        if (BB(to) & last) add_promotions(l, (Square)(to - dl), to);
        else add(l, (Square)(to - dl), to, MOVE_NORMAL, 0);
    }
    while (right) {
        Square to = bb_pop(&right);
        if (BB(to) & last) add_promotions(l, (Square)(to - dr), to);
        else add(l, (Square)(to - dr), to, MOVE_NORMAL, 0);
    }
}

static void gen_en_passant(const Board *b, Bitboard pawns, MoveList *l)
{
    if (b->ep == SQ_NONE) return;
    Bitboard from = pawn_attacks((Color)!b->side, b->ep) & pawns;
    while (from) add(l, bb_pop(&from), b->ep, MOVE_EN_PASSANT, 0);
}

/* ---- Chess960 castling ---------------------------------------------------
 *
 * A Chess960 castling is written king takes own rook (from = the king's
 * square, to = the rook's), as UCI engines do: the king may already stand
 * on its landing square, so its landing square cannot name the move.  The
 * king lands on g1 or c1 and the rook on f1 or d1 (g8, c8, f8, d8), as in
 * standard chess. */

/* Where a Chess960 castling of the king on `king` with the rook on `rook`
 * puts them. */
static void castle960_landing(Square king, Square rook, Square *king_to, Square *rook_to)
{
    int base = square_rank(king) * 8;
    bool kingside = rook > king;
    *king_to = (Square)(base + (kingside ? 6 : 2));
    *rook_to = (Square)(base + (kingside ? 5 : 3));
}

/* Every square from a to b on one rank, both included. */
static Bitboard rank_span(Square a, Square b)
{
    Square lo = a < b ? a : b, hi = a < b ? b : a;
    return (~0ULL << lo) & (~0ULL >> (63 - hi));
}

/* Are the squares the king crosses, its own and its landing square
 * included, free of attack now?  (Whether it ends in check once the rook
 * has left is tried by making the move.) */
static bool castle960_path_safe(const Board *b, Move m)
{
    Square king_to, rook_to;
    castle960_landing(m.from, m.to, &king_to, &rook_to);
    Bitboard path = rank_span(m.from, king_to);
    while (path)
        if (board_square_attacked(b, bb_pop(&path), (Color)!b->side)) return false;
    return true;
}

/* Does the king of colour `us` end its castling out of check?  The rook
 * that leaves may have shielded the king's landing square. */
static bool castle960_lands_safe(const Board *b, Move m)
{
    Board copy = *b;
    board_make(&copy, m);
    return !board_in_check(&copy, b->side);
}

static void gen_castling960(const Board *b, MoveList *l, bool check_attacks)
{
    Color us = b->side;
    Bitboard kings = board_kings(b, us) & (us == WHITE ? RANK_1 : RANK_8);
    if (!kings || bb_many(kings)) return;
    Square king = bb_first(kings);
    for (int i = us * 2; i < us * 2 + 2; i++) {
        Square rook = b->castle_rook[i], king_to, rook_to;
        if (!(b->castling & (1 << i)) || b->squares[rook] != make_piece(us, ROOK)) continue;
        castle960_landing(king, rook, &king_to, &rook_to);
        /* Every square either piece crosses or lands on is empty, but for
         * the two of them. */
        Bitboard crossed = rank_span(king, king_to) | rank_span(rook, rook_to);
        if (crossed & board_occupied(b) & ~(BB(king) | BB(rook))) continue;
        Move m = move_make(king, rook, MOVE_CASTLE, NO_TYPE, 0);
        if (check_attacks && (!castle960_path_safe(b, m) || !castle960_lands_safe(b, m))) continue;
        l->moves[l->count++] = m;
    }
}

/* Plays a Chess960 castling: both pieces lift, then land, since either
 * may land where the other stood. */
static void make_castle960(Board *b, Move m)
{
    Color us = b->side;
    Square king_to, rook_to;
    castle960_landing(m.from, m.to, &king_to, &rook_to);
    board_set_castling(b, b->castling & (uint8_t)~(us == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ));
    board_set_ep(b, SQ_NONE);
    board_remove(b, m.from);
    board_remove(b, m.to);
    board_put(b, king_to, make_piece(us, KING));
    board_put(b, rook_to, make_piece(us, ROOK));
    b->halfmove++;
    if (us == BLACK) b->fullmove++;
    b->side = (Color)!us;
    b->key ^= ZOBRIST_SIDE;
}

/* The castling rights a Chess960 move leaves: a king that moves loses
 * both of its own, a castling rook that moves or is taken its one. */
static uint8_t castling960_after(const Board *b, Move m)
{
    uint8_t rights = b->castling;
    Piece p = b->squares[m.from];
    if (piece_type(p) == KING) rights &= (uint8_t)~(piece_color(p) == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ);
    for (int i = 0; i < 4; i++)
        if (b->castle_rook[i] == m.from || b->castle_rook[i] == m.to) rights &= (uint8_t)~(1u << i);
    return rights;
}

/* ---- Standard castling and the rest ------------------------------------- */

static void gen_castling(const Board *b, MoveList *l, bool check_attacks)
{
    if (b->chess960) {
        gen_castling960(b, l, check_attacks);
        return;
    }
    Color us = b->side;
    for (int i = 0; i < 2; i++) {
        const CastleRule *r = &CASTLE_RULES[us][i];
        if (!(b->castling & r->right)) continue;
        if (board_occupied(b) & r->must_be_empty) continue;
        if (b->squares[r->king_from] != make_piece(us, KING) || b->squares[r->rook_from] != make_piece(us, ROOK))
            continue;
        if (check_attacks) {
            Bitboard safe = r->must_be_safe;
            bool ok = true;
            while (safe && ok) ok = !board_square_attacked(b, bb_pop(&safe), (Color)!us);
            if (!ok) continue;
        }
        add(l, r->king_from, r->king_to, MOVE_CASTLE, 0);
    }
}

/* Non-pawn, non-king pieces of `us` in `from`, to squares in `targets`. */
static void gen_pieces(const Board *b, Bitboard from, Bitboard targets, MoveList *l)
{
    Bitboard occ = board_occupied(b);
    while (from) {
        Square s = bb_pop(&from);
        Bitboard att = piece_attacks(piece_type(b->squares[s]), s, occ) & targets;
        while (att) add(l, s, bb_pop(&att), MOVE_NORMAL, 0);
    }
}

static void pseudo_moves(const Board *b, MoveList *l)
{
    Color us = b->side;
    Bitboard own = b->by_color[us];
    gen_pawns(b, board_pieces(b, us, PAWN), ~0ULL, l);
    gen_en_passant(b, board_pieces(b, us, PAWN), l);
    gen_pieces(b, own & ~b->by_type[PAWN], ~own, l);
    gen_castling(b, l, false);
}

bool gen_pseudo(const Board *b, MoveList *l)
{
    if (!reserve_for_board(b, l)) return false;
    pseudo_moves(b, l);
    return true;
}

bool move_is_legal(const Board *b, Move m)
{
    if (m.kind == MOVE_CASTLE && b->chess960) {
        if (!castle960_path_safe(b, m)) return false;
    } else if (m.kind == MOVE_CASTLE) {
        const CastleRule *r = &CASTLE_RULES[b->side][m.to > m.from ? 0 : 1];
        Bitboard safe = r->must_be_safe;
        while (safe)
            if (board_square_attacked(b, bb_pop(&safe), (Color)!b->side)) return false;
    }
    Board copy = *b;
    board_make(&copy, m);
    return !board_in_check(&copy, b->side);
}

/* The general path: any number of kings.  The pseudo-legal moves are
 * added, then those that fail the trial are squeezed out in place. */
static void gen_by_trial(const Board *b, MoveList *l)
{
    int first = l->count;
    pseudo_moves(b, l);
    int kept = first;
    for (int i = first; i < l->count; i++)
        if (move_is_legal(b, l->moves[i])) l->moves[kept++] = l->moves[i];
    l->count = kept;
}

/* Our pieces pinned to our king on ksq. */
static Bitboard pinned_pieces(const Board *b, Square ksq, Color us)
{
    Color them = (Color)!us;
    Bitboard snipers = ((rook_attacks(ksq, 0) & (b->by_type[ROOK] | b->by_type[QUEEN])) |
                        (bishop_attacks(ksq, 0) & (b->by_type[BISHOP] | b->by_type[QUEEN]))) &
                       b->by_color[them];
    Bitboard pinned = 0, occ = board_occupied(b);
    while (snipers) {
        Square s = bb_pop(&snipers);
        Bitboard blockers = between_bb(ksq, s) & occ;
        if (blockers && !bb_many(blockers)) pinned |= blockers & b->by_color[us];
    }
    return pinned;
}

static void gen_one_king(const Board *b, MoveList *l)
{
    Color us = b->side, them = (Color)!us;
    Bitboard own = b->by_color[us], occ = board_occupied(b);
    Square ksq = bb_first(board_kings(b, us));
    Bitboard checkers = board_attackers(b, ksq, them, occ);

    /* King steps: the king itself is lifted so that it cannot hide behind
     * its own square from a slider. */
    Bitboard steps = king_attacks(ksq) & ~own;
    Bitboard occ_wo_king = occ ^ BB(ksq);
    while (steps) {
        Square to = bb_pop(&steps);
        if (!board_attackers(b, to, them, occ_wo_king)) add(l, ksq, to, MOVE_NORMAL, 0);
    }
    if (bb_many(checkers)) return;

    Bitboard targets = checkers ? (between_bb(ksq, bb_first(checkers)) | checkers) : ~own;
    targets &= ~own;
    Bitboard pinned = pinned_pieces(b, ksq, us);
    Bitboard pawns = board_pieces(b, us, PAWN);
    Bitboard pieces = own & ~b->by_type[PAWN] & ~b->by_type[KING];

    gen_pawns(b, pawns & ~pinned, targets, l);
    gen_pieces(b, pieces & ~pinned, targets, l);
    /* A pinned piece may move only along the line of its pin; it can never
     * answer a check. */
    if (!checkers) {
        Bitboard p = pinned;
        while (p) {
            Square s = bb_pop(&p);
            Bitboard along = line_bb(ksq, s);
            if (piece_type(b->squares[s]) == PAWN) gen_pawns(b, BB(s), targets & along, l);
            else gen_pieces(b, BB(s), targets & along, l);
        }
        gen_castling(b, l, true);
    }
    /* En passant can expose the king along the rank of both pawns: try it. */
    if (b->ep != SQ_NONE) {
        int first = l->count;
        gen_en_passant(b, pawns, l);
        int kept = first;
        for (int i = first; i < l->count; i++)
            if (move_is_legal(b, l->moves[i])) l->moves[kept++] = l->moves[i];
        l->count = kept;
    }
}

bool gen_legal(const Board *b, MoveList *l)
{
    if (!reserve_for_board(b, l)) return false;
    if (bb_count(board_kings(b, b->side)) == 1) gen_one_king(b, l);
    else gen_by_trial(b, l);
    return true;
}

bool board_ep_capture_legal(const Board *b)
{
    if (b->ep == SQ_NONE) return false;
    Bitboard from = pawn_attacks((Color)!b->side, b->ep) & board_pieces(b, b->side, PAWN);
    while (from)
        if (move_is_legal(b, move_make(bb_pop(&from), b->ep, MOVE_EN_PASSANT, NO_TYPE, 0))) return true;
    return false;
}

uint64_t board_position_key(const Board *b)
{
    if (b->ep == SQ_NONE || board_ep_capture_legal(b)) return b->key;
    return b->key ^ ZOBRIST_EP_FILE[square_file(b->ep)];
}

void board_make(Board *b, Move m)
{
    if (b->chess960) {
        if (m.kind == MOVE_CASTLE) {
            make_castle960(b, m);
            return;
        }
        board_set_castling(b, castling960_after(b, m));
    } else {
        board_set_castling(b, castling_after_touch(castling_after_touch(b->castling, m.from), m.to));
    }
    Color us = b->side;
    Piece p = b->squares[m.from];
    bool capture = b->squares[m.to] != NO_PIECE;

    board_set_ep(b, SQ_NONE);
    if (capture) board_remove(b, m.to);
    board_remove(b, m.from);

    switch (m.kind) {
    case MOVE_PROMOTION:
        board_put(b, m.to, make_piece(us, m.piece));
        break;
    case MOVE_EN_PASSANT:
        board_put(b, m.to, p);
        board_remove(b, (Square)(us == WHITE ? m.to - 8 : m.to + 8));
        capture = true;
        break;
    case MOVE_DOUBLE_PUSH:
        board_put(b, m.to, p);
        board_set_ep(b, (Square)((m.from + m.to) / 2));
        break;
    case MOVE_CASTLE: {
        const CastleRule *r = &CASTLE_RULES[us][m.to > m.from ? 0 : 1];
        board_put(b, m.to, p);
        board_remove(b, r->rook_from);
        board_put(b, r->rook_to, make_piece(us, ROOK));
        break;
    }
    default:
        board_put(b, m.to, p);
        break;
    }
    b->halfmove = (capture || piece_type(p) == PAWN) ? 0 : (uint16_t)(b->halfmove + 1);
    if (us == BLACK) b->fullmove++;
    b->side = (Color)!us;
    b->key ^= ZOBRIST_SIDE;
}

void move_to_coord(Move m, Text *out)
{
    char f[3], t[3];
    square_name(m.from, f);
    square_name(m.to, t);
    if (m.kind == MOVE_PROMOTION) text_addf(out, "%s%s%c", f, t, piece_letter(m.piece) + ('a' - 'A'));
    else text_addf(out, "%s%s", f, t);
}
