/* SPDX-License-Identifier: GPL-3.0-or-later
 * The game record: a tree of positions kept in the order played. */
#include "ttchess/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttchess/movegen.h"

/* Copies only the part of a state the variant uses: for standard chess
 * that is the board alone, which keeps perft's copies small. */
static void state_copy(const Variant *v, State *dst, const State *src)
{
    memcpy(dst, src, offsetof(State, ext) + v->ext_size);
}

static Node *new_node(Game *g)
{
    if (g->count == g->capacity) {
        int cap = g->capacity ? g->capacity * 2 : 64;
        Node *n = realloc(g->nodes, (size_t)cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "error: out of memory\n");
            exit(2);
        }
        g->nodes = n;
        g->capacity = cap;
    }
    return &g->nodes[g->count++];
}

bool game_init(Game *g, const Variant *variant, const char *fen, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->variant = variant;
    Node *root = new_node(g);
    memset(root, 0, sizeof *root);
    root->parent = -1;
    root->previous = -1;
    root->timeline = 1;
    root->move = move_make(SQ_NONE, SQ_NONE, MOVE_NULL, 0, 0);
    g->timelines = 1;
    bool ok = variant->from_fen(&root->state, fen ? fen : variant->start_fen, err, errlen);
    if (!ok) variant->from_fen(&root->state, variant->start_fen, NULL, 0);
    return ok;
}

void game_free(Game *g)
{
    free(g->nodes);
    memset(g, 0, sizeof *g);
}

void game_generate(const Game *g, MoveList *out)
{
    out->count = 0;
    g->variant->generate(g, out);
}

bool game_is_legal(const Game *g, Move m)
{
    /* A move list is too large for the stack of every caller. */
    MoveList *l = malloc(sizeof *l);
    if (!l) return false;
    game_generate(g, l);
    bool found = false;
    for (int i = 0; i < l->count && !found; i++) found = move_equal(l->moves[i], m);
    free(l);
    return found;
}

int game_push(Game *g, Move m)
{
    State next;
    int parent = g->variant->apply(g, m, &next);
    Node *n = new_node(g);
    n->parent = parent;
    n->previous = g->current;
    n->move = m;
    if (parent == g->current) {
        n->timeline = g->nodes[g->current].timeline;
    } else {
        n->timeline = ++g->timelines;
    }
    state_copy(g->variant, &n->state, &next);
    g->current = g->count - 1;
    return g->current;
}

/* A declared end (resignation, agreement) is not touched: popping is also
 * how a trial action is taken back, e.g. to see whether it gives check. */
void game_pop(Game *g)
{
    if (g->count <= 1) return;
    Node *last = &g->nodes[g->count - 1];
    if (last->timeline == g->timelines && last->parent != last->previous) g->timelines--;
    g->current = last->previous;
    g->count--;
}

bool game_play_text(Game *g, const char *text, char *err, size_t errlen)
{
    Move m;
    if (g->declared.result != RESULT_NONE) {
        snprintf(err, errlen, "the game is over");
        return false;
    }
    Outcome o = g->variant->outcome(g);
    if (o.result != RESULT_NONE) {
        char line[96];
        outcome_format(&o, line, sizeof line);
        snprintf(err, errlen, "the game is over (%s)", line);
        return false;
    }
    if (!g->variant->parse_move(g, text, &m, err, errlen)) return false;
    game_push(g, m);
    return true;
}

Outcome game_outcome(const Game *g)
{
    if (g->declared.result != RESULT_NONE) return g->declared;
    return g->variant->outcome(g);
}

void game_declare(Game *g, uint8_t result, const char *reason)
{
    g->declared = outcome_make(result, reason);
}

int game_ancestor(const Game *g, int plies_back)
{
    int n = g->current;
    while (plies_back-- > 0 && n >= 0) n = g->nodes[n].parent;
    return n;
}

int game_repetitions(const Game *g)
{
    const State *now = game_state(g);
    int window = now->board.halfmove, found = 0;
    int n = g->nodes[g->current].parent;
    for (int back = 1; back <= window && n >= 0; back++, n = g->nodes[n].parent) {
        if ((back & 1) == 0 && g->variant->same_position(&g->nodes[n].state, now)) found++;
    }
    return found;
}

char game_check_suffix(Game *g, Move m)
{
    game_push(g, m);
    char suffix = 0;
    const Board *b = game_board(g);
    if (board_in_check(b, b->side)) {
        /* '#' only for a checkmate: a game can also end with a king in check
         * for another reason (Gifford's king lost in time). */
        Outcome o = g->variant->outcome(g);
        suffix = (o.result != RESULT_NONE && !strcmp(o.reason, "checkmate")) ? '#' : '+';
    }
    game_pop(g);
    return suffix;
}

static uint64_t perft_rec(Game *g, int depth, MoveList *lists)
{
    MoveList *l = &lists[0];
    game_generate(g, l);
    if (depth == 1) return (uint64_t)l->count;
    uint64_t nodes = 0;
    for (int i = 0; i < l->count; i++) {
        game_push(g, l->moves[i]);
        nodes += perft_rec(g, depth - 1, lists + 1);
        game_pop(g);
    }
    return nodes;
}

uint64_t game_perft(Game *g, int depth)
{
    if (depth <= 0) return 1;
    MoveList *lists = malloc((size_t)depth * sizeof *lists);
    if (!lists) return 0;
    uint64_t n = perft_rec(g, depth, lists);
    free(lists);
    return n;
}

int game_goto(Game *g, int n)
{
    int was = g->current;
    if (n >= 0 && n < g->count) g->current = n;
    return was;
}

int game_timeline_tip(const Game *g, int t)
{
    int tip = -1;
    /* Nodes are in the order played, so the last one of t is its tip. */
    for (int i = 0; i < g->count; i++)
        if (g->nodes[i].timeline == t) tip = i;
    return tip;
}
