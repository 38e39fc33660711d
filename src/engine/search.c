/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The search (engine.h): iterative deepening over a principal-variation
 * alpha-beta search with aspiration windows, a quiescence search of
 * captures and promotions, a shared transposition table, and Lazy SMP
 * (every thread searches the same tree, sharing what it learns through the
 * table, and the first thread decides).
 *
 * Every position is reached by pushing actions on a Line over the game's
 * record, so the variant's own rules generate and apply every action:
 * an action that needs the history (a king going back, a general travel)
 * sees the record and the line above it, exactly as in a game.  The game
 * ends the search knows are the variant's: when a side has no action the
 * variant's outcome() says what that means (checkmate, stalemate, a king
 * lost in time, obligations unmet), and an evaluator may end a game
 * earlier (Time Traveler's grammar).  Repetitions are looked for in the
 * whole timeline, as the record does.
 *
 * Prunings that assume chess (a null move, futility) are used only where
 * the evaluator says the game cannot tell; docs/engine.md lists them.
 */
#include "engine.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "pv.h"
#include "see.h"
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
    int lmp_base;               /* quiet moves kept: base + depth squared */
    int lmp_probes;             /* late quiet moves tried for a check    */
    int qsearch_delta;          /* margin of delta pruning in quiescence */
    int history_max;
    int check_time_every;       /* nodes between two looks at the clock  */
    int move_overhead_ms;       /* kept back for the pipe and the GUI    */
    int default_moves_to_go;    /* moves the clock must last, if unsaid  */
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
    .lmp_base = 4,
    .lmp_probes = 32,
    .qsearch_delta = 200,
    .history_max = 16384,
    .check_time_every = 256,
    .move_overhead_ms = 30,
    .default_moves_to_go = 30,
};

/* Move ordering classes: the hash move, then captures and promotions
 * that do not lose material by exchange (by the value they win, MVV-LVA),
 * then the killers, then captures that lose material, then the rest by
 * history. */
enum {
    ORDER_HASH = 1 << 30,
    ORDER_NOISY = 1 << 24,
    ORDER_KILLER = 1 << 22,
    ORDER_SPECIAL = 1 << 21,
    ORDER_BAD_NOISY = 1 << 20
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
} Worker;

struct Engine {
    TT tt;
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
    int64_t halt_ms;                      /* 0: none; ends even the first root action */
    Worker *workers;
};

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

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

/* ---- Scores ------------------------------------------------------------- */

/* Mate scores are stored in the table relative to the position, not to
 * the root, so that a mate found through one path is right through another. */
static int score_to_tt(int score, int ply)
{
    if (score >= EVAL_MATE_BOUND) return score + ply;
    if (score <= -EVAL_MATE_BOUND) return score - ply;
    return score;
}

static int score_from_tt(int score, int ply)
{
    if (score >= EVAL_MATE_BOUND) return score - ply;
    if (score <= -EVAL_MATE_BOUND) return score + ply;
    return score;
}

/* The score of an ended game for the side to move.  Both sides losing (van
 * Gog's obligations unmet by both) is scored as a draw: neither side
 * gains by it over the other. */
static int outcome_score(Outcome o, Color side, int ply)
{
    if (o.result == RESULT_WHITE_WINS) return side == WHITE ? EVAL_MATE - ply : -EVAL_MATE + ply;
    if (o.result == RESULT_BLACK_WINS) return side == BLACK ? EVAL_MATE - ply : -EVAL_MATE + ply;
    return 0;
}

/* ---- Stopping ----------------------------------------------------------- */

static uint64_t total_nodes(const Engine *e)
{
    uint64_t n = 0;
    for (int i = 0; i < e->threads; i++) n += atomic_load_explicit(&e->workers[i].nodes, memory_order_relaxed);
    return n;
}

/* Has anyone asked the search to end: engine_stop, the search itself
 * (time, nodes), or the caller's own flag (SearchLimits.stop)? */
static bool stop_requested(const Engine *e)
{
    return atomic_load(&e->stop) || (e->limits.stop && atomic_load(e->limits.stop));
}

