/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the server's store (src/server/store.c) on either driver:
 * SQLite in a temporary file, and PostgreSQL when TTCHESS_TEST_PG names
 * a database (tests/postgres-test.sh gives one of a throwaway cluster).
 *
 *   - a database of schema 1 is brought to the current schema at
 *     start-up, keeping its data; a newer schema than this server knows
 *     is refused with a sentence;
 *   - a game row's version: a write based on a row read before another
 *     write is stale, also between two threads at the same moment;
 *   - one action per (game, ply): the second is stale;
 *   - names are unique whatever their case, on both databases;
 *   - the pool: every call gives its connection back, a transaction is
 *     held across calls until its commit or rollback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "server.h"

static char target[512];

/* A fresh database for each test: a new SQLite file, or the PostgreSQL
 * database emptied of ttchess's tables. */
static int fresh_database(void **state)
{
    (void)state;
    const char *pg = getenv("TTCHESS_TEST_PG");
    if (pg && *pg) {
        snprintf(target, sizeof target, "%s", pg);
        Text err = TEXT_INIT;
        DbConn *c = DB_POSTGRES.open(target, &err);
        if (!c) {
            fprintf(stderr, "%s\n", text_str(&err));
            text_free(&err);
            return -1;
        }
        /* Everything the migrations made goes with the schema that holds
         * it, so that a new table needs no line here. */
        DbStatus st = DB_POSTGRES.run(c, "DROP SCHEMA public CASCADE", NULL, 0, NULL);
        if (st == DB_OK) st = DB_POSTGRES.run(c, "CREATE SCHEMA public", NULL, 0, NULL);
        DB_POSTGRES.close(c);
        return st == DB_OK ? 0 : -1;
    }
    char dir[] = "/tmp/ttchess-store-XXXXXX";
    if (!mkdtemp(dir)) return -1;
    snprintf(target, sizeof target, "%s/test.db", dir);
    return 0;
}

static int remove_database(void **state)
{
    (void)state;
    if (strncmp(target, "postgres", 8)) {
        char path[600];
        const char *suffixes[] = { "", "-wal", "-shm" };
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s%s", target, suffixes[i]);
            unlink(path);
        }
        *strrchr(target, '/') = '\0';
        rmdir(target);
    }
    return 0;
}

static void open_store(Store *s)
{
    Text err = TEXT_INIT;
    bool ok = store_open(s, target, &err);
    if (!ok) fprintf(stderr, "store_open: %s\n", text_str(&err));
    text_free(&err);
    assert_true(ok);
}

static GameRow sample_game(const char *id, int64_t white, int64_t black)
{
    GameRow g = { 0 };
    g.id = (char *)id;
    g.variant = (char *)"chess";
    g.white = white;
    g.black = black;
    g.creator = white;
    g.status = (char *)"active";
    g.kibitz = true;
    return g;
}

static void test_migration_from_schema_1(void **state)
{
    (void)state;
    Store s;
    Text err = TEXT_INIT;
    assert_true(store_open_at(&s, target, 1, &err));
    int64_t alice;
    bool taken;
    assert_true(store_user_add(&s, "alice", "hash-a", &alice, &taken));
    store_close(&s);

    open_store(&s);
    int64_t id;
    assert_true(store_user_id(&s, "ALICE", &id));
    assert_int_equal(id, alice);
    GameRow g = sample_game("g1", alice, 0), row;
    assert_true(store_game_add(&s, &g));
    bool found;
    assert_true(store_game_get(&s, "g1", &row, &found));
    assert_true(found);
    assert_int_equal(row.version, 0);
    assert_string_equal(row.white_name, "alice");
    store_game_free(&row);
    assert_true(store_idle(&s));
    store_close(&s);

    /* Opening again runs nothing and keeps everything. */
    open_store(&s);
    assert_true(store_game_get(&s, "g1", &row, &found));
    assert_true(found);
    store_game_free(&row);
    store_close(&s);
    text_free(&err);
}

