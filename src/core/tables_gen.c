/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes the library's constant tables as C source: the attack tables
 * (leapers, lines, and "fancy" magic bitboards for the sliders) and the
 * Zobrist keys.  The build runs this program and compiles what it prints
 * (build/.../tables.c), so that every table the move generator reads is
 * `const` data, filled before the program starts and shared safely by any
 * number of threads; nothing is computed at start-up.
 *
 * Sliders: for each square the relevant blockers are multiplied by a magic
 * number whose top bits index a slice of the attack table.  The magic
 * numbers were found by this program's own seeded search (run it with
 * --find-magics, "make magics") and are stored below; writing the tables
 * checks every entry against a plain ray walk.
 *
 * Usage: tables-gen > tables.c        tables-gen --find-magics
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"

typedef struct MagicEntry {
    Bitboard mask;   /* relevant occupancy: the rays without their edges */
    Bitboard magic;  /* multiplier that hashes the mask bits perfectly   */
    size_t offset;   /* where the square's slice starts in its table     */
    unsigned shift;
} MagicEntry;

enum { BISHOP_TABLE_SIZE = 5248, ROOK_TABLE_SIZE = 102400 };

static Bitboard BISHOP_TABLE[BISHOP_TABLE_SIZE];
static Bitboard ROOK_TABLE[ROOK_TABLE_SIZE];
static MagicEntry BISHOP_MAGICS[64], ROOK_MAGICS[64];
static Bitboard BETWEEN[64][64], LINE[64][64];

