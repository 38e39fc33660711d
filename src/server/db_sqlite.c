/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQLite driver (db.h): the default database, one file.
 *
 * The file is in WAL mode, so readers on their own connections never wait
 * for the writer.  SQLite allows one writer at a time; rather than let the
 * server's writers collide and sleep in SQLite's busy handler (whose waits
 * of 1 to 100 ms would be most of a request's time), a lock of this process
 * is held from BEGIN to COMMIT or ROLLBACK, and writers queue on it in turn.
 *
 * Durability, with group commit.  A transaction must be on disk before its
 * action is acknowledged.  SQLite's synchronous=FULL gives that by syncing
 * the log inside every COMMIT, under the writer's lock: commits then go
 * one sync at a time, and on this project's machine a sync takes about a
 * millisecond, which capped the server near 800 actions a second whatever
 * its processors did.  So the log is written at COMMIT without a sync
 * (synchronous=NORMAL, which keeps the database consistent), the writer's
 * lock is let go, and then the committing thread waits until the log file
 * is synced (fdatasync, which covers the whole file, whoever wrote it): one
 * thread syncs for every commit made before its sync began, and the
 * commits that arrive meanwhile wait for the next.  Only then does
 * sqlite_commit return and the server answer.  (Another connection may
 * read a commit a moment before it is on disk; the player who made it is
 * answered only after.)
 *
 * Statements are prepared once per connection and kept: store.c's SQL
 * is a set of constant strings, so a small table finds them again.
 */
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { STATEMENT_CACHE = 64, SQLITE_POOL = 8 };



static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;

/* The log of one database file, as the connections of a process share it
 * to sync it (see above). */
typedef struct WalSync {
    char path[4096];         /* the -wal file; "" for a free entry       */
    int users;               /* connections open on the database         */
    int fd;                  /* open on the -wal file, or -1             */
    uint64_t committed;      /* commits counted                          */
    uint64_t synced;         /* commits known to be on disk              */
    bool syncing;            /* a thread is syncing now                  */
    pthread_cond_t done;     /* ... and tells when it has                */
} WalSync;

enum { WAL_FILES = 16 };
static WalSync wal_files[WAL_FILES];
static pthread_mutex_t wal_lock = PTHREAD_MUTEX_INITIALIZER;

struct DbConn {
    sqlite3 *db;
    WalSync *wal;            /* NULL: nothing to sync (memory, read-only) */
    bool writing;            /* holds writer_lock                     */
    int cached;
    struct {
        const char *sql;     /* store.c's string, as given            */
        sqlite3_stmt *st;
    } cache[STATEMENT_CACHE];
};

static bool sqlite_accepts(const char *target)
{
    return target != NULL;
}

static bool is_memory(const char *target)
{
    return !*target || !strcmp(target, ":memory:") || !strncmp(target, "file::memory:", 13);
}

static int sqlite_pool_size(const char *target)
{
    return is_memory(target) ? 1 : SQLITE_POOL;
}

/* SQLite's result codes as the server answers them: a full disk, a
 * read-only file or a failing device is "unavailable" (503), not a bug. */
static DbStatus status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
        return DB_OK;
    case SQLITE_CONSTRAINT:
        return DB_CONFLICT;
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_PERM:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
        return DB_UNAVAILABLE;
    default:
        return DB_ERROR;
    }
}

static DbStatus exec(DbConn *c, const char *sql)
{
    return status_of(sqlite3_exec(c->db, sql, NULL, NULL, NULL));
}

/* store.c writes $1, $2...; SQLite's own numbered form is ?1, ?2. */
static char *sqlite_dialect(const char *sql)
{
    char *out = strdup(sql);
    if (!out) return NULL;
    char quote = 0;
    for (char *p = out; *p; p++) {
        if (quote) {
            if (*p == quote) quote = 0;
        } else if (*p == '\'' || *p == '"') {
            quote = *p;
        } else if (*p == '$' && p[1] >= '0' && p[1] <= '9') {
            *p = '?';
        }
    }
    return out;
}

