/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PostgreSQL driver (db.h), through libpq: for several ttchess serve
 * instances on one database.
 *
 * Each connection is used by one request at a time (store.c's pool).  A
 * statement goes as PQexecParams with text parameters; the server's
 * statements are short and few, and the database plans them quickly.
 * COMMIT returns once the transaction is durable (synchronous_commit is
 * left at its default, on).
 *
 * The servers on one database tell each other of new events with
 * NOTIFY ttchess_events, sent after the transaction that stored them has
 * committed, on a connection of its own (store_notify.c says why); each
 * server keeps one more connection that LISTENs and wakes its live
 * streams (store.c).
 *
 * A connection that breaks (the database restarted, the network) is made
 * again at its next use; meanwhile its statements are DB_UNAVAILABLE and
 * the server answers 503.
 */
#include "db.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PG_POOL = 8, PG_MAX_PARAMS = 32 };

/* Serializes the start-up migrations of servers starting at once (an
 * arbitrary number, ttchess's own). */
#define MIGRATION_LOCK "7374636865737301"

enum { PG_STATEMENTS = 64 };

struct DbConn {
    PGconn *pg;
    bool in_transaction;
    /* A transaction begun whose BEGIN has not been sent: it goes with the
     * transaction's first statement, in one round trip (issue 30). */
    bool begin_pending;
    bool listening;
    /* Statements prepared on this connection, by the address of store.c's
     * string (db.h): a statement is parsed and planned once, not at each
     * request.  A connection made again has none. */
    int prepared;
    const char *statement[PG_STATEMENTS];
};

static bool pg_accepts(const char *target)
{
    return target && (!strncmp(target, "postgresql://", 13) || !strncmp(target, "postgres://", 11));
}

static int pg_pool_size(const char *target)
{
    (void)target;
    return PG_POOL;
}

/* libpq prints the server's notices on stderr by default; the library
 * never prints. */
static void quiet_notice(void *arg, const PGresult *res)
{
    (void)arg;
    (void)res;
}

/* Makes the connection again if it broke; false while the database cannot
 * be reached.  Never inside a transaction: a transaction on a lost
 * connection is lost with it, and its caller rolls back. */
static bool connected(DbConn *c)
{
    if (PQstatus(c->pg) == CONNECTION_OK) return true;
    /* A BEGIN not yet sent has nothing on the connection to lose. */
    if (c->in_transaction && !c->begin_pending) return false;
    PQreset(c->pg);
    c->listening = false;
    c->prepared = 0;
    return PQstatus(c->pg) == CONNECTION_OK;
}

/* A failed statement as the server answers it, from its SQLSTATE:
 * 23505 a unique key taken; the classes of a lost or refused connection
 * (08), of an operator's intervention (57: a shutdown), of insufficient
 * resources (53: a full disk), a read-only transaction (25006) and a
 * serialization failure or deadlock (40) are the database being
 * unavailable for now. */
static DbStatus status_of(DbConn *c, const PGresult *res)
{
    if (!res || PQstatus(c->pg) != CONNECTION_OK) return DB_UNAVAILABLE;
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    if (!state) return DB_ERROR;
    if (!strcmp(state, "23505")) return DB_CONFLICT;
    if (!strncmp(state, "08", 2) || !strncmp(state, "57", 2) || !strncmp(state, "53", 2) ||
        !strncmp(state, "40", 2) || !strcmp(state, "25006"))
        return DB_UNAVAILABLE;
    return DB_ERROR;
}

static DbStatus simple(DbConn *c, const char *sql, const char *tag);

/* Sends a BEGIN still pending, on its own round trip. */
static DbStatus begin_now(DbConn *c)
{
    if (!c->begin_pending) return DB_OK;
    c->begin_pending = false;
    return simple(c, "BEGIN", NULL);
}

/* The results of one query of a pipeline, up to the NULL that ends them:
 * the last one (NULL when the connection was lost before any came). */
static PGresult *pipeline_result(PGconn *pg)
{
    PGresult *kept = NULL, *r;
    while ((r = PQgetResult(pg))) {
        PQclear(kept);
        kept = r;
    }
    return kept;
}

/* BEGIN and the transaction's first statement (prepared as `name`) sent
 * together, with one Sync: one round trip where there were two.  An
 * action's transaction is BEGIN, three or four statements and COMMIT, so
 * this is a sixth of its waits on the database, each one a chance for a
 * busy machine to run something else first.  Should BEGIN fail, the
 * statement is not run (the server skips what follows an error up to the
 * Sync): the statement's result says the connection is unavailable. */
static PGresult *execute_after_begin(DbConn *c, const char *name, int count, const char *const *values)
{
    PGconn *pg = c->pg;
    c->begin_pending = false;
    if (!PQenterPipelineMode(pg)) return NULL;
    PGresult *began = NULL, *result = NULL;
    if (PQsendQueryParams(pg, "BEGIN", 0, NULL, NULL, NULL, NULL, 0) &&
        PQsendQueryPrepared(pg, name, count, values, NULL, NULL, 0) && PQpipelineSync(pg)) {
        began = pipeline_result(pg);
        result = pipeline_result(pg);
        PGresult *sync;
        while ((sync = PQgetResult(pg)) && PQresultStatus(sync) != PGRES_PIPELINE_SYNC) PQclear(sync);
        PQclear(sync);
    }
    PQexitPipelineMode(pg);
    if (PQresultStatus(began) != PGRES_COMMAND_OK) {
        PQclear(result);
        result = NULL;
    }
    PQclear(began);
    return result;
}

/* Runs a statement, prepared on first use (named by its place in the
 * connection's list); beyond the list's room, parsed each time.  A BEGIN
 * still to send goes first: with a prepared statement in the same round
 * trip, otherwise on its own. */
static PGresult *execute(DbConn *c, const char *sql, int count, const char *const *values)
{
    int i = 0;
    char name[16];
    while (i < c->prepared && c->statement[i] != sql) i++;
    snprintf(name, sizeof name, "s%d", i);
    if (c->begin_pending && i < c->prepared) return execute_after_begin(c, name, count, values);
    if (begin_now(c) != DB_OK) return NULL;
    if (i == c->prepared && i < PG_STATEMENTS) {
        PGresult *made = PQprepare(c->pg, name, sql, count, NULL);
        bool ok = PQresultStatus(made) == PGRES_COMMAND_OK;
        PQclear(made);
        if (ok) c->statement[c->prepared++] = sql;
    }
    if (i == c->prepared) return PQexecParams(c->pg, sql, count, NULL, values, NULL, NULL, 0);
    return PQexecPrepared(c->pg, name, count, values, NULL, NULL, 0);
}

static DbStatus pg_run(DbConn *c, const char *sql, const DbValue *params, int count, DbRows *rows)
{
    if (rows) memset(rows, 0, sizeof *rows);
    if (count > PG_MAX_PARAMS) return DB_ERROR;
    if (!connected(c)) return DB_UNAVAILABLE;
    char numbers[PG_MAX_PARAMS][24];
    const char *values[PG_MAX_PARAMS];
    for (int i = 0; i < count; i++) {
        if (params[i].type == DB_INT) {
            snprintf(numbers[i], sizeof numbers[i], "%" PRId64, params[i].i);
            values[i] = numbers[i];
        } else {
            values[i] = params[i].type == DB_TEXT ? params[i].s : NULL;
        }
    }
    PGresult *res = execute(c, sql, count, values);
    ExecStatusType st = PQresultStatus(res);
    DbStatus status = DB_OK;
    if (st == PGRES_TUPLES_OK && rows) {
        int n = PQntuples(res), cols = PQnfields(res);
        const char *cells[64];
        if (cols > 64) status = DB_ERROR;
        for (int r = 0; status == DB_OK && r < n; r++) {
            for (int i = 0; i < cols; i++) cells[i] = PQgetisnull(res, r, i) ? NULL : PQgetvalue(res, r, i);
            if (!db_rows_add(rows, cols, cells)) status = DB_ERROR;
        }
        if (!n) rows->cols = cols;
    } else if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        status = status_of(c, res);
    }
    PQclear(res);
    if (status != DB_OK && rows) db_rows_free(rows);
    return status;
}

