/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The transposition table: what the search has learned about positions,
 * keyed by the position's Zobrist key (the board's and the variant's own
 * state's: Node.key), shared by every search thread without locks.
 *
 * An entry is three 64-bit words: the move, the data (score, static
 * evaluation, depth, bound, age) and a check word that is the key XORed
 * with both.  A thread that reads an entry half written by another sees a
 * check word that does not match its key and takes it for a miss, so a
 * torn entry is never used (the idea of Hyatt's lockless hashing).  The
 * words are C11 atomics read and written "relaxed": no ordering is needed,
 * only that each word is whole.
 */
#ifndef TTCHESS_TT_H
#define TTCHESS_TT_H

#include <stdatomic.h>

#include "types.h"

enum { TT_BOUND_NONE = 0, TT_BOUND_UPPER = 1, TT_BOUND_LOWER = 2, TT_BOUND_EXACT = 3 };

typedef struct TTEntry {
    _Atomic uint64_t check;
    _Atomic uint64_t move;
    _Atomic uint64_t data;
} TTEntry;

/* Entries are grouped in buckets of TT_BUCKET: a key may sit in any entry
 * of its bucket, so that a deep result is not pushed out by a shallow one. */
enum { TT_BUCKET = 4 };

typedef struct TT {
    TTEntry *entries;
    size_t buckets;
    uint8_t generation;   /* advanced once a search, to age old entries */
} TT;

typedef struct TTHit {
    Move move;            /* MOVE_NULL if the entry has none */
    int score, eval, depth, bound;
} TTHit;

/* Allocates megabytes of table (at least one bucket); false when out of memory. */
bool tt_resize(TT *t, size_t megabytes);
void tt_free(TT *t);
void tt_clear(TT *t);
void tt_new_search(TT *t);
bool tt_probe(const TT *t, uint64_t key, TTHit *hit);
void tt_store(TT *t, uint64_t key, Move move, int score, int eval, int depth, int bound);
/* Per mille of the first thousand entries written in this search. */
int tt_hashfull(const TT *t);

/* A move in 57 bits and back (for the table and for tests). */
uint64_t tt_pack_move(Move m);
Move tt_unpack_move(uint64_t bits);

#endif
