/* SPDX-License-Identifier: GPL-3.0-or-later
 * Attack tables.  Sliders use "fancy" magic bitboards: for each square the
 * relevant blockers are multiplied by a magic number whose top bits index a
 * table of precomputed attack sets.  The magic numbers are not stored: they
 * are found at start-up by a seeded random search, which takes a few
 * milliseconds and always finds the same numbers. */
#include "attacks.h"

Bitboard PAWN_ATTACKS[2][64];
Bitboard KNIGHT_ATTACKS[64];
Bitboard KING_ATTACKS[64];
Bitboard BETWEEN[64][64];
Bitboard LINE[64][64];
Magic BISHOP_MAGICS[64];
Magic ROOK_MAGICS[64];

/* 5248 entries cover every bishop square, 102400 every rook square. */
static Bitboard BISHOP_TABLE[5248];
static Bitboard ROOK_TABLE[102400];

static const int ROOK_DIRS[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int BISHOP_DIRS[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* Attacks along the four directions, stopping at (and including) blockers. */
static Bitboard slide(Square s, Bitboard occ, const int dirs[4][2])
{
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(s) + dirs[d][0], r = square_rank(s) + dirs[d][1];
        while (on_board(f, r)) {
            Square t = make_square(f, r);
            att |= BB(t);
            if (occ & BB(t)) break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

static Bitboard leaper(Square s, const int (*steps)[2], int n)
{
    Bitboard att = 0;
    for (int i = 0; i < n; i++) {
        int f = square_file(s) + steps[i][0], r = square_rank(s) + steps[i][1];
        if (on_board(f, r)) att |= BB(make_square(f, r));
    }
    return att;
}

static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Fills one square's magic entry and its slice of the table; returns the
 * slice's size. */
static size_t find_magic(Magic *m, Square s, const int dirs[4][2], Bitboard *table, uint64_t *rng)
{
    Bitboard edges = ((RANK_1 | RANK_8) & ~(square_rank(s) == 0 ? RANK_1 : 0) & ~(square_rank(s) == 7 ? RANK_8 : 0)) |
                     ((FILE_A | FILE_H) & ~(square_file(s) == 0 ? FILE_A : 0) & ~(square_file(s) == 7 ? FILE_H : 0));
    Bitboard occ[4096], ref[4096];
    unsigned epoch[4096] = { 0 };
    m->mask = slide(s, 0, dirs) & ~edges;
    unsigned bits = (unsigned)bb_count(m->mask);
    size_t size = (size_t)1 << bits;
    m->shift = 64 - bits;
    m->table = table;

    /* Carry-rippler: every subset of the mask. */
    Bitboard b = 0;
    size_t n = 0;
    do {
        occ[n] = b;
        ref[n] = slide(s, b, dirs);
        n++;
        b = (b - m->mask) & m->mask;
    } while (b);

    for (unsigned attempt = 1;; attempt++) {
        Bitboard magic;
        do {
            magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        } while (bb_count((m->mask * magic) >> 56) < 6);
        m->magic = magic;
        size_t i;
        for (i = 0; i < n; i++) {
            size_t idx = (size_t)(((occ[i] & m->mask) * magic) >> m->shift);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = ref[i];
            } else if (table[idx] != ref[i]) {
                break;
            }
        }
        if (i == n) return size;
    }
}

static void init_lines(void)
{
    for (Square a = 0; a < 64; a++) {
        for (Square b = 0; b < 64; b++) {
            BETWEEN[a][b] = LINE[a][b] = 0;
            if (a == b) continue;
            const int (*dirs)[2] = NULL;
            if (slide(a, 0, ROOK_DIRS) & BB(b)) dirs = ROOK_DIRS;
            else if (slide(a, 0, BISHOP_DIRS) & BB(b)) dirs = BISHOP_DIRS;
            if (!dirs) continue;
            Bitboard la = slide(a, 0, dirs), lb = slide(b, 0, dirs);
            LINE[a][b] = (la & lb) | BB(a) | BB(b);
            BETWEEN[a][b] = slide(a, BB(b), dirs) & slide(b, BB(a), dirs);
        }
    }
    /* LINE so far is the intersection of two stars, which also holds the
     * points where other rays cross; keep only the squares on the a-b line. */
    for (Square a = 0; a < 64; a++) {
        for (Square b = 0; b < 64; b++) {
            if (!LINE[a][b]) continue;
            Bitboard keep = BB(a) | BB(b);
            Bitboard cand = LINE[a][b];
            while (cand) {
                Square c = bb_pop(&cand);
                if (c == a || c == b) continue;
                /* c is on the line iff a, b, c are collinear. */
                int fa = square_file(a), ra = square_rank(a), fb = square_file(b), rb = square_rank(b);
                int fc = square_file(c), rc = square_rank(c);
                if ((fb - fa) * (rc - ra) == (rb - ra) * (fc - fa)) keep |= BB(c);
            }
            LINE[a][b] = keep;
        }
    }
}

void attacks_init(void)
{
    static bool done = false;
    if (done) return;
    static const int KNIGHT_STEPS[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                            { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    static const int KING_STEPS[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                          { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
    static const int WHITE_PAWN[2][2] = { { -1, 1 }, { 1, 1 } };
    static const int BLACK_PAWN[2][2] = { { -1, -1 }, { 1, -1 } };
    for (Square s = 0; s < 64; s++) {
        KNIGHT_ATTACKS[s] = leaper(s, KNIGHT_STEPS, 8);
        KING_ATTACKS[s] = leaper(s, KING_STEPS, 8);
        PAWN_ATTACKS[WHITE][s] = leaper(s, WHITE_PAWN, 2);
        PAWN_ATTACKS[BLACK][s] = leaper(s, BLACK_PAWN, 2);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    size_t boff = 0, roff = 0;
    for (Square s = 0; s < 64; s++) {
        boff += find_magic(&BISHOP_MAGICS[s], s, BISHOP_DIRS, BISHOP_TABLE + boff, &rng);
        roff += find_magic(&ROOK_MAGICS[s], s, ROOK_DIRS, ROOK_TABLE + roff, &rng);
    }
    init_lines();
    done = true;
}

Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied)
{
    switch (t) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
    }
}
