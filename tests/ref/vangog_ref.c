/*
 * vangog_ref.c - an independent reference implementation of van Gog's Time
 * Travel Chess (modes vangog, vangog-past and vangog-future).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This program is an independent reading of docs/rules (the project's rules
 * file for the variant, vangog.md) and of the seed text, written from the
 * rules alone and used only for cross-checking the main implementation.  It
 * shares no code with it.
 *
 * Build:
 *   cc -std=c11 -O2 -Wall -Wextra -Werror tests/ref/vangog_ref.c -o /tmp/vangog-ref
 *
 * Usage:
 *   vangog-ref MODE perft DEPTH [ACTION...]
 *                                 perft count from the standard start position,
 *                                 or from the position after the actions
 *   vangog-ref MODE check         read games (coordinate actions) from stdin
 * where MODE is vangog, vangog-past or vangog-future.
 *
 * Coordinate notation:
 *   chess move      e2e4, e7e8q, e1g1 (castling), e5d6 (en passant)
 *   arrival         Qd1d4*   (piece letter, from, to)
 *   departure past  d1d4**
 *   departure fut.  d1h5^
 *   reappearance    Qh5^^
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Pieces and squares                                                  */
/* ------------------------------------------------------------------ */

enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };

/* A piece is its type in the low three bits and its colour in bit 3. */
#define MKPIECE(c, t) ((unsigned char)(((c) << 3) | (t)))
#define PTYPE(p) ((p) & 7)
#define PCOLOUR(p) ((p) >> 3)

/* Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63. */
#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)
#define SQ(f, r) ((r) * 8 + (f))

enum { SQ_A1 = 0, SQ_E1 = 4, SQ_H1 = 7, SQ_A8 = 56, SQ_E8 = 60, SQ_H8 = 63 };

/* Castling right bits. */
enum { CR_WK = 1, CR_WQ = 2, CR_BK = 4, CR_BQ = 8 };

/* Capture kinds of time-travel actions. */
enum { CAP_NONE = 0, CAP_CAPTURE = 1, CAP_SELF = 2 };

static const char PIECE_LETTER[7] = {'?', 'P', 'N', 'B', 'R', 'Q', 'K'};

/* Modes. */
enum { MODE_FULL = 0, MODE_PAST = 1, MODE_FUTURE = 2 };
static int g_mode;

static int mode_has_past(void) { return g_mode != MODE_FUTURE; }
static int mode_has_future(void) { return g_mode != MODE_PAST; }

/* ------------------------------------------------------------------ */
/* Precomputed geometry                                                */
/* ------------------------------------------------------------------ */

/* Rays: for each square and each of 8 directions the squares in order.
 * Directions 0..3 are orthogonal, 4..7 diagonal. */
static const int DIR_DF[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DIR_DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static unsigned char ray[64][8][8];
static int ray_len[64][8];
static unsigned char knight_to[64][8];
static int knight_n[64];
static unsigned char king_to[64][8];
static int king_n[64];

static void init_geometry(void)
{
    static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int s = 0; s < 64; s++) {
        int f = FILE_OF(s), r = RANK_OF(s);
        for (int d = 0; d < 8; d++) {
            int n = 0, ff = f + DIR_DF[d], rr = r + DIR_DR[d];
            while (ff >= 0 && ff < 8 && rr >= 0 && rr < 8) {
                ray[s][d][n++] = (unsigned char)SQ(ff, rr);
                ff += DIR_DF[d];
                rr += DIR_DR[d];
            }
            ray_len[s][d] = n;
            if (n > 0)
                king_to[s][king_n[s]++] = ray[s][d][0];
        }
        for (int k = 0; k < 8; k++) {
            int ff = f + KN[k][0], rr = r + KN[k][1];
            if (ff >= 0 && ff < 8 && rr >= 0 && rr < 8)
                knight_to[s][knight_n[s]++] = (unsigned char)SQ(ff, rr);
        }
    }
}

static void sq_name(int s, char *out)
{
    out[0] = (char)('a' + FILE_OF(s));
    out[1] = (char)('1' + RANK_OF(s));
}

/* ------------------------------------------------------------------ */
/* Position                                                            */
/* ------------------------------------------------------------------ */

/* An obligation created by arrival number k (stored at index k-1).  It
 * stays in the table after it is fulfilled, because the ex-nihilo ban
 * follows the links of fulfilled arrivals. */
typedef struct {
    unsigned char colour, type, f, t, cap, check, open;
    int link; /* origin of the piece that fulfilled it; -1 while open */
} Obl;

/* A piece that departed to the future and has not yet reappeared. */
typedef struct {
    unsigned char colour, type, t, cap, check;
    int origin;
} Trav;

#define MAXOBL 8192
#define MAXTRAV 8192

typedef struct {
    unsigned char board[64];
    int origin[64];
    int side;
    int castle;
    int ep; /* en passant target square or -1 */
    int halfmove, fullmove;
    int nobl;  /* number of arrivals made so far (= last arrival number) */
    int ntrav; /* number of pending travellers */
    Obl obl[MAXOBL];
    Trav trav[MAXTRAV];
} Pos;

