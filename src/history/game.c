/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The game record and lines over it (see ttchess/game.h).
 *
 * Nodes live in chunks of memory that are never moved: a node and its
 * position are carved from the top chunk, one block each, in the order
 * they are played, and taken back in the opposite order.  A pointer to a
 * node or its position therefore stays good for as long as the node is
 * there, whatever is pushed meanwhile, and pushing costs one bump of a
 * pointer and one copy of the position, the same for the record and for a
 * line.  Only the small array of node pointers grows by reallocation, and
 * nobody keeps a pointer into it.
 */
#include "game.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* ---- Node storage ------------------------------------------------------- */

/* Big enough for a few hundred positions of any variant, so that a game
 * or a search rarely needs a second chunk.  A stack's first chunk is
 * small: most lines are short trials (does this action give check?) that
 * push one node and close, and the server writes such a trial for every
 * legal action it lists; a 64 KiB block for each made the allocator grow
 * and shrink its heap, page by page, hundreds of times a request. */
enum { CHUNK_BYTES = 64 * 1024, FIRST_CHUNK_BYTES = 4 * 1024 };

typedef struct NodeChunk {
    struct NodeChunk *prev;
    size_t size, used;
    alignas(max_align_t) unsigned char data[];
} NodeChunk;

_Static_assert(sizeof(Node) % 8 == 0, "a position must start 8-byte aligned right after its node");
_Static_assert(offsetof(State, ext) % 8 == 0, "State.ext must be 8-byte aligned");

static size_t round_up(size_t n) { return (n + 7) & ~(size_t)7; }

/* Room for one more node pointer. */
static bool reserve_slot(NodeStack *s)
{
    if (s->count < s->capacity) return true;
    int cap = s->capacity ? s->capacity * 2 : 64;
    Node **at = realloc(s->at, (size_t)cap * sizeof *at);
    if (!at) return false;
    s->at = at;
    s->capacity = cap;
    return true;
}

/* Carves `bytes` from the top chunk, starting a new one when it is full. */
static void *carve(NodeStack *s, size_t bytes)
{
    bytes = round_up(bytes);
    if (!s->top || s->top->size - s->top->used < bytes) {
        NodeChunk *c = s->spare;
        if (c && c->size >= bytes) {
            s->spare = NULL;
        } else {
            size_t chunk = s->top ? CHUNK_BYTES : FIRST_CHUNK_BYTES;
            size_t size = bytes > chunk ? bytes : chunk;
            c = malloc(sizeof *c + size);
            if (!c) return NULL;
            c->size = size;
        }
        c->used = 0;
        c->prev = s->top;
        s->top = c;
    }
    void *p = s->top->data + s->top->used;
    s->top->used += bytes;
    return p;
}

/* Gives back what the last carve took beyond `bytes` from p. */
static void trim(NodeStack *s, void *p, size_t bytes)
{
    s->top->used = (size_t)((unsigned char *)p - s->top->data) + round_up(bytes);
}

static void pop_node(NodeStack *s)
{
    Node *n = s->at[--s->count];
    NodeChunk *c = s->top;
    c->used = (size_t)((unsigned char *)n - c->data);
    if (c->used == 0 && c->prev) {
        s->top = c->prev;
        free(s->spare);
        s->spare = c;
    }
}

static void free_stack(NodeStack *s)
{
    while (s->top) {
        NodeChunk *prev = s->top->prev;
        free(s->top);
        s->top = prev;
    }
    free(s->spare);
    free(s->at);
    memset(s, 0, sizeof *s);
}

/* Plays m in the position `context` presents and pushes the new node on s
 * (the stack that holds context's present node or extends it). */
static bool push_action(NodeStack *s, const Line *context, Move m)
{
    const Variant *v = line_variant(context);
    size_t room = variant_ext_room(v, context, m);
    /* Everything that can fail comes first: the variant reads the record
     * while it writes the new position, and nothing may move under it. */
    if (!reserve_slot(s)) return false;
    Node *n = carve(s, sizeof(Node) + offsetof(State, ext) + room);
    if (!n) return false;
    State *next = (State *)(n + 1);
    next->ext_key = 0;
    next->ext_size = (uint32_t)room;
    next->reserved = 0;
    int present = line_current(context);
    const Node *now = line_node(context, present);
    n->parent = v->apply(context, m, next);
    n->move = m;
    n->state = next;
    if (n->parent == present) {
        n->timeline = now->timeline;
        n->timelines = now->timelines;
    } else {
        n->timelines = now->timelines + 1;
        n->timeline = n->timelines;
    }
    n->key = board_position_key(&next->board) ^ next->ext_key;
    trim(s, n, sizeof(Node) + state_bytes(next));
    s->at[s->count++] = n;
    return true;
}

