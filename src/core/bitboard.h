/* SPDX-License-Identifier: GPL-3.0-or-later
 * Bitboard helpers: one bit a square, a1 = bit 0. */
#ifndef TTCHESS_BITBOARD_H
#define TTCHESS_BITBOARD_H

#include "types.h"

#define BB(sq) (1ULL << (sq))

enum {
    FILE_A_BB_SHIFT = 0
};
static const Bitboard FILE_A = 0x0101010101010101ULL;
static const Bitboard FILE_H = 0x8080808080808080ULL;
static const Bitboard RANK_1 = 0x00000000000000FFULL;
static const Bitboard RANK_2 = 0x000000000000FF00ULL;
static const Bitboard RANK_3 = 0x0000000000FF0000ULL;
static const Bitboard RANK_6 = 0x0000FF0000000000ULL;
static const Bitboard RANK_7 = 0x00FF000000000000ULL;
static const Bitboard RANK_8 = 0xFF00000000000000ULL;
static const Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

/* The portable x86-64 build (Makefile: no -march) has no popcnt
 * instruction, and there the compiler's builtin is a call into libgcc for
 * every count: the evaluation counts mobility, attacks and pawns by the
 * dozen, and the call alone cost several per cent of the search.  The
 * same sum done in registers, a byte at a time, needs no call; where the
 * instruction exists (-march=native, other processors) the builtin is it. */
static inline int bb_count(Bitboard b)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
#else
    return __builtin_popcountll(b);
#endif
}
static inline Square bb_first(Bitboard b) { return (Square)__builtin_ctzll(b); }
static inline Square bb_pop(Bitboard *b)
{
    Square s = bb_first(*b);
    *b &= *b - 1;
    return s;
}
static inline bool bb_many(Bitboard b) { return (b & (b - 1)) != 0; }

static inline Bitboard bb_shift_north(Bitboard b) { return b << 8; }
static inline Bitboard bb_shift_south(Bitboard b) { return b >> 8; }
static inline Bitboard bb_forward(Bitboard b, Color c) { return c == WHITE ? b << 8 : b >> 8; }

static inline bool square_is_dark(Square s) { return ((square_file(s) + square_rank(s)) & 1) == 0; }

#endif
