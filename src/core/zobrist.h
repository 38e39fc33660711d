/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Zobrist keys: a position's identity as 64 bits, the XOR of one random
 * key for each thing that makes it what it is.  The board keeps its key
 * up to date as pieces come and go (board.c); each variant keys its own
 * state (arrivals, pockets, obligations) with zobrist_feature().  The
 * tables are constant data written at build time (tables_gen.c).
 */
#ifndef TTCHESS_ZOBRIST_H
#define TTCHESS_ZOBRIST_H

#include "types.h"

extern const Bitboard ZOBRIST_PIECE[PIECE_CODES][64];
extern const Bitboard ZOBRIST_CASTLING[16];
extern const Bitboard ZOBRIST_EP_FILE[8];
extern const Bitboard ZOBRIST_SIDE;

/* A key for any feature of a variant's state, given as a number that
 * names it (e.g. colour, move and piece packed together).  SplitMix64's
 * finaliser spreads the bits; distinct features get keys as independent
 * as table entries would be.  `domain` keeps one variant's numbering
 * apart from another's. */
static inline uint64_t zobrist_feature(uint64_t domain, uint64_t feature)
{
    uint64_t z = feature + domain * 0xD1B54A32D192ED03ULL + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