static sqlite3_stmt *statement(DbConn *c, const char *sql)
{
    for (int i = 0; i < c->cached; i++)
        if (c->cache[i].sql == sql) return c->cache[i].st;
    char *text = sqlite_dialect(sql);
    sqlite3_stmt *st = NULL;
    int rc = text ? sqlite3_prepare_v3(c->db, text, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) : SQLITE_NOMEM;
    free(text);
    if (rc != SQLITE_OK) return NULL;
    if (c->cached < STATEMENT_CACHE) {
        c->cache[c->cached].sql = sql;
        c->cache[c->cached].st = st;
        c->cached++;
    }
    return st;
}

static void release(DbConn *c, sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    for (int i = 0; i < c->cached; i++)
        if (c->cache[i].st == st) return;
    sqlite3_finalize(st);
}

static DbStatus sqlite_run(DbConn *c, const char *sql, const DbValue *params, int count, DbRows *rows)
{
    if (rows) memset(rows, 0, sizeof *rows);
    sqlite3_stmt *st = statement(c, sql);
    if (!st) return status_of(sqlite3_errcode(c->db)) == DB_OK ? DB_ERROR : status_of(sqlite3_errcode(c->db));
    for (int i = 0; i < count; i++) {
        if (params[i].type == DB_INT) sqlite3_bind_int64(st, i + 1, params[i].i);
        else if (params[i].type == DB_TEXT) sqlite3_bind_text(st, i + 1, params[i].s, -1, SQLITE_STATIC);
        else sqlite3_bind_null(st, i + 1);
    }
    int rc, cols = sqlite3_column_count(st);
    bool ok = true;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!rows) continue;
        const char *values[64];
        if (cols > 64) {
            ok = false;
            break;
        }
        for (int i = 0; i < cols; i++) values[i] = (const char *)sqlite3_column_text(st, i);
        if (!db_rows_add(rows, cols, values)) {
            ok = false;
            break;
        }
    }
    DbStatus status = !ok ? DB_ERROR : status_of(rc);
    release(c, st);
    if (status != DB_OK && rows) db_rows_free(rows);
    return status;
}

static DbStatus sqlite_begin(DbConn *c)
{
    pthread_mutex_lock(&writer_lock);
    DbStatus st = exec(c, "BEGIN IMMEDIATE");
    if (st != DB_OK) {
        pthread_mutex_unlock(&writer_lock);
        return st;
    }
    c->writing = true;
    return DB_OK;
}

static void end_writing(DbConn *c)
{
    if (c->writing) {
        c->writing = false;
        pthread_mutex_unlock(&writer_lock);
    }
}

/* The log's entry for a database file, shared by its connections. */
static WalSync *wal_attach(sqlite3 *db)
{
    const char *file = sqlite3_db_filename(db, "main");
    if (!file || !*file) return NULL;
    char path[sizeof wal_files[0].path];
    if ((size_t)snprintf(path, sizeof path, "%s-wal", file) >= sizeof path) return NULL;
    pthread_mutex_lock(&wal_lock);
    WalSync *w = NULL, *free_entry = NULL;
    for (int i = 0; i < WAL_FILES && !w; i++) {
        if (wal_files[i].users && !strcmp(wal_files[i].path, path)) w = &wal_files[i];
        else if (!wal_files[i].users && !free_entry) free_entry = &wal_files[i];
    }
    if (!w && free_entry) {
        w = free_entry;
        memset(w, 0, sizeof *w);
        snprintf(w->path, sizeof w->path, "%s", path);
        w->fd = -1;
        pthread_cond_init(&w->done, NULL);
    }
    if (w) w->users++;
    pthread_mutex_unlock(&wal_lock);
    return w;
}

