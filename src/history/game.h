/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The game record: every position the game has reached, in every
 * timeline, as a tree.  Each node holds a whole position and the index of
 * the node it follows (its parent).  An ordinary action adds a child of
 * the present node; an action that travels back (a Gifford king going
 * back five moves, a Chessgi whole-board travel) adds a child of an
 * earlier node, which ends the current timeline and starts a new one.
 * Nodes are kept in the order they were played: the present position is
 * always the last node, the record replays by applying the actions again
 * in that order, and undo removes the last node.
 *
 * The rules read the record through a Line: the record as it stood when
 * one of its nodes was the present (nodes 0..base), plus actions tried
 * beyond it that only the line holds.  Perft, the check mark of a
 * formatter and an engine's search play their trial actions on a line of
 * their own, so nothing but game_push and game_pop ever writes a record,
 * and any number of lines, in any number of threads, may read one record
 * while nobody writes it.
 *
 * A node and its position stay at one address from the moment they are
 * added until they are removed, so a pointer to either stays valid while
 * the node is in the record (or on the line).
 *
 * The record knows no rule: it asks the variant for everything.
 */
#ifndef TTCHESS_GAME_H
#define TTCHESS_GAME_H

#include "variant.h"

typedef struct Node {
    int parent;      /* the node this one follows in its timeline; -1 at the root */
    int timeline;    /* the timeline it belongs to: 1, 2, ...                      */
    int timelines;   /* how many timelines had begun once it was played            */
    Move move;       /* the action that led here (MOVE_NULL at the root)          */
    uint64_t key;    /* the position's identity for repetition (board and ext)    */
    State *state;    /* the position                                               */
} Node;

/* Nodes in play order, each in memory that never moves (see game.c). */
typedef struct NodeStack {
    Node **at;                 /* at[i]: the i-th node of this stack          */
    int count, capacity;
    struct NodeChunk *top;     /* where the nodes live                        */
    struct NodeChunk *spare;   /* an emptied chunk kept for the next push     */
} NodeStack;

typedef struct Game {
    const Variant *variant;
    Options options;
    NodeStack nodes;           /* at least the root, once game_init succeeded */
    Outcome declared;          /* a resignation or agreed draw; RESULT_NONE otherwise */
    char *declared_words;      /* the words of a REASON_RECORDED outcome, or NULL */
} Game;

typedef struct Line {
    const Game *game;
    const struct Line *under;  /* the line this one extends, or NULL: the record */
    int base;                  /* the last node this line shares with `under`   */
    NodeStack own;             /* nodes base + 1, base + 2, ... of this line     */
} Line;

/* ---- The game ----------------------------------------------------------- */

/* Starts a game of `variant` with `options` (NULL: the defaults) from `fen`
 * (NULL: the variant's start position).  On a bad FEN, or out of memory,
 * writes why and returns false; the game must still be freed. */
bool game_init(Game *g, const Variant *variant, const Options *options, const char *fen, Text *err);
void game_free(Game *g);

static inline int game_count(const Game *g) { return g->nodes.count; }
static inline const Node *game_node(const Game *g, int i) { return g->nodes.at[i]; }
static inline int game_current(const Game *g) { return g->nodes.count - 1; }
static inline const State *game_state(const Game *g) { return g->nodes.at[g->nodes.count - 1]->state; }
static inline const Board *game_board(const Game *g) { return &game_state(g)->board; }
static inline int game_timelines(const Game *g) { return g->nodes.at[g->nodes.count - 1]->timelines; }
static inline int game_option(const Game *g, int i) { return g->options.value[i]; }

/* Plays a legal action (unchecked); false only when out of memory (the
 * game is then unchanged). */
bool game_push(Game *g, Move m);
/* Takes back the last action played, whichever timeline it was in.  A
 * declared end (resignation, agreement) is not touched. */
void game_pop(Game *g);
/* Reads one action typed at the line's present position; on failure
 * writes why and returns false. */
typedef bool (*LineReader)(const Line *l, const char *text, Move *out, Text *err);
/* Reads one action with `read` at the present position and plays it:
 * refused, with why, when the game is over or the reader refuses it. */
bool game_play_read(Game *g, const char *text, LineReader read, Text *err);
/* Parses and plays one action in any notation the variant reads, or in
 * Game Courier's ("P e2-e4", "e5-", "P e7-e8; Q-e8": ttchess/gc.h).
 * Defined with the record formats (src/record/action_text.c), which know
 * Game Courier's notation; the record itself knows none. */
