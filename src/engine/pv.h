/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The principal variation as both searches keep it (search.c, solve.c):
 * a triangular table, row ply holding the best line found from that ply.
 */
#ifndef TTCHESS_PV_H
#define TTCHESS_PV_H

#include <string.h>

#include "engine.h"

/* Row ply becomes m followed by row ply + 1 (the best line after m), cut
 * to the table's width. */
static inline void pv_prepend(Move pv[][ENGINE_MAX_PLY + 1], int *pv_length, int ply, Move m)
{
    pv[ply][0] = m;
    int n = pv_length[ply + 1];
    if (n > ENGINE_MAX_PLY - 1) n = ENGINE_MAX_PLY - 1;
    memcpy(&pv[ply][1], pv[ply + 1], (size_t)n * sizeof(Move));
    pv_length[ply] = n + 1;
}

#endif