static void wal_detach(WalSync *w)
{
    if (!w) return;
    pthread_mutex_lock(&wal_lock);
    if (!--w->users) {
        if (w->fd >= 0) close(w->fd);
        pthread_cond_destroy(&w->done);
        w->path[0] = '\0';
    }
    pthread_mutex_unlock(&wal_lock);
}

/* Syncs the log file (called by one thread at a time).  The file is
 * opened again when it is not the one open (SQLite removes it when the
 * last connection closes, and makes it anew). */
static bool wal_sync_file(WalSync *w)
{
    struct stat now, open_one;
    if (w->fd >= 0 && (stat(w->path, &now) || fstat(w->fd, &open_one) || now.st_ino != open_one.st_ino)) {
        close(w->fd);
        w->fd = -1;
    }
    if (w->fd < 0) w->fd = open(w->path, O_RDONLY | O_CLOEXEC);
    if (w->fd < 0) return errno == ENOENT;   /* no log: nothing waits in one */
    return fdatasync(w->fd) == 0;
}

/* Returns once every commit made before the call is on disk: the group
 * commit described at the top of this file. */
static DbStatus wal_durable(WalSync *w)
{
    pthread_mutex_lock(&wal_lock);
    uint64_t mine = ++w->committed;
    bool ok = true;
    while (ok && w->synced < mine) {
        if (w->syncing) {
            pthread_cond_wait(&w->done, &wal_lock);
            continue;
        }
        w->syncing = true;
        uint64_t covers = w->committed;
        pthread_mutex_unlock(&wal_lock);
        ok = wal_sync_file(w);
        pthread_mutex_lock(&wal_lock);
        w->syncing = false;
        if (ok && covers > w->synced) w->synced = covers;
        pthread_cond_broadcast(&w->done);
    }
    pthread_mutex_unlock(&wal_lock);
    return ok ? DB_OK : DB_UNAVAILABLE;
}

/* A failed COMMIT leaves the transaction open (SQLite may still roll it
 * back itself, on a full disk): the caller's rollback ends it.  A commit
 * whose log cannot be synced is DB_UNAVAILABLE: it is in the database, but
 * not known to be on disk, so it is not acknowledged. */
static DbStatus sqlite_commit(DbConn *c)
{
    DbStatus st = exec(c, "COMMIT");
    if (st == DB_OK || sqlite3_get_autocommit(c->db)) end_writing(c);
    if (st == DB_OK && c->wal) st = wal_durable(c->wal);
    return st;
}

static void sqlite_rollback(DbConn *c)
{
    if (!sqlite3_get_autocommit(c->db)) exec(c, "ROLLBACK");
    end_writing(c);
}

static bool sqlite_in_transaction(DbConn *c)
{
    return !sqlite3_get_autocommit(c->db) || c->writing;
}

static void sqlite_close(DbConn *c)
{
    if (!c) return;
    for (int i = 0; i < c->cached; i++) sqlite3_finalize(c->cache[i].st);
    sqlite3_close(c->db);
    wal_detach(c->wal);
    free(c);
}

/* Can this connection read the database at all? */
static bool readable(DbConn *c)
{
    return sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK;
}

/* file:PATH?immutable=1, the path's URI metacharacters escaped. */
static char *immutable_uri(const char *path)
{
    size_t n = strlen(path);
    char *uri = malloc(3 * n + 32);
    if (!uri) return NULL;
    char *o = uri + sprintf(uri, "file:");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#') o += sprintf(o, "%%%02X", (unsigned char)*p);
        else *o++ = *p;
    }
    strcpy(o, "?immutable=1");
    return uri;
}