/* Copy only the used parts of the tables. */
static void pos_copy(Pos *dst, const Pos *src)
{
    memcpy(dst->board, src->board, sizeof dst->board);
    memcpy(dst->origin, src->origin, sizeof dst->origin);
    dst->side = src->side;
    dst->castle = src->castle;
    dst->ep = src->ep;
    dst->halfmove = src->halfmove;
    dst->fullmove = src->fullmove;
    dst->nobl = src->nobl;
    dst->ntrav = src->ntrav;
    memcpy(dst->obl, src->obl, (size_t)src->nobl * sizeof(Obl));
    memcpy(dst->trav, src->trav, (size_t)src->ntrav * sizeof(Trav));
}

static void pos_start(Pos *p)
{
    static const int back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    memset(p->board, 0, sizeof p->board);
    memset(p->origin, 0, sizeof p->origin);
    for (int f = 0; f < 8; f++) {
        p->board[SQ(f, 0)] = MKPIECE(WHITE, back[f]);
        p->board[SQ(f, 1)] = MKPIECE(WHITE, PAWN);
        p->board[SQ(f, 6)] = MKPIECE(BLACK, PAWN);
        p->board[SQ(f, 7)] = MKPIECE(BLACK, back[f]);
    }
    p->side = WHITE;
    p->castle = CR_WK | CR_WQ | CR_BK | CR_BQ;
    p->ep = -1;
    p->halfmove = 0;
    p->fullmove = 1;
    p->nobl = 0;
    p->ntrav = 0;
}

/* ------------------------------------------------------------------ */
/* Attacks                                                             */
/* ------------------------------------------------------------------ */

/* Is square s attacked by an ordinary chess attack of colour c on board b?
 * What stands on s itself does not matter. */
static int attacked(const unsigned char *b, int s, int c)
{
    int f = FILE_OF(s);
    unsigned char pawn = MKPIECE(c, PAWN);
    if (c == WHITE) {
        if (s >= 8) {
            if (f > 0 && b[s - 9] == pawn) return 1;
            if (f < 7 && b[s - 7] == pawn) return 1;
        }
    } else {
        if (s < 56) {
            if (f > 0 && b[s + 7] == pawn) return 1;
            if (f < 7 && b[s + 9] == pawn) return 1;
        }
    }
    unsigned char kn = MKPIECE(c, KNIGHT), kg = MKPIECE(c, KING);
    for (int i = 0; i < knight_n[s]; i++)
        if (b[knight_to[s][i]] == kn) return 1;
    for (int i = 0; i < king_n[s]; i++)
        if (b[king_to[s][i]] == kg) return 1;
    unsigned char q = MKPIECE(c, QUEEN), r = MKPIECE(c, ROOK), bi = MKPIECE(c, BISHOP);
    for (int d = 0; d < 8; d++) {
        unsigned char slider = d < 4 ? r : bi;
        for (int i = 0; i < ray_len[s][d]; i++) {
            unsigned char p = b[ray[s][d][i]];
            if (p == EMPTY) continue;
            if (p == q || p == slider) return 1;
            break;
        }
    }
    return 0;
}

/* Is any king of colour c attacked by the other colour?  (A side with no
 * king on the board is never in check.) */
