/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The storage drivers of ttchess serve: the few things store.c needs of a
 * SQL database, behind one interface with two implementations,
 * db_sqlite.c (the default: a file) and db_pg.c (PostgreSQL through
 * libpq, for several servers on one database).
 *
 * store.c writes its SQL once, in the dialect both understand, with
 * PostgreSQL's numbered parameters ($1, $2...; a number may be used twice).
 * Every value a user sent is a parameter, never part of the SQL.  A
 * statement's rows come back whole, as text (NULL for SQL's NULL): the
 * server's queries return a handful of short rows, and text is what both
 * databases can give without a type system of our own.
 */
#ifndef TTCHESS_SERVER_DB_H
#define TTCHESS_SERVER_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "text.h"

/* What became of a statement.  The server answers DB_UNAVAILABLE with 503
 * (the database cannot be written or reached now: a full disk, a
 * read-only file, a lost connection); DB_CONFLICT is a unique key already
 * taken, which the callers turn into "taken" or 409. */
typedef enum DbStatus { DB_OK, DB_CONFLICT, DB_UNAVAILABLE, DB_ERROR } DbStatus;

typedef enum DbType { DB_NULL, DB_INT, DB_TEXT } DbType;

/* A parameter: DB_I(x), DB_S(s) (NULL gives SQL's NULL). */
typedef struct DbValue {
    DbType type;
    int64_t i;
    const char *s;
} DbValue;

#define DB_I(x) ((DbValue){ .type = DB_INT, .i = (int64_t)(x) })
#define DB_S(x) ((DbValue){ .type = (x) ? DB_TEXT : DB_NULL, .s = (x) })

/* The rows a statement returned: cell[r * cols + c], NULL for SQL NULL. */
typedef struct DbRows {
    int rows, cols;
    char **cell;
} DbRows;

const char *db_text(const DbRows *r, int row, int col);
int64_t db_int(const DbRows *r, int row, int col);
void db_rows_free(DbRows *r);
/* Adds a row of `cols` cells (the drivers build results with it); the
 * values are copied.  False when out of memory. */
bool db_rows_add(DbRows *r, int cols, const char *const *values);

typedef struct DbConn DbConn;

/* Schema changes: migration i takes a database from version i to i + 1,
 * written once for each dialect. */
typedef struct DbMigration {
    const char *sqlite;
    const char *postgres;
} DbMigration;

typedef struct DbDriver {
    const char *name;
    /* True when this driver serves `target` (a file name or a URL). */
    bool (*accepts)(const char *target);
    DbConn *(*open)(const char *target, Text *err);
    void (*close)(DbConn *c);
    /* How many connections the server may hold at once: a SQLite memory
     * database is private to its one connection. */
    int (*pool_size)(const char *target);
    /* Runs one statement; `rows` (may be NULL) receives its rows.  `sql`
     * is one of store.c's constant strings: a driver may keep what it
     * made of it by its address. */
    DbStatus (*run)(DbConn *c, const char *sql, const DbValue *params, int count, DbRows *rows);
    /* A write transaction.  SQLite has one writer at a time; its driver
     * takes a lock of the process from begin to commit or rollback, so
     * that the server's writers queue in order rather than sleep and retry. */
    DbStatus (*begin)(DbConn *c);
    DbStatus (*commit)(DbConn *c);
    void (*rollback)(DbConn *c);
    bool (*in_transaction)(DbConn *c);
    /* Brings the schema to `count` migrations, at start-up; false with the
     * reason in err (a newer schema than this server knows, say). */
    bool (*migrate)(DbConn *c, const DbMigration *migrations, int count, Text *err);
    /* Tells the other servers on this database that there are new events
     * (PostgreSQL's NOTIFY; store_notify.c sends it after the commit that
     * stored them, outside any transaction); NULL where one server is all
     * there is. */
    DbStatus (*notify)(DbConn *c, const char *game);
    /* Waits up to `ms` for other servers' notices: 1 when one or more came
     * (or the connection was lost and made again, when some may have been
     * missed), 0 when none, -1 when the database cannot be reached.  NULL
     * where there are no other servers. */
    int (*listen_wait)(DbConn *c, int ms);
} DbDriver;

extern const DbDriver DB_SQLITE;
/* The SQLite handle of a connection of DB_SQLITE (the fuzzers copy their
 * memory database aside with sqlite3_backup). */
struct sqlite3 *db_sqlite_handle(DbConn *c);
extern const DbDriver DB_POSTGRES;

/* The driver for a --db argument: PostgreSQL for postgresql:// and
 * postgres:// URLs, SQLite for anything else (a file name). */
const DbDriver *db_driver_for(const char *target);

#endif
