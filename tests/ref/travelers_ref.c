/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * travelers-ref: a reference implementation of Time Traveler's Chess
 * (Time Travel Institute of Columbia), written in plain C11.
 *
 * This is an independent reading of the rules file
 * (shared/rules/travelers.md) for cross-checking; it shares no code with
 * the library.  It is deliberately simple and direct rather than fast.
 *
 * Usage:
 *   travelers-ref perft DEPTH [ACTION...]
 *   travelers-ref divide DEPTH [ACTION...]
 *   travelers-ref check            (games on standard input, one a line)
 *
 * Copyright (C) the ttchess authors.
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the
 * Free Software Foundation, either version 3 of the License, or (at your
 * option) any later version.  It is distributed WITHOUT ANY WARRANTY; see
 * the GNU General Public License for more details.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Pieces.  A square holds one byte: 0 for empty, otherwise the type in
 * bits 0-2, the colour in bit 3 (set for Black) and the time state in
 * bits 4-5 (untraveled U, traveling T, traveled D).                     */

enum { EMPTY = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
enum { WHITE = 0, BLACK = 1 };
#define BLACKBIT 8
#define ST_U 0
#define ST_T 16
#define ST_D 32
#define TYPE(c) ((c) & 7)
#define COLOR(c) (((c) >> 3) & 1)
#define STATE(c) ((c) & 48)
#define MK(t, col, st) ((uint8_t)((t) | ((col) ? BLACKBIT : 0) | (st)))

/* Each side can make at most 16 explosions: every explosion needs a
 * distinct support, and supports are untraveled pieces, which are always
 * among the side's 16 original men (a promotion keeps the identity).   */
#define MAXEXPL 16

typedef struct {
    uint8_t sq[64];
    uint16_t id[64];
    uint8_t castle;   /* 1 white short, 2 white long, 4 black short, 8 black long */
    int8_t ep;        /* the skipped square after a double step, or -1 */
    uint8_t ep_annih; /* the double step was an annihilation (see apply) */
    uint16_t ep_tid;  /* identity of the traveling pawn it annihilated */
    uint8_t side;     /* side to move */
} Board;

typedef struct {
    Board b;
    int halfmove, fullmove;
    uint8_t lostT[2];
    int nexpl[2];
    uint32_t sets[2][MAXEXPL]; /* recorded support sets, bit (id-1) */
    uint16_t next_id;
} State;

enum { MV_NORMAL = 0, MV_EXPL = 1, MV_ANNIH = 2 };
#define F_EP 1
#define F_CASTLE 2
#define F_DOUBLE 4
#define F_RECHECK 8 /* internal: an explosion to be tested in full */

typedef struct {
    uint8_t kind, from, to, promo, flags, xtype;
    uint32_t mask; /* explosions: the support set */
} Move;

#define MAXMOVES 20000

static const int KN_D[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
/* Even indices are orthogonal (rook) directions, odd ones diagonal. */
static const int K_D[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

static int on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

static uint8_t castle_keep[64];

static void init_tables(void)
{
    for (int i = 0; i < 64; i++) castle_keep[i] = 15;
    castle_keep[0] = (uint8_t)~2 & 15;
    castle_keep[4] = (uint8_t)~3 & 15;
    castle_keep[7] = (uint8_t)~1 & 15;
    castle_keep[56] = (uint8_t)~8 & 15;
    castle_keep[60] = (uint8_t)~12 & 15;
    castle_keep[63] = (uint8_t)~4 & 15;
}

static void init_state(State *s)
{
    static const int back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    memset(s, 0, sizeof *s);
    /* Identities 1..16 for White (a1..h1, a2..h2), 17..32 for Black
     * (a8..h8, a7..h7); they only need to be stable and distinct.      */
    for (int f = 0; f < 8; f++) {
        s->b.sq[f] = MK(back[f], WHITE, ST_U);
        s->b.id[f] = (uint16_t)(1 + f);
        s->b.sq[8 + f] = MK(PAWN, WHITE, ST_U);
        s->b.id[8 + f] = (uint16_t)(9 + f);
        s->b.sq[56 + f] = MK(back[f], BLACK, ST_U);
        s->b.id[56 + f] = (uint16_t)(17 + f);
        s->b.sq[48 + f] = MK(PAWN, BLACK, ST_U);
        s->b.id[48 + f] = (uint16_t)(25 + f);
    }
    s->b.castle = 15;
    s->b.ep = -1;
    s->b.side = WHITE;
    s->halfmove = 0;
    s->fullmove = 1;
    s->next_id = 33;
}

/* ------------------------------------------------------------------ */
/* Move generation by the movement rules of chess.
 *
 * gen_piece() appends the moves of the piece of type `t` and colour `c`
 * standing (or about to stand) on `s`.  `forbid`, when given, marks
 * squares that may not be captured (used for the traveled piece of an
 * explosion).  En passant and castling are switched on by the caller.  */

static int add(Move *out, int n, int kind, int from, int to, int promo, int flags)
{
    if (n >= MAXMOVES) {
        fprintf(stderr, "travelers-ref: move list overflow\n");
        exit(2);
    }
    out[n].kind = (uint8_t)kind;
    out[n].from = (uint8_t)from;
    out[n].to = (uint8_t)to;
    out[n].promo = (uint8_t)promo;
    out[n].flags = (uint8_t)flags;
    out[n].xtype = 0;
    out[n].mask = 0;
    return n + 1;
}

static int add_pawn(Move *out, int n, int kind, int from, int to, int c, int flags)
{
    int last = c == WHITE ? 7 : 0;
    if ((to >> 3) == last) {
        static const int pr[4] = {QUEEN, ROOK, BISHOP, KNIGHT};
        for (int i = 0; i < 4; i++) n = add(out, n, kind, from, to, pr[i], flags);
        return n;
    }
    return add(out, n, kind, from, to, 0, flags);
}

static int gen_piece(const Board *b, int s, int t, int c, int state, Move *out, int n, int kind,
                     int allow_ep, int allow_castle, const uint8_t *forbid)
{
    int f = s & 7, r = s >> 3;
    if (t == PAWN) {
        int dr = c == WHITE ? 1 : -1;
        int start = c == WHITE ? 1 : 6;
        int r1 = r + dr;
        if (r1 < 0 || r1 > 7) return n;
        int to = r1 * 8 + f;
        if (!b->sq[to]) {
            n = add_pawn(out, n, kind, s, to, c, 0);
            if (r == start && !b->sq[to + 8 * dr]) n = add(out, n, kind, s, to + 8 * dr, 0, F_DOUBLE);
        }
        for (int df = -1; df <= 1; df += 2) {
            if (f + df < 0 || f + df > 7) continue;
            int cs = r1 * 8 + f + df;
            uint8_t q = b->sq[cs];
            if (q && COLOR(q) != c) {
                if (!forbid || !forbid[cs]) n = add_pawn(out, n, kind, s, cs, c, 0);
            } else if (!q && allow_ep && b->ep == cs) {
                /* The pawn captured en passant stands behind the skipped
                 * square (after an annihilation's double step it is no
                 * longer on the board, and that square is empty).       */
                int victim = cs - 8 * dr;
                if (!forbid || !forbid[victim]) n = add(out, n, kind, s, cs, 0, F_EP);
            }
        }
        return n;
    }
    if (t == KNIGHT || t == KING) {
        const int(*d)[2] = t == KNIGHT ? KN_D : K_D;
        for (int i = 0; i < 8; i++) {
            int nf = f + d[i][0], nr = r + d[i][1];
            if (!on_board(nf, nr)) continue;
            int to = nr * 8 + nf;
            uint8_t q = b->sq[to];
            if (q && COLOR(q) == c) continue;
            if (q && forbid && forbid[to]) continue;
            n = add(out, n, kind, s, to, 0, 0);
        }
        /* Castling: U king and U rook on their original squares, right
         * not lost, the squares between empty.  Checks are tested by the
         * caller where they matter.                                     */
        if (t == KING && allow_castle && state == ST_U) {
            int base = c == WHITE ? 0 : 56;
            int sh = c == WHITE ? 1 : 4, lo = c == WHITE ? 2 : 8;
            if (s == base + 4) {
                if ((b->castle & sh) && b->sq[base + 7] == MK(ROOK, c, ST_U) && !b->sq[base + 5] &&
                    !b->sq[base + 6])
                    n = add(out, n, kind, s, base + 6, 0, F_CASTLE);
                if ((b->castle & lo) && b->sq[base] == MK(ROOK, c, ST_U) && !b->sq[base + 1] &&
                    !b->sq[base + 2] && !b->sq[base + 3])
                    n = add(out, n, kind, s, base + 2, 0, F_CASTLE);
            }
        }
        return n;
    }
    for (int i = 0; i < 8; i++) {
        if (t == ROOK && (i & 1)) continue;
        if (t == BISHOP && !(i & 1)) continue;
        int nf = f, nr = r;
        for (;;) {
            nf += K_D[i][0];
            nr += K_D[i][1];
            if (!on_board(nf, nr)) break;
            int to = nr * 8 + nf;
            uint8_t q = b->sq[to];
            if (q) {
                if (COLOR(q) != c && !(forbid && forbid[to])) n = add(out, n, kind, s, to, 0, 0);
                break;
            }
            n = add(out, n, kind, s, to, 0, 0);
        }
    }
    return n;
}

/* Normal (chess) moves of the U and D pieces of colour c; with only_u,
 * of the U pieces alone.                                               */
static int gen_normal(const Board *b, int c, Move *out, int n, int allow_ep, int allow_castle, int only_u)
{
    for (int s = 0; s < 64; s++) {
        uint8_t p = b->sq[s];
        if (!p || COLOR(p) != c || STATE(p) == ST_T) continue;
        if (only_u && STATE(p) != ST_U) continue;
        n = gen_piece(b, s, TYPE(p), c, STATE(p), out, n, MV_NORMAL, allow_ep, allow_castle, NULL);
    }
    return n;
}

/* Applies a normal move to the board alone (no side change, no clocks).
 * Returns the code of what was captured (0 if nothing).                */
static uint8_t apply_normal_board(Board *b, const Move *m)
{
    uint8_t p = b->sq[m->from];
    int c = COLOR(p);
    int dir = c == WHITE ? 8 : -8;
    uint8_t cap = b->sq[m->to];
    if (m->flags & F_EP) {
        int cs = m->to - dir;
        if (b->ep_annih) {
            /* DECISION of the rules file: an en passant capture answering a
             * double-step annihilation undoes it.  The untraveled pawn is
             * captured on the skipped square (it is no longer on the board,
             * so there is nothing to remove) and the traveling pawn returns
             * to the square where it stood.  The traveling pawn was not
             * captured, so this is not a loss of a traveling piece.      */
            b->sq[cs] = MK(PAWN, !c, ST_T);
            b->id[cs] = b->ep_tid;
            cap = MK(PAWN, !c, ST_U);
        } else {
            cap = b->sq[cs];
            b->sq[cs] = 0;
            b->id[cs] = 0;
        }
    }
    b->sq[m->to] = m->promo ? (uint8_t)(m->promo | (p & ~7)) : p;
    b->id[m->to] = b->id[m->from];
    b->sq[m->from] = 0;
    b->id[m->from] = 0;
    if (m->flags & F_CASTLE) {
        int rf, rt;
        if (m->to > m->from) {
            rf = m->from + 3;
            rt = m->from + 1;
        } else {
            rf = m->from - 4;
            rt = m->from - 1;
        }
        b->sq[rt] = b->sq[rf];
        b->id[rt] = b->id[rf];
        b->sq[rf] = 0;
        b->id[rf] = 0;
    }
    b->castle &= castle_keep[m->from] & castle_keep[m->to];
    if (m->flags & F_DOUBLE) {
        b->ep = (int8_t)(m->from + dir);
        b->ep_annih = 0;
        b->ep_tid = 0;
    } else {
        b->ep = -1;
        b->ep_annih = 0;
        b->ep_tid = 0;
    }
    return cap;
}

/* ------------------------------------------------------------------ */
/* Support search.
 *
 * A friendly U piece supports an explosion of type X on the empty square
 * e if some sequence of at most three moves of its own side (the
 * opponent passing; normal moves of U and D pieces; captures of any
 * enemy piece; promotions and castling included; en passant only as the
 * first move; checks ignored; no explosions or annihilations) ends with
 * that piece, as a U piece of type X, on e.
 *
 * The opponent never moves, so a piece can only leave a square by its
 * own move; once a piece has arrived on e the rest of the sequence can
 * be cut off.  It is therefore enough to record, after every move of the
 * search, the U piece that has just landed (and the rook of a castling)
 * if its square was empty in the starting position.  The third move is
 * only generated, never made: the piece that lands is all that matters.
 * This is exact: no sequence is left out, only the work after the third
 * move.                                                                 */

typedef struct {
    uint32_t m[7][64];
} Sup;

static void sup_record(Sup *su, const Board *orig, int type, int sq, uint16_t id)
{
    if (orig->sq[sq]) return;
    if (id < 1 || id > 32) return; /* cannot happen: U pieces are original men */
    su->m[type][sq] |= (uint32_t)1 << (id - 1);
}

static void sup_landing(Sup *su, const Board *orig, const Board *b, int c, const Move *m)
{
    uint8_t p = b->sq[m->from];
    if (STATE(p) != ST_U) return;
    int type = m->promo ? m->promo : TYPE(p);
    sup_record(su, orig, type, m->to, b->id[m->from]);
    if (m->flags & F_CASTLE) {
        int rf = m->to > m->from ? m->from + 3 : m->from - 4;
        int rt = m->to > m->from ? m->from + 1 : m->from - 1;
        (void)c;
        sup_record(su, orig, ROOK, rt, b->id[rf]);
    }
}

static void sup_dfs(const Board *b, int c, int depth, const Board *orig, Sup *su, Move *buf)
{
    int last = depth == 2;
    int n = gen_normal(b, c, buf, 0, depth == 0, 1, last);
    for (int i = 0; i < n; i++) {
        sup_landing(su, orig, b, c, &buf[i]);
        if (last) continue;
        Board nb = *b;
        apply_normal_board(&nb, &buf[i]);
        sup_dfs(&nb, c, depth + 1, orig, su, buf + n);
    }
}

static void compute_support(const Board *b, int c, Sup *su)
{
    static Move buf[3 * MAXMOVES];
    memset(su, 0, sizeof *su);
    sup_dfs(b, c, 0, b, su, buf);
}

/* ------------------------------------------------------------------ */
/* Theoretical reach, resonators and grammatical correctness.          */

/* Does the U piece u on square us theoretically reach the T piece t on
 * ts (same colour assumed), so that u resonates with t?               */
static int resonates(uint8_t u, int us, uint8_t t, int ts)
{
    int ut = TYPE(u), tt = TYPE(t);
    if (ut == PAWN) {
        /* A U pawn counts as a future Q, R, B (either colour) or N.  */
        if (tt == QUEEN || tt == ROOK || tt == BISHOP || tt == KNIGHT) return 1;
        if (tt != PAWN) return 0;
        int dr = (ts >> 3) - (us >> 3);
        if (COLOR(u) == BLACK) dr = -dr;
        int df = abs((ts & 7) - (us & 7));
        int lastr = COLOR(u) == WHITE ? 7 : 0;
        return dr > 0 && df <= dr && (ts >> 3) != lastr;
    }
    if (ut != tt) return 0;
    if (ut == BISHOP) return (((us & 7) + (us >> 3)) & 1) == (((ts & 7) + (ts >> 3)) & 1);
    return 1; /* K, Q, R, N reach every square */
}

static int match_try(int l, const uint64_t *adj, int *matchR, uint64_t *seen)
{
    uint64_t a = adj[l];
    while (a) {
        int r = 0;
        while (!(a & ((uint64_t)1 << r))) r++;
        a &= a - 1;
        if (*seen & ((uint64_t)1 << r)) continue;
        *seen |= (uint64_t)1 << r;
        if (matchR[r] < 0 || match_try(matchR[r], adj, matchR, seen)) {
            matchR[r] = l;
            return 1;
        }
    }
    return 0;
}

/* Perfect matching of nl left vertices into at most 64 right vertices. */
static int full_matching(int nl, const uint64_t *adj)
{
    int matchR[64];
    for (int i = 0; i < 64; i++) matchR[i] = -1;
    for (int l = 0; l < nl; l++) {
        uint64_t seen = 0;
        if (!match_try(l, adj, matchR, &seen)) return 0;
    }
    return 1;
}

static int correct(const State *s, int c)
{
    if (s->lostT[c]) return 0;
    uint64_t adj[64];
    int nt = 0;
    for (int ts = 0; ts < 64; ts++) {
        uint8_t t = s->b.sq[ts];
        if (!t || COLOR(t) != c || STATE(t) != ST_T) continue;
        uint64_t a = 0;
        for (int us = 0; us < 64; us++) {
            uint8_t u = s->b.sq[us];
            if (!u || COLOR(u) != c || STATE(u) != ST_U) continue;
            if (resonates(u, us, t, ts)) a |= (uint64_t)1 << us;
        }
        if (!a) return 0;
        adj[nt++] = a;
    }
    return full_matching(nt, adj);
}

/* Marks the squares of colour c's resonators.                        */
static void resonators(const Board *b, int c, uint8_t *res)
{
    memset(res, 0, 64);
    for (int us = 0; us < 64; us++) {
        uint8_t u = b->sq[us];
        if (!u || COLOR(u) != c || STATE(u) != ST_U) continue;
        for (int ts = 0; ts < 64; ts++) {
            uint8_t t = b->sq[ts];
            if (!t || COLOR(t) != c || STATE(t) != ST_T) continue;
            if (resonates(u, us, t, ts)) {
                res[us] = 1;
                break;
            }
        }
    }
}

/* Can the recorded support sets of side c, with `extra` added, each be
 * given a distinct support?                                            */
static int sdr_ok(const State *s, int c, uint32_t extra)
{
    uint64_t adj[MAXEXPL + 1];
    int n = s->nexpl[c];
    if (n >= MAXEXPL) return 0;
    for (int i = 0; i < n; i++) adj[i] = s->sets[c][i];
    adj[n] = extra;
    return full_matching(n + 1, adj);
}

/* ------------------------------------------------------------------ */
/* Check.                                                               */

static int kingless(const Board *b, int c)
{
    int u = 0, t = 0, d = 0;
    for (int s = 0; s < 64; s++) {
        uint8_t p = b->sq[s];
        if (!p || COLOR(p) != c || TYPE(p) != KING) continue;
        if (STATE(p) == ST_U) u++;
        else if (STATE(p) == ST_T) t++;
        else d++;
    }
    if (u + t + d == 0) return 1;
    return u && t && !d;
}

/* Does a U or D piece of colour o attack (could capture on) square k? */
static int attacked_by(const Board *b, int o, int k)
{
    int f = k & 7, r = k >> 3;
    /* pawns */
    int pr = o == WHITE ? r - 1 : r + 1;
    for (int df = -1; df <= 1; df += 2) {
        if (!on_board(f + df, pr)) continue;
        uint8_t q = b->sq[pr * 8 + f + df];
        if (q && COLOR(q) == o && TYPE(q) == PAWN && STATE(q) != ST_T) return 1;
    }
    for (int i = 0; i < 8; i++) {
        int nf = f + KN_D[i][0], nr = r + KN_D[i][1];
        if (on_board(nf, nr)) {
            uint8_t q = b->sq[nr * 8 + nf];
            if (q && COLOR(q) == o && TYPE(q) == KNIGHT && STATE(q) != ST_T) return 1;
        }
        nf = f + K_D[i][0];
        nr = r + K_D[i][1];
        if (on_board(nf, nr)) {
            uint8_t q = b->sq[nr * 8 + nf];
            if (q && COLOR(q) == o && TYPE(q) == KING && STATE(q) != ST_T) return 1;
        }
    }
    for (int i = 0; i < 8; i++) {
        int nf = f, nr = r;
        for (;;) {
            nf += K_D[i][0];
            nr += K_D[i][1];
            if (!on_board(nf, nr)) break;
            uint8_t q = b->sq[nr * 8 + nf];
            if (!q) continue;
            if (COLOR(q) == o && STATE(q) != ST_T) {
                int t = TYPE(q);
                if (t == QUEEN || (t == ROOK && !(i & 1)) || (t == BISHOP && (i & 1))) return 1;
            }
            break;
        }
    }
    return 0;
}

/* Squares from which a U piece of colour c (same type as the T piece on
 * ts) can annihilate with it; appended to out as annihilation moves.   */
static int gen_annih_onto(const Board *b, int c, int ts, Move *out, int n)
{
    uint8_t t = b->sq[ts];
    int tt = TYPE(t);
    int f = ts & 7, r = ts >> 3;
    if (tt == PAWN) {
        /* Pawns annihilate only by a forward push, single or double.  */
        int dr = c == WHITE ? -1 : 1;
        int start = c == WHITE ? 1 : 6;
        int r1 = r + dr;
        if (r1 >= 0 && r1 < 8) {
            uint8_t q = b->sq[r1 * 8 + f];
            if (q == MK(PAWN, c, ST_U)) n = add(out, n, MV_ANNIH, r1 * 8 + f, ts, 0, 0);
            else if (!q && r1 + dr == start) {
                uint8_t q2 = b->sq[(r1 + dr) * 8 + f];
                if (q2 == MK(PAWN, c, ST_U)) n = add(out, n, MV_ANNIH, (r1 + dr) * 8 + f, ts, 0, F_DOUBLE);
            }
        }
        return n;
    }
    if (tt == KNIGHT || tt == KING) {
        const int(*d)[2] = tt == KNIGHT ? KN_D : K_D;
        for (int i = 0; i < 8; i++) {
            int nf = f + d[i][0], nr = r + d[i][1];
            if (!on_board(nf, nr)) continue;
            if (b->sq[nr * 8 + nf] == MK(tt, c, ST_U)) n = add(out, n, MV_ANNIH, nr * 8 + nf, ts, 0, 0);
        }
        return n;
    }
    for (int i = 0; i < 8; i++) {
        if (tt == ROOK && (i & 1)) continue;
        if (tt == BISHOP && !(i & 1)) continue;
        int nf = f, nr = r;
        for (;;) {
            nf += K_D[i][0];
            nr += K_D[i][1];
            if (!on_board(nf, nr)) break;
            uint8_t q = b->sq[nr * 8 + nf];
            if (!q) continue;
            if (q == MK(tt, c, ST_U)) n = add(out, n, MV_ANNIH, nr * 8 + nf, ts, 0, 0);
            break;
        }
    }
    return n;
}

static int gen_annih(const Board *b, int c, Move *out, int n)
{
    for (int ts = 0; ts < 64; ts++) {
        uint8_t t = b->sq[ts];
        if (t && COLOR(t) == c && STATE(t) == ST_T) n = gen_annih_onto(b, c, ts, out, n);
    }
    return n;
}

/* Is side S in check on board b?  S is in check iff the opponent O has a
 * pseudo-legal action after which S is kingless and O is resolved (has
 * no T piece).  An explosion always leaves O a T piece, so only normal
 * moves and annihilations matter; a normal move never removes one of O's
 * own T pieces and an annihilation removes exactly one and captures
 * nothing.  Hence: O with two or more T pieces never gives check; O with
 * one gives check iff S is already kingless and O can annihilate it; O
 * with none gives check iff S is already kingless and O has any normal
 * move at all, or O can capture a king of S whose loss makes S kingless. */
static void count_T(const Board *b, int O, int *nT, int *tsq)
{
    *nT = 0;
    *tsq = -1;
    for (int s = 0; s < 64; s++) {
        uint8_t p = b->sq[s];
        if (p && COLOR(p) == O && STATE(p) == ST_T) {
            ++*nT;
            *tsq = s;
        }
    }
}

/* in_check with the opponent's T pieces already counted (nT of them,
 * the last one on tsq).                                                */
static int in_check_T(const Board *b, int S, int nT, int tsq)
{
    int O = !S;
    if (nT >= 2) return 0;
    int kl = kingless(b, S);
    if (nT == 1) {
        if (!kl) return 0;
        Move tmp[16];
        return gen_annih_onto(b, O, tsq, tmp, 0) > 0;
    }
    if (kl) {
        static Move tmp[MAXMOVES];
        /* O may use an en passant square only if it is O's turn there. */
        return gen_normal(b, O, tmp, 0, b->side == O, 1, 0) > 0;
    }
    for (int k = 0; k < 64; k++) {
        uint8_t p = b->sq[k];
        if (!p || COLOR(p) != S || TYPE(p) != KING) continue;
        if (!attacked_by(b, O, k)) continue;
        Board tb = *b;
        tb.sq[k] = 0;
        if (kingless(&tb, S)) return 1;
    }
    return 0;
}

static int in_check(const Board *b, int S)
{
    int nT, tsq;
    count_T(b, !S, &nT, &tsq);
    return in_check_T(b, S, nT, tsq);
}

/* ------------------------------------------------------------------ */
/* Making actions on the full state.                                    */

static void apply_move(State *s, const Move *m)
{
    Board *b = &s->b;
    int c = b->side;
    int dir = c == WHITE ? 8 : -8;
    if (m->kind == MV_NORMAL) {
        uint8_t p = b->sq[m->from];
        uint8_t cap = apply_normal_board(b, m);
        if (cap && STATE(cap) == ST_T) s->lostT[!c] = 1;
        if (TYPE(p) == PAWN || cap) s->halfmove = 0;
        else s->halfmove++;
    } else if (m->kind == MV_ANNIH) {
        uint16_t tid = b->id[m->to];
        int pawn = TYPE(b->sq[m->from]) == PAWN;
        b->sq[m->from] = 0;
        b->id[m->from] = 0;
        b->sq[m->to] = 0;
        b->id[m->to] = 0;
        b->castle &= castle_keep[m->from] & castle_keep[m->to];
        if (pawn && (m->flags & F_DOUBLE)) {
            b->ep = (int8_t)(m->from + dir);
            b->ep_annih = 1;
            b->ep_tid = tid;
        } else {
            b->ep = -1;
            b->ep_annih = 0;
            b->ep_tid = 0;
        }
        s->halfmove = 0;
    } else {
        int X = m->xtype;
        int e = m->from;
        b->sq[e] = MK(X, c, ST_D);
        b->id[e] = s->next_id++;
        Move dm = *m;
        dm.kind = MV_NORMAL;
        apply_normal_board(b, &dm); /* the D piece leaves e */
        b->sq[e] = MK(X, c, ST_T);
        b->id[e] = s->next_id++;
        s->sets[c][s->nexpl[c]++] = m->mask;
        s->halfmove = 0;
    }
    if (c == BLACK) s->fullmove++;
    b->side = (uint8_t)!c;
}

/* ------------------------------------------------------------------ */
/* Legal actions.                                                       */

/* Generates the legal actions of the side to move into out; returns the
 * count.  Legality order (rules file): an action that leaves the mover
 * grammatically incorrect is illegal; otherwise one that leaves the
 * opponent incorrect is legal (it ends the game); otherwise the mover
 * must not be left in check.  Castling also needs the mover not to be in
 * check now and not to be in check with the king on the transit square. */
static int gen_legal(const State *s, Move *out)
{
    const Board *b = &s->b;
    int c = b->side;
    int n = 0;
    n = gen_normal(b, c, out, n, 1, 1, 0);
    n = gen_annih(b, c, out, n);

    /* Explosions.  Normal moves and annihilations come first in out and
     * are filtered at the end; explosions are filtered as they are made. */
    int opp_ok = correct(s, !c);
    int oppT, oppTsq;
    count_T(b, !c, &oppT, &oppTsq);
    Sup su;
    compute_support(b, c, &su);
    uint8_t forbid[64];
    resonators(b, !c, forbid); /* enemy resonators, before the explosion */
    for (int i = 0; i < 64; i++) {
        uint8_t q = b->sq[i];
        if (q && COLOR(q) != c && STATE(q) == ST_T) forbid[i] = 1;
    }
    uint32_t okmask[64];
    int nok = 0;
    uint32_t badmask[64];
    int nbad = 0;
    for (int X = PAWN; X <= KING; X++) {
        for (int e = 0; e < 64; e++) {
            uint32_t mask = su.m[X][e];
            if (!mask || b->sq[e]) continue;
            /* Small cache of set-of-distinct-representatives answers. */
            int ok = -1;
            for (int i = 0; i < nok && ok < 0; i++)
                if (okmask[i] == mask) ok = 1;
            for (int i = 0; i < nbad && ok < 0; i++)
                if (badmask[i] == mask) ok = 0;
            if (ok < 0) {
                ok = sdr_ok(s, c, mask);
                if (ok && nok < 64) okmask[nok++] = mask;
                if (!ok && nbad < 64) badmask[nbad++] = mask;
            }
            if (!ok) continue;
            Board tb = *b;
            tb.sq[e] = MK(X, c, ST_T);
            /* Whether the mover stays grammatically correct depends only
             * on the new T piece on e: the traveled piece captures no
             * friendly piece, and its own promotion changes no U piece. */
            {
                State ts = *s;
                ts.b.sq[e] = MK(X, c, ST_T);
                if (!correct(&ts, c)) continue;
            }
            int n0 = n;
            /* The D piece moves from e by its own movement, without
             * castling.  A D pawn may capture en passant: the rules file
             * says "capture", and the perft figure it gives (875545 at
             * depth 2) counts these 14 explosions such as d4/e3 after
             * 1. e4.  The ban on capturing a resonator applies to the pawn
             * taken en passant as well.                                  */
            n = gen_piece(&tb, e, X, c, ST_D, out, n, MV_EXPL, 1, 0, forbid);
            /* The traveled piece never captures a T piece or a resonator
             * of the opponent, so the opponent's T pieces and its
             * matching to resonators are untouched: its grammatical
             * status is the one it had before.  If it was incorrect (a
             * finished game) the explosion is legal as an action that
             * "leaves the opponent incorrect"; otherwise the mover must
             * not be left in check, and the opponent's T pieces, which
             * decide check, are those counted before.                   */
            int k0 = n0;
            for (int i = n0; i < n; i++) {
                out[i].xtype = (uint8_t)X;
                out[i].mask = mask;
                if ((out[i].flags & F_EP) && b->ep_annih) {
                    /* An en passant capture that undoes an annihilation
                     * brings an enemy T pawn back, which changes the
                     * opponent's T pieces; such a rare explosion is tested
                     * in full with the other actions below.              */
                    out[i].flags |= F_RECHECK;
                } else if (opp_ok) {
                    Board nb = tb;
                    nb.sq[e] = MK(X, c, ST_D);
                    Move dm = out[i];
                    dm.kind = MV_NORMAL;
                    apply_normal_board(&nb, &dm);
                    nb.sq[e] = MK(X, c, ST_T);
                    nb.side = (uint8_t)!c;
                    if (in_check_T(&nb, c, oppT, oppTsq)) continue;
                }
                out[k0++] = out[i];
            }
            n = k0;
        }
    }

    int cur_check = -1;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (out[i].kind == MV_EXPL && !(out[i].flags & F_RECHECK)) { /* filtered above */
            out[k++] = out[i];
            continue;
        }
        out[i].flags &= (uint8_t)~F_RECHECK;
        State ns = *s;
        apply_move(&ns, &out[i]);
        if (!correct(&ns, c)) continue;
        if (correct(&ns, !c)) {
            if (in_check(&ns.b, c)) continue;
            if (out[i].kind == MV_NORMAL && (out[i].flags & F_CASTLE)) {
                if (cur_check < 0) cur_check = in_check(b, c);
                if (cur_check) continue;
                Board tb = *b;
                int transit = (out[i].from + out[i].to) / 2;
                tb.sq[transit] = tb.sq[out[i].from];
                tb.id[transit] = tb.id[out[i].from];
                tb.sq[out[i].from] = 0;
                tb.id[out[i].from] = 0;
                if (in_check(&tb, c)) continue;
            }
        }
        out[k++] = out[i];
    }
    return k;
}

/* ------------------------------------------------------------------ */
/* Notation.                                                            */

static void sqname(char *p, int s)
{
    p[0] = (char)('a' + (s & 7));
    p[1] = (char)('1' + (s >> 3));
}

static const char PROMO_CH[7] = {0, 0, 'n', 'b', 'r', 'q', 0};
static const char PIECE_CH[7] = {0, 0, 'N', 'B', 'R', 'Q', 'K'};

static void move_str(const Move *m, char *out)
{
    char *p = out;
    if (m->kind == MV_EXPL) {
        if (m->xtype != PAWN) *p++ = PIECE_CH[m->xtype];
        sqname(p, m->from);
        p += 2;
        *p++ = '/';
    } else {
        sqname(p, m->from);
        p += 2;
        if (m->kind == MV_ANNIH) {
            *p++ = '/';
            *p++ = '/';
        }
    }
    sqname(p, m->to);
    p += 2;
    if (m->promo) *p++ = PROMO_CH[m->promo];
    *p = 0;
}

/* ------------------------------------------------------------------ */
/* Repetition identity (rules file): board with states, side, castling
 * rights, the en passant square only when a legal en passant capture
 * exists, the recorded support sets, and the identities of the pieces
 * named in them (every other identity is left out, so that ordinary
 * chess repetitions still count).  Support sets are only ever appended
 * within a game, so comparing them as recorded lists is the same as
 * comparing them as sets of sets.                                      */

typedef struct {
    uint8_t sq[64];
    uint8_t idm[64];
    uint8_t side, castle;
    int8_t ep;
    uint8_t nex[2];
    uint8_t pad;
    uint32_t sets[2][MAXEXPL];
} Key;

static void make_key(const State *s, const Move *legal, int nlegal, Key *k)
{
    memset(k, 0, sizeof *k);
    uint32_t named = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < s->nexpl[c]; i++) named |= s->sets[c][i];
    for (int q = 0; q < 64; q++) {
        k->sq[q] = s->b.sq[q];
        uint16_t id = s->b.id[q];
        if (s->b.sq[q] && id >= 1 && id <= 32 && (named & ((uint32_t)1 << (id - 1)))) k->idm[q] = (uint8_t)id;
    }
    k->side = s->b.side;
    k->castle = s->b.castle;
    k->ep = -1;
    /* Any legal action that uses the en passant square counts, the
     * explosion of a pawn whose traveled half captures en passant too. */
    for (int i = 0; i < nlegal; i++)
        if (legal[i].flags & F_EP) k->ep = s->b.ep;
    for (int c = 0; c < 2; c++) {
        k->nex[c] = (uint8_t)s->nexpl[c];
        for (int i = 0; i < s->nexpl[c]; i++) k->sets[c][i] = s->sets[c][i];
    }
}

/* ------------------------------------------------------------------ */
/* Commands.                                                            */

static Move *alloc_moves(void)
{
    Move *m = malloc(sizeof(Move) * MAXMOVES);
    if (!m) {
        fprintf(stderr, "travelers-ref: out of memory\n");
        exit(2);
    }
    return m;
}

static int find_action(const State *s, const char *txt, Move *found)
{
    Move *mv = alloc_moves();
    int n = gen_legal(s, mv);
    int ok = 0;
    char buf[16];
    for (int i = 0; i < n; i++) {
        move_str(&mv[i], buf);
        if (!strcmp(buf, txt)) {
            *found = mv[i];
            ok = 1;
            break;
        }
    }
    free(mv);
    return ok;
}

static uint64_t perft(const State *s, int depth)
{
    if (depth == 0) return 1;
    Move *mv = alloc_moves();
    int n = gen_legal(s, mv);
    uint64_t total = 0;
    if (depth == 1) total = (uint64_t)n;
    else
        for (int i = 0; i < n; i++) {
            State ns = *s;
            apply_move(&ns, &mv[i]);
            total += perft(&ns, depth - 1);
        }
    free(mv);
    return total;
}

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static int cmd_perft(int argc, char **argv, int divide)
{
    if (argc < 3) return 1;
    int depth = atoi(argv[2]);
    State s;
    init_state(&s);
    for (int i = 3; i < argc; i++) {
        Move m;
        if (!find_action(&s, argv[i], &m)) {
            fprintf(stderr, "illegal action %s\n", argv[i]);
            return 1;
        }
        apply_move(&s, &m);
    }
    if (!divide) {
        printf("%llu\n", (unsigned long long)perft(&s, depth));
        return 0;
    }
    Move *mv = alloc_moves();
    int n = gen_legal(&s, mv);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        State ns = s;
        apply_move(&ns, &mv[i]);
        uint64_t c = perft(&ns, depth - 1);
        char buf[16];
        move_str(&mv[i], buf);
        printf("%s %llu\n", buf, (unsigned long long)c);
        total += c;
    }
    printf("total %llu\n", (unsigned long long)total);
    free(mv);
    return 0;
}