/* Counts a node and says whether the search must end.  Only the first
 * thread looks at the clock and the node count; it tells the others
 * through the stop flag. */
static bool count_node_and_check(Worker *w)
{
    uint64_t n = atomic_load_explicit(&w->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&w->nodes, n, memory_order_relaxed);
    if (w->aborted) return true;
    Engine *e = w->engine;
    if (w->id == 0 && n % (uint64_t)SEARCH.check_time_every == 0) {
        int64_t spent = now_ms() - e->start_ms;
        if (e->hard_ms && spent >= e->hard_ms) atomic_store(&e->stop, true);
        if (e->halt_ms && spent >= e->halt_ms) atomic_store(&e->halt, true);
        if (e->limits.nodes && total_nodes(e) >= e->limits.nodes) atomic_store(&e->stop, true);
        if (e->limits.stop && atomic_load(e->limits.stop)) {
            atomic_store(&e->stop, true);
            atomic_store(&e->halt, true);
        }
    }
    if (atomic_load_explicit(&e->halt, memory_order_relaxed) ||
        (w->may_abort && atomic_load_explicit(&e->stop, memory_order_relaxed)))
        w->aborted = true;
    return w->aborted;
}

/* ---- Positions ---------------------------------------------------------- */

static const Node *present(const Worker *w) { return line_node(&w->line, line_current(&w->line)); }

/* Has the present position stood earlier in its timeline?  Within the
 * search one repetition is scored as a draw: whoever could avoid it then
 * can avoid it now, and whoever cannot is content to repeat. */
static bool is_repetition(const Line *l)
{
    const Node *now = line_node(l, line_current(l));
    for (int i = now->parent; i >= 0;) {
        const Node *n = line_node(l, i);
        if (n->key == now->key) return true;
        i = n->parent;
    }
    return false;
}

static int evaluate(const Worker *w)
{
    int v = w->engine->evaluator->evaluate(&w->line);
    if (v > EVAL_KNOWN_WIN - 1) v = EVAL_KNOWN_WIN - 1;
    if (v < -EVAL_KNOWN_WIN + 1) v = -EVAL_KNOWN_WIN + 1;
    return v;
}

/* What a chess move (or a drop) captures on the present board; NO_TYPE
 * for an action that is not a chess move.  An action made at another
 * position (a general travel) is judged there, not here. */
static PieceType captured_type(const Board *b, Move m)
{
    if (!move_is_chess(m)) return NO_TYPE;
    if (m.kind == MOVE_EN_PASSANT) return PAWN;
    if (m.kind == MOVE_CASTLE) return NO_TYPE;
    Piece p = b->squares[m.to];
    return p != NO_PIECE && piece_color(p) != b->side ? piece_type(p) : NO_TYPE;
}

/* Captures and queen promotions by chess moves: what quiescence follows.
 * Time-travel actions that capture (a van Gog arrival, an explosion) are
 * left out on purpose: a position offers hundreds or thousands of them
 * (any piece may arrive from the future on almost any square), and
 * following them all would never settle; the main search sees them. */
static bool is_noisy(const Board *b, Move m)
{
    return captured_type(b, m) != NO_TYPE || (move_is_chess(m) && m.kind == MOVE_PROMOTION && m.piece == QUEEN);
}

/* A king going back in time is neither reduced nor pruned: there are
 * few of them, and each changes the game's shape.  Every other kind comes
 * in the hundreds in some game (arrivals, departures, explosions, drops,
 * general travels) and is treated like a quiet move. */
static bool is_special(Move m) { return m.kind == MOVE_KING_BACK; }

static int square_index(uint8_t s) { return s < 64 ? s : 64; }

static int *history_of(Worker *w, Color side, Move m)
{
    return &w->history[side][square_index(m.from)][square_index(m.to)];
}

static PieceType mover_type(const Board *b, Move m)
{
    if (m.from < 64 && !(m.flags & MOVE_AT_NODE) && b->squares[m.from]) return piece_type(b->squares[m.from]);
    return m.piece ? m.piece : PAWN;
}

