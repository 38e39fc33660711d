/* SPDX-License-Identifier: GPL-3.0-or-later
 * Attack tables: leapers by lookup, sliders by magic bitboards.
 *
 * The tables are constant data written at build time by tables_gen.c, so
 * every lookup below is a plain read of memory no one ever writes, safe
 * from any thread.  They are declared here so that the lookups can be
 * inlined into the move generator's inner loops. */
#ifndef TTCHESS_ATTACKS_H
#define TTCHESS_ATTACKS_H

#include "bitboard.h"

typedef struct Magic {
    Bitboard mask;          /* relevant occupancy: the rays without their edges */
    Bitboard magic;         /* multiplier that hashes the mask bits perfectly   */
    const Bitboard *table;  /* the square's slice of the attack table          */
    unsigned shift;
} Magic;

extern const Bitboard PAWN_ATTACKS[2][64];
extern const Bitboard KNIGHT_ATTACKS[64];
extern const Bitboard KING_ATTACKS[64];
extern const Bitboard BETWEEN[64][64];
extern const Bitboard LINE[64][64];
extern const Magic BISHOP_MAGICS[64];
extern const Magic ROOK_MAGICS[64];

static inline Bitboard pawn_attacks(Color c, Square s) { return PAWN_ATTACKS[c][s]; }
static inline Bitboard knight_attacks(Square s) { return KNIGHT_ATTACKS[s]; }
static inline Bitboard king_attacks(Square s) { return KING_ATTACKS[s]; }

static inline Bitboard magic_lookup(const Magic *m, Bitboard occupied)
{
    return m->table[((occupied & m->mask) * m->magic) >> m->shift];
}
static inline Bitboard bishop_attacks(Square s, Bitboard occ) { return magic_lookup(&BISHOP_MAGICS[s], occ); }
static inline Bitboard rook_attacks(Square s, Bitboard occ) { return magic_lookup(&ROOK_MAGICS[s], occ); }
static inline Bitboard queen_attacks(Square s, Bitboard occ)
{
    return bishop_attacks(s, occ) | rook_attacks(s, occ);
}
/* Squares strictly between a and b on a line (empty if not aligned). */
static inline Bitboard between_bb(Square a, Square b) { return BETWEEN[a][b]; }
/* The whole line through a and b, edge to edge (empty if not aligned). */
static inline Bitboard line_bb(Square a, Square b) { return LINE[a][b]; }

/* The squares from which a pawn of colour c could ever reach (or see in
 * its forward cone) the square f: strictly behind f, at most as many
 * files aside as ranks behind, since each capture moves it one file. */
static inline Bitboard pawn_cone_behind(Color c, Square f)
{
    Bitboard cone = 0;
    int ff = square_file(f), fr = square_rank(f);
    for (int d = 1; d < 8; d++) {
        int r = c == WHITE ? fr - d : fr + d;
        if (r < 0 || r > 7) break;
        for (int file = ff - d; file <= ff + d; file++)
            if (file >= 0 && file <= 7) cone |= BB(make_square(file, r));
    }
    return cone;
}

/* Attacks of a non-pawn piece type from s. */
static inline Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied)
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

#endif
