/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the game record and of lines over it (ttchess/game.h): a line
 * opened at an earlier node sees the record as it stood then; lines never
 * write the record; nodes and positions keep their addresses while the
 * record grows over many chunks of memory; taking everything back and
 * playing it again gives the same record; several threads may read one
 * record at once; perft on a line that extends another line counts what
 * perft on a game in that position counts.  Mostly over random games of
 * Gifford's time travel, where king travels back start new timelines.
 */
#include "support.h"

#include <pthread.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* Plays up to `plies` random actions; an action that ends the game is
 * taken back and another one tried (a few times), so that games run
 * long.  Returns how many actions were played. */
static int play_random(Game *g, int plies, uint64_t *seed, bool travel_bias)
{
    int played = 0;
    for (; played < plies; played++) {
        MoveList l;
        legal_list(g, &l);
        if (l.count == 0) {
            movelist_free(&l);
            break;
        }
        bool ended = true;
        for (int attempt = 0; attempt < 8 && ended; attempt++) {
            if (attempt) game_pop(g);
            assert_true(game_push(g, pick_action(&l, seed, travel_bias)));
            Outcome o;
            assert_true(game_outcome(g, &o));
            ended = o.result != RESULT_NONE;
        }
        movelist_free(&l);
        if (ended) {
            played++;
            break;
        }
    }
    return played;
}

/* Plays random actions on a line (from its own legal actions). */
static int line_play_random(Line *l, int plies, uint64_t *seed, bool travel_bias)
{
    int played = 0;
    MoveList list;
    movelist_init(&list);
    for (; played < plies; played++) {
        assert_true(line_generate(l, &list));
        if (list.count == 0) break;
        assert_true(line_push(l, pick_action(&list, seed, travel_bias)));
    }
    movelist_free(&list);
    return played;
}

/* A new game that replays the first `upto` actions of g (nodes 1..upto):
 * the record as it stood when node `upto` was the present. */
static void replay_upto(Game *copy, const Game *g, int upto)
{
    Text err = TEXT_INIT;
    Text fen = TEXT_INIT;
    g->variant->to_fen(&g->options, game_node(g, 0)->state, &fen);
    if (!game_init(copy, g->variant, &g->options, text_str(&fen), &err)) fail_msg("replay: %s", text_str(&err));
    text_free(&fen);
    text_free(&err);
    for (int i = 1; i <= upto; i++) assert_true(game_push(copy, game_node(g, i)->move));
}

static bool same_lists(const MoveList *a, const MoveList *b)
{
    if (a->count != b->count) return false;
    for (int i = 0; i < a->count; i++)
        if (!move_equal(a->moves[i], b->moves[i])) return false;
    return true;
}

static bool same_outcome(Outcome a, Outcome b)
{
    return a.result == b.result && a.reason == b.reason && a.side == b.side;
}

/* A copy of everything a record holds, to compare with later. */
typedef struct Snapshot {
    int count;
    const Node **node;     /* the addresses */
    const State **state;
    Node *copy;            /* the nodes' contents */
    unsigned char **bytes; /* the positions' contents */
    size_t *size;
} Snapshot;

static void snapshot_take(Snapshot *s, const Game *g)
{
    s->count = game_count(g);
    s->node = calloc((size_t)s->count, sizeof *s->node);
    s->state = calloc((size_t)s->count, sizeof *s->state);
    s->copy = calloc((size_t)s->count, sizeof *s->copy);
    s->bytes = calloc((size_t)s->count, sizeof *s->bytes);
    s->size = calloc((size_t)s->count, sizeof *s->size);
    assert_true(s->node && s->state && s->copy && s->bytes && s->size);
    for (int i = 0; i < s->count; i++) {
        const Node *n = game_node(g, i);
        s->node[i] = n;
        s->state[i] = n->state;
        memcpy(&s->copy[i], n, sizeof *n); /* bytes, padding too, for memcmp */
        s->size[i] = state_bytes(n->state);
        s->bytes[i] = malloc(s->size[i]);
        assert_non_null(s->bytes[i]);
        memcpy(s->bytes[i], n->state, s->size[i]);
    }
}