static bool ensure_scores(Scores *s, int count)
{
    if (count <= s->capacity) return true;
    int cap = count + 64;
    int *at = realloc(s->at, (size_t)cap * sizeof *at);
    if (!at) return false;
    s->at = at;
    s->capacity = cap;
    return true;
}

static bool score_moves(Worker *w, int ply, Move hash_move, bool noisy_only)
{
    MoveList *list = &w->lists[ply];
    Scores *s = &w->scores[ply];
    if (!ensure_scores(s, list->count)) return false;
    const Board *b = &present(w)->state->board;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int score;
        if (move_equal(m, hash_move)) {
            score = ORDER_HASH;
        } else if (is_noisy(b, m)) {
            PieceType victim = captured_type(b, m);
            int gain = eval_piece_value(victim) + (m.kind == MOVE_PROMOTION ? eval_piece_value(m.piece) : 0);
            int order = see_value(b, m) >= 0 ? ORDER_NOISY : ORDER_BAD_NOISY;
            score = order + gain * 8 - (int)mover_type(b, m);
        } else if (noisy_only) {
            score = -ORDER_HASH;
        } else if (move_equal(m, w->killers[ply][0])) {
            score = ORDER_KILLER + 1;
        } else if (move_equal(m, w->killers[ply][1])) {
            score = ORDER_KILLER;
        } else if (is_special(m)) {
            score = ORDER_SPECIAL + *history_of(w, b->side, m);
        } else {
            score = *history_of(w, b->side, m);
        }
        s->at[i] = score;
    }
    return true;
}

/* Sorts a list's actions from `from` on by their scores, best first
 * (Shell's sort on the two arrays at once: no memory needed). */
