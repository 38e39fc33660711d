/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine (engine.h): its settings, how long a search may think, and a
 * search set up and run, one thread per Worker (Lazy SMP: every thread
 * searches the same tree, sharing what it learns through the table, and
 * the first thread decides; deepening.c, search.c).
 */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* xorshift64*: the randomness of weakened play, one stream per search. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

Engine *engine_new(void)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (!tt_resize(&e->tt, ENGINE_HASH_DEFAULT_MB)) {
        free(e);
        return NULL;
    }
    e->threads = 1;
    e->skill = ENGINE_SKILL_MAX;
    e->seed = 0x9e3779b97f4a7c15ULL;
    atomic_init(&e->stop, false);
    atomic_init(&e->halt, false);
    return e;
}

void engine_free(Engine *e)
{
    if (!e) return;
    tt_free(&e->tt);
    free(e);
}

bool engine_set_hash(Engine *e, int megabytes)
{
    if (megabytes < 1) megabytes = 1;
    if (megabytes > ENGINE_HASH_MAX_MB) megabytes = ENGINE_HASH_MAX_MB;
    return tt_resize(&e->tt, (size_t)megabytes);
}

void engine_set_threads(Engine *e, int threads)
{
    e->threads = threads < 1 ? 1 : threads > ENGINE_MAX_THREADS ? ENGINE_MAX_THREADS : threads;
}

void engine_set_skill(Engine *e, int skill)
{
    e->skill = skill < 0 ? 0 : skill > ENGINE_SKILL_MAX ? ENGINE_SKILL_MAX : skill;
}

/* Measured points of the skill scale on Stockfish 15.1's UCI_Elo scale
 * (docs/engine.md, "Playing strength": the matches that fix them); between
 * two points the skill is interpolated, as Stockfish interpolates its own
 * Elo to a skill level. */
static const struct { int elo, skill; } ELO_SKILL[] = {
    { ENGINE_ELO_MIN, 0 },
    { 1350, 3 },
    { 1600, 7 },
    { 1800, 12 },
    { ENGINE_ELO_MAX, ENGINE_SKILL_MAX - 1 },
};

int engine_skill_of_elo(int elo)
{
    enum { POINTS = sizeof ELO_SKILL / sizeof ELO_SKILL[0] };
    if (elo <= ELO_SKILL[0].elo) return ELO_SKILL[0].skill;
    for (int i = 1; i < POINTS; i++) {
        if (elo > ELO_SKILL[i].elo) continue;
        int de = ELO_SKILL[i].elo - ELO_SKILL[i - 1].elo, ds = ELO_SKILL[i].skill - ELO_SKILL[i - 1].skill;
        return ELO_SKILL[i - 1].skill + (ds * (elo - ELO_SKILL[i - 1].elo) + de / 2) / de;
    }
    return ELO_SKILL[POINTS - 1].skill;
}

void engine_set_seed(Engine *e, uint64_t seed) { e->seed = seed ? seed : 1; }

void engine_new_game(Engine *e) { tt_clear(&e->tt); }

void engine_stop(Engine *e)
{
    atomic_store(&e->stop, true);
    atomic_store(&e->halt, true);
}

int engine_hashfull(const Engine *e) { return tt_hashfull(&e->tt); }

bool engine_score_is_mate(int score) { return abs(score) >= EVAL_MATE_BOUND && abs(score) <= EVAL_MATE; }

int engine_mate_moves(int score)
{
    return score > 0 ? (EVAL_MATE - score + 1) / 2 : -(EVAL_MATE + score) / 2;
}

/* ---- Setting up a search ---------------------------------------------------- */

/* How long to think: a fixed time, or a share of the clock (what is left
 * over the moves to come, and most of the increment), never so much that
 * the flag could fall.  The increment is added only after the move is
 * made, so the hard limit comes out of the clock alone: at most half of
 * what is left after the move overhead (the time the answer takes to
 * reach the GUI and the GUI to stop the clock).  The soft limit ends the
 * deepening between iterations; the hard one ends a search in the
 * middle. */
