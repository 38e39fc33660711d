/* SPDX-License-Identifier: GPL-3.0-or-later
 * Time Traveler's Chess: the support search, which finds the pieces of a
 * side that could support an explosion: it walks the side's own moves two
 * deep and records the third as attack sets, skipping moves that can
 * change nothing (travelers.h, travelers_supports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "travelers_men.h"
#include "zobrist.h"
#include "movegen.h"

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

/* ---- Remembering recent searches ---------------------------------------- */

/*
 * A search's result depends only on the sketch it starts from and on its
 * setup (the side, the empty squares, en passant), and the same position
 * asks for it again and again: once to generate its explosions, then once
 * for each explosion applied (its support set is recorded then), a
 * thousand times at one node of the engine's search.  So each thread
 * keeps the results of its last searches, in slots chosen by a hash of
 * the pieces, and a result is taken only from a slot whose inputs are the
 * same in every field: no hash can confuse two positions.
 */
enum { SUPPORT_MEMO_SLOTS = 64 };

typedef struct SupportMemo {
    bool used;
    Color c;
    Square ep;
    bool ep_annihilated;
    uint8_t castling;
    Bitboard empty_now, own, enemy, untraveled, frozen;
    Bitboard type[7];
    Supports out;
} SupportMemo;

static _Thread_local SupportMemo support_memo[SUPPORT_MEMO_SLOTS];

static SupportMemo *memo_slot(const Search *se, const Sketch *k)
{
    uint64_t h = k->own * 0x9E3779B97F4A7C15ull ^ k->enemy * 0xC2B2AE3D27D4EB4Full ^
                 k->untraveled * 0x165667B19E3779F9ull ^ k->frozen ^ (uint64_t)se->c << 7 ^ se->ep;
    h ^= h >> 29;
    return &support_memo[(h * 0xBF58476D1CE4E5B9ull) >> 58];
}

static bool memo_holds(const SupportMemo *m, const Search *se, const Sketch *k)
{
    return m->used && m->c == se->c && m->ep == se->ep && m->ep_annihilated == se->ep_annihilated &&
           m->castling == k->castling && m->empty_now == se->empty_now && m->own == k->own &&
           m->enemy == k->enemy && m->untraveled == k->untraveled && m->frozen == k->frozen &&
           !memcmp(m->type, k->type, sizeof m->type);
}

static void memo_keep(SupportMemo *m, const Search *se, const Sketch *k, const Supports *out)
{
    m->used = true;
    m->c = se->c;
    m->ep = se->ep;
    m->ep_annihilated = se->ep_annihilated;
    m->castling = k->castling;
    m->empty_now = se->empty_now;
    m->own = k->own;
    m->enemy = k->enemy;
    m->untraveled = k->untraveled;
    m->frozen = k->frozen;
    memcpy(m->type, k->type, sizeof m->type);
    m->out = *out;
}

static void supports_searched(const Search *se, const Sketch *k, Supports *out)
{
    Color c = se->c;
    for (int i = 0; i < out->count; i++) record_final_move(se, k, out->square[i]);
    /* Taking en passant, possible as the first move only, lands a pawn on
     * the empty square it skipped. */
    if (se->ep != SQ_NONE) {
        Bitboard takers = pawn_attacks((Color)!c, se->ep) & k->untraveled & k->type[PAWN];
        while (takers) out->reach[k->piece[bb_pop(&takers)]][PAWN] |= BB(se->ep);
    }
    search_from(se, k, 0);
}

void travelers_supports(const State *s, Color c, Supports *out)
{
    Search se;
    Sketch k;
    search_setup(s, c, &se, &k, out);
    SupportMemo *m = memo_slot(&se, &k);
    if (memo_holds(m, &se, &k)) {
        *out = m->out;
        return;
    }
    supports_searched(&se, &k, out);
    memo_keep(m, &se, &k, out);
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