static int any_king_attacked(const unsigned char *b, int c)
{
    unsigned char k = MKPIECE(c, KING);
    for (int s = 0; s < 64; s++)
        if (b[s] == k && attacked(b, s, c ^ 1)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */
/* ------------------------------------------------------------------ */

enum { ACT_CHESS, ACT_ARRIVAL, ACT_PAST, ACT_FUTURE, ACT_REAPPEAR };
enum { MF_DOUBLE = 1, MF_EP = 2, MF_CASTLE = 4 };

typedef struct {
    unsigned char kind, type, f, t, promo, flags, cap, check;
    int ref; /* obligation index (past departures) or traveller index (reappearances) */
    char text[8];
} Action;

typedef struct {
    Action *a;
    int n, cap;
} ActList;

static void al_push(ActList *l, const Action *a)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->a = realloc(l->a, (size_t)l->cap * sizeof(Action));
        if (!l->a) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    l->a[l->n++] = *a;
}

static void make_text(Action *a)
{
    char *o = a->text;
    switch (a->kind) {
    case ACT_CHESS:
        sq_name(a->f, o);
        sq_name(a->t, o + 2);
        if (a->promo) {
            o[4] = (char)(PIECE_LETTER[a->promo] - 'A' + 'a');
            o[5] = 0;
        } else {
            o[4] = 0;
        }
        break;
    case ACT_ARRIVAL:
        o[0] = PIECE_LETTER[a->type];
        sq_name(a->f, o + 1);
        sq_name(a->t, o + 3);
        strcpy(o + 5, "*");
        break;
    case ACT_PAST:
        sq_name(a->f, o);
        sq_name(a->t, o + 2);
        strcpy(o + 4, "**");
        break;
    case ACT_FUTURE:
        sq_name(a->f, o);
        sq_name(a->t, o + 2);
        strcpy(o + 4, "^");
        break;
    default:
        o[0] = PIECE_LETTER[a->type];
        sq_name(a->t, o + 1);
        strcpy(o + 3, "^^");
        break;
    }
}

/* Capture kind of landing on square t for colour c, or -1 when t holds a
 * king (kings are never captured, by anyone). */
static int cap_kind(const unsigned char *b, int t, int c)
{
    unsigned char p = b[t];
    if (p == EMPTY) return CAP_NONE;
    if (PTYPE(p) == KING) return -1;
    return PCOLOUR(p) == c ? CAP_SELF : CAP_CAPTURE;
}

/* ------------------------------------------------------------------ */
/* Normal chess moves                                                  */
/* ------------------------------------------------------------------ */

/* Test a chess move on a scratch board; push it when it leaves none of the
 * mover's kings attacked. */
static void try_chess(const Pos *p, ActList *l, int f, int t, int promo, int flags)
{
    unsigned char b[64];
    memcpy(b, p->board, 64);
    int c = p->side;
    unsigned char pc = b[f];
    b[f] = EMPTY;
    b[t] = promo ? MKPIECE(c, promo) : pc;
    if (flags & MF_EP) b[c == WHITE ? t - 8 : t + 8] = EMPTY;
    if (flags & MF_CASTLE) {
        /* Move the rook as well. */
        if (FILE_OF(t) == 6) {
            b[t + 1] = EMPTY;
            b[t - 1] = MKPIECE(c, ROOK);
        } else {
            b[t - 2] = EMPTY;
            b[t + 1] = MKPIECE(c, ROOK);
        }
    }
    if (any_king_attacked(b, c)) return;
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_CHESS;
    a.type = (unsigned char)PTYPE(pc);
    a.f = (unsigned char)f;
    a.t = (unsigned char)t;
    a.promo = (unsigned char)promo;
    a.flags = (unsigned char)flags;
    a.ref = -1;
    make_text(&a);
    al_push(l, &a);
}

static void gen_chess(const Pos *p, ActList *l)
{
    const unsigned char *b = p->board;
    int c = p->side, e = c ^ 1;
    int fwd = c == WHITE ? 8 : -8;
    int rank2 = c == WHITE ? 1 : 6, rank8 = c == WHITE ? 7 : 0;
    for (int f = 0; f < 64; f++) {
        unsigned char pc = b[f];
        if (pc == EMPTY || PCOLOUR(pc) != c) continue;
        int ty = PTYPE(pc);
        if (ty == PAWN) {
            int t = f + fwd;
            if (t < 0 || t > 63) continue; /* cannot happen in a legal game */
            if (b[t] == EMPTY) {
                if (RANK_OF(t) == rank8) {
                    for (int pr = KNIGHT; pr <= QUEEN; pr++) try_chess(p, l, f, t, pr, 0);
                } else {
                    try_chess(p, l, f, t, 0, 0);
                    if (RANK_OF(f) == rank2 && b[t + fwd] == EMPTY)
                        try_chess(p, l, f, t + fwd, 0, MF_DOUBLE);
                }
            }
            for (int df = -1; df <= 1; df += 2) {
                int ff = FILE_OF(f) + df;
                if (ff < 0 || ff > 7) continue;
                int tt = t + df;
                unsigned char q = b[tt];
                if (q != EMPTY && PCOLOUR(q) == e && PTYPE(q) != KING) {
                    if (RANK_OF(tt) == rank8) {
                        for (int pr = KNIGHT; pr <= QUEEN; pr++) try_chess(p, l, f, tt, pr, 0);
                    } else {
                        try_chess(p, l, f, tt, 0, 0);
                    }
                } else if (q == EMPTY && tt == p->ep) {
                    /* En passant: the enemy pawn that just double-pushed
                     * stands behind the target square. */
                    int victim = tt - fwd;
                    if (b[victim] == MKPIECE(e, PAWN)) try_chess(p, l, f, tt, 0, MF_EP);
                }
            }
        } else if (ty == KNIGHT || ty == KING) {
            int n = ty == KNIGHT ? knight_n[f] : king_n[f];
            const unsigned char *to = ty == KNIGHT ? knight_to[f] : king_to[f];
            for (int i = 0; i < n; i++) {
                int t = to[i];
                unsigned char q = b[t];
                if (q == EMPTY || (PCOLOUR(q) == e && PTYPE(q) != KING)) try_chess(p, l, f, t, 0, 0);
            }
        } else {
            int d0 = ty == BISHOP ? 4 : 0, d1 = ty == ROOK ? 4 : 8;
            for (int d = d0; d < d1; d++) {
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = ray[f][d][i];
                    unsigned char q = b[t];
                    if (q == EMPTY) {
                        try_chess(p, l, f, t, 0, 0);
                        continue;
                    }
                    if (PCOLOUR(q) == e && PTYPE(q) != KING) try_chess(p, l, f, t, 0, 0);
                    break;
                }
            }
        }
    }
    /* Castling: the king on its home square with the right still held,
     * the rook on its corner, the squares between empty, the king not
     * attacked and not passing through or landing on an attacked square.
     * The final test in try_chess also covers any other kings of the side. */
    int home = c == WHITE ? SQ_E1 : SQ_E8;
    unsigned char K = MKPIECE(c, KING), R = MKPIECE(c, ROOK);
    int rk = c == WHITE ? CR_WK : CR_BK, rq = c == WHITE ? CR_WQ : CR_BQ;
    if (b[home] == K && (p->castle & (rk | rq)) && !attacked(b, home, e)) {
        if ((p->castle & rk) && b[home + 3] == R && b[home + 1] == EMPTY && b[home + 2] == EMPTY &&
            !attacked(b, home + 1, e) && !attacked(b, home + 2, e))
            try_chess(p, l, home, home + 2, 0, MF_CASTLE);
        if ((p->castle & rq) && b[home - 4] == R && b[home - 1] == EMPTY && b[home - 2] == EMPTY &&
            b[home - 3] == EMPTY && !attacked(b, home - 1, e) && !attacked(b, home - 2, e))
            try_chess(p, l, home, home - 2, 0, MF_CASTLE);
    }
}

