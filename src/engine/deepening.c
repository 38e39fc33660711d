/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Iterative deepening (search.c searches each depth): the depths one after
 * another, each MultiPV line in an aspiration window around its last
 * score, the lines reported after each depth, and the decision to stop
 * between two depths (the soft time limit, a mate found, a single action).
 */
#include <stdlib.h>

#include "search_internal.h"

/* Sorts root actions from `from` on by score, keeping the order of equals
 * (so that the best of the last iteration stays first among them). */
void search_sort_root(RootMove *root, int from, int count)
{
    for (int i = from + 1; i < count; i++) {
        RootMove m = root[i];
        int j = i;
        while (j > from && root[j - 1].score < m.score) {
            root[j] = root[j - 1];
            j--;
        }
        root[j] = m;
    }
}

static void report_lines(Worker *w, int depth, SearchReport report, void *context)
{
    Engine *e = w->engine;
    if (!report) return;
    int64_t elapsed = now_ms() - e->start_ms;
    uint64_t nodes = total_nodes(e);
    for (int k = 0; k < e->multipv && k < w->root_count; k++) {
        RootMove *rm = &w->root[k];
        SearchInfo info = {
            .depth = depth,
            .seldepth = rm->seldepth > depth ? rm->seldepth : depth,
            .multipv = k + 1,
            .score = rm->score,
            .bound = 0,
            .nodes = nodes,
            .nps = elapsed > 0 ? nodes * 1000 / (uint64_t)elapsed : nodes * 1000,
            .hashfull = tt_hashfull(&e->tt),
            .time_ms = elapsed,
            .pv = rm->pv,
            .pv_length = rm->pv_length,
        };
        report(context, &info);
    }
}

/* One iteration for one MultiPV line, with an aspiration window around the
 * last score once the scores have settled. */
static void aspirate(Worker *w, int depth)
{
    RootMove *rm = &w->root[w->pv_index];
    int window = SEARCH.aspiration_window;
    int alpha = -EVAL_INFINITE, beta = EVAL_INFINITE;
    if (depth >= SEARCH.aspiration_min_depth && abs(rm->previous_score) < EVAL_MATE_BOUND) {
        alpha = rm->previous_score - window;
        beta = rm->previous_score + window;
    }
    for (;;) {
        int score = search_root(w, alpha, beta, depth);
        if (w->aborted) return;
        search_sort_root(w->root, w->pv_index, w->root_count);
        if (score <= alpha && alpha > -EVAL_INFINITE) {
            beta = (alpha + beta) / 2;
            alpha = score - window < -EVAL_INFINITE ? -EVAL_INFINITE : score - window;
        } else if (score >= beta && beta < EVAL_INFINITE) {
            beta = score + window > EVAL_INFINITE ? EVAL_INFINITE : score + window;
        } else {
            return;
        }
        window += window / 2;
        if (window > 1000) alpha = -EVAL_INFINITE, beta = EVAL_INFINITE;
    }
}

static bool mate_found(const Engine *e, const Worker *w)
{
    if (!e->limits.mate || w->root_count == 0) return false;
    int s = w->root[0].score;
    return s >= EVAL_MATE_BOUND && engine_mate_moves(s) <= e->limits.mate;
}

void search_iterate(Worker *w, const Iteration *it)
{
    Engine *e = w->engine;
    int start = 1 + (w->id > 0 ? w->id % 2 : 0);
    for (int depth = start; depth <= e->max_depth; depth++) {
        w->root_depth = depth;
        for (int i = 0; i < w->root_count; i++) w->root[i].previous_score = w->root[i].score;
        int lines = w->id == 0 ? e->multipv : 1;
        for (w->pv_index = 0; w->pv_index < lines && w->pv_index < w->root_count; w->pv_index++) {
            aspirate(w, depth);
            if (w->aborted) break;
        }
        if (w->aborted) break;
        w->completed_depth = depth;
        w->may_abort = true;
        if (w->id != 0) continue;
        search_sort_root(w->root, 0, e->multipv < w->root_count ? e->multipv : w->root_count);
        report_lines(w, depth, it ? it->report : NULL, it ? it->context : NULL);
        if (mate_found(e, w)) break;
        bool timed = !still_pondering(e);
        if (timed && e->soft_ms && now_ms() - e->start_ms >= e->soft_ms) break;
        if (stop_requested(e)) break;
        /* A single legal action needs no thought under a clock. */
        if (timed && w->root_count == 1 && (e->soft_ms || e->limits.movetime) && depth >= 4) break;
    }
}

void *search_helper_main(void *arg)
{
    search_iterate(arg, NULL);
    return NULL;
}