/* A statement without parameters or rows; `tag` (may be NULL) is the
 * command tag success must carry: a COMMIT of a failed transaction
 * succeeds with the tag ROLLBACK. */
static DbStatus simple(DbConn *c, const char *sql, const char *tag)
{
    if (!connected(c)) return DB_UNAVAILABLE;
    DbStatus began = begin_now(c);
    if (began != DB_OK) return began;
    PGresult *res = PQexec(c->pg, sql);
    ExecStatusType st = PQresultStatus(res);
    DbStatus status = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? DB_OK : status_of(c, res);
    if (status == DB_OK && tag && strcmp(PQcmdStatus(res), tag)) status = DB_UNAVAILABLE;
    PQclear(res);
    return status;
}

/* The BEGIN waits for the transaction's first statement (execute). */
static DbStatus pg_begin(DbConn *c)
{
    if (!connected(c)) return DB_UNAVAILABLE;
    c->in_transaction = c->begin_pending = true;
    return DB_OK;
}

static DbStatus pg_commit(DbConn *c)
{
    /* A transaction that ran no statement has nothing to commit. */
    if (c->begin_pending) {
        c->in_transaction = c->begin_pending = false;
        return DB_OK;
    }
    DbStatus st = simple(c, "COMMIT", "COMMIT");
    /* Whether it committed or not, the transaction is over (a COMMIT that
     * fails ends it too); a connection lost on the way is made again at
     * its next use. */
    c->in_transaction = false;
    return st;
}

