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
 *
 * This file is the tree: move ordering, quiescence, the main search in
 * its named steps and the root actions of one depth.  deepening.c runs the
 * depths one after another; engine.c sets a search up, plans its time and
 * runs its threads (search_internal.h: what they share).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pv.h"
#include "search_internal.h"
#include "see.h"

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

/* The score of an ended game for the side to move.
 *
 * Both sides losing (van Gog's `0-0`, obligations unmet by both) is no
 * draw for the side the engine plays: it has lost.  Scored as a draw, as
 * it once was, it let the engine answer an arrival with an arrival, each
 * side's debts cancelling the other's, until both lost (the self-play
 * ladder of bench/match.sh ended every van Gog game so).  The search is
 * zero-sum, so the side it models is taken to want that end as much as
 * the engine fears it: the engine keeps out of lines where the opponent
 * can bring it about, which is the safe reading of an opponent who may be
 * content to lose if we lose too.  It stays below the scores of mates. */
static int outcome_score(Outcome o, Color side, Color root_side, int ply)
{
    if (o.result == RESULT_WHITE_WINS) return side == WHITE ? EVAL_MATE - ply : -EVAL_MATE + ply;
    if (o.result == RESULT_BLACK_WINS) return side == BLACK ? EVAL_MATE - ply : -EVAL_MATE + ply;
    if (o.result == RESULT_BOTH_LOSE) return side == root_side ? -EVAL_KNOWN_WIN + ply : EVAL_KNOWN_WIN - ply;
    return 0;
}

/* ---- Stopping ----------------------------------------------------------- */

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
        bool timed = !still_pondering(e);   /* first: a ponderhit restarts the clock */
        int64_t spent = now_ms() - e->start_ms;
        if (timed && e->hard_ms && spent >= e->hard_ms) atomic_store(&e->stop, true);
        if (timed && e->halt_ms && spent >= e->halt_ms) atomic_store(&e->halt, true);
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

/* The evaluator's score, as the side the engine plays sees it where the
 * game is not zero-sum (eval.h, side_view), with the contempt for a
 * shared loss ahead (as in outcome_score). */
