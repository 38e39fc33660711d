/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the files of the search share (search.c: the tree; deepening.c:
 * iterative deepening and its reports; engine.c: the engine, its clock and
 * its threads): the tunable constants, the engine's state and each
 * thread's.  Private to src/engine/.
 */
#ifndef TTCHESS_SEARCH_INTERNAL_H
#define TTCHESS_SEARCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "engine.h"
#include "eval.h"
#include "tt.h"

/* ---- Tunable constants of the search ------------------------------------ */

/* Named here, in one table, so that a change of behaviour is a change of
 * data; `ttchess bench`'s node count shows at once that one was made. */
static const struct SearchParams {
    int aspiration_window;      /* first half-width, centipawns          */
    int aspiration_min_depth;   /* iterations before windows are used    */
    int rfp_max_depth;          /* reverse futility pruning up to here   */
    int rfp_margin;             /* per ply of depth                      */
    int null_min_depth;
    int null_base_reduction;
    int null_depth_divisor;     /* reduction grows by 1 per this many plies */
    int lmr_min_depth;
    int lmr_min_moves;          /* moves searched in full before reducing */
    double lmr_base, lmr_divisor;
    int lmp_max_depth;          /* late move pruning up to here          */
    int lmp_travel_base;        /* where the evaluator asks it (eval.h):
                                   time-travel actions kept: base + depth */
    int lmp_base;               /* quiet moves kept: base + depth squared */
    int lmp_probes;             /* late quiet moves tried for a check    */
    /* Where the evaluator asks for them (Evaluator.chess_prunings): */
    int futility_max_depth;     /* futility pruning up to here           */
    int futility_base;          /* margin: base + per ply of depth       */
    int futility_margin;
    int lmr_history_divisor;    /* a reduction is one ply less (more) per
                                   this much history for (against) a move */
    int iir_min_depth;          /* internal iterative reduction from here */
    int qsearch_delta;          /* margin of delta pruning in quiescence */
    int history_max;
    int check_time_every;       /* nodes between two looks at the clock  */
    int move_overhead_ms;       /* kept back for the pipe and the GUI    */
    int default_moves_to_go;    /* moves the clock must last, if unsaid  */
    int shared_loss_contempt;   /* a shared loss ahead, for the root side */
} SEARCH = {
    .aspiration_window = 25,
    .aspiration_min_depth = 5,
    .rfp_max_depth = 6,
    .rfp_margin = 90,
    .null_min_depth = 3,
    .null_base_reduction = 3,
    .null_depth_divisor = 6,
    .lmr_min_depth = 3,
    .lmr_min_moves = 3,
    .lmr_base = 0.75,
    .lmr_divisor = 2.25,
    .lmp_max_depth = 3,
    .lmp_travel_base = 2,
    .lmp_base = 4,
    .lmp_probes = 32,
    .futility_max_depth = 5,
    .futility_base = 60,
    .futility_margin = 90,
    .lmr_history_divisor = 6000,
    .iir_min_depth = 4,
    .qsearch_delta = 200,
    .history_max = 16384,
    .check_time_every = 256,
    .move_overhead_ms = 30,
    .default_moves_to_go = 30,
    /* Where the evaluator sees a result both sides lose ahead (van Gog:
     * both with obligations open), the side the engine plays loses what
     * the evaluation credited it for the other side's debts, and this
     * much more; the side it models gains as much (zero-sum): see
     * outcome_score in search.c. */
    .shared_loss_contempt = 500,
};

/* ---- The engine and its threads ----------------------------------------- */

typedef struct RootMove {
    Move move;
    int score, previous_score;
    int seldepth;
    Move pv[ENGINE_MAX_PLY];
    int pv_length;
} RootMove;

/* Move ordering scores of one ply's list. */
typedef struct Scores {
    int *at;
    int capacity;
} Scores;

