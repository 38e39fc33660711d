/* SPDX-License-Identifier: GPL-3.0-or-later
 * Growing action lists (see ttchess/types.h). */
#include <stdlib.h>

#include "types.h"

void movelist_init(MoveList *l)
{
    l->moves = NULL;
    l->count = l->capacity = 0;
    l->failed = false;
}

void movelist_free(MoveList *l)
{
    free(l->moves);
    movelist_init(l);
}

bool movelist_reserve(MoveList *l, int more)
{
    if (l->failed) return false;
    if (l->count + more <= l->capacity) return true;
    int cap = l->capacity ? l->capacity : 256;
    while (cap < l->count + more) {
        if (cap > (1 << 28)) {
            l->failed = true;
            return false;
        }
        cap *= 2;
    }
    Move *m = realloc(l->moves, (size_t)cap * sizeof *m);
    if (!m) {
        l->failed = true;
        return false;
    }
    l->moves = m;
    l->capacity = cap;
    return true;
}

bool movelist_grow(MoveList *l) { return movelist_reserve(l, 1); }

bool movelist_contains(const MoveList *l, Move m)
{
    for (int i = 0; i < l->count; i++)
        if (move_equal(l->moves[i], m)) return true;
    return false;
}