static void pg_rollback(DbConn *c)
{
    c->begin_pending = false;
    if (PQstatus(c->pg) == CONNECTION_OK && PQtransactionStatus(c->pg) != PQTRANS_IDLE) {
        PGresult *res = PQexec(c->pg, "ROLLBACK");
        PQclear(res);
    }
    c->in_transaction = false;
}

static bool pg_in_transaction(DbConn *c)
{
    return c->in_transaction ||
           (PQstatus(c->pg) == CONNECTION_OK && PQtransactionStatus(c->pg) != PQTRANS_IDLE);
}

static void pg_close(DbConn *c)
{
    if (!c) return;
    PQfinish(c->pg);
    free(c);
}

static DbConn *pg_open(const char *target, Text *err)
{
    DbConn *c = calloc(1, sizeof *c);
    if (!c) return text_fail(err, "out of memory"), NULL;
    /* A database that does not answer is given up after 5 seconds (the
     * URL may say otherwise: its own parameters come after). */
    const char *const keys[] = { "connect_timeout", "dbname", NULL };
    const char *const values[] = { "5", target, NULL };
    c->pg = PQconnectdbParams(keys, values, 1);
    if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
        const char *why = c->pg ? PQerrorMessage(c->pg) : "out of memory";
        size_t n = strlen(why);
        while (n && (why[n - 1] == '\n' || why[n - 1] == ' ')) n--;
        text_fail(err, "cannot connect to the database: %.*s", (int)n, why);
        pg_close(c);
        return NULL;
    }
    PQsetNoticeReceiver(c->pg, quiet_notice, NULL);
    return c;
}

static bool pg_migrate(DbConn *c, const DbMigration *migrations, int count, Text *err)
{
    DbRows r;
    if (pg_begin(c) || simple(c, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", NULL) ||
        simple(c, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", NULL) ||
        pg_run(c, "SELECT coalesce(max(version), 0) FROM schema_version", NULL, 0, &r)) {
        text_fail(err, "cannot read the database's schema version: %s", PQerrorMessage(c->pg));
        pg_rollback(c);
        return false;
    }
    int version = (int)db_int(&r, 0, 0);
    db_rows_free(&r);
    if (version > count) {
        pg_rollback(c);
        return text_fail(err, "the database is of a newer ttchess (schema %d, this one knows %d)", version, count);
    }
    for (int v = version; v < count; v++) {
        if (simple(c, migrations[v].postgres, NULL) ||
            pg_run(c, "DELETE FROM schema_version", NULL, 0, NULL) ||
            pg_run(c, "INSERT INTO schema_version(version) VALUES ($1)", (DbValue[]){ DB_I(v + 1) }, 1, NULL)) {
            text_fail(err, "could not bring the database to schema %d: %s", v + 1, PQerrorMessage(c->pg));
            pg_rollback(c);
            return false;
        }
    }
    if (pg_commit(c)) return text_fail(err, "could not commit the schema: %s", PQerrorMessage(c->pg));
    return true;
}

static DbStatus pg_notify(DbConn *c, const char *game)
{
    return pg_run(c, "SELECT pg_notify('ttchess_events', $1)", (DbValue[]){ DB_S(game) }, 1, NULL);
}

static int pg_listen_wait(DbConn *c, int ms)
{
    if (!c->listening) {
        if (!connected(c) || simple(c, "LISTEN ttchess_events", NULL)) return -1;
        c->listening = true;
        return 1;   /* notices may have been missed while not listening */
    }
    struct pollfd p = { .fd = PQsocket(c->pg), .events = POLLIN };
    if (p.fd < 0) {
        c->listening = false;
        return -1;
    }
    if (poll(&p, 1, ms) <= 0) return 0;
    if (!PQconsumeInput(c->pg) || PQstatus(c->pg) != CONNECTION_OK) {
        c->listening = false;
        return -1;
    }
    int got = 0;
    PGnotify *n;
    while ((n = PQnotifies(c->pg))) {
        got = 1;
        PQfreemem(n);
    }
    return got;
}

const DbDriver DB_POSTGRES = {
    .name = "postgresql",
    .accepts = pg_accepts,
    .open = pg_open,
    .close = pg_close,
    .pool_size = pg_pool_size,
    .run = pg_run,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .in_transaction = pg_in_transaction,
    .migrate = pg_migrate,
    .notify = pg_notify,
    .listen_wait = pg_listen_wait,
};