static void sort_rest(Move *moves, int *score, int from, int count)
{
    static const int GAPS[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
    for (size_t g = 0; g < sizeof GAPS / sizeof GAPS[0]; g++) {
        int gap = GAPS[g];
        for (int i = from + gap; i < count; i++) {
            Move m = moves[i];
            int s = score[i], j = i;
            while (j - gap >= from && score[j - gap] < s) {
                moves[j] = moves[j - gap];
                score[j] = score[j - gap];
                j -= gap;
            }
            moves[j] = m;
            score[j] = s;
        }
    }
}

/* The action to try i-th.  The first few are picked one at a time (a
 * cut-off usually comes early, and then sorting the rest would be wasted);
 * past them the rest is sorted once, since a list can hold thousands of
 * actions (van Gog's arrivals) and picking each would cost their square. */
enum { PICK_ONE_BY_ONE = 12 };

static Move pick_move(Worker *w, int ply, int i)
{
    MoveList *list = &w->lists[ply];
    int *score = w->scores[ply].at;
    int one_by_one = list->count > 256 ? 2 : PICK_ONE_BY_ONE;
    if (i == one_by_one) sort_rest(list->moves, score, i, list->count);
    if (i >= one_by_one) return list->moves[i];
    int best = i;
    for (int j = i + 1; j < list->count; j++)
        if (score[j] > score[best]) best = j;
    if (best != i) {
        Move m = list->moves[i];
        list->moves[i] = list->moves[best];
        list->moves[best] = m;
        int t = score[i];
        score[i] = score[best];
        score[best] = t;
    }
    return list->moves[i];
}

static void update_history(int *h, int bonus)
{
    *h += bonus - *h * abs(bonus) / SEARCH.history_max;
}

static void record_quiet_cutoff(Worker *w, int ply, int depth, Move best, const Move *tried, int tried_count)
{
    Color side = present(w)->state->board.side;
    if (!move_equal(w->killers[ply][0], best)) {
        w->killers[ply][1] = w->killers[ply][0];
        w->killers[ply][0] = best;
    }
    int bonus = depth * depth > 400 ? 400 : depth * depth;
    update_history(history_of(w, side, best), bonus * 8);
    for (int i = 0; i < tried_count; i++) update_history(history_of(w, side, tried[i]), -bonus * 8);
}

static void update_pv(Worker *w, int ply, Move m)
{
    pv_prepend(w->pv, w->pv_length, ply, m);
}

static bool push(Worker *w, Move m)
{
    if (line_push(&w->line, m)) return true;
    w->out_of_memory = w->aborted = true;
    atomic_store(&w->engine->stop, true);
    return false;
}

static bool generate(Worker *w, int ply)
{
    if (line_generate(&w->line, &w->lists[ply])) return true;
    w->out_of_memory = w->aborted = true;
    atomic_store(&w->engine->stop, true);
    return false;
}

/* The score of a position whose side to move has no action, by the game's rules. */
static int no_action_score(Worker *w, int ply)
{
    Outcome o;
    if (!line_outcome(&w->line, &o)) {
        w->out_of_memory = w->aborted = true;
        atomic_store(&w->engine->stop, true);
        return 0;
    }
    return outcome_score(o, present(w)->state->board.side, ply);
}

static bool early_end(Worker *w, int ply, int *score)
{
    const Evaluator *ev = w->engine->evaluator;
    Outcome o;
    if (!ev->early_end || !ev->early_end(&w->line, &o)) return false;
    *score = outcome_score(o, present(w)->state->board.side, ply);
    return true;
}

static bool has_pieces(const Board *b, Color c)
{
    return (b->by_color[c] & ~(b->by_type[PAWN] | b->by_type[KING])) != 0;
}

/* ---- Quiescence ----------------------------------------------------------- */

/* Quiescence follows only a few of a position's actions (the good
 * captures, or the chess evasions when in check), but a van Gog or
 * Traveler's position can offer thousands of others.  Dropping them from
 * the list before picking keeps the per-node cost to the actions that
 * will be tried, instead of sorting thousands that never are. */
static void keep_quiescent(Worker *w, int ply, bool in_check)
{
    MoveList *list = &w->lists[ply];
    int *score = w->scores[ply].at;
    int kept = 0;
    for (int i = 0; i < list->count; i++) {
        bool keep = in_check ? move_is_chess(list->moves[i]) : score[i] >= ORDER_NOISY;
        if (!keep) continue;
        list->moves[kept] = list->moves[i];
        score[kept] = score[i];
        kept++;
    }
    list->count = kept;
}

static int qsearch(Worker *w, int alpha, int beta, int ply)
{
    w->pv_length[ply] = 0;
    if (count_node_and_check(w)) return 0;
    if (ply > w->seldepth) w->seldepth = ply;
    int score;
    if (ply > 0 && early_end(w, ply, &score)) return score;
    if (ply >= ENGINE_MAX_PLY) return evaluate(w);
    if (!generate(w, ply)) return 0;
    if (w->lists[ply].count == 0) return no_action_score(w, ply);
    const Board *b = &present(w)->state->board;
    bool in_check = line_in_check(&w->line);
    int best = -EVAL_MATE + ply;
    if (!in_check) {
        best = evaluate(w);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }
    if (!score_moves(w, ply, move_none(), !in_check)) {
        w->out_of_memory = w->aborted = true;
        return 0;
    }
    keep_quiescent(w, ply, in_check);
    int stand_pat = best;
    int tried = 0;
    for (int i = 0; i < w->lists[ply].count; i++) {
        Move m = pick_move(w, ply, i);
        if (!in_check) {
            /* Captures that lose material by exchange come after the good
             * ones and are not followed at all; nor is a capture that
             * could not bring the score up to alpha even if nothing were
             * taken back (delta pruning). */
            if (w->scores[ply].at[i] < ORDER_NOISY) break;
            PieceType victim = captured_type(b, m);
            int gain = eval_piece_value(victim) + (m.kind == MOVE_PROMOTION ? eval_piece_value(m.piece) : 0);
            if (stand_pat + gain + SEARCH.qsearch_delta <= alpha) continue;
        }
        /* In check, the chess evasions only (see is_noisy): a van Gog
         * arrival can block almost any check, in a thousand ways. */
        if (in_check && !move_is_chess(m)) continue;
        tried++;
        if (!push(w, m)) return 0;
        score = -qsearch(w, -beta, -alpha, ply + 1);
        line_pop(&w->line);
        if (w->aborted) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(w, ply, m);
                if (alpha >= beta) break;
            }
        }
    }
    /* In check with only time-travel evasions: no mate can be claimed here. */
    if (in_check && tried == 0) return evaluate(w);
    return best;
}