/* ------------------------------------------------------------------ */
/* Arrivals from the future                                            */
/* ------------------------------------------------------------------ */

/* Test an arrival of type ty from f to t (geometry already checked). */
static void try_arrival(const Pos *p, ActList *l, int ty, int f, int t)
{
    int c = p->side;
    int ck = cap_kind(p->board, t, c);
    if (ck < 0) return;                          /* never onto a king */
    if (ty == KING && ck == CAP_SELF) return;    /* a king never self-captures */
    unsigned char b[64];
    memcpy(b, p->board, 64);
    b[t] = MKPIECE(c, ty);
    if (any_king_attacked(b, c)) return;
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_ARRIVAL;
    a.type = (unsigned char)ty;
    a.f = (unsigned char)f;
    a.t = (unsigned char)t;
    a.cap = (unsigned char)ck;
    a.check = (unsigned char)any_king_attacked(b, c ^ 1);
    a.ref = -1;
    make_text(&a);
    al_push(l, &a);
}

static void gen_arrivals(const Pos *p, ActList *l)
{
    const unsigned char *b = p->board;
    int c = p->side;
    int dr = c == WHITE ? 1 : -1;
    int rank1 = c == WHITE ? 0 : 7, rank2 = c == WHITE ? 1 : 6, rank8 = c == WHITE ? 7 : 0;
    for (int f = 0; f < 64; f++) {
        /* Pieces: the geometry of a move on an empty board; what stands
         * on f and between f and t does not matter. */
        for (int i = 0; i < knight_n[f]; i++) try_arrival(p, l, KNIGHT, f, knight_to[f][i]);
        for (int i = 0; i < king_n[f]; i++) try_arrival(p, l, KING, f, king_to[f][i]);
        for (int d = 0; d < 8; d++) {
            for (int i = 0; i < ray_len[f][d]; i++) {
                int t = ray[f][d][i];
                try_arrival(p, l, QUEEN, f, t);
                try_arrival(p, l, d < 4 ? ROOK : BISHOP, f, t);
            }
        }
        /* Pawns: never from their own first rank, never onto their last
         * rank.  Forward steps need an empty target (the middle square of
         * a double step does not matter); a diagonal step needs an
         * occupied target, enemy or friendly, but never a king. */
        int r = RANK_OF(f);
        if (r == rank1) continue;
        int tr = r + dr;
        if (tr < 0 || tr > 7 || tr == rank8) continue;
        int t = SQ(FILE_OF(f), tr);
        if (b[t] == EMPTY) try_arrival(p, l, PAWN, f, t);
        if (r == rank2) {
            int t2 = SQ(FILE_OF(f), r + 2 * dr);
            if (b[t2] == EMPTY) try_arrival(p, l, PAWN, f, t2);
        }
        for (int df = -1; df <= 1; df += 2) {
            int ff = FILE_OF(f) + df;
            if (ff < 0 || ff > 7) continue;
            int tt = SQ(ff, tr);
            if (b[tt] != EMPTY) try_arrival(p, l, PAWN, f, tt);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Departures (to the past and to the future)                          */
/* ------------------------------------------------------------------ */

/* Geometry of a departure of the mover's piece on f to t: a normal move
 * with clear path and pawn rules, self-capture allowed (except for kings),
 * never onto a king, no castling, no en passant, no pawn move onto the
 * last rank.  Returns the capture kind or -1. */
static int departure_geom(const Pos *p, int f, int t)
{
    const unsigned char *b = p->board;
    unsigned char pc = b[f];
    int c = PCOLOUR(pc), ty = PTYPE(pc);
    if (f == t) return -1;
    int ck = cap_kind(b, t, c);
    if (ck < 0) return -1;
    int df = FILE_OF(t) - FILE_OF(f), dr = RANK_OF(t) - RANK_OF(f);
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    switch (ty) {
    case PAWN: {
        int fw = c == WHITE ? 1 : -1;
        int rank2 = c == WHITE ? 1 : 6, rank8 = c == WHITE ? 7 : 0;
        if (RANK_OF(t) == rank8) return -1;
        if (df == 0 && dr == fw) return ck == CAP_NONE ? CAP_NONE : -1;
        if (df == 0 && dr == 2 * fw && RANK_OF(f) == rank2)
            return (ck == CAP_NONE && b[f + 8 * fw] == EMPTY) ? CAP_NONE : -1;
        if (adf == 1 && dr == fw) return ck != CAP_NONE ? ck : -1;
        return -1;
    }
    case KNIGHT:
        return (adf * adr == 2) ? ck : -1;
    case KING:
        if (adf > 1 || adr > 1) return -1;
        return ck == CAP_SELF ? -1 : ck;
    default: {
        int orth = (df == 0 || dr == 0), diag = (adf == adr);
        if (ty == ROOK && !orth) return -1;
        if (ty == BISHOP && !diag) return -1;
        if (!orth && !diag) return -1;
        int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
        int n = adf > adr ? adf : adr;
        for (int i = 1; i < n; i++)
            if (b[SQ(FILE_OF(f) + i * sf, RANK_OF(f) + i * sr)] != EMPTY) return -1;
        return ck;
    }
    }
}

/* Legality of a departure whose geometry is fine.  The piece vanishes on t
 * (and whatever stood on t is removed).  A king must moreover make an
 * ordinary legal king step: t must not be attacked with the king standing
 * on t.  Afterwards none of the mover's kings may be attacked.  Returns 1
 * if legal, and stores the check flag (an enemy king attacked after the
 * piece has gone). */
static int departure_legal(const Pos *p, int f, int t, int *check)
{
    unsigned char b[64];
    memcpy(b, p->board, 64);
    int c = p->side;
    unsigned char pc = b[f];
    b[f] = EMPTY;
    if (PTYPE(pc) == KING) {
        b[t] = pc;
        if (attacked(b, t, c ^ 1)) return 0;
    }
    b[t] = EMPTY;
    if (any_king_attacked(b, c)) return 0;
    *check = any_king_attacked(b, c ^ 1);
    return 1;
}

/* The ex-nihilo ban: a piece of origin o may not fulfil arrival k if o = k
 * or the chain o, link(o), link(link(o)), ... reaches k.  The chain stops
 * at origin 0 (a piece of the initial position) or at an arrival that is
 * still open (it has no link yet). */
static int ex_nihilo(const Pos *p, int o, int k)
{
    for (int steps = 0; o != 0 && steps <= p->nobl + 1; steps++) {
        if (o == k) return 1;
        const Obl *ob = &p->obl[o - 1];
        if (ob->open) return 0;
        o = ob->link;
    }
    return 0;
}

static void gen_past(const Pos *p, ActList *l)
{
    const unsigned char *b = p->board;
    int c = p->side;
    /* Each distinct (f, t) among the mover's open obligations whose piece
     * type stands on f gives at most one action. */
    static unsigned char seen[64 * 64];
    int any = 0;
    for (int i = 0; i < p->nobl; i++) {
        const Obl *o = &p->obl[i];
        if (o->open && o->colour == c) {
            any = 1;
            break;
        }
    }
    if (!any) return;
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < p->nobl; i++) {
        const Obl *o = &p->obl[i];
        if (!o->open || o->colour != c) continue;
        int f = o->f, t = o->t;
        if (seen[f * 64 + t]) continue;
        seen[f * 64 + t] = 1;
        unsigned char pc = b[f];
        if (pc == EMPTY || PCOLOUR(pc) != c) continue;
        int ty = PTYPE(pc);
        int ck = departure_geom(p, f, t);
        if (ck < 0) continue;
        int check;
        if (!departure_legal(p, f, t, &check)) continue;
        /* The oldest matching obligation that the ex-nihilo ban permits. */
        int found = -1;
        for (int j = i; j < p->nobl; j++) {
            const Obl *q = &p->obl[j];
            if (!q->open || q->colour != c || q->f != f || q->t != t || q->type != ty ||
                q->cap != ck || q->check != check)
                continue;
            if (ex_nihilo(p, p->origin[f], j + 1)) continue;
            found = j;
            break;
        }
        if (found < 0) continue;
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_PAST;
        a.type = (unsigned char)ty;
        a.f = (unsigned char)f;
        a.t = (unsigned char)t;
        a.cap = (unsigned char)ck;
        a.check = (unsigned char)check;
        a.ref = found;
        make_text(&a);
        al_push(l, &a);
    }
}

static void try_future(const Pos *p, ActList *l, int f, int t)
{
    int ck = departure_geom(p, f, t);
    if (ck < 0) return;
    int check;
    if (!departure_legal(p, f, t, &check)) return;
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_FUTURE;
    a.type = (unsigned char)PTYPE(p->board[f]);
    a.f = (unsigned char)f;
    a.t = (unsigned char)t;
    a.cap = (unsigned char)ck;
    a.check = (unsigned char)check;
    a.ref = -1;
    make_text(&a);
    al_push(l, &a);
}

static void gen_future(const Pos *p, ActList *l)
{
    const unsigned char *b = p->board;
    int c = p->side;
    for (int f = 0; f < 64; f++) {
        unsigned char pc = b[f];
        if (pc == EMPTY || PCOLOUR(pc) != c) continue;
        int ty = PTYPE(pc);
        if (ty == PAWN) {
            int fw = c == WHITE ? 8 : -8;
            int t = f + fw;
            if (t < 0 || t > 63) continue;
            try_future(p, l, f, t);
            if (t + fw >= 0 && t + fw <= 63) try_future(p, l, f, t + fw);
            if (FILE_OF(f) > 0) try_future(p, l, f, t - 1);
            if (FILE_OF(f) < 7) try_future(p, l, f, t + 1);
        } else if (ty == KNIGHT) {
            for (int i = 0; i < knight_n[f]; i++) try_future(p, l, f, knight_to[f][i]);
        } else if (ty == KING) {
            for (int i = 0; i < king_n[f]; i++) try_future(p, l, f, king_to[f][i]);
        } else {
            int d0 = ty == BISHOP ? 4 : 0, d1 = ty == ROOK ? 4 : 8;
            for (int d = d0; d < d1; d++) {
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = ray[f][d][i];
                    try_future(p, l, f, t);
                    if (b[t] != EMPTY) break;
                }
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Reappearances                                                       */
/* ------------------------------------------------------------------ */

static void gen_reappear(const Pos *p, ActList *l)
{
    int c = p->side;
    /* Travellers of the same colour, type and square can only differ in
     * capture kind and check flag; at a given position at most one capture
     * kind fits the square and the check flag after reappearing is the
     * same for all of them, so all eligible ones are identical and the
     * oldest (first departed) reappears.  'done' records (type, square)
     * pairs that already produced an action. */
    unsigned char done[7][64];
    memset(done, 0, sizeof done);
    for (int i = 0; i < p->ntrav; i++) {
        const Trav *tr = &p->trav[i];
        if (tr->colour != c || done[tr->type][tr->t]) continue;
        int ck = cap_kind(p->board, tr->t, c);
        if (ck < 0 || ck != tr->cap) continue;
        unsigned char b[64];
        memcpy(b, p->board, 64);
        b[tr->t] = MKPIECE(c, tr->type);
        if (any_king_attacked(b, c)) continue;
        if (any_king_attacked(b, c ^ 1) != tr->check) continue;
        done[tr->type][tr->t] = 1;
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_REAPPEAR;
        a.type = tr->type;
        a.f = tr->t;
        a.t = tr->t;
        a.cap = (unsigned char)ck;
        a.check = tr->check;
        a.ref = i;
        make_text(&a);
        al_push(l, &a);
    }
}

static void gen_all(const Pos *p, ActList *l)
{
    l->n = 0;
    gen_chess(p, l);
    if (mode_has_past()) {
        gen_arrivals(p, l);
        gen_past(p, l);
    }
    if (mode_has_future()) {
        gen_future(p, l);
        gen_reappear(p, l);
    }
}

/* ------------------------------------------------------------------ */
/* Playing an action                                                   */
/* ------------------------------------------------------------------ */

/* Every square an action names removes the castling rights tied to it. */
static void touch(Pos *p, int s)
{
    switch (s) {
    case SQ_E1: p->castle &= ~(CR_WK | CR_WQ); break;
    case SQ_A1: p->castle &= ~CR_WQ; break;
    case SQ_H1: p->castle &= ~CR_WK; break;
    case SQ_E8: p->castle &= ~(CR_BK | CR_BQ); break;
    case SQ_A8: p->castle &= ~CR_BQ; break;
    case SQ_H8: p->castle &= ~CR_BK; break;
    default: break;
    }
}

static void play(Pos *p, const Action *a)
{
    int c = p->side;
    unsigned char *b = p->board;
    switch (a->kind) {
    case ACT_CHESS: {
        int f = a->f, t = a->t;
        int capture = b[t] != EMPTY || (a->flags & MF_EP);
        int pawn = PTYPE(b[f]) == PAWN;
        b[t] = a->promo ? MKPIECE(c, a->promo) : b[f];
        p->origin[t] = p->origin[f]; /* a promoted pawn keeps its origin */
        b[f] = EMPTY;
        p->origin[f] = 0;
        if (a->flags & MF_EP) {
            int v = c == WHITE ? t - 8 : t + 8;
            b[v] = EMPTY;
            p->origin[v] = 0;
        }
        if (a->flags & MF_CASTLE) {
            int rf, rt;
            if (FILE_OF(t) == 6) {
                rf = t + 1;
                rt = t - 1;
            } else {
                rf = t - 2;
                rt = t + 1;
            }
            b[rt] = b[rf];
            p->origin[rt] = p->origin[rf];
            b[rf] = EMPTY;
            p->origin[rf] = 0;
        }
        p->halfmove = (capture || pawn) ? 0 : p->halfmove + 1;
        p->ep = (a->flags & MF_DOUBLE) ? (f + t) / 2 : -1;
        touch(p, f);
        touch(p, t);
        break;
    }
    case ACT_ARRIVAL: {
        if (p->nobl >= MAXOBL) {
            fprintf(stderr, "too many arrivals\n");
            exit(2);
        }
        int k = ++p->nobl;
        Obl *o = &p->obl[k - 1];
        o->colour = (unsigned char)c;
        o->type = a->type;
        o->f = a->f;
        o->t = a->t;
        o->cap = a->cap;
        o->check = a->check;
        o->open = 1;
        o->link = -1;
        b[a->t] = MKPIECE(c, a->type);
        p->origin[a->t] = k;
        p->halfmove = 0;
        p->ep = -1;
        touch(p, a->f);
        touch(p, a->t);
        break;
    }
    case ACT_PAST: {
        Obl *o = &p->obl[a->ref];
        o->open = 0;
        o->link = p->origin[a->f];
        b[a->f] = EMPTY;
        b[a->t] = EMPTY;
        p->origin[a->f] = 0;
        p->origin[a->t] = 0;
        p->halfmove = 0;
        p->ep = -1;
        touch(p, a->f);
        touch(p, a->t);
        break;
    }
    case ACT_FUTURE: {
        if (p->ntrav >= MAXTRAV) {
            fprintf(stderr, "too many travellers\n");
            exit(2);
        }
        Trav *tr = &p->trav[p->ntrav++];
        tr->colour = (unsigned char)c;
        tr->type = a->type;
        tr->t = a->t;
        tr->cap = a->cap;
        tr->check = a->check;
        tr->origin = p->origin[a->f];
        b[a->f] = EMPTY;
        b[a->t] = EMPTY;
        p->origin[a->f] = 0;
        p->origin[a->t] = 0;
        p->halfmove = 0;
        p->ep = -1;
        touch(p, a->f);
        touch(p, a->t);
        break;
    }
    default: { /* reappearance */
        const Trav *tr = &p->trav[a->ref];
        b[a->t] = MKPIECE(c, tr->type);
        p->origin[a->t] = tr->origin;
        memmove(&p->trav[a->ref], &p->trav[a->ref + 1],
                (size_t)(p->ntrav - a->ref - 1) * sizeof(Trav));
        p->ntrav--;
        p->halfmove = 0;
        p->ep = -1;
        touch(p, a->t);
        break;
    }
    }
    if (c == BLACK) p->fullmove++;
    p->side = c ^ 1;
}

/* ------------------------------------------------------------------ */
/* Perft                                                               */
/* ------------------------------------------------------------------ */

#define MAXDEPTH 16
static Pos *perft_pos[MAXDEPTH + 1];
static ActList perft_list[MAXDEPTH + 1];

static unsigned long long perft(int ply, int depth)
{
    if (depth == 0) return 1;
    ActList *l = &perft_list[ply];
    gen_all(perft_pos[ply], l);
    if (depth == 1) return (unsigned long long)l->n;
    unsigned long long sum = 0;
    for (int i = 0; i < l->n; i++) {
        pos_copy(perft_pos[ply + 1], perft_pos[ply]);
        play(perft_pos[ply + 1], &l->a[i]);
        sum += perft(ply + 1, depth - 1);
    }
    return sum;
}

/* ------------------------------------------------------------------ */
/* Game status                                                         */
/* ------------------------------------------------------------------ */

typedef struct {
    unsigned char *data;
    size_t len;
} Key;

static void kb_put(unsigned char **buf, size_t *len, size_t *cap, const void *src, size_t n)
{
    if (*len + n > *cap) {
        while (*len + n > *cap) *cap = *cap ? *cap * 2 : 1024;
        *buf = realloc(*buf, *cap);
        if (!*buf) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    memcpy(*buf + *len, src, n);
    *len += n;
}

/* The identity of a position for repetition: board with every piece's
 * origin, side to move, castling rights, the en passant square only when
 * an en passant capture is legal, the open obligations with their numbers
 * and contents, and the pending travellers in departure order with their
 * origins.  Link values, the next arrival number and the clocks are not
 * part of it. */
static Key make_key(const Pos *p, int ep_legal)
{
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    int hdr[3] = {p->side, p->castle, ep_legal ? p->ep : -1};
    kb_put(&buf, &len, &cap, hdr, sizeof hdr);
    for (int s = 0; s < 64; s++) {
        int v[2] = {p->board[s], p->board[s] ? p->origin[s] : 0};
        kb_put(&buf, &len, &cap, v, sizeof v);
    }
    for (int i = 0; i < p->nobl; i++) {
        const Obl *o = &p->obl[i];
        if (!o->open) continue;
        int v[7] = {i + 1, o->colour, o->type, o->f, o->t, o->cap, o->check};
        kb_put(&buf, &len, &cap, v, sizeof v);
    }
    int sep = -1;
    kb_put(&buf, &len, &cap, &sep, sizeof sep);
    for (int i = 0; i < p->ntrav; i++) {
        const Trav *t = &p->trav[i];
        int v[6] = {t->colour, t->type, t->t, t->cap, t->check, t->origin};
        kb_put(&buf, &len, &cap, v, sizeof v);
    }
    Key k = {buf, len};
    return k;
}

/* Does colour c have anything unmet: an open obligation, or a pending
 * traveller whose square fails the vacancy test in this position? */
static int unmet(const Pos *p, int c)
{
    for (int i = 0; i < p->nobl; i++)
        if (p->obl[i].open && p->obl[i].colour == c) return 1;
    for (int i = 0; i < p->ntrav; i++) {
        const Trav *t = &p->trav[i];
        if (t->colour != c) continue;
        unsigned char q = p->board[t->t];
        int ok;
        if (t->cap == CAP_NONE)
            ok = q == EMPTY;
        else if (t->cap == CAP_CAPTURE)
            ok = q != EMPTY && PTYPE(q) != KING && PCOLOUR(q) != c;
        else
            ok = q != EMPTY && PTYPE(q) != KING && PCOLOUR(q) == c;
        if (!ok) return 1;
    }
    return 0;
}

/* The status line of position p with legal actions l; 'reps' is how many
 * times this position occurred before in the game. */
static const char *status_line(const Pos *p, const ActList *l, int reps)
{
    /* loser: 0 white loses, 1 black loses, 2 draw, -1 ongoing */
    int loser = -1;
    const char *board_line = "ongoing";
    if (l->n == 0) {
        if (any_king_attacked(p->board, p->side)) {
            loser = p->side;
            board_line = p->side == WHITE ? "0-1 checkmate" : "1-0 checkmate";
        } else {
            loser = 2;
            board_line = "1/2-1/2 stalemate";
        }
    } else if (p->halfmove >= 100) {
        loser = 2;
        board_line = "1/2-1/2 fifty-move rule";
    } else if (reps >= 2) {
        loser = 2;
        board_line = "1/2-1/2 threefold repetition";
    }
    if (loser < 0) return board_line;
    int uw = unmet(p, WHITE), ub = unmet(p, BLACK);
    if (uw && ub) return "0-0 both obligations unmet";
    if (uw) return loser == WHITE ? board_line : "0-1 white obligations unmet";
    if (ub) return loser == BLACK ? board_line : "1-0 black obligations unmet";
    return board_line;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(((const Action *)a)->text, ((const Action *)b)->text);
}

/* Read one line of any length; returns NULL at end of input. */
static char *read_line(FILE *in)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    if (!s) exit(2);
    int ch;
    while ((ch = fgetc(in)) != EOF && ch != '\n') {
        if (len + 1 >= cap) {
            cap *= 2;
            s = realloc(s, cap);
            if (!s) exit(2);
        }
        s[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) {
        free(s);
        return NULL;
    }
    s[len] = 0;
    return s;
}

static void check_game(char *line, Pos *p, Pos *tmp)
{
    ActList l = {NULL, 0, 0};
    Key *hist = NULL;
    int nhist = 0, hcap = 0;
    pos_start(p);
    char *save = line;
    int ply = 0;
    for (;;) {
        gen_all(p, &l);
        qsort(l.a, (size_t)l.n, sizeof(Action), cmp_text);
        int ep_legal = 0;
        for (int i = 0; i < l.n; i++)
            if (l.a[i].kind == ACT_CHESS && (l.a[i].flags & MF_EP)) ep_legal = 1;
        Key k = make_key(p, ep_legal);
        int reps = 0;
        for (int i = 0; i < nhist; i++)
            if (hist[i].len == k.len && memcmp(hist[i].data, k.data, k.len) == 0) reps++;
        if (nhist == hcap) {
            hcap = hcap ? hcap * 2 : 64;
            hist = realloc(hist, (size_t)hcap * sizeof(Key));
            if (!hist) exit(2);
        }
        hist[nhist++] = k;
        printf("%d %s:", ply, status_line(p, &l, reps));
        for (int i = 0; i < l.n; i++) printf(" %s", l.a[i].text);
        printf("\n");
        /* The next input token. */
        while (*save == ' ' || *save == '\t' || *save == '\r') save++;
        if (!*save) break;
        char *tok = save;
        while (*save && *save != ' ' && *save != '\t' && *save != '\r') save++;
        if (*save) *save++ = 0;
        int found = -1;
        for (int i = 0; i < l.n; i++)
            if (strcmp(l.a[i].text, tok) == 0) {
                found = i;
                break;
            }
        if (found < 0) {
            printf("%d illegal %s\n", ply, tok);
            break;
        }
        pos_copy(tmp, p);
        play(tmp, &l.a[found]);
        pos_copy(p, tmp);
        ply++;
    }
    printf("end\n");
    for (int i = 0; i < nhist; i++) free(hist[i].data);
    free(hist);
    free(l.a);
}

static void usage(void)
{
    fprintf(stderr, "usage: vangog-ref MODE perft DEPTH [ACTION...] | vangog-ref MODE check\n"
                    "MODE: vangog, vangog-past, vangog-future\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3) usage();
    if (strcmp(argv[1], "vangog") == 0)
        g_mode = MODE_FULL;
    else if (strcmp(argv[1], "vangog-past") == 0)
        g_mode = MODE_PAST;
    else if (strcmp(argv[1], "vangog-future") == 0)
        g_mode = MODE_FUTURE;
    else
        usage();
    init_geometry();
    if (strcmp(argv[2], "perft") == 0) {
        if (argc < 4) usage();
        int depth = atoi(argv[3]);
        if (depth < 0 || depth > MAXDEPTH) usage();
        for (int i = 0; i <= depth; i++) {
            perft_pos[i] = malloc(sizeof(Pos));
            if (!perft_pos[i]) exit(2);
        }
        pos_start(perft_pos[0]);
        /* Actions before the count, in coordinate form. */
        for (int a = 4; a < argc; a++) {
            ActList l = {NULL, 0, 0};
            gen_all(perft_pos[0], &l);
            int found = -1;
            for (int i = 0; i < l.n && found < 0; i++)
                if (strcmp(l.a[i].text, argv[a]) == 0) found = i;
            if (found < 0) {
                fprintf(stderr, "vangog-ref: illegal action %s\n", argv[a]);
                exit(2);
            }
            play(perft_pos[0], &l.a[found]);
            free(l.a);
        }
        printf("%llu\n", perft(0, depth));
        for (int i = 0; i <= depth; i++) {
            free(perft_pos[i]);
            free(perft_list[i].a);
        }
        return 0;
    }
    if (strcmp(argv[2], "check") == 0) {
        Pos *p = malloc(sizeof(Pos)), *tmp = malloc(sizeof(Pos));
        if (!p || !tmp) exit(2);
        char *line;
        while ((line = read_line(stdin)) != NULL) {
            check_game(line, p, tmp);
            free(line);
        }
        free(p);
        free(tmp);
        return 0;
    }
    usage();
    return 2;
}
