/* SPDX-License-Identifier: GPL-3.0-or-later
 * The transposition table (tt.h). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

/* A move packs into 57 bits: squares 7 bits each (SQ_NONE is 64), kind 4,
 * the two piece types 3 each, the flag 1, and the 32-bit argument (a move
 * number or a record node) whole. */
uint64_t tt_pack_move(Move m)
{
    return (uint64_t)(m.from & 127) | (uint64_t)(m.to & 127) << 7 | (uint64_t)(m.kind & 15) << 14 |
           (uint64_t)(m.piece & 7) << 18 | (uint64_t)(m.promo & 7) << 21 | (uint64_t)(m.flags & 1) << 24 |
           (uint64_t)m.arg << 25;
}

Move tt_unpack_move(uint64_t bits)
{
    Move m;
    m.from = (uint8_t)(bits & 127);
    m.to = (uint8_t)(bits >> 7 & 127);
    m.kind = (uint8_t)(bits >> 14 & 15);
    m.piece = (uint8_t)(bits >> 18 & 7);
    m.promo = (uint8_t)(bits >> 21 & 7);
    m.flags = (uint8_t)(bits >> 24 & 1);
    m.arg = (uint32_t)(bits >> 25);
    return m;
}

/* Data: score and evaluation as 16-bit two's complement, depth 8 bits,
 * bound 2, generation 8. */
static uint64_t pack_data(int score, int eval, int depth, int bound, uint8_t generation)
{
    if (depth < 0) depth = 0;
    if (depth > 255) depth = 255;
    return (uint64_t)(uint16_t)(int16_t)score | (uint64_t)(uint16_t)(int16_t)eval << 16 | (uint64_t)depth << 32 |
           (uint64_t)bound << 40 | (uint64_t)generation << 42;
}

static int data_score(uint64_t d) { return (int16_t)(uint16_t)(d & 0xffff); }
static int data_eval(uint64_t d) { return (int16_t)(uint16_t)(d >> 16 & 0xffff); }
static int data_depth(uint64_t d) { return (int)(d >> 32 & 255); }
static int data_bound(uint64_t d) { return (int)(d >> 40 & 3); }
static uint8_t data_generation(uint64_t d) { return (uint8_t)(d >> 42 & 255); }

bool tt_resize(TT *t, size_t megabytes)
{
    size_t bytes = megabytes * 1024 * 1024;
    size_t buckets = bytes / (sizeof(TTEntry) * TT_BUCKET);
    if (buckets == 0) buckets = 1;
    TTEntry *e = calloc(buckets * TT_BUCKET, sizeof *e);
    if (!e) return false;
    free(t->entries);
    t->entries = e;
    t->buckets = buckets;
    t->generation = 0;
    return true;
}

void tt_free(TT *t)
{
    free(t->entries);
    memset(t, 0, sizeof *t);
}

void tt_clear(TT *t)
{
    if (t->entries) memset(t->entries, 0, t->buckets * TT_BUCKET * sizeof *t->entries);
    t->generation = 0;
}

void tt_new_search(TT *t) { t->generation++; }

/* The bucket of a key: the high bits, scaled to the number of buckets
 * (a multiply instead of a division, and any size works). */
static TTEntry *bucket_of(const TT *t, uint64_t key)
{
    size_t index = (size_t)(((unsigned __int128)key * t->buckets) >> 64);
    return &t->entries[index * TT_BUCKET];
}

bool tt_probe(const TT *t, uint64_t key, TTHit *hit)
{
    TTEntry *b = bucket_of(t, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t move = atomic_load_explicit(&b[i].move, memory_order_relaxed);
        uint64_t data = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((check ^ move ^ data) != key || data_bound(data) == TT_BOUND_NONE) continue;
        hit->move = tt_unpack_move(move);
        hit->score = data_score(data);
        hit->eval = data_eval(data);
        hit->depth = data_depth(data);
        hit->bound = data_bound(data);
        return true;
    }
    return false;
}

void tt_store(TT *t, uint64_t key, Move move, int score, int eval, int depth, int bound)
{
    TTEntry *b = bucket_of(t, key);
    /* The entry of the same key if there is one; else the one worth least:
     * shallow, and from an older search. */
    TTEntry *victim = &b[0];
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t m = atomic_load_explicit(&b[i].move, memory_order_relaxed);
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ m ^ d) == key) {
            victim = &b[i];
            /* Keep the old move when the new result has none. */
            if (move.kind == MOVE_NULL) move = tt_unpack_move(m);
            /* A shallower result does not replace a deeper exact one of this search. */
            if (depth + 2 < data_depth(d) && bound != TT_BOUND_EXACT && data_generation(d) == t->generation) return;
            break;
        }
        int age = (uint8_t)(t->generation - data_generation(d));
        int worth = data_bound(d) == TT_BOUND_NONE ? -1000 : data_depth(d) - 8 * age;
        if (worth < worst) {
            worst = worth;
            victim = &b[i];
        }
    }
    uint64_t m = tt_pack_move(move);
    uint64_t d = pack_data(score, eval, depth, bound, t->generation);
    atomic_store_explicit(&victim->move, m, memory_order_relaxed);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ m ^ d, memory_order_relaxed);
}

int tt_hashfull(const TT *t)
{
    size_t n = t->buckets * TT_BUCKET < 1000 ? t->buckets * TT_BUCKET : 1000;
    if (n == 0) return 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = atomic_load_explicit(&t->entries[i].data, memory_order_relaxed);
        if (data_bound(d) != TT_BOUND_NONE && data_generation(d) == t->generation) used++;
    }
    return (int)(used * 1000 / n);
}