/* ---- The main search ------------------------------------------------------ */

static int lmr_reduction(int depth, int moves, bool pv_node)
{
    double r = SEARCH.lmr_base + log((double)depth) * log((double)moves) / SEARCH.lmr_divisor;
    int n = (int)r - (pv_node ? 1 : 0);
    return n < 0 ? 0 : n;
}

static int search(Worker *w, int alpha, int beta, int depth, int ply, bool null_allowed)
{
    if (depth <= 0) return qsearch(w, alpha, beta, ply);
    bool pv_node = beta - alpha > 1;
    w->pv_length[ply] = 0;
    if (count_node_and_check(w)) return 0;
    if (ply > w->seldepth) w->seldepth = ply;
    const Line *l = &w->line;
    const Node *node = present(w);
    const Board *b = &node->state->board;
    int score;
    if (early_end(w, ply, &score)) return score;
    if (is_repetition(l)) return 0;
    if (ply >= ENGINE_MAX_PLY) return evaluate(w);

    /* No line can do better than mating now, or worse than being mated. */
    if (alpha < -EVAL_MATE + ply) alpha = -EVAL_MATE + ply;
    if (beta > EVAL_MATE - ply - 1) beta = EVAL_MATE - ply - 1;
    if (alpha >= beta) return alpha;

    TTHit hit;
    bool tt_hit = tt_probe(&w->engine->tt, node->key, &hit);
    Move hash_move = tt_hit ? hit.move : move_none();
    if (tt_hit && !pv_node && hit.depth >= depth) {
        int s = score_from_tt(hit.score, ply);
        if (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && s >= beta) ||
            (hit.bound == TT_BOUND_UPPER && s <= alpha))
            return s;
    }

    if (!generate(w, ply)) return 0;
    if (w->lists[ply].count == 0) return no_action_score(w, ply);
    if (b->halfmove >= 100) return 0;
    bool in_check = line_in_check(l);
    int eval = in_check ? -EVAL_INFINITE : tt_hit ? hit.eval : evaluate(w);
    const Evaluator *ev = w->engine->evaluator;

    /* Reverse futility: far enough above beta that a few plies will not
     * bring it back (not in check, not near a mate). */
    if (!pv_node && !in_check && depth <= SEARCH.rfp_max_depth && eval - SEARCH.rfp_margin * depth >= beta &&
        beta < EVAL_KNOWN_WIN && beta > -EVAL_KNOWN_WIN)
        return eval;

    /* Null move: if passing still holds beta, a real action surely does.
     * Only where the game cannot tell a pass (eval.h) and the side has
     * pieces to avoid zugzwang with. */
    if (!pv_node && !in_check && null_allowed && depth >= SEARCH.null_min_depth && eval >= beta && ply > 0 &&
        has_pieces(b, b->side) && ev->null_move_ok && ev->null_move_ok(l) && beta < EVAL_KNOWN_WIN) {
        int r = SEARCH.null_base_reduction + depth / SEARCH.null_depth_divisor;
        if (!line_push_null(&w->line)) {
            w->out_of_memory = w->aborted = true;
            return 0;
        }
        score = -search(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
        line_pop(&w->line);
        if (w->aborted) return 0;
        if (score >= beta) return score >= EVAL_MATE_BOUND ? beta : score;
    }

    if (!score_moves(w, ply, hash_move, false)) {
        w->out_of_memory = w->aborted = true;
        return 0;
    }
    int best = -EVAL_INFINITE, bound = TT_BOUND_UPPER, searched = 0, probes = 0;
    Move best_move = move_none();
    Move quiets[64];
    int quiet_count = 0;
    Color side = b->side;
    for (int i = 0; i < w->lists[ply].count; i++) {
        Move m = pick_move(w, ply, i);
        /* b stays valid: the present node does not move while children are pushed. */
        bool quiet = !is_noisy(b, m) && !is_special(m);
        bool late = ev->late_move_pruning && !pv_node && !in_check && quiet && depth <= SEARCH.lmp_max_depth &&
                    best > -EVAL_MATE_BOUND && searched >= SEARCH.lmp_base + depth * depth;
        /* Late quiet actions are pruned near the leaves, except those that
         * give check (which only playing them shows).  The rest of the
         * list is quiet too, so after a few such looks the loop ends. */
        if (late && ++probes > SEARCH.lmp_probes) break;
        if (!push(w, m)) return 0;
        bool gives_check = line_in_check(&w->line);
        if (late && !gives_check) {
            line_pop(&w->line);
            continue;
        }
        int new_depth = depth - 1 + (gives_check && ply < 2 * w->root_depth ? 1 : 0);
        if (searched == 0) {
            score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        } else {
            int r = 0;
            if (depth >= SEARCH.lmr_min_depth && searched >= SEARCH.lmr_min_moves && quiet && !in_check && !gives_check) {
                r = lmr_reduction(depth, searched + 1, pv_node);
                if (move_equal(m, w->killers[ply][0]) || move_equal(m, w->killers[ply][1])) r--;
                if (r > new_depth - 1) r = new_depth - 1;
                if (r < 0) r = 0;
            }
            score = -search(w, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0) score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, true);
            if (score > alpha && score < beta) score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        }
        line_pop(&w->line);
        if (w->aborted) return 0;
        searched++;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                bound = TT_BOUND_EXACT;
                update_pv(w, ply, m);
                if (alpha >= beta) {
                    bound = TT_BOUND_LOWER;
                    if (quiet) record_quiet_cutoff(w, ply, depth, m, quiets, quiet_count);
                    break;
                }
            }
        }
        if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
        (void)side;
    }
    if (searched == 0) return eval;  /* every action was pruned: the evaluation stands */
    tt_store(&w->engine->tt, node->key, best_move, score_to_tt(best, ply), in_check ? 0 : eval, depth, bound);
    return best;
}