/* Splits off the next blank-separated word of *cur (in place).        */
static char *next_token(char **cur)
{
    char *p = *cur;
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p) return NULL;
    char *start = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (*p) *p++ = 0;
    *cur = p;
    return start;
}

static void check_game(char *line)
{
    State s;
    init_state(&s);
    Key *hist = NULL;
    int nhist = 0, caphist = 0;
    Move *mv = alloc_moves();
    char(*strs)[16] = malloc(sizeof(*strs) * MAXMOVES);
    if (!strs) exit(2);
    char *cur = line;
    char *tok = next_token(&cur);
    for (int ply = 0;; ply++) {
        int n = gen_legal(&s, mv);
        if (nhist == caphist) {
            caphist = caphist ? caphist * 2 : 64;
            hist = realloc(hist, sizeof(Key) * (size_t)caphist);
            if (!hist) exit(2);
        }
        make_key(&s, mv, n, &hist[nhist]);
        int reps = 0;
        for (int i = 0; i <= nhist; i++)
            if (!memcmp(&hist[i], &hist[nhist], sizeof(Key))) reps++;
        nhist++;
        const char *status;
        if (!correct(&s, WHITE)) status = "0-1 white grammatically incorrect";
        else if (!correct(&s, BLACK)) status = "1-0 black grammatically incorrect";
        else if (n == 0) {
            if (in_check(&s.b, s.b.side)) status = s.b.side == WHITE ? "0-1 checkmate" : "1-0 checkmate";
            else status = "1/2-1/2 stalemate";
        } else if (s.halfmove >= 100) status = "1/2-1/2 fifty-move rule";
        else if (reps >= 3) status = "1/2-1/2 threefold repetition";
        else status = "ongoing";
        for (int i = 0; i < n; i++) move_str(&mv[i], strs[i]);
        qsort(strs, (size_t)n, sizeof(*strs), cmp_str);
        if (getenv("TRAVELERS_REF_DEBUG"))
            fprintf(stderr, "# ply %d: side to move %s, in check %d, white correct %d, black correct %d\n", ply,
                    s.b.side == WHITE ? "white" : "black", in_check(&s.b, s.b.side), correct(&s, WHITE),
                    correct(&s, BLACK));
        printf("%d %s:", ply, status);
        for (int i = 0; i < n; i++) printf(" %s", strs[i]);
        printf("\n");
        if (!tok) break;
        int found = -1;
        char buf[16];
        for (int i = 0; i < n && found < 0; i++) {
            move_str(&mv[i], buf);
            if (!strcmp(buf, tok)) found = i;
        }
        if (found < 0) {
            printf("%d illegal %s\n", ply, tok);
            break;
        }
        apply_move(&s, &mv[found]);
        tok = next_token(&cur);
    }
    printf("end\n");
    fflush(stdout);
    free(hist);
    free(mv);
    free(strs);
}

