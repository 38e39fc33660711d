/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine: a search that plays every variant through the variant
 * interface.  It reads a game (the record, every timeline of it) and never
 * writes it: it searches on lines of its own (game.h), one per thread, so
 * that actions needing the history (a Gifford king going back, a Chessgi
 * general travel) are searched like any other.  Positions are scored by
 * the game's evaluator (src/variants/eval.h).  docs/engine.md describes
 * the search and which prunings each game turns off, and why.
 *
 * Like the rest of the library the engine never prints or exits: the UCI
 * front end, analyze, solve and play are thin layers in src/cli/ that
 * receive what the search finds through a callback.
 */
#ifndef TTCHESS_ENGINE_H
#define TTCHESS_ENGINE_H

#include "game.h"

enum {
    ENGINE_MAX_PLY = 128,
    ENGINE_MAX_THREADS = 64,
    ENGINE_MAX_MULTIPV = 64,
    ENGINE_HASH_DEFAULT_MB = 16,
    ENGINE_HASH_MAX_MB = 65536,
    ENGINE_SKILL_MAX = 20,
    /* The range of UCI_Elo (engine_skill_of_elo): calibrated in chess
     * against Stockfish 15.1's UCI_Elo (docs/engine.md, "Playing
     * strength"). */
    ENGINE_ELO_MIN = 1100,
    ENGINE_ELO_MAX = 2000
};

/* What to search for, and for how long.  Zero means "no limit" for each
 * of depth, nodes, movetime and mate; without any limit (or with
 * `infinite`) the search runs until engine_stop. */
typedef struct SearchLimits {
    int depth;             /* plies                                         */
    uint64_t nodes;
    int64_t movetime;      /* milliseconds for this move                    */
    int64_t time[2];       /* each side's clock (ms), 0: not given          */
    int64_t inc[2];        /* each side's increment (ms)                    */
    int movestogo;         /* moves to the next time control, 0: unknown    */
    int mate;              /* look for a mate in this many moves            */
    bool infinite;
    int multipv;           /* lines to report, 1 or more                    */
    /* The root actions to choose among ("go searchmoves"), or none
     * (count 0): all of them.  Actions not legal at the root are left out. */
    const Move *searchmoves;
    int searchmoves_count;
    /* A stop request owned by the caller, or NULL: the search ends soon
     * after it reads true (as after engine_stop).  A caller that searches
     * in another thread clears it before starting that thread and sets it
     * to stop, so that a stop given before the search has begun is not
     * lost (engine_stop's flag is reset when a search starts). */
    const _Atomic bool *stop;
    /* Pondering ("go ponder"), or NULL: a flag owned by the caller, true
     * while the opponent is still to move.  Until it turns false the
     * search keeps no time (it ends only by depth, nodes, or stop, and
     * holds its answer); when it turns false (ponderhit) the time limits
     * count from that moment, as in Stockfish. */
    const _Atomic bool *ponder;
    /* Milliseconds kept back from the clock for the pipe and the GUI
     * ("Move Overhead"); when not given, 30. */
    bool move_overhead_given;
    int64_t move_overhead;
} SearchLimits;

/* One line the search reports, after each completed iteration. */
typedef struct SearchInfo {
    int depth, seldepth;
    int multipv;           /* 1-based                                        */
    int score;             /* centipawns for the side to move, or a mate score */
    int bound;             /* 0 exact, 1 lower bound, -1 upper bound         */
    uint64_t nodes;
    uint64_t nps;
    int hashfull;          /* per mille                                      */
    int64_t time_ms;
    const Move *pv;
    int pv_length;
} SearchInfo;

typedef void (*SearchReport)(void *context, const SearchInfo *info);

typedef struct SearchResult {
    bool has_move;         /* false when the game is over at the root        */
    Move best;
    Move ponder;           /* the reply expected, MOVE_NULL if none          */
    int score;
    int depth;
    uint64_t nodes;
    int64_t time_ms;
} SearchResult;

typedef struct Engine Engine;

/* A new engine with the default hash and one thread; NULL when out of memory. */
Engine *engine_new(void);
void engine_free(Engine *e);
/* Resizes the transposition table (clearing it); false when out of memory
 * (the old table is then kept). */
bool engine_set_hash(Engine *e, int megabytes);
void engine_set_threads(Engine *e, int threads);
/* 0..ENGINE_SKILL_MAX; below the maximum the engine searches shallower
 * and picks among its best moves with some randomness. */
void engine_set_skill(Engine *e, int skill);
/* The skill that plays at about `elo` (clamped to ENGINE_ELO_MIN..MAX)
 * on Stockfish 15.1's UCI_Elo scale, in chess; the other games use the
 * same skill, so the same weakening, with no reference to rate it. */
int engine_skill_of_elo(int elo);
/* Seeds the randomness of weakened play (default: fixed, so results repeat). */
void engine_set_seed(Engine *e, uint64_t seed);
/* Forgets everything learned from earlier searches (a new game). */
void engine_new_game(Engine *e);

/* Searches the game's present position.  Blocks until the search ends by
 * its limits or engine_stop (which another thread may call); reports each
 * completed iteration through `report` (may be NULL), from the calling
 * thread.  False only when out of memory (err says so). */
bool engine_search(Engine *e, const Game *g, const SearchLimits *limits, SearchReport report, void *context,
                   SearchResult *out, Text *err);
/* Asks a running search to end as soon as it can; safe from any thread. */
void engine_stop(Engine *e);

/* A mate score is EVAL_MATE - plies; these turn it into moves (positive:
 * the side to move mates) for "score mate N". */
bool engine_score_is_mate(int score);
int engine_mate_moves(int score);

/* The per-mille fill of the transposition table. */
int engine_hashfull(const Engine *e);

/* ---- Solving ---------------------------------------------------------- */

/* Proves whether the side to move can force a win (checkmate, or any end
 * by the game's rules that makes it win: a king lost in time, obligations
 * unmet, grammar) in at most `moves` of its own moves, against every
 * defence.  The search is exhaustive (no pruning that could miss a
 * defence), so "no" is a proof.  On success *found tells which; the
 * mating line (the attacker's first move and the main line) in pv.
 * `stop` (may be NULL) is polled to give up; then false with err
 * "stopped".  False when out of memory. */
typedef struct SolveResult {
    bool found;
    int moves;             /* the shortest forced win found, in moves       */
    Move pv[ENGINE_MAX_PLY];
    int pv_length;
    uint64_t nodes;
} SolveResult;

bool engine_solve_mate(const Game *g, int moves, const volatile bool *stop, SolveResult *out, Text *err);

#endif