bool game_play_text(Game *g, const char *text, Text *err);

/* The outcome: a declared end, else the variant's rules.  False only when
 * out of memory. */
bool game_outcome(const Game *g, Outcome *out);
/* The result line of game_outcome ("ongoing", "1-0 checkmate", ...). */
bool game_outcome_line(const Game *g, Text *out);
/* Declares an end the rules do not reach (a resignation, an agreed draw,
 * a result a game file records); `words` are kept for REASON_RECORDED.
 * RESULT_NONE withdraws it.  False only when out of memory. */
bool game_declare(Game *g, Outcome o, const char *words);

/* The node at the tip of timeline t (1-based): its last position; -1 if
 * there is no such timeline. */
int game_timeline_tip(const Game *g, int t);
/* The first node of timeline t >= 2 (the action that started it); -1 if none. */
int game_timeline_start(const Game *g, int t);

/* ---- Lines -------------------------------------------------------------- */

/* A line over the record as it stood when node `node` was the present
 * (use game_current for the game as it is).  Needs no memory until an
 * action is pushed; close it when done. */
void line_open(Line *l, const Game *g, int node);
/* A line that continues `under` from its present position. */
void line_extend(Line *l, const Line *under);
void line_close(Line *l);

static inline int line_current(const Line *l) { return l->base + l->own.count; }

static inline const Node *line_node(const Line *l, int i)
{
    for (;;) {
        if (i > l->base) return l->own.at[i - l->base - 1];
        if (!l->under) return l->game->nodes.at[i];
        l = l->under;
    }
}
static inline const State *line_state(const Line *l) { return line_node(l, line_current(l))->state; }
static inline const Board *line_board(const Line *l) { return &line_state(l)->board; }
static inline const Variant *line_variant(const Line *l) { return l->game->variant; }
static inline int line_option(const Line *l, int i) { return l->game->options.value[i]; }
static inline const Options *line_options(const Line *l) { return &l->game->options; }

/* Plays a legal action on the line; false only when out of memory. */
bool line_push(Line *l, Move m);
/* Passes the turn (the search's null move): the same position, the other
 * side to move.  No game allows it; a search uses it only where its game
 * cannot tell (eval.h, null_move_ok).  False only when out of memory. */
bool line_push_null(Line *l);
/* Takes back the line's last action (never one of the record's). */
void line_pop(Line *l);

/* Reads one action typed at the line's present position in the
 * variant's own notation.  On failure writes why and returns false. */
bool line_parse(const Line *l, const char *text, Move *out, Text *err);
/* The same as game_play_text reads it: in Game Courier's notation where
 * the text has a shape only it has (gc_is_notation), else in the
 * variant's own.  Defined with game_play_text (src/record/action_text.c). */
bool line_parse_text(const Line *l, const char *text, Move *out, Text *err);

/* The rules at the line's present position, through the variant. */
bool line_generate(const Line *l, MoveList *out);
/* The legal actions that are chess moves (move_is_chess), as
 * line_generate lists them; through Variant.generate_chess where the game
 * has one. */
bool line_generate_chess(const Line *l, MoveList *out);
bool line_in_check(const Line *l);
bool line_outcome(const Line *l, Outcome *out);
/* Is m one of the legal actions?  False in *legal too when out of memory
 * (the function's own result is then false). */
bool line_is_legal(const Line *l, Move m, bool *legal);
/* The node of the present position's timeline `plies_back` plies before
 * it (0: the present); -1 if the record does not go back that far. */
int line_ancestor(const Line *l, int plies_back);
/* How many earlier positions of the present timeline are the same
 * position as the present one (threefold repetition: 2). */
int line_repetitions(const Line *l);
/* '#' if the action mates, '+' if it gives check, 0 otherwise, worked out
 * on a line of its own; false only when out of memory. */
bool line_check_mark(const Line *l, Move m, char *mark);
/* Counts the leaves of the action tree `depth` plies deep (perft),
 * bulk-counting the last ply; false only when out of memory. */
bool line_perft(Line *l, int depth, uint64_t *nodes);

/* The same, at the game's present position. */
bool game_generate(const Game *g, MoveList *out);
bool game_in_check(const Game *g);
int game_repetitions(const Game *g);
bool game_perft(const Game *g, int depth, uint64_t *nodes);

#endif