static int cmd_check(void)
{
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    if (!line) return 2;
    for (;;) {
        size_t len = 0;
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n') {
            if (len + 1 >= cap) {
                cap *= 2;
                char *nl = realloc(line, cap);
                if (!nl) return 2;
                line = nl;
            }
            line[len++] = (char)ch;
        }
        if (ch == EOF && len == 0) break;
        line[len] = 0;
        check_game(line);
        if (ch == EOF) break;
    }
    free(line);
    return 0;
}

/* Debugging aid: prints, for the side to move after the given actions,
 * the identities and squares of the supports of each explosion square. */
static int cmd_support(int argc, char **argv)
{
    State s;
    init_state(&s);
    for (int i = 2; i < argc; i++) {
        Move m;
        if (!find_action(&s, argv[i], &m)) {
            fprintf(stderr, "illegal action %s\n", argv[i]);
            return 1;
        }
        apply_move(&s, &m);
    }
    Sup su;
    compute_support(&s.b, s.b.side, &su);
    for (int X = PAWN; X <= KING; X++)
        for (int e = 0; e < 64; e++) {
            if (!su.m[X][e]) continue;
            char nm[3] = {0};
            sqname(nm, e);
            printf("%c%s:", "?PNBRQK"[X], nm);
            for (int q = 0; q < 64; q++)
                if (s.b.sq[q] && s.b.id[q] >= 1 && s.b.id[q] <= 32 && (su.m[X][e] >> (s.b.id[q] - 1)) & 1) {
                    char qn[3] = {0};
                    sqname(qn, q);
                    printf(" %s", qn);
                }
            printf("\n");
        }
    return 0;
}

int main(int argc, char **argv)
{
    init_tables();
    if (argc >= 2 && !strcmp(argv[1], "support")) return cmd_support(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "perft")) return cmd_perft(argc, argv, 0);
    if (argc >= 2 && !strcmp(argv[1], "divide")) return cmd_perft(argc, argv, 1);
    if (argc >= 2 && !strcmp(argv[1], "check")) return cmd_check();
    fprintf(stderr, "usage: travelers-ref perft DEPTH [ACTION...] | divide DEPTH [ACTION...] | check\n");
    return 1;
}