/* ---- The game ----------------------------------------------------------- */

bool game_init(Game *g, const Variant *variant, const Options *options, const char *fen, Text *err)
{
    memset(g, 0, sizeof *g);
    g->variant = variant;
    g->declared = outcome_none();
    if (options) g->options = *options;
    else options_default(variant, &g->options);
    State *root = variant->from_fen(&g->options, fen ? fen : variant->start_fen, err);
    if (!root) return false;
    Node *n = reserve_slot(&g->nodes) ? carve(&g->nodes, sizeof(Node) + state_bytes(root)) : NULL;
    if (!n) {
        free(root);
        return text_fail(err, "out of memory");
    }
    n->state = (State *)(n + 1);
    memcpy(n->state, root, state_bytes(root));
    free(root);
    n->parent = -1;
    n->timeline = n->timelines = 1;
    n->move = move_none();
    n->key = board_position_key(&n->state->board) ^ n->state->ext_key;
    g->nodes.at[g->nodes.count++] = n;
    return true;
}

void game_free(Game *g)
{
    free_stack(&g->nodes);
    free(g->declared_words);
    memset(g, 0, sizeof *g);
}

bool game_push(Game *g, Move m)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool ok = push_action(&g->nodes, &l, m);
    line_close(&l);
    return ok;
}

void game_pop(Game *g)
{
    if (g->nodes.count > 1) pop_node(&g->nodes);
}

bool game_play_read(Game *g, const char *text, LineReader read, Text *err)
{
    if (g->declared.result != RESULT_NONE) return text_fail(err, "the game is over");
    Line l;
    line_open(&l, g, game_current(g));
    Outcome o;
    Move m;
    bool ok = line_outcome(&l, &o);
    if (!ok) {
        text_fail(err, "out of memory");
    } else if (o.result != RESULT_NONE) {
        Text words = TEXT_INIT;
        outcome_line(o, NULL, &words);
        text_fail(err, "the game is over (%s)", text_str(&words));
        text_free(&words);
        ok = false;
    } else {
        ok = read(&l, text, &m, err);
    }
    line_close(&l);
    if (ok && !game_push(g, m)) return text_fail(err, "out of memory");
    return ok;
}

bool line_parse(const Line *l, const char *text, Move *out, Text *err)
{
    return line_variant(l)->parse(l, text, out, err);
}

bool game_outcome(const Game *g, Outcome *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool ok = true;
    if (g->declared.result == RESULT_NONE) {
        ok = line_outcome(&l, out);
    } else {
        /* A resignation or an agreed draw ends the game, but a game's own
         * rule may still decide its result (van Gog's obligations).  A
         * result a file records in words of its own is taken as it is. */
        *out = g->declared;
        if (g->declared.reason != REASON_RECORDED) *out = variant_settle(g->variant, &l, g->declared);
    }
    line_close(&l);
    return ok;
}

bool game_outcome_line(const Game *g, Text *out)
{
    Outcome o;
    if (!game_outcome(g, &o)) return false;
    outcome_line(o, g->declared_words, out);
    return !out->failed;
}

bool game_declare(Game *g, Outcome o, const char *words)
{
    char *copy = NULL;
    if (o.reason == REASON_RECORDED) {
        copy = strdup(words ? words : "");
        if (!copy) return false;
    }
    free(g->declared_words);
    g->declared_words = copy;
    g->declared = o;
    return true;
}

int game_timeline_tip(const Game *g, int t)
{
    /* Nodes are in the order played, so the last one of t is its tip. */
    for (int i = game_current(g); i >= 0; i--)
        if (game_node(g, i)->timeline == t) return i;
    return -1;
}

int game_timeline_start(const Game *g, int t)
{
    for (int i = 1; i < game_count(g); i++)
        if (game_node(g, i)->timeline == t && game_node(g, i)->parent != i - 1) return i;
    return -1;
}

bool game_generate(const Game *g, MoveList *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool ok = line_generate(&l, out);
    line_close(&l);
    return ok;
}

bool game_in_check(const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool check = line_in_check(&l);
    line_close(&l);
    return check;
}

int game_repetitions(const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    int n = line_repetitions(&l);
    line_close(&l);
    return n;
}

bool game_perft(const Game *g, int depth, uint64_t *nodes)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool ok = line_perft(&l, depth, nodes);
    line_close(&l);
    return ok;
}

/* ---- Lines -------------------------------------------------------------- */

void line_open(Line *l, const Game *g, int node)
{
    memset(l, 0, sizeof *l);
    l->game = g;
    l->base = node;
}

void line_extend(Line *l, const Line *under)
{
    memset(l, 0, sizeof *l);
    l->game = under->game;
    l->under = under;
    l->base = line_current(under);
}

void line_close(Line *l) { free_stack(&l->own); }