static void plan_time(Engine *e, Color side)
{
    const SearchLimits *lim = &e->limits;
    e->soft_ms = e->hard_ms = e->halt_ms = 0;
    if (lim->infinite) return;
    if (lim->movetime > 0) {
        int64_t t = lim->movetime - 5;
        e->soft_ms = e->hard_ms = e->halt_ms = t < 1 ? 1 : t;
        return;
    }
    int64_t left = lim->time[side], inc = lim->inc[side];
    if (left <= 0 && inc <= 0) return;
    int moves = lim->movestogo > 0 ? lim->movestogo : SEARCH.default_moves_to_go;
    int64_t overhead = lim->move_overhead_given ? lim->move_overhead : SEARCH.move_overhead_ms;
    int64_t usable = left - overhead;
    if (usable < 1) usable = 1;
    int64_t soft = usable / moves + inc * 3 / 4;
    int64_t hard = soft * 4;
    if (hard > usable / 2) hard = usable / 2;
    if (soft > hard) soft = hard;
    e->soft_ms = soft < 1 ? 1 : soft;
    e->hard_ms = hard < 1 ? 1 : hard;
    e->halt_ms = 2 * e->hard_ms;
}

static void free_worker(Worker *w)
{
    line_close(&w->line);
    for (int i = 0; i <= ENGINE_MAX_PLY; i++) {
        movelist_free(&w->lists[i]);
        free(w->scores[i].at);
    }
    free(w->root);
}

static bool init_worker(Worker *w, Engine *e, int id, const MoveList *root_moves)
{
    memset(w, 0, sizeof *w);
    w->engine = e;
    w->id = id;
    atomic_init(&w->nodes, 0);
    line_open(&w->line, e->game, game_current(e->game));
    for (int i = 0; i <= ENGINE_MAX_PLY; i++) movelist_init(&w->lists[i]);
    w->root = calloc((size_t)root_moves->count, sizeof *w->root);
    if (!w->root) return false;
    w->root_count = root_moves->count;
    for (int i = 0; i < root_moves->count; i++) {
        w->root[i].move = root_moves->moves[i];
        w->root[i].score = w->root[i].previous_score = -EVAL_INFINITE;
        w->root[i].pv[0] = root_moves->moves[i];
        w->root[i].pv_length = 1;
    }
    w->may_abort = id != 0;
    w->root_side = line_node(&w->line, line_current(&w->line))->state->board.side;
    w->random = e->seed ^ (uint64_t)(id + 1) * 0x9e3779b97f4a7c15ULL;
    return true;
}

/* Weakened play: among the best lines, a pick that favours the better ones
 * less the lower the skill (a random bonus of up to `weakness` centipawns
 * on each line's score). */
static int pick_weakened(Worker *w, int lines, int skill)
{
    int weakness = (ENGINE_SKILL_MAX - skill) * 20;
    int best = 0, best_value = -EVAL_INFINITE * 2;
    for (int i = 0; i < lines; i++) {
        int s = w->root[i].score;
        if (s == -EVAL_INFINITE) continue;
        int value = s + (weakness ? (int)(next_random(&w->random) % (uint64_t)(weakness + 1)) : 0);
        if (value > best_value) {
            best_value = value;
            best = i;
        }
    }
    return best;
}

/* Keeps, of the root actions, those the caller restricts the search to. */
static void keep_searchmoves(MoveList *root, const SearchLimits *limits)
{
    if (limits->searchmoves_count <= 0) return;
    int kept = 0;
    for (int i = 0; i < root->count; i++)
        for (int k = 0; k < limits->searchmoves_count; k++)
            if (move_equal(root->moves[i], limits->searchmoves[k])) {
                root->moves[kept++] = root->moves[i];
                break;
            }
    root->count = kept;
}

/* A new search's age in the table.  Scores of a game with shared losses
 * are the searching side's (the contempt of search.c): an analysis that
 * turns to the other side starts from an empty table. */
static void start_table(Engine *e, Color side)
{
    if (e->evaluator->side_view && side != e->tt_side) tt_clear(&e->tt);
    e->tt_side = side;
    tt_new_search(&e->tt);
}

