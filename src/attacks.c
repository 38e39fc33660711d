/* SPDX-License-Identifier: GPL-3.0-or-later
 * Attack tables.  Sliders use "fancy" magic bitboards: for each square the
 * relevant blockers are multiplied by a magic number whose top bits index a
 * table of precomputed attack sets.  The magic numbers are not stored: they
 * were found by a seeded random search (the ATTACKS_PRINT_MAGICS build of
 * this file, "make magics") and are stored below; start-up only fills the
 * tables, checking every entry. */
#include "attacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#ifdef ATTACKS_PRINT_MAGICS
static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}
#endif

/* The relevant occupancy of a slider on s: its rays without the edge
 * squares, whose occupancy never changes the attacks. */
static Bitboard relevant_mask(Square s, const int dirs[4][2])
{
    Bitboard edges = ((RANK_1 | RANK_8) & ~(square_rank(s) == 0 ? RANK_1 : 0) & ~(square_rank(s) == 7 ? RANK_8 : 0)) |
                     ((FILE_A | FILE_H) & ~(square_file(s) == 0 ? FILE_A : 0) & ~(square_file(s) == 7 ? FILE_H : 0));
    return slide(s, 0, dirs) & ~edges;
}

/* Fills m's slice of the table with the attacks for every subset of the
 * mask (the "carry-rippler" walks them all); returns false if the magic
 * number maps two subsets with different attacks to one entry.  `epoch`
 * tells entries written by this try from those of an earlier one. */
static bool fill_magic(Magic *m, Square s, const int dirs[4][2], Bitboard *table, unsigned *epoch, unsigned attempt)
{
    Bitboard b = 0;
    do {
        size_t idx = (size_t)((b * m->magic) >> m->shift);
        Bitboard att = slide(s, b, dirs);
        if (epoch[idx] < attempt) {
            epoch[idx] = attempt;
            table[idx] = att;
        } else if (table[idx] != att) {
            return false;
        }
        b = (b - m->mask) & m->mask;
    } while (b);
    m->table = table;
    return true;
}

static void setup_magic(Magic *m, Square s, const int dirs[4][2], Bitboard magic)
{
    m->mask = relevant_mask(s, dirs);
    m->shift = 64 - (unsigned)bb_count(m->mask);
    m->magic = magic;
}

#ifdef ATTACKS_PRINT_MAGICS
/* Searches a magic number for s (tools: make magics); returns the table
 * slice's size. */
static size_t find_magic(Magic *m, Square s, const int dirs[4][2], Bitboard *table, uint64_t *rng)
{
    static unsigned epoch[4096];
    static unsigned attempt;
    setup_magic(m, s, dirs, 0);
    do {
        do {
            m->magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        } while (bb_count((m->mask * m->magic) >> 56) < 6);
    } while (!fill_magic(m, s, dirs, table, epoch, ++attempt));
    return (size_t)1 << (64 - m->shift);
}
#endif

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

/* Magic numbers found by this file's own search (make magics prints
 * them again); stored so that start-up does not repeat the search. */