bool line_push(Line *l, Move m) { return push_action(&l->own, l, m); }

/* A pass copies the present position as it is, ext included, and only
 * hands the turn over: the variant is not asked, because passing is no
 * action of any game.  That is why the search passes only where the
 * game's evaluator says its own state cannot notice (eval.h). */
bool line_push_null(Line *l)
{
    NodeStack *s = &l->own;
    if (!reserve_slot(s)) return false;
    int present = line_current(l);
    const Node *now = line_node(l, present);
    size_t bytes = state_bytes(now->state);
    Node *n = carve(s, sizeof(Node) + bytes);
    if (!n) return false;
    State *next = (State *)(n + 1);
    memcpy(next, now->state, bytes);
    board_end_turn(&next->board, false);
    n->parent = present;
    n->timeline = now->timeline;
    n->timelines = now->timelines;
    n->move = move_none();
    n->state = next;
    n->key = board_position_key(&next->board) ^ next->ext_key;
    s->at[s->count++] = n;
    return true;
}

void line_pop(Line *l)
{
    if (l->own.count > 0) pop_node(&l->own);
}

bool line_generate(const Line *l, MoveList *out)
{
    out->count = 0;
    out->failed = false;
    return line_variant(l)->generate(l, out) && !out->failed;
}

bool line_generate_chess(const Line *l, MoveList *out)
{
    const Variant *v = line_variant(l);
    out->count = 0;
    out->failed = false;
    if (v->generate_chess) return v->generate_chess(l, out) && !out->failed;
    if (!v->generate(l, out) || out->failed) return false;
    int kept = 0;
    for (int i = 0; i < out->count; i++)
        if (move_is_chess(out->moves[i])) out->moves[kept++] = out->moves[i];
    out->count = kept;
    return true;
}

bool line_in_check(const Line *l) { return line_variant(l)->in_check(l); }

bool line_outcome(const Line *l, Outcome *out) { return line_variant(l)->outcome(l, out); }

bool line_is_legal(const Line *l, Move m, bool *legal)
{
    MoveList list;
    movelist_init(&list);
    bool ok = line_generate(l, &list);
    *legal = ok && movelist_contains(&list, m);
    movelist_free(&list);
    return ok;
}

int line_ancestor(const Line *l, int plies_back)
{
    int n = line_current(l);
    while (plies_back-- > 0 && n >= 0) n = line_node(l, n)->parent;
    return n;
}

/* The whole timeline is searched, not just the plies since the last
 * capture or pawn move: in the time-travel games a position can recur
 * across an action that resets the fifty-move count (a piece sent forward
 * lands again where it stood).  Comparing keys keeps this cheap; a match
 * is confirmed by the variant, so that no two positions are ever confused
 * by their keys alone. */
int line_repetitions(const Line *l)
{
    const Variant *v = line_variant(l);
    const Node *now = line_node(l, line_current(l));
    int found = 0;
    for (int i = now->parent; i >= 0;) {
        const Node *n = line_node(l, i);
        if (n->key == now->key && v->same_position(n->state, now->state)) found++;
        i = n->parent;
    }
    return found;
}

bool line_check_mark(const Line *l, Move m, char *mark)
{
    Line trial;
    line_extend(&trial, l);
    bool ok = line_push(&trial, m);
    *mark = 0;
    if (ok && line_in_check(&trial)) {
        /* '#' only for a checkmate on the board, whoever wins by the
         * game's own rules (van Gog's obligations can turn a mate into a
         * loss): a game can also end with a king in check for another
         * reason (Gifford's king lost in time). */
        Outcome o;
        ok = line_outcome(&trial, &o);
        *mark = ok && o.board == REASON_CHECKMATE ? '#' : '+';
    }
    line_close(&trial);
    return ok;
}

static bool perft_rec(Line *l, int depth, MoveList *lists, uint64_t *nodes)
{
    MoveList *here = &lists[0];
    if (!line_generate(l, here)) return false;
    if (depth == 1) {
        *nodes += (uint64_t)here->count;
        return true;
    }
    for (int i = 0; i < here->count; i++) {
        if (!line_push(l, here->moves[i])) return false;
        bool ok = perft_rec(l, depth - 1, lists + 1, nodes);
        line_pop(l);
        if (!ok) return false;
    }
    return true;
}

bool line_perft(Line *l, int depth, uint64_t *nodes)
{
    *nodes = 0;
    if (depth <= 0) {
        *nodes = 1;
        return true;
    }
    MoveList *lists = calloc((size_t)depth, sizeof *lists);
    if (!lists) return false;
    bool ok = perft_rec(l, depth, lists, nodes);
    for (int i = 0; i < depth; i++) movelist_free(&lists[i]);
    free(lists);
    return ok;
}