static int evaluate(const Worker *w)
{
    const Evaluator *ev = w->engine->evaluator;
    int v = ev->evaluate(&w->line);
    if (ev->side_view) {
        bool shared = false;
        int against_root = ev->side_view(&w->line, w->root_side, &shared);
        if (shared) against_root += SEARCH.shared_loss_contempt;
        v += present(w)->state->board.side == w->root_side ? -against_root : against_root;
    }
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

/* A quiet arrival in a game that prunes them (Evaluator.
 * travel_pruning_depth): its check is neither extended nor spares it a
 * reduction, since a van Gog position offers hundreds of checking
 * arrivals, each answered by as many arrivals that block or capture.
 * Departures and reappearances are not: they come a few at a time, and a
 * departure to the past is how an obligation is repaid, which no search
 * may skip for want of a look. */
static bool is_cheap_travel(const Worker *w, const Board *b, Move m)
{
    return w->engine->evaluator->travel_pruning_depth > 0 && m.kind == MOVE_ARRIVAL && !is_noisy(b, m);
}

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

static bool generate_chess(Worker *w, int ply)
{
    if (line_generate_chess(&w->line, &w->lists[ply])) return true;
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
    return outcome_score(o, present(w)->state->board.side, w->root_side, ply);
}

static bool early_end(Worker *w, int ply, int *score)
{
    const Evaluator *ev = w->engine->evaluator;
    Outcome o;
    if (!ev->early_end || !ev->early_end(&w->line, &o)) return false;
    *score = outcome_score(o, present(w)->state->board.side, w->root_side, ply);
    return true;
}

/* A draw by repetition or by the fifty-move rule, scored as the game's
 * own judgement settles it.  In van Gog a side with an obligation open
 * loses a drawn game: a side whose books are clean wins by repeating, and
 * one in debt loses by it.  Scored 0, as every other draw is, the engine
 * once sought the repetitions it lost by and avoided those it won by.  A
 * win so is no mate on the board, and the side in debt may still repay
 * before the third time: it counts as a known win, below every mate. */
static int draw_score(const Worker *w, int ply, enum Reason reason)
{
    const Variant *v = line_variant(&w->line);
    if (!v->settle) return 0;
    Outcome o = variant_settle(v, &w->line, outcome_make(RESULT_DRAW, reason, SIDE_NONE));
    Color side = present(w)->state->board.side;
    if (o.result == RESULT_WHITE_WINS) return side == WHITE ? EVAL_KNOWN_WIN - ply : -EVAL_KNOWN_WIN + ply;
    if (o.result == RESULT_BLACK_WINS) return side == BLACK ? EVAL_KNOWN_WIN - ply : -EVAL_KNOWN_WIN + ply;
    return outcome_score(o, side, w->root_side, ply);
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
    /* Quiescence tries chess moves only (see is_noisy), so only those are
     * generated; the whole list only when there are none, to tell a game
     * that has ended from one whose actions are all time travel. */
    if (!generate_chess(w, ply)) return 0;
    if (w->lists[ply].count == 0) {
        if (!generate(w, ply)) return 0;
        if (w->lists[ply].count == 0) return no_action_score(w, ply);
    }
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

/* A node of the main search as its steps see it: the window (narrowed
 * as better actions are found), the depth left, and what is known of the
 * position before its actions are tried. */
typedef struct Frame {
    int alpha, beta, depth, ply;
    bool pv_node;
    bool in_check;
    int eval;               /* the static evaluation; -EVAL_INFINITE in check */
    const Node *node;       /* the present node: it does not move while children are pushed */
    const Board *board;
} Frame;

static int search(Worker *w, int alpha, int beta, int depth, int ply, bool null_allowed);

/* The ends that need no action generated: the game ended early, a
 * repetition, the deepest ply; and no line can do better than mating now,
 * or worse than being mated (the window is narrowed to that). */
static inline bool ends_before_actions(Worker *w, Frame *f, int *score)
{
    if (early_end(w, f->ply, score)) return true;
    if (is_repetition(&w->line)) {
        *score = draw_score(w, f->ply, REASON_REPETITION);
        return true;
    }
    *score = 0;
    if (f->ply >= ENGINE_MAX_PLY) {
        *score = evaluate(w);
        return true;
    }
    if (f->alpha < -EVAL_MATE + f->ply) f->alpha = -EVAL_MATE + f->ply;
    if (f->beta > EVAL_MATE - f->ply - 1) f->beta = EVAL_MATE - f->ply - 1;
    *score = f->alpha;
    return f->alpha >= f->beta;
}

/* A table entry deep enough whose bound settles the node (never on the
 * principal variation, whose line must be searched to be reported). */
static inline bool table_settles(const Frame *f, const TTHit *hit, int *score)
{
    if (f->pv_node || hit->depth < f->depth) return false;
    int s = score_from_tt(hit->score, f->ply);
    *score = s;
    return hit->bound == TT_BOUND_EXACT || (hit->bound == TT_BOUND_LOWER && s >= f->beta) ||
           (hit->bound == TT_BOUND_UPPER && s <= f->alpha);
}

/* Reverse futility and the null move: does the node stand so far above
 * beta that its actions need not be searched? */
static inline bool prunes_node(Worker *w, const Frame *f, bool null_allowed, int *score)
{
    const Evaluator *ev = w->engine->evaluator;
    const Board *b = f->board;
    int depth = f->depth, beta = f->beta;
    /* Reverse futility: far enough above beta that a few plies will not
     * bring it back (not in check, not near a mate). */
    if (!f->pv_node && !f->in_check && depth <= SEARCH.rfp_max_depth && f->eval - SEARCH.rfp_margin * depth >= beta &&
        beta < EVAL_KNOWN_WIN && beta > -EVAL_KNOWN_WIN) {
        *score = f->eval;
        return true;
    }
    /* Null move: if passing still holds beta, a real action surely does.
     * Only where the game cannot tell a pass (eval.h) and the side has
     * pieces to avoid zugzwang with. */
    if (f->pv_node || f->in_check || !null_allowed || depth < SEARCH.null_min_depth || f->eval < beta ||
        f->ply <= 0 || !has_pieces(b, b->side) || !ev->null_move_ok || !ev->null_move_ok(&w->line) ||
        beta >= EVAL_KNOWN_WIN)
        return false;
    int r = SEARCH.null_base_reduction + depth / SEARCH.null_depth_divisor;
    *score = 0;
    if (!line_push_null(&w->line)) {
        w->out_of_memory = w->aborted = true;
        return true;
    }
    int s = -search(w, -beta, -beta + 1, depth - 1 - r, f->ply + 1, false);
    line_pop(&w->line);
    if (w->aborted) return true;
    if (s < beta) return false;
    *score = s >= EVAL_MATE_BOUND ? beta : s;
    return true;
}

/* The search of one pushed action (principal variation search): the
 * first in the full window, the others in a null window, late quiet ones
 * shallower first, searched again in full when they come out better. */
static inline int search_action(Worker *w, const Frame *f, Move m, int searched, bool quiet, bool gives_check)
{
    int alpha = f->alpha, beta = f->beta, depth = f->depth, ply = f->ply;
    if (gives_check && is_cheap_travel(w, f->board, m)) gives_check = false;
    int new_depth = depth - 1 + (gives_check && ply < 2 * w->root_depth ? 1 : 0);
    if (searched == 0) return -search(w, -beta, -alpha, new_depth, ply + 1, true);
    int r = 0;
    if (depth >= SEARCH.lmr_min_depth && searched >= SEARCH.lmr_min_moves && quiet && !f->in_check && !gives_check) {
        r = lmr_reduction(depth, searched + 1, f->pv_node);
        if (move_equal(m, w->killers[ply][0]) || move_equal(m, w->killers[ply][1])) r--;
        /* A quiet move that has often refuted others is reduced less, one
         * that never has, more. */
        if (w->engine->evaluator->chess_prunings) r -= *history_of(w, f->board->side, m) / SEARCH.lmr_history_divisor;
        if (r > new_depth - 1) r = new_depth - 1;
        if (r < 0) r = 0;
    }
    int score = -search(w, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
    if (score > alpha && r > 0) score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, true);
    if (score > alpha && score < beta) score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
    return score;
}

/* The actions in order, each searched unless pruned late; the best is
 * stored in the table.  The window's alpha rises as actions beat it. */
static inline int search_actions(Worker *w, Frame *f)
{
    const Evaluator *ev = w->engine->evaluator;
    const Board *b = f->board;
    int ply = f->ply, depth = f->depth;
    int best = -EVAL_INFINITE, bound = TT_BOUND_UPPER, searched = 0, travels = 0, probes = 0;
    Move best_move = move_none();
    Move quiets[64];
    int quiet_count = 0;
    for (int i = 0; i < w->lists[ply].count; i++) {
        Move m = pick_move(w, ply, i);
        bool quiet = !is_noisy(b, m) && !is_special(m);
        bool travel = quiet && is_cheap_travel(w, b, m);
        /* Where the game asks it, only the first few quiet arrivals are
         * searched off the principal variation, in check or not, checks
         * included: a van Gog position offers thousands of them, hundreds
         * of them checks or evasions.  Only once an action has been found
         * that escapes mate, so that no mate is claimed for want of a
         * look. */
        if (travel && !f->pv_node && depth <= ev->travel_pruning_depth && best > -EVAL_MATE_BOUND &&
            travels >= SEARCH.lmp_travel_base + depth)
            continue;
        bool late = ev->late_move_pruning && !f->pv_node && !f->in_check && quiet && depth <= SEARCH.lmp_max_depth &&
                    best > -EVAL_MATE_BOUND && searched >= SEARCH.lmp_base + depth * depth;
        /* Futility: near the leaves, a quiet action that gives no check
         * will not lift a position so far below alpha above it. */
        bool futile = ev->chess_prunings && !f->pv_node && !f->in_check && quiet &&
                      depth <= SEARCH.futility_max_depth && best > -EVAL_MATE_BOUND &&
                      f->eval + SEARCH.futility_base + SEARCH.futility_margin * depth <= f->alpha;
        /* Late quiet actions are pruned near the leaves, except those that
         * give check (which only playing them shows).  The rest of the
         * list is quiet too, so after a few such looks the loop ends. */
        if (late && ++probes > SEARCH.lmp_probes) break;
        if (!push(w, m)) return 0;
        bool gives_check = line_in_check(&w->line);
        if ((late || futile) && !gives_check) {
            line_pop(&w->line);
            continue;
        }
        int score = search_action(w, f, m, searched, quiet, gives_check);
        line_pop(&w->line);
        if (w->aborted) return 0;
        searched++;
        travels += travel;
        if (score > best) {
            best = score;
            if (score > f->alpha) {
                f->alpha = score;
                best_move = m;
                bound = TT_BOUND_EXACT;
                update_pv(w, ply, m);
                if (f->alpha >= f->beta) {
                    bound = TT_BOUND_LOWER;
                    if (quiet) record_quiet_cutoff(w, ply, depth, m, quiets, quiet_count);
                    break;
                }
            }
        }
        if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
    }
    if (searched == 0) return f->eval;  /* every action was pruned: the evaluation stands */
    tt_store(&w->engine->tt, f->node->key, best_move, score_to_tt(best, ply), f->in_check ? 0 : f->eval, depth, bound);
    return best;
}

static int search(Worker *w, int alpha, int beta, int depth, int ply, bool null_allowed)
{
    if (depth <= 0) return qsearch(w, alpha, beta, ply);
    Frame f = { .alpha = alpha, .beta = beta, .depth = depth, .ply = ply, .pv_node = beta - alpha > 1 };
    w->pv_length[ply] = 0;
    if (count_node_and_check(w)) return 0;
    if (ply > w->seldepth) w->seldepth = ply;
    f.node = present(w);
    f.board = &f.node->state->board;
    int score;
    if (ends_before_actions(w, &f, &score)) return score;

    TTHit hit;
    bool tt_hit = tt_probe(&w->engine->tt, f.node->key, &hit);
    Move hash_move = tt_hit ? hit.move : move_none();
    if (tt_hit && table_settles(&f, &hit, &score)) return score;
    /* Internal iterative reduction: a node the table knows nothing of has
     * no move to try first, and is searched a ply shallower; a later visit
     * finds its best move in the table. */
    if (w->engine->evaluator->chess_prunings && !tt_hit && depth >= SEARCH.iir_min_depth) f.depth = --depth;

    f.in_check = line_in_check(&w->line);
    f.eval = f.in_check ? -EVAL_INFINITE : tt_hit ? hit.eval : evaluate(w);
    /* The prunings come before the actions are generated: a van Gog or
     * Time Traveler's node lists a thousand and more, each judged by the
     * rules, and a node pruned needs none of them.  A side with no action
     * at all (stalemate, or a game's own end) is then not seen at a node
     * that stands far above beta, as in chess engines generally; one that
     * is mated is in check, and check is never pruned. */
    if (f.board->halfmove < 100 && prunes_node(w, &f, null_allowed, &score)) return score;
    if (!generate(w, ply)) return 0;
    if (w->lists[ply].count == 0) return no_action_score(w, ply);
    if (f.board->halfmove >= 100) return draw_score(w, ply, REASON_FIFTY_MOVES);

    if (!score_moves(w, ply, hash_move, false)) {
        w->out_of_memory = w->aborted = true;
        return 0;
    }
    return search_actions(w, &f);
}

/* ---- The root ------------------------------------------------------------- */

/* Searches the root actions from the MultiPV line being searched on,
 * each with its own window; the actions before pv_index are the lines
 * already found at this depth. */
int search_root(Worker *w, int alpha, int beta, int depth)
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
        const Board *b = game_board(w->engine->game);
        bool gives_check = line_in_check(&w->line) && !is_cheap_travel(w, b, rm->move);
        int new_depth = depth - 1 + (gives_check ? 1 : 0);
        int score;
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

/* The root actions in a first order: captures and promotions by what they
 * win, then the rest as generated. */
void search_order_root(Worker *w)
{
    const Board *b = game_board(w->engine->game);
    for (int i = 0; i < w->root_count; i++) {
        Move m = w->root[i].move;
        w->root[i].score = is_noisy(b, m) ? eval_piece_value(captured_type(b, m)) : -EVAL_INFINITE + 1;
    }
    search_sort_root(w->root, 0, w->root_count);
    for (int i = 0; i < w->root_count; i++) w->root[i].score = w->root[i].previous_score = -EVAL_INFINITE;
}