static void test_newer_schema_refused(void **state)
{
    (void)state;
    Store s;
    open_store(&s);
    DbConn *c = store_connection(&s, 0);
    if (!strcmp(store_kind(&s), "sqlite"))
        assert_int_equal(sqlite3_exec(db_sqlite_handle(c), "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    else
        assert_int_equal(DB_POSTGRES.run(c, "UPDATE schema_version SET version = 99", NULL, 0, NULL), DB_OK);
    store_close(&s);
    Text err = TEXT_INIT;
    assert_false(store_open(&s, target, &err));
    assert_non_null(strstr(text_str(&err), "newer ttchess"));
    text_free(&err);
}

static void test_names_ignore_case(void **state)
{
    (void)state;
    Store s;
    open_store(&s);
    int64_t id;
    bool taken;
    assert_true(store_user_add(&s, "Bob", "h", &id, &taken));
    assert_false(store_user_add(&s, "bOB", "h", &id, &taken));
    assert_true(taken);
    char *hash;
    assert_true(store_user_hash(&s, "BOB", &id, &hash));
    assert_string_equal(hash, "h");
    free(hash);
    store_close(&s);
}

static void test_stale_row_and_ply(void **state)
{
    (void)state;
    Store s;
    open_store(&s);
    GameRow g = sample_game("g2", 1, 2), a, b;
    assert_true(store_game_add(&s, &g));
    bool found, stale;
    assert_true(store_game_get(&s, "g2", &a, &found));
    assert_true(store_game_get(&s, "g2", &b, &found));
    a.draw_offer = 1;
    assert_true(store_game_update(&s, &a, &stale));
    assert_false(stale);
    b.takeback_offer = 2;
    assert_false(store_game_update(&s, &b, &stale));
    assert_true(stale);
    store_game_free(&a);
    store_game_free(&b);

    assert_true(store_begin(&s));
    assert_true(store_action_add(&s, "g2", 1, "e2e4", "e4", 1, &stale));
    assert_true(store_commit(&s));
    assert_false(store_action_add(&s, "g2", 1, "d2d4", "d4", 2, &stale));
    assert_true(stale);
    char **texts;
    int count;
    assert_true(store_actions(&s, "g2", &texts, &count));
    assert_int_equal(count, 1);
    assert_string_equal(texts[0], "e2e4");
    free(texts[0]);
    free(texts);
    assert_true(store_idle(&s));
    store_close(&s);
}

/* Two threads write the same game from the same reading at once. */
typedef struct Racer {
    Store *s;
    GameRow row;
    pthread_barrier_t *start;
    bool won;
} Racer;

static void *race(void *arg)
{
    Racer *r = arg;
    bool stale = false;
    pthread_barrier_wait(r->start);
    r->won = store_begin(r->s) && store_game_update(r->s, &r->row, &stale) &&
             store_event_add(r->s, r->row.id, "action", 1, "{}", NULL) && store_commit(r->s);
    if (!r->won) store_rollback(r->s);
    return NULL;
}

static void test_concurrent_writes(void **state)
{
    (void)state;
    Store s;
    open_store(&s);
    GameRow g = sample_game("g3", 1, 2);
    assert_true(store_game_add(&s, &g));
    for (int round = 0; round < 20; round++) {
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, 2);
        Racer r[2];
        bool found;
        for (int i = 0; i < 2; i++) {
            r[i] = (Racer){ .s = &s, .start = &start };
            assert_true(store_game_get(&s, "g3", &r[i].row, &found));
        }
        pthread_t t[2];
        for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, race, &r[i]);
        for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
        assert_int_equal(r[0].won + r[1].won, 1);
        for (int i = 0; i < 2; i++) store_game_free(&r[i].row);
        pthread_barrier_destroy(&start);
    }
    json_t *events = json_array();
    assert_true(store_events_after(&s, "g3", 0, events));
    assert_int_equal(json_array_size(events), 20);
    json_decref(events);
    assert_true(store_idle(&s));
    store_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_migration_from_schema_1, fresh_database, remove_database),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, fresh_database, remove_database),
        cmocka_unit_test_setup_teardown(test_names_ignore_case, fresh_database, remove_database),
        cmocka_unit_test_setup_teardown(test_stale_row_and_ply, fresh_database, remove_database),
        cmocka_unit_test_setup_teardown(test_concurrent_writes, fresh_database, remove_database),
    };
    const char *pg = getenv("TTCHESS_TEST_PG");
    return cmocka_run_group_tests_name(pg && *pg ? "store (PostgreSQL)" : "store (SQLite)", tests, NULL, NULL);
}