static DbConn *sqlite_open(const char *target, Text *err)
{
    DbConn *c = calloc(1, sizeof *c);
    if (!c) return text_fail(err, "out of memory"), NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    if (sqlite3_open_v2(target, &c->db, flags, NULL) != SQLITE_OK) {
        text_fail(err, "cannot open the database %s: %s", target, c->db ? sqlite3_errmsg(c->db) : "out of memory");
        sqlite_close(c);
        return NULL;
    }
    sqlite3_extended_result_codes(c->db, 1);
    sqlite3_busy_timeout(c->db, 5000);
    /* A read-only file (its folder or the file itself not writable) opens
     * for reading: the server then shows games and answers every write
     * with 503, rather than not starting.  SQLite reads a database in WAL
     * mode only with its -shm file, which it must be able to create; in a
     * read-only folder the file is opened as immutable instead (nothing
     * can change it: the server cannot write there, and ttchess keeps one
     * server on a SQLite file). */
    bool read_only = sqlite3_db_readonly(c->db, "main") == 1;
    if (read_only && !readable(c)) {
        sqlite3_close(c->db);
        c->db = NULL;
        char *uri = immutable_uri(target);
        if (!uri || sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL) !=
                        SQLITE_OK) {
            text_fail(err, "cannot open the read-only database %s: %s", target,
                      c->db ? sqlite3_errmsg(c->db) : "out of memory");
            free(uri);
            sqlite_close(c);
            return NULL;
        }
        free(uri);
        sqlite3_extended_result_codes(c->db, 1);
    }
    if ((!read_only && (exec(c, "PRAGMA journal_mode=WAL") || exec(c, "PRAGMA synchronous=NORMAL"))) ||
        exec(c, "PRAGMA foreign_keys=ON")) {
        text_fail(err, "cannot set up the database %s: %s", target, sqlite3_errmsg(c->db));
        sqlite_close(c);
        return NULL;
    }
    if (!read_only && !is_memory(target)) {
        c->wal = wal_attach(c->db);
        if (!c->wal) {
            text_fail(err, "cannot keep the log of %s: its name is too long, or too many databases are open",
                      target);
            sqlite_close(c);
            return NULL;
        }
    }
    return c;
}

static bool sqlite_migrate(DbConn *c, const DbMigration *migrations, int count, Text *err)
{
    DbRows r;
    if (sqlite_run(c, "PRAGMA user_version", NULL, 0, &r) != DB_OK) {
        /* The usual cause: a database in WAL mode needs its -shm file
         * beside it, written even to read, and a read-only folder or file
         * forbids it. */
        if (sqlite3_db_readonly(c->db, "main") == 1)
            return text_fail(err, "the database is read-only, and SQLite cannot read it so (%s): make it and its "
                                  "folder writable",
                             sqlite3_errmsg(c->db));
        return text_fail(err, "cannot read the database's schema version: %s", sqlite3_errmsg(c->db));
    }
    int version = (int)db_int(&r, 0, 0);
    db_rows_free(&r);
    if (version > count)
        return text_fail(err, "the database is of a newer ttchess (schema %d, this one knows %d)", version, count);
    if (version < count && sqlite3_db_readonly(c->db, "main") == 1)
        return text_fail(err, "the database is read-only and needs schema %d (it has %d)", count, version);
    for (int v = version; v < count; v++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", v + 1);
        if (sqlite_begin(c) || exec(c, migrations[v].sqlite) || exec(c, pragma) || sqlite_commit(c)) {
            text_fail(err, "could not bring the database to schema %d: %s", v + 1, sqlite3_errmsg(c->db));
            sqlite_rollback(c);
            return false;
        }
    }
    return true;
}

const DbDriver DB_SQLITE = {
    .name = "sqlite",
    .accepts = sqlite_accepts,
    .open = sqlite_open,
    .close = sqlite_close,
    .pool_size = sqlite_pool_size,
    .run = sqlite_run,
    .begin = sqlite_begin,
    .commit = sqlite_commit,
    .rollback = sqlite_rollback,
    .in_transaction = sqlite_in_transaction,
    .migrate = sqlite_migrate,
    .notify = NULL,
    .listen_wait = NULL,
};

sqlite3 *db_sqlite_handle(DbConn *c)
{
    return c ? c->db : NULL;
}