static const Bitboard BISHOP_MAGIC_NUMBERS[64] = {
    0x10102002004A1420ULL, 0x3009080104082090ULL, 0x20A2020400200808ULL,
    0x0204404080020102ULL, 0x0101104000000028ULL, 0x28811008040000E8ULL,
    0x1031011032200020ULL, 0x0041040118921000ULL, 0x0400041004812400ULL,
    0x4100108188008081ULL, 0x0020484604042A09ULL, 0x000002208A002100ULL,
    0x00000A1210002805ULL, 0x400A410460448100ULL, 0x013060480A086000ULL,
    0x2101411400840412ULL, 0x1A10100404500409ULL, 0x4010028401026400ULL,
    0x2050000800401020ULL, 0x0008202404001420ULL, 0x0032880400A00600ULL,
    0x0202000022100202ULL, 0x0204082082111040ULL, 0x480C210084010800ULL,
    0x00C2620410200200ULL, 0x80C2102042901202ULL, 0x9000320050040040ULL,
    0x8004080010220040ULL, 0x0020044002003004ULL, 0x120401884100A003ULL,
    0x2004208014020128ULL, 0x04010302005400A0ULL, 0x0950084500600402ULL,
    0x81E0900901102200ULL, 0x10040128008412C0ULL, 0x0402004042940100ULL,
    0x2104204010040100ULL, 0x0420009100802400ULL, 0x0204082220808082ULL,
    0x2002004248020218ULL, 0x0001042160208400ULL, 0x00440D0148101080ULL,
    0x8044A02030000802ULL, 0xC081044206204800ULL, 0x0000219020800400ULL,
    0x8404010041000201ULL, 0x02210C0102492209ULL, 0x8010012110283100ULL,
    0x0183880109A00001ULL, 0x1001411090900080ULL, 0x2002120084045420ULL,
    0x2126087842020022ULL, 0x8040004010410128ULL, 0x08024030C2008020ULL,
    0x0121241004812002ULL, 0x0308010822004000ULL, 0x0083042805141020ULL,
    0x0220804212102288ULL, 0x8000014100880400ULL, 0x1000080000840410ULL,
    0x0088080031203200ULL, 0x001002200202C202ULL, 0x0000054802540400ULL,
    0xA010041108003100ULL,
};
static const Bitboard ROOK_MAGIC_NUMBERS[64] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL,
    0x0880100008000480ULL, 0x4200100420080200ULL, 0x8100020100080400ULL,
    0x0200040110886200ULL, 0x0200008040220411ULL, 0x0404800084400220ULL,
    0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL,
    0x0442000102105084ULL, 0x9080010020804100ULL, 0x0040404000201009ULL,
    0x0000808010002009ULL, 0x2200090021D00100ULL, 0x0008008008040080ULL,
    0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL,
    0x1000100080080080ULL, 0x0050500500080100ULL, 0x0000020080040080ULL,
    0x0C10010400420810ULL, 0x1040008200005104ULL, 0x01808240088004A0ULL,
    0x0882804004802000ULL, 0x0880402001001100ULL, 0x0000100080800800ULL,
    0x2000480131001500ULL, 0x0002000400800280ULL, 0x0080020104000810ULL,
    0x80441044120000A1ULL, 0x0000800040008020ULL, 0x041040201000C000ULL,
    0x0001004020010010ULL, 0x0800100100090021ULL, 0x0004080004008080ULL,
    0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL,
    0x0801100280080480ULL, 0x0242009008200600ULL, 0x1002000489500200ULL,
    0x0040800200010080ULL, 0x0091800041000080ULL, 0x000C91800020C101ULL,
    0x0A41104009802103ULL, 0x000880401202210AULL, 0x0000300089142101ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL,
    0x000008208044010AULL,
};

#ifdef ATTACKS_PRINT_MAGICS
int main(void)
{
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    size_t boff = 0, roff = 0;
    for (Square s = 0; s < 64; s++) {
        boff += find_magic(&BISHOP_MAGICS[s], s, BISHOP_DIRS, BISHOP_TABLE + boff, &rng);
        roff += find_magic(&ROOK_MAGICS[s], s, ROOK_DIRS, ROOK_TABLE + roff, &rng);
    }
    for (int k = 0; k < 2; k++) {
        printf("static const Bitboard %s_MAGIC_NUMBERS[64] = {\n", k ? "ROOK" : "BISHOP");
        for (Square s = 0; s < 64; s++)
            printf("%s0x%016llXULL,%s", s % 3 ? " " : "    ", (unsigned long long)(k ? ROOK_MAGICS : BISHOP_MAGICS)[s].magic,
                   s % 3 == 2 || s == 63 ? "\n" : "");
        printf("};\n");
    }
    return 0;
}
#endif

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
    static unsigned epoch[4096];
    size_t boff = 0, roff = 0;
    for (Square s = 0; s < 64; s++) {
        Magic *bm = &BISHOP_MAGICS[s], *rm = &ROOK_MAGICS[s];
        setup_magic(bm, s, BISHOP_DIRS, BISHOP_MAGIC_NUMBERS[s]);
        setup_magic(rm, s, ROOK_DIRS, ROOK_MAGIC_NUMBERS[s]);
        /* Each square's slice is fresh memory, so every entry is new. */
        memset(epoch, 0, sizeof epoch);
        bool ok = fill_magic(bm, s, BISHOP_DIRS, BISHOP_TABLE + boff, epoch, 1);
        memset(epoch, 0, sizeof epoch);
        ok = fill_magic(rm, s, ROOK_DIRS, ROOK_TABLE + roff, epoch, 1) && ok;
        if (!ok) {
            fprintf(stderr, "ttchess: internal error: bad magic number for square %d\n", s);
            abort();
        }
        boff += (size_t)1 << (64 - bm->shift);
        roff += (size_t)1 << (64 - rm->shift);
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
