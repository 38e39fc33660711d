/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A game's row as the database holds it (store_rows.c), private to
 * store.c: one description of the columns, from which the statements'
 * column lists and the binding and reading of a GameRow are made.
 */
#ifndef TTCHESS_SERVER_STORE_ROWS_H
#define TTCHESS_SERVER_STORE_ROWS_H

#include "db.h"
#include "server.h"

/* One statement on this thread's connection (store.c's run), for the
 * store's files besides store.c. */
DbStatus store_run(Store *s, const char *sql, const DbValue *params, int count, DbRows *rows);
#define STORE_RUN(s, sql, rows, ...) \
    store_run(s, sql, (DbValue[]){ __VA_ARGS__ }, (int)(sizeof((DbValue[]){ __VA_ARGS__ }) / sizeof(DbValue)), rows)

/* The columns a game's SELECT reads, in GameRow's description; a query
 * may read more after them (their numbers start here). */
enum { GAME_ROW_COLUMNS = 30 };

/* "SELECT <the row's columns><tail>", where the tail names the table as
 * "games g" ("... FROM games g WHERE g.id = $1").  Made once for each
 * tail, which must be a constant string: a driver keeps what it prepared
 * of a statement by the statement's address.  NULL when more tails are
 * asked for than it keeps (a mistake of store.c's). */
const char *game_select_sql(const char *tail);
/* The INSERT of a new game: its written columns, then "created" ($n+1). */
const char *game_insert_sql(void);
/* The UPDATE of a game's changing columns, for a row still at its version:
 * "... WHERE id = $n+1 AND version = $n+2 RETURNING version". */
const char *game_update_sql(void);

/* What a statement writes of a row. */
typedef enum GameWrite { GAME_INSERT = 1, GAME_UPDATE = 2 } GameWrite;

/* The row's values that `what` writes, in its statement's order (the
 * statement's $1, $2...); their count. */
int game_row_values(const GameRow *g, GameWrite what, DbValue out[GAME_ROW_COLUMNS]);
/* Reads row i of a game's SELECT into g (its strings malloc'd). */
void game_row_read(const DbRows *r, int i, GameRow *g);

#endif