/* ---- The root ------------------------------------------------------------- */

/* Searches the root actions from the MultiPV line being searched on,
 * each with its own window; the actions before pv_index are the lines
 * already found at this depth. */
static int root_search(Worker *w, int alpha, int beta, int depth)
{
    int best = -EVAL_INFINITE;
    w->seldepth = 0;
    for (int i = w->pv_index; i < w->root_count; i++) {
        RootMove *rm = &w->root[i];
        if (!push(w, rm->move)) return 0;
        if (count_node_and_check(w)) {
            line_pop(&w->line);
            return 0;
        }
        bool gives_check = line_in_check(&w->line);
        int new_depth = depth - 1 + (gives_check ? 1 : 0);
        int score;
        const Board *b = game_board(w->engine->game);
        if (i == w->pv_index) {
            score = -search(w, -beta, -alpha, new_depth, 1, true);
        } else {
            /* Late root actions are searched shallower first, as inside
             * the tree: a van Gog root can offer three thousand. */
            int r = 0, n = i - w->pv_index;
            if (depth >= SEARCH.lmr_min_depth && n >= SEARCH.lmr_min_moves && !gives_check && !is_noisy(b, rm->move) &&
                !is_special(rm->move)) {
                r = lmr_reduction(depth, n + 1, true);
                if (r > new_depth - 1) r = new_depth - 1;
                if (r < 0) r = 0;
            }
            score = -search(w, -alpha - 1, -alpha, new_depth - r, 1, true);
            if (score > alpha && r > 0) score = -search(w, -alpha - 1, -alpha, new_depth, 1, true);
            if (score > alpha && score < beta) score = -search(w, -beta, -alpha, new_depth, 1, true);
        }
        line_pop(&w->line);
        if (w->aborted) return 0;
        /* From here on an answer exists, so the first thread may stop:
         * a van Gog position can offer thousands of root actions, too
         * many to wait for all of them under a short clock. */
        w->may_abort = true;
        if (i == w->pv_index || score > alpha) {
            rm->score = score;
            rm->seldepth = w->seldepth;
            rm->pv[0] = rm->move;
            int n = w->pv_length[1] < ENGINE_MAX_PLY - 1 ? w->pv_length[1] : ENGINE_MAX_PLY - 1;
            memcpy(&rm->pv[1], w->pv[1], (size_t)n * sizeof(Move));
            rm->pv_length = n + 1;
        } else {
            rm->score = -EVAL_INFINITE;
        }
        if (score > best) best = score;
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) break;
        }
    }
    return best;
}