enum { HISTORY_SQUARES = 65 };   /* SQ_NONE (a drop, a send) counts as square 64 */

typedef struct Worker {
    struct Engine *engine;
    int id;
    pthread_t thread;
    Line line;
    MoveList lists[ENGINE_MAX_PLY + 1];
    Scores scores[ENGINE_MAX_PLY + 1];
    Move killers[ENGINE_MAX_PLY + 1][2];
    int history[2][HISTORY_SQUARES][HISTORY_SQUARES];
    Move pv[ENGINE_MAX_PLY + 1][ENGINE_MAX_PLY + 1];
    int pv_length[ENGINE_MAX_PLY + 1];
    _Atomic uint64_t nodes;
    int seldepth;
    int root_depth;
    int completed_depth;
    RootMove *root;
    int root_count;
    int pv_index;               /* the MultiPV line being searched      */
    bool may_abort;             /* the first iteration always completes */
    bool aborted;
    bool out_of_memory;
    uint64_t random;
    Color root_side;            /* the side the engine plays            */
} Worker;

struct Engine {
    TT tt;
    /* The side the table's scores were searched for: with a shared loss
     * ahead they depend on it (search.c, outcome_score). */
    Color tt_side;
    int threads;
    int skill;
    uint64_t seed;
    /* stop ends the search at the next point where an answer exists (after
     * the first root action of the first iteration); halt ends it at once,
     * the first root action unsearched if need be.  halt comes from the
     * caller (engine_stop, SearchLimits.stop) and from the clock (halt_ms:
     * the time asked for by "go movetime", twice the hard limit under a
     * clock): a position where one action's search outlasts the time (a
     * van Gog board full of pieces from the future) must still answer in
     * time, with the best action by the first ordering. */
    atomic_bool stop;
    atomic_bool halt;
    /* The search under way. */
    const Game *game;
    const Evaluator *evaluator;
    SearchLimits limits;
    int multipv;
    int max_depth;
    int64_t start_ms, soft_ms, hard_ms;   /* 0: no limit */
    bool pondering;                       /* until ponderhit (SearchLimits.ponder) */
    int64_t halt_ms;                      /* 0: none; ends even the first root action */
    Worker *workers;
};

static inline int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* ---- Stopping ----------------------------------------------------------- */

static inline uint64_t total_nodes(const Engine *e)
{
    uint64_t n = 0;
    for (int i = 0; i < e->threads; i++) n += atomic_load_explicit(&e->workers[i].nodes, memory_order_relaxed);
    return n;
}

/* Has anyone asked the search to end: engine_stop, the search itself
 * (time, nodes), or the caller's own flag (SearchLimits.stop)? */
/* Is the search still pondering?  The first time it finds the caller's
 * flag turned false (ponderhit) the clock starts, from then.  Only the
 * first thread asks (it alone looks at the clock). */
static inline bool still_pondering(Engine *e)
{
    if (!e->pondering) return false;
    if (atomic_load(e->limits.ponder)) return true;
    e->pondering = false;
    e->start_ms = now_ms();
    return false;
}

static inline bool stop_requested(const Engine *e)
{
    return atomic_load(&e->stop) || (e->limits.stop && atomic_load(e->limits.stop));
}

typedef struct Iteration {
    SearchReport report;
    void *context;
} Iteration;

/* ---- Between the files ----------------------------------------------------- */

/* search.c: the root actions searched at one depth in a window (the
 * MultiPV line pv_index on); their first order before the first depth. */
int search_root(Worker *w, int alpha, int beta, int depth);
void search_order_root(Worker *w);
/* deepening.c: root actions sorted by score from `from` on, equals kept
 * in order; a thread's iterative deepening (the first thread reports
 * through `it`, the helpers, started by search_helper_main, do not). */
void search_sort_root(RootMove *root, int from, int count);
void search_iterate(Worker *w, const Iteration *it);
void *search_helper_main(void *arg);

#endif