bool engine_search(Engine *e, const Game *g, const SearchLimits *limits, SearchReport report, void *context,
                   SearchResult *out, Text *err)
{
    memset(out, 0, sizeof *out);
    out->best = out->ponder = move_none();
    e->start_ms = now_ms();
    e->game = g;
    e->limits = *limits;
    e->evaluator = evaluator_for(g->variant);
    bool weakened = e->skill < ENGINE_SKILL_MAX;
    e->multipv = limits->multipv < 1 ? 1 : limits->multipv > ENGINE_MAX_MULTIPV ? ENGINE_MAX_MULTIPV : limits->multipv;
    if (weakened && e->multipv < 4) e->multipv = 4;
    e->max_depth = limits->depth > 0 && limits->depth < ENGINE_MAX_PLY ? limits->depth : ENGINE_MAX_PLY - 1;
    if (limits->mate > 0 && !limits->depth && 2 * limits->mate + 2 < e->max_depth) e->max_depth = 2 * limits->mate + 2;
    if (weakened && e->max_depth > 1 + e->skill / 2) e->max_depth = 1 + e->skill / 2;
    plan_time(e, game_board(g)->side);
    e->pondering = limits->ponder != NULL;
    atomic_store(&e->stop, false);
    atomic_store(&e->halt, false);
    start_table(e, game_board(g)->side);

    Outcome o;
    MoveList root;
    movelist_init(&root);
    bool ok = game_outcome(g, &o) && (o.result != RESULT_NONE || game_generate(g, &root));
    if (!ok) {
        movelist_free(&root);
        return text_fail(err, "out of memory");
    }
    if (o.result == RESULT_NONE) keep_searchmoves(&root, limits);
    if (o.result != RESULT_NONE || root.count == 0) {
        movelist_free(&root);
        return true;
    }
    e->workers = calloc((size_t)e->threads, sizeof *e->workers);
    ok = e->workers != NULL;
    int started = 0;
    for (int i = 0; ok && i < e->threads; i++) {
        ok = init_worker(&e->workers[i], e, i, &root);
        started = i + 1;
        if (ok) search_order_root(&e->workers[i]);
    }
    movelist_free(&root);
    int running = 1;
    for (int i = 1; ok && i < e->threads; i++) {
        if (pthread_create(&e->workers[i].thread, NULL, search_helper_main, &e->workers[i]) != 0) break;
        running = i + 1;
    }
    if (ok) {
        Worker *main_worker = &e->workers[0];
        Iteration it = { report, context };
        search_iterate(main_worker, &it);
        /* Under "go infinite", and while pondering, the answer waits for
         * engine_stop (or ponderhit), as UCI asks. */
        while ((limits->infinite || still_pondering(e)) && !stop_requested(e))
            nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
        atomic_store(&e->stop, true);
        for (int i = 1; i < running; i++) pthread_join(e->workers[i].thread, NULL);
        for (int i = 0; i < started; i++) ok = ok && !e->workers[i].out_of_memory;
        /* Stopped inside the first iteration: the actions searched so far
         * have their scores, the others none. */
        if (main_worker->completed_depth == 0) search_sort_root(main_worker->root, 0, main_worker->root_count);
        int lines = e->multipv < main_worker->root_count ? e->multipv : main_worker->root_count;
        int chosen = weakened ? pick_weakened(main_worker, lines, e->skill) : 0;
        RootMove *rm = &main_worker->root[chosen];
        out->has_move = true;
        out->best = rm->move;
        out->ponder = rm->pv_length > 1 ? rm->pv[1] : move_none();
        out->score = rm->score;
        out->depth = main_worker->completed_depth;
        out->nodes = total_nodes(e);
        out->time_ms = now_ms() - e->start_ms;
    }
    for (int i = 0; i < started; i++) free_worker(&e->workers[i]);
    free(e->workers);
    e->workers = NULL;
    if (!ok) return text_fail(err, "out of memory");
    return true;
}
