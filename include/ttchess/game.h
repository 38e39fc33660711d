/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The game record: every position the game has reached, in every
 * timeline, as a tree.  Each node holds a whole state and points to the
 * node it follows.  An ordinary action adds a child of the current node;
 * an action that travels back (a Gifford king going back five moves, a
 * Chessgi whole-board travel) adds a child of an earlier node, which ends
 * the current timeline and starts a new one.  Nodes are kept in the order
 * they were played, so the record replays by applying the actions again
 * in that order, and undo removes the last node.
 *
 * The record knows no rule: it asks the variant for everything.
 */
#ifndef TTCHESS_GAME_H
#define TTCHESS_GAME_H

#include "ttchess/variant.h"

typedef struct Node {
    int parent;     /* the node this one follows in its timeline; -1 at the root */
    int previous;   /* the node that was current before this one was played     */
    int timeline;   /* 1 for the first timeline, +1 for each new one            */
    Move move;      /* the action that led here (MOVE_NULL at the root)          */
    State state;
} Node;

typedef struct Game {
    const Variant *variant;
    Node *nodes;
    int count, capacity;
    int current;        /* index of the node of the present position            */
    int timelines;      /* how many timelines have been started                 */
    Outcome declared;   /* a resignation or agreed draw; RESULT_NONE otherwise  */
} Game;

/* Starts a game of `variant` from `fen` (NULL: the variant's start
 * position).  On a bad FEN writes why and returns false; the game is then
 * still valid, empty, and must be freed. */
bool game_init(Game *g, const Variant *variant, const char *fen, char *err, size_t errlen);
void game_free(Game *g);

static inline const State *game_state(const Game *g) { return &g->nodes[g->current].state; }
static inline const Board *game_board(const Game *g) { return &g->nodes[g->current].state.board; }

/* The legal actions by the rules (a declared end does not empty them: the
 * callers that care ask game_outcome). */
void game_generate(const Game *g, MoveList *out);
bool game_is_legal(const Game *g, Move m);
/* Plays a legal action (unchecked) and returns the new node's index. */
int game_push(Game *g, Move m);
/* Takes back the last action played, whichever timeline it was in. */
void game_pop(Game *g);
/* Parses and plays one action in any notation the variant reads. */
bool game_play_text(Game *g, const char *text, char *err, size_t errlen);

/* The outcome: a declared end, else the variant's rules. */
Outcome game_outcome(const Game *g);
void game_declare(Game *g, uint8_t result, const char *reason);

/* How many earlier positions of the current timeline, within the
 * reversible stretch, are the same position as the present one. */
int game_repetitions(const Game *g);

/* The node of the current timeline `plies_back` plies before the present
 * (0: the present); -1 if the record does not go back that far. */
int game_ancestor(const Game *g, int plies_back);

/* '#' if the action mates, '+' if it checks, 0 otherwise. */
char game_check_suffix(Game *g, Move m);

/* Makes node n the present position, e.g. to format an action of the
 * past in its own position; returns the node that was current.  Actions
 * pushed meanwhile must be popped before going back. */
int game_goto(Game *g, int n);
/* The node at the tip of timeline t (1-based): its last position. */
int game_timeline_tip(const Game *g, int t);

/* Counts leaf nodes of the action tree (perft), bulk-counting the last ply. */
uint64_t game_perft(Game *g, int depth);

#endif