/* Sorts root actions from `from` on by score, keeping the order of equals
 * (so that the best of the last iteration stays first among them). */
static void sort_root(RootMove *root, int from, int count)
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
        int score = root_search(w, alpha, beta, depth);
        if (w->aborted) return;
        sort_root(w->root, w->pv_index, w->root_count);
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

typedef struct Iteration {
    SearchReport report;
    void *context;
} Iteration;

static void iterate(Worker *w, const Iteration *it)
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
        sort_root(w->root, 0, e->multipv < w->root_count ? e->multipv : w->root_count);
        report_lines(w, depth, it ? it->report : NULL, it ? it->context : NULL);
        if (mate_found(e, w)) break;
        if (e->soft_ms && now_ms() - e->start_ms >= e->soft_ms) break;
        if (stop_requested(e)) break;
        /* A single legal action needs no thought under a clock. */
        if (w->root_count == 1 && (e->soft_ms || e->limits.movetime) && depth >= 4) break;
    }
}

static void *helper_main(void *arg)
{
    iterate(arg, NULL);
    return NULL;
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
    int64_t usable = left - SEARCH.move_overhead_ms;
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
    w->random = e->seed ^ (uint64_t)(id + 1) * 0x9e3779b97f4a7c15ULL;
    return true;
}

/* The root actions in a first order: captures and promotions by what they
 * win, then the rest as generated. */
static void order_root(Worker *w)
{
    const Board *b = game_board(w->engine->game);
    for (int i = 0; i < w->root_count; i++) {
        Move m = w->root[i].move;
        w->root[i].score = is_noisy(b, m) ? eval_piece_value(captured_type(b, m)) : -EVAL_INFINITE + 1;
    }
    sort_root(w->root, 0, w->root_count);
    for (int i = 0; i < w->root_count; i++) w->root[i].score = w->root[i].previous_score = -EVAL_INFINITE;
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
    atomic_store(&e->stop, false);
    atomic_store(&e->halt, false);
    tt_new_search(&e->tt);

    Outcome o;
    MoveList root;
    movelist_init(&root);
    bool ok = game_outcome(g, &o) && (o.result != RESULT_NONE || game_generate(g, &root));
    if (!ok) {
        movelist_free(&root);
        return text_fail(err, "out of memory");
    }
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
        if (ok) order_root(&e->workers[i]);
    }
    movelist_free(&root);
    int running = 1;
    for (int i = 1; ok && i < e->threads; i++) {
        if (pthread_create(&e->workers[i].thread, NULL, helper_main, &e->workers[i]) != 0) break;
        running = i + 1;
    }
    if (ok) {
        Worker *main_worker = &e->workers[0];
        Iteration it = { report, context };
        iterate(main_worker, &it);
        /* Under "go infinite" the answer waits for engine_stop, as UCI asks. */
        while (limits->infinite && !stop_requested(e)) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
        atomic_store(&e->stop, true);
        for (int i = 1; i < running; i++) pthread_join(e->workers[i].thread, NULL);
        for (int i = 0; i < started; i++) ok = ok && !e->workers[i].out_of_memory;
        /* Stopped inside the first iteration: the actions searched so far
         * have their scores, the others none. */
        if (main_worker->completed_depth == 0) sort_root(main_worker->root, 0, main_worker->root_count);
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