/* Fails unless the first `upto` nodes of g are where and what they were. */
static void snapshot_check(const Snapshot *s, const Game *g, int upto, const char *what)
{
    assert_true(upto <= s->count && upto <= game_count(g));
    for (int i = 0; i < upto; i++) {
        const Node *n = game_node(g, i);
        if (n != s->node[i] || n->state != s->state[i]) fail_msg("%s: node %d moved", what, i);
        if (memcmp(n, &s->copy[i], sizeof *n)) fail_msg("%s: node %d changed", what, i);
        if (state_bytes(n->state) != s->size[i] || memcmp(n->state, s->bytes[i], s->size[i]))
            fail_msg("%s: the position of node %d changed", what, i);
    }
}

static void snapshot_free(Snapshot *s)
{
    for (int i = 0; i < s->count; i++) free(s->bytes[i]);
    free(s->node);
    free(s->state);
    free(s->copy);
    free(s->bytes);
    free(s->size);
    memset(s, 0, sizeof *s);
}

/* A Gifford game of `plies` random actions with travel, at least one of
 * them a king going back (a second timeline). */
static void gifford_game(Game *g, int plies, uint64_t seed)
{
    for (int tries = 0; tries < 20; tries++, seed += 0x9E3779B97F4A7C15ULL) {
        game_start(g, "gifford", NULL);
        int played = play_random(g, plies, &seed, true);
        if (played == plies && game_timelines(g) > 1) return;
        game_free(g);
    }
    fail_msg("no Gifford game of %d plies with a king going back", plies);
}

/* ------------------------------------------------------------------ */
/* (a) A line at an earlier node sees the record as it was             */
/* ------------------------------------------------------------------ */

static void check_lines_at_every_node(const Game *g)
{
    Game again;
    replay_upto(&again, g, 0);
    MoveList at_line, at_game;
    movelist_init(&at_line);
    movelist_init(&at_game);
    Text a = TEXT_INIT, b = TEXT_INIT;
    for (int i = 0; i < game_count(g); i++) {
        if (i) assert_true(game_push(&again, game_node(g, i)->move));
        Line l;
        line_open(&l, g, i);
        assert_int_equal(line_current(&l), i);
        assert_ptr_equal(line_state(&l), game_node(g, i)->state);
        assert_ptr_equal(line_board(&l), &game_node(g, i)->state->board);
        for (int j = 0; j <= i; j++) assert_ptr_equal(line_node(&l, j), game_node(g, j));
        /* The replayed game is the record as it stood then. */
        assert_int_equal(game_count(&again), i + 1);
        assert_true(game_node(&again, i)->key == game_node(g, i)->key);
        assert_int_equal(game_node(&again, i)->parent, game_node(g, i)->parent);
        assert_int_equal(game_node(&again, i)->timeline, game_node(g, i)->timeline);
        /* The same actions, in the same order, and the same verdicts. */
        assert_true(line_generate(&l, &at_line));
        assert_true(game_generate(&again, &at_game));
        if (!same_lists(&at_line, &at_game))
            fail_msg("node %d: the line has %d actions, the replayed game %d", i, at_line.count, at_game.count);
        Outcome o1, o2;
        assert_true(line_outcome(&l, &o1));
        assert_true(game_outcome(&again, &o2));
        assert_true(same_outcome(o1, o2));
        assert_int_equal(line_repetitions(&l), game_repetitions(&again));
        assert_int_equal(line_in_check(&l), game_in_check(&again));
        /* Each action is written the same way. */
        Line present;
        line_open(&present, &again, game_current(&again));
        for (int k = 0; k < at_line.count; k++) {
            text_clear(&a);
            text_clear(&b);
            assert_true(g->variant->format_human(&l, at_line.moves[k], &a));
            assert_true(g->variant->format_human(&present, at_line.moves[k], &b));
            if (strcmp(text_str(&a), text_str(&b)))
                fail_msg("node %d: '%s' on the line, '%s' in the replayed game", i, text_str(&a), text_str(&b));
        }
        line_close(&present);
        /* In chess the moves are the board's. */
        if (g->variant == &VARIANT_CHESS) {
            at_game.count = 0;
            assert_true(gen_legal(line_board(&l), &at_game));
            assert_true(same_lists(&at_line, &at_game));
        }
        line_close(&l);
    }
    text_free(&a);
    text_free(&b);
    movelist_free(&at_line);
    movelist_free(&at_game);
    game_free(&again);
}