static const int ROOK_DIRS[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int BISHOP_DIRS[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
static const int KNIGHT_STEPS[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                        { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
static const int KING_STEPS[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                      { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
static const int WHITE_PAWN[2][2] = { { -1, 1 }, { 1, 1 } };
static const int BLACK_PAWN[2][2] = { { -1, -1 }, { 1, -1 } };

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
static bool fill_magic(const MagicEntry *m, Square s, const int dirs[4][2], Bitboard *table, unsigned *epoch,
                       unsigned attempt)
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
    return true;
}

static void setup_magic(MagicEntry *m, Square s, const int dirs[4][2], Bitboard magic, size_t offset)
{
    m->mask = relevant_mask(s, dirs);
    m->shift = 64 - (unsigned)bb_count(m->mask);
    m->magic = magic;
    m->offset = offset;
}

static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Searches a magic number for s; returns the table slice's size. */
static size_t find_magic(MagicEntry *m, Square s, const int dirs[4][2], Bitboard *table, size_t offset,
                         uint64_t *rng)
{
    static unsigned epoch[4096];
    static unsigned attempt;
    setup_magic(m, s, dirs, 0, offset);
    do {
        do {
            m->magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        } while (bb_count((m->mask * m->magic) >> 56) < 6);
    } while (!fill_magic(m, s, dirs, table + offset, epoch, ++attempt));
    return (size_t)1 << (64 - m->shift);
}

/* Magic numbers found by find_magic (--find-magics prints them again). */
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

static int find_magics(void)
{
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    size_t boff = 0, roff = 0;
    for (Square s = 0; s < 64; s++) {
        boff += find_magic(&BISHOP_MAGICS[s], s, BISHOP_DIRS, BISHOP_TABLE, boff, &rng);
        roff += find_magic(&ROOK_MAGICS[s], s, ROOK_DIRS, ROOK_TABLE, roff, &rng);
    }
    for (int k = 0; k < 2; k++) {
        printf("static const Bitboard %s_MAGIC_NUMBERS[64] = {\n", k ? "ROOK" : "BISHOP");
        for (Square s = 0; s < 64; s++)
            printf("%s0x%016llXULL,%s", s % 3 ? " " : "    ",
                   (unsigned long long)(k ? ROOK_MAGICS : BISHOP_MAGICS)[s].magic, s % 3 == 2 || s == 63 ? "\n" : "");
        printf("};\n");
    }
    return 0;
}

/* Fills both slider tables from the stored magic numbers; false if one
 * of them no longer hashes its square perfectly. */
static bool fill_sliders(void)
{
    static unsigned epoch[4096];
    size_t boff = 0, roff = 0;
    for (Square s = 0; s < 64; s++) {
        MagicEntry *bm = &BISHOP_MAGICS[s], *rm = &ROOK_MAGICS[s];
        setup_magic(bm, s, BISHOP_DIRS, BISHOP_MAGIC_NUMBERS[s], boff);
        setup_magic(rm, s, ROOK_DIRS, ROOK_MAGIC_NUMBERS[s], roff);
        /* Each square's slice is fresh memory, so every entry is new. */
        memset(epoch, 0, sizeof epoch);
        bool ok = fill_magic(bm, s, BISHOP_DIRS, BISHOP_TABLE + boff, epoch, 1);
        memset(epoch, 0, sizeof epoch);
        ok = fill_magic(rm, s, ROOK_DIRS, ROOK_TABLE + roff, epoch, 1) && ok;
        if (!ok) {
            fprintf(stderr, "tables-gen: bad magic number for square %d\n", s);
            return false;
        }
        boff += (size_t)1 << (64 - bm->shift);
        roff += (size_t)1 << (64 - rm->shift);
    }
    return boff == BISHOP_TABLE_SIZE && roff == ROOK_TABLE_SIZE;
}

static void fill_lines(void)
{
    for (Square a = 0; a < 64; a++) {
        for (Square b = 0; b < 64; b++) {
            if (a == b) continue;
            const int (*dirs)[2] = NULL;
            if (slide(a, 0, ROOK_DIRS) & BB(b)) dirs = ROOK_DIRS;
            else if (slide(a, 0, BISHOP_DIRS) & BB(b)) dirs = BISHOP_DIRS;
            if (!dirs) continue;
            BETWEEN[a][b] = slide(a, BB(b), dirs) & slide(b, BB(a), dirs);
            /* The line: every square c collinear with a and b that one of
             * the two stars reaches. */
            Bitboard cand = slide(a, 0, dirs) | slide(b, 0, dirs), keep = BB(a) | BB(b);
            while (cand) {
                Square c = bb_pop(&cand);
                int fa = square_file(a), ra = square_rank(a), fb = square_file(b), rb = square_rank(b);
                int fc = square_file(c), rc = square_rank(c);
                if ((fb - fa) * (rc - ra) == (rb - ra) * (fc - fa)) keep |= BB(c);
            }
            LINE[a][b] = keep;
        }
    }
}

/* Prints n values; with row > 0 as an array of rows of that length. */
static void print_bitboards(const char *decl, const Bitboard *v, size_t n, size_t row)
{
    printf("%s = {", decl);
    for (size_t i = 0; i < n; i++) {
        if (row && i % row == 0) printf("%s\n  {", i ? " }," : "");
        printf("%s0x%016llxULL,", i % 4 ? " " : "\n    ", (unsigned long long)v[i]);
    }
    printf("%s\n};\n\n", row ? " }" : "");
}

static void print_magics(const char *name, const char *table, const MagicEntry *m)
{
    printf("const Magic %s[64] = {\n", name);
    for (int s = 0; s < 64; s++)
        printf("    { 0x%016llxULL, 0x%016llxULL, %s + %zu, %u },\n", (unsigned long long)m[s].mask,
               (unsigned long long)m[s].magic, table, m[s].offset, m[s].shift);
    printf("};\n\n");
}

/* Zobrist keys: 64 random bits for each (piece, square), castling rights
 * value, en passant file and the side to move, from a fixed seed so that
 * every build has the same keys. */
static void print_zobrist(void)
{
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    Bitboard piece[PIECE_CODES * 64], castling[16], ep[8];
    for (int i = 0; i < PIECE_CODES * 64; i++) piece[i] = rng_next(&rng);
    for (int i = 0; i < 16; i++) castling[i] = i ? rng_next(&rng) : 0;
    for (int i = 0; i < 8; i++) ep[i] = rng_next(&rng);
    print_bitboards("const Bitboard ZOBRIST_PIECE[PIECE_CODES][64]", piece, PIECE_CODES * 64, 64);
    print_bitboards("const Bitboard ZOBRIST_CASTLING[16]", castling, 16, 0);
    print_bitboards("const Bitboard ZOBRIST_EP_FILE[8]", ep, 8, 0);
    printf("const Bitboard ZOBRIST_SIDE = 0x%016llxULL;\n", (unsigned long long)rng_next(&rng));
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--find-magics")) return find_magics();
    if (!fill_sliders()) return 1;
    fill_lines();
    Bitboard knight[64], king[64], pawn[2 * 64];
    for (Square s = 0; s < 64; s++) {
        knight[s] = leaper(s, KNIGHT_STEPS, 8);
        king[s] = leaper(s, KING_STEPS, 8);
        pawn[WHITE * 64 + s] = leaper(s, WHITE_PAWN, 2);
        pawn[BLACK * 64 + s] = leaper(s, BLACK_PAWN, 2);
    }
    printf("/* Written by src/core/tables_gen.c; do not edit. */\n"
           "#include \"attacks.h\"\n#include \"zobrist.h\"\n\n");
    print_bitboards("const Bitboard PAWN_ATTACKS[2][64]", pawn, 128, 64);
    print_bitboards("const Bitboard KNIGHT_ATTACKS[64]", knight, 64, 0);
    print_bitboards("const Bitboard KING_ATTACKS[64]", king, 64, 0);
    print_bitboards("const Bitboard BETWEEN[64][64]", &BETWEEN[0][0], 64 * 64, 64);
    print_bitboards("const Bitboard LINE[64][64]", &LINE[0][0], 64 * 64, 64);
    print_bitboards("static const Bitboard BISHOP_TABLE[5248]", BISHOP_TABLE, BISHOP_TABLE_SIZE, 0);
    print_bitboards("static const Bitboard ROOK_TABLE[102400]", ROOK_TABLE, ROOK_TABLE_SIZE, 0);
    print_magics("BISHOP_MAGICS", "BISHOP_TABLE", BISHOP_MAGICS);
    print_magics("ROOK_MAGICS", "ROOK_TABLE", ROOK_MAGICS);
    print_zobrist();
    return ferror(stdout) ? 1 : 0;
}