static void test_line_sees_record_as_it_was(void **state)
{
    (void)state;
    Game g;
    gifford_game(&g, 120, 0x1234567887654321ULL);
    print_message("gifford: %d nodes, %d timelines\n", game_count(&g), game_timelines(&g));
    check_lines_at_every_node(&g);
    game_free(&g);

    uint64_t seed = 0xCAFEF00DD15EA5E5ULL;
    game_start(&g, "chess", NULL);
    play_random(&g, 100, &seed, false);
    check_lines_at_every_node(&g);
    game_free(&g);

    /* By hand: the line at node 2 (after 1.e4 e5) offers 2.Nf3, the record
     * (after 2.Nf3 Nc6) offers no knight move from g1. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e2e4 e7e5 g1f3 b8c6");
    Line l;
    line_open(&l, &g, 2);
    assert_string_equal(fen_of(line_board(&l)), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    MoveList list;
    movelist_init(&list);
    assert_true(line_generate(&l, &list));
    Move nf3 = move_make(square_parse("g1"), square_parse("f3"), MOVE_NORMAL, NO_TYPE, 0);
    assert_true(movelist_contains(&list, nf3));
    assert_int_equal(list.count, 29);
    movelist_free(&list);
    legal_list(&g, &list);
    assert_false(movelist_contains(&list, nf3));
    movelist_free(&list);
    line_close(&l);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* (b) Lines never write the record                                    */
/* ------------------------------------------------------------------ */

/* Tries everything a line can do at node `at` of g. */
static void exercise_line(const Game *g, int at, uint64_t *seed)
{
    Line l;
    line_open(&l, g, at);
    MoveList list;
    movelist_init(&list);
    Text t = TEXT_INIT;
    assert_true(line_generate(&l, &list));
    /* Check marks and the written forms of every action. */
    for (int k = 0; k < list.count; k++) {
        char mark;
        assert_true(line_check_mark(&l, list.moves[k], &mark));
        text_clear(&t);
        assert_true(g->variant->format_human(&l, list.moves[k], &t));
        text_clear(&t);
        assert_true(g->variant->format_coord(&l, list.moves[k], &t));
    }
    /* Each action pushed and popped. */
    for (int k = 0; k < list.count; k++) {
        assert_true(line_push(&l, list.moves[k]));
        assert_int_equal(line_current(&l), at + 1);
        Outcome o;
        assert_true(line_outcome(&l, &o));
        line_pop(&l);
        assert_int_equal(line_current(&l), at);
    }
    /* A long random walk on the line, then back, and a line over it. */
    int played = line_play_random(&l, 40, seed, true);
    assert_int_equal(line_current(&l), at + played);
    Line over;
    line_extend(&over, &l);
    line_play_random(&over, 10, seed, true);
    uint64_t nodes;
    assert_true(line_perft(&over, 2, &nodes));
    line_close(&over);
    for (int i = 0; i < played / 2; i++) line_pop(&l);
    line_play_random(&l, 20, seed, true);
    assert_true(line_perft(&l, 2, &nodes));
    while (line_current(&l) > at) line_pop(&l);
    line_pop(&l); /* never one of the record's */
    assert_int_equal(line_current(&l), at);
    assert_ptr_equal(line_state(&l), game_node(g, at)->state);
    text_free(&t);
    movelist_free(&list);
    line_close(&l);
}

static void test_lines_never_write_record(void **state)
{
    (void)state;
    Game g;
    gifford_game(&g, 80, 0x0DDBA11CAFEBABEULL);
    Snapshot s;
    snapshot_take(&s, &g);
    uint64_t seed = 77;
    int at[] = { game_current(&g), 0, 1, game_count(&g) / 2, game_timeline_start(&g, 2), game_current(&g) - 1 };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        assert_true(at[i] >= 0);
        exercise_line(&g, at[i], &seed);
        assert_int_equal(game_count(&g), s.count);
        snapshot_check(&s, &g, s.count, "after a line");
    }
    /* The game's own readers that work on lines of their own. */
    uint64_t nodes;
    assert_true(game_perft(&g, 2, &nodes));
    MoveList list;
    legal_list(&g, &list);
    Outcome o;
    assert_true(game_outcome(&g, &o));
    (void)game_repetitions(&g);
    (void)game_in_check(&g);
    movelist_free(&list);
    assert_int_equal(game_count(&g), s.count);
    snapshot_check(&s, &g, s.count, "after perft");
    snapshot_free(&s);
    game_free(&g);

    /* Chess, with checks and mates to mark. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6");
    snapshot_take(&s, &g);
    Line l;
    line_open(&l, &g, game_current(&g));
    char mark;
    Move mate = move_make(square_parse("h5"), square_parse("f7"), MOVE_NORMAL, NO_TYPE, 0);
    assert_true(line_check_mark(&l, mate, &mark));
    assert_int_equal(mark, '#');
    Text t = TEXT_INIT;
    assert_true(g.variant->format_human(&l, mate, &t));
    assert_string_equal(text_str(&t), "Qxf7#");
    text_free(&t);
    line_close(&l);
    exercise_line(&g, game_current(&g), &seed);
    exercise_line(&g, 3, &seed);
    snapshot_check(&s, &g, s.count, "chess");
    assert_int_equal(game_count(&g), s.count);
    assert_string_equal(game_status(&g), "ongoing");
    snapshot_free(&s);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* (c) Stable addresses over many chunks                               */
/* ------------------------------------------------------------------ */

/* game.c carves nodes from chunks of this many bytes. */
enum { RECORD_CHUNK_BYTES = 64 * 1024 };

static size_t record_bytes(const Game *g, int upto)
{
    size_t bytes = 0;
    for (int i = 0; i < upto; i++) bytes += sizeof(Node) + state_bytes(game_node(g, i)->state);
    return bytes;
}

static void test_record_addresses_stable(void **state)
{
    (void)state;
    Game g;
    uint64_t seed = 0x5EED0F5EED0F5EEDULL;
    game_start(&g, "gifford", NULL);
    /* Pointers taken as each node is played, checked after every later push. */
    enum { PLIES = 900 };
    const Node **node = calloc(PLIES + 1, sizeof *node);
    const State **pos = calloc(PLIES + 1, sizeof *pos);
    uint64_t *key = calloc(PLIES + 1, sizeof *key);
    assert_true(node && pos && key);
    node[0] = game_node(&g, 0);
    pos[0] = game_state(&g);
    key[0] = node[0]->key;
    int n = 1;
    while (n <= PLIES) {
        if (play_random(&g, 1, &seed, true) != 1) break;
        Outcome o;
        assert_true(game_outcome(&g, &o));
        if (o.result != RESULT_NONE) break;
        node[n] = game_node(&g, n);
        pos[n] = game_state(&g);
        key[n] = node[n]->key;
        n++;
        if (n % 50 == 0)
            for (int i = 0; i < n; i++)
                assert_true(game_node(&g, i) == node[i] && node[i]->state == pos[i] && node[i]->key == key[i]);
    }
    print_message("gifford: %d nodes, %d timelines, %zu bytes of record\n", game_count(&g), game_timelines(&g),
                  record_bytes(&g, game_count(&g)));
    assert_true(game_count(&g) >= 300);
    assert_true(record_bytes(&g, game_count(&g)) > 2 * RECORD_CHUNK_BYTES);
    assert_true(game_timelines(&g) > 1);

    Snapshot s;
    snapshot_take(&s, &g);
    for (int i = 0; i < game_count(&g); i++) {
        assert_ptr_equal(s.node[i], node[i]);
        assert_ptr_equal(s.state[i], pos[i]);
        assert_true(s.copy[i].key == key[i]);
    }
    /* Take back a third of the game (back over chunk boundaries), play on
     * differently: the nodes that stayed have not moved or changed. */
    int keep = game_count(&g) - game_count(&g) / 3;
    while (game_count(&g) > keep) game_pop(&g);
    snapshot_check(&s, &g, keep, "after popping");
    seed ^= 0xFFFF;
    play_random(&g, 400, &seed, true);
    snapshot_check(&s, &g, keep, "after playing on");
    /* Lines over the record, with many nodes of their own, move nothing. */
    Line l;
    line_open(&l, &g, game_current(&g));
    line_play_random(&l, 300, &seed, true);
    Line over;
    line_extend(&over, &l);
    line_play_random(&over, 300, &seed, true);
    snapshot_check(&s, &g, keep, "with lines open");
    line_close(&over);
    line_close(&l);
    snapshot_free(&s);
    free(node);
    free(pos);
    free(key);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* (d) Back to the root and the same again                             */
/* ------------------------------------------------------------------ */

static void replay_after_popping(const char *variant, uint64_t seed, int plies)
{
    Game g;
    game_start(&g, variant, NULL);
    play_random(&g, plies, &seed, true);
    int count = game_count(&g);
    assert_true(count > 100);
    Move *moves = calloc((size_t)count, sizeof *moves);
    uint64_t *keys = calloc((size_t)count, sizeof *keys);
    int *parents = calloc((size_t)count, sizeof *parents);
    int *timelines = calloc((size_t)count, sizeof *timelines);
    assert_true(moves && keys && parents && timelines);
    Text fen = TEXT_INIT;
    char **fens = calloc((size_t)count, sizeof *fens);
    assert_non_null(fens);
    for (int i = 0; i < count; i++) {
        const Node *n = game_node(&g, i);
        moves[i] = n->move;
        keys[i] = n->key;
        parents[i] = n->parent;
        timelines[i] = n->timelines;
        text_clear(&fen);
        g.variant->to_fen(&g.options, n->state, &fen);
        fens[i] = strdup(text_str(&fen));
    }
    int timelines_at_end = game_timelines(&g);
    while (game_count(&g) > 1) game_pop(&g);
    assert_int_equal(game_current(&g), 0);
    game_pop(&g); /* the root stays */
    assert_int_equal(game_count(&g), 1);
    assert_true(game_node(&g, 0)->key == keys[0]);
    assert_int_equal(game_timelines(&g), 1);
    for (int i = 1; i < count; i++) {
        assert_true(game_push(&g, moves[i]));
        const Node *n = game_node(&g, i);
        if (n->key != keys[i]) fail_msg("%s node %d: key %016llx, was %016llx", variant, i, (unsigned long long)n->key,
                                        (unsigned long long)keys[i]);
        assert_int_equal(n->parent, parents[i]);
        assert_int_equal(n->timelines, timelines[i]);
        text_clear(&fen);
        g.variant->to_fen(&g.options, n->state, &fen);
        assert_string_equal(text_str(&fen), fens[i]);
    }
    assert_int_equal(game_timelines(&g), timelines_at_end);
    for (int i = 0; i < count; i++) free(fens[i]);
    free(fens);
    text_free(&fen);
    free(moves);
    free(keys);
    free(parents);
    free(timelines);
    game_free(&g);
}

static void test_pop_to_root_and_replay(void **state)
{
    (void)state;
    replay_after_popping("gifford", 0xFEEDFACE12345678ULL, 350);
    replay_after_popping("chess", 0x0123456789ABCDEFULL, 200);
}

/* ------------------------------------------------------------------ */
/* (e) Several threads read one record                                 */
/* ------------------------------------------------------------------ */

typedef struct Answers {
    uint64_t perft;          /* at the present position                 */
    uint64_t perft_earlier;  /* on a line at an earlier node            */
    uint64_t digest;         /* of every action's written forms         */
    int actions;
    Outcome outcome;
    int repetitions;
    bool ok;                 /* false: some call ran out of memory      */
} Answers;

typedef struct Reader {
    const Game *g;
    int depth, earlier, rounds;
    Answers want;
    int mismatches;
    pthread_t thread;
} Reader;

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (h ^ 0xFF) * 1099511628211ULL;
}

/* Everything one reader works out; no cmocka calls (they are not made
 * for threads). */
static Answers read_game(const Game *g, int depth, int earlier)
{
    Answers a;
    memset(&a, 0, sizeof a);
    a.ok = game_perft(g, depth, &a.perft);
    Line l;
    line_open(&l, g, earlier);
    a.ok = line_perft(&l, depth, &a.perft_earlier) && a.ok;
    line_close(&l);
    line_open(&l, g, game_current(g));
    MoveList list;
    movelist_init(&list);
    a.ok = line_generate(&l, &list) && a.ok;
    a.actions = list.count;
    Text t = TEXT_INIT;
    a.digest = 14695981039346656037ULL;
    for (int i = 0; i < list.count; i++) {
        char mark = 0;
        text_clear(&t);
        a.ok = g->variant->format_human(&l, list.moves[i], &t) && a.ok;
        a.digest = fnv(a.digest, text_str(&t));
        text_clear(&t);
        a.ok = g->variant->format_coord(&l, list.moves[i], &t) && a.ok;
        a.digest = fnv(a.digest, text_str(&t));
        a.ok = line_check_mark(&l, list.moves[i], &mark) && a.ok;
        char m[2] = { mark ? mark : '.', 0 };
        a.digest = fnv(a.digest, m);
    }
    text_free(&t);
    movelist_free(&list);
    line_close(&l);
    a.ok = game_outcome(g, &a.outcome) && a.ok;
    a.repetitions = game_repetitions(g);
    return a;
}

static bool same_answers(const Answers *x, const Answers *y)
{
    return x->ok && y->ok && x->perft == y->perft && x->perft_earlier == y->perft_earlier && x->digest == y->digest &&
           x->actions == y->actions && same_outcome(x->outcome, y->outcome) && x->repetitions == y->repetitions;
}

static void *reader_main(void *arg)
{
    Reader *r = arg;
    for (int i = 0; i < r->rounds; i++) {
        Answers got = read_game(r->g, r->depth, r->earlier);
        if (!same_answers(&got, &r->want)) r->mismatches++;
    }
    return NULL;
}

static void read_in_threads(const Game *g, int depth, int earlier, int rounds)
{
    enum { THREADS = 4 };
    Answers want = read_game(g, depth, earlier);
    assert_true(want.ok);
    assert_true(want.perft > 0 && want.actions > 0);
    Reader readers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        readers[i] = (Reader){ .g = g, .depth = depth, .earlier = earlier, .rounds = rounds, .want = want };
        assert_int_equal(pthread_create(&readers[i].thread, NULL, reader_main, &readers[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(readers[i].thread, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        if (readers[i].mismatches)
            fail_msg("thread %d: %d of %d rounds answered differently", i, readers[i].mismatches, rounds);
    print_message("%s: perft %d = %llu (node %d: %llu), %d actions, 4 threads x %d rounds agree\n", g->variant->name,
                  depth, (unsigned long long)want.perft, earlier, (unsigned long long)want.perft_earlier, want.actions,
                  rounds);
}

static void test_threads_read_one_record(void **state)
{
    (void)state;
    Game g;
    gifford_game(&g, 60, 0xABCDEF0123456789ULL);
    /* On to a position with many actions (no arrival due), sends and
     * kings going back among them. */
    uint64_t seed = 4242;
    for (int i = 0; i < 40; i++) {
        MoveList l;
        legal_list(&g, &l);
        int count = l.count;
        movelist_free(&l);
        if (count >= 60) break;
        assert_int_equal(play_random(&g, 1, &seed, false), 1);
    }
    Snapshot s;
    snapshot_take(&s, &g);
    read_in_threads(&g, 2, game_count(&g) / 2, 20);
    read_in_threads(&g, 3, game_count(&g) / 2, 3);
    snapshot_check(&s, &g, s.count, "after the threads");
    assert_int_equal(game_count(&g), s.count);
    snapshot_free(&s);
    game_free(&g);

    game_start(&g, "chess", NULL);
    play_random(&g, 16, &seed, false);
    snapshot_take(&s, &g);
    read_in_threads(&g, 3, 4, 10);
    snapshot_check(&s, &g, s.count, "after the threads");
    snapshot_free(&s);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* (f) Perft on a line over a line                                     */
/* ------------------------------------------------------------------ */

/* Plays random actions on a line opened at node `at` of g and on a line
 * extending it, then compares line_perft there with game_perft on a game
 * that replays the same actions. */
static void perft_on_lines(const Game *g, int at, int depth, uint64_t seed)
{
    Line first, second;
    line_open(&first, g, at);
    int n1 = line_play_random(&first, 3, &seed, true);
    line_extend(&second, &first);
    int n2 = line_play_random(&second, 3, &seed, true);
    assert_int_equal(line_current(&second), at + n1 + n2);

    Game again;
    replay_upto(&again, g, at);
    for (int i = at + 1; i <= line_current(&second); i++) assert_true(game_push(&again, line_node(&second, i)->move));
    assert_true(game_node(&again, game_current(&again))->key == line_node(&second, line_current(&second))->key);

    /* A third line over the second, with no actions of its own yet. */
    Line third;
    line_extend(&third, &second);
    for (int d = 1; d <= depth; d++) {
        uint64_t on_line = 0, on_third = 0, on_game = 0;
        assert_true(line_perft(&second, d, &on_line));
        assert_true(line_perft(&third, d, &on_third));
        assert_true(game_perft(&again, d, &on_game));
        if (on_line != on_game || on_third != on_game)
            fail_msg("%s perft %d at node %d + %d + %d: line %llu, line over it %llu, game %llu", g->variant->name, d,
                     at, n1, n2, (unsigned long long)on_line, (unsigned long long)on_third,
                     (unsigned long long)on_game);
        assert_int_equal(line_current(&second), at + n1 + n2);
        assert_int_equal(line_current(&third), at + n1 + n2);
    }
    /* The first line's own perft matches the game before the second's actions. */
    for (int i = 0; i < n2; i++) game_pop(&again);
    uint64_t on_first = 0, on_game = 0;
    assert_true(line_perft(&first, depth, &on_first));
    assert_true(game_perft(&again, depth, &on_game));
    assert_true(on_first == on_game);
    line_close(&third);
    line_close(&second);
    line_close(&first);
    game_free(&again);
}

static void test_line_perft_matches_game_perft(void **state)
{
    (void)state;
    Game g;
    gifford_game(&g, 70, 0x77777777DEADBEEFULL);
    perft_on_lines(&g, game_current(&g), 2, 1);
    perft_on_lines(&g, game_current(&g), 2, 2);
    perft_on_lines(&g, game_count(&g) / 2, 2, 3);
    perft_on_lines(&g, game_timeline_start(&g, 2), 2, 4);
    perft_on_lines(&g, 0, 2, 5);
    game_free(&g);

    game_start(&g, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    uint64_t seed = 99;
    play_random(&g, 4, &seed, false);
    perft_on_lines(&g, game_current(&g), 3, 6);
    perft_on_lines(&g, 1, 3, 7);
    game_free(&g);

    /* The known count: perft 3 of the start position on a line two lines deep. */
    game_start(&g, "chess", NULL);
    Line a, b;
    line_open(&a, &g, 0);
    line_extend(&b, &a);
    uint64_t nodes = 0;
    assert_true(line_perft(&b, 3, &nodes));
    assert_int_equal(nodes, 8902);
    line_close(&b);
    line_close(&a);
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_sees_record_as_it_was),
        cmocka_unit_test(test_lines_never_write_record),
        cmocka_unit_test(test_record_addresses_stable),
        cmocka_unit_test(test_pop_to_root_and_replay),
        cmocka_unit_test(test_threads_read_one_record),
        cmocka_unit_test(test_line_perft_matches_game_perft),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
