/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A game's row, described once: each column of the games table that a
 * GameRow holds (and the few the SELECT computes: the players' names, the
 * number of actions, the last event), with its type, its place in GameRow, and the
 * statements that write it.  The SELECT's column list, the INSERT's and
 * the UPDATE's, the values bound to them, the reading of a result row and
 * the freeing of a GameRow are all made from this one table, so that a
 * column is added in one place.
 *
 * The statements made are the very text store.c wrote out by hand before
 * (the same columns in the same order), for both drivers: the schema and
 * its migrations (store.c) do not change.
 */
#include "store_rows.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum ColumnType { COLUMN_TEXT, COLUMN_INT64, COLUMN_INT, COLUMN_BOOL } ColumnType;

typedef struct GameColumn {
    const char *name;           /* in the games table; NULL: computed        */
    const char *computed;       /* what the SELECT reads when name is NULL    */
    ColumnType type;
    size_t offset;              /* in GameRow                                  */
    unsigned writes;            /* GAME_INSERT, GAME_UPDATE                    */
} GameColumn;

#define STORED(field, type, writes) { #field, NULL, type, offsetof(GameRow, field), writes }
#define COMPUTED(field, type, sql) { NULL, sql, type, offsetof(GameRow, field), 0 }

enum { INSERT = GAME_INSERT, UPDATE = GAME_UPDATE, BOTH = GAME_INSERT | GAME_UPDATE };

/* In the SELECT's order, which is the order of each statement's list. */
static const GameColumn COLUMNS[GAME_ROW_COLUMNS] = {
    STORED(id, COLUMN_TEXT, INSERT),
    STORED(variant, COLUMN_TEXT, INSERT),
    STORED(options, COLUMN_TEXT, INSERT),
    STORED(fen, COLUMN_TEXT, INSERT),
    STORED(white, COLUMN_INT64, BOTH),
    STORED(black, COLUMN_INT64, BOTH),
    STORED(creator, COLUMN_INT64, INSERT),
    STORED(invited, COLUMN_INT64, INSERT),
    STORED(invite_token, COLUMN_TEXT, BOTH),
    STORED(base_ms, COLUMN_INT64, INSERT),
    STORED(inc_ms, COLUMN_INT64, INSERT),
    STORED(days_per_move, COLUMN_INT, INSERT),
    STORED(engine_level, COLUMN_INT, INSERT),
    STORED(white_ms, COLUMN_INT64, BOTH),
    STORED(black_ms, COLUMN_INT64, BOTH),
    STORED(last_action_at, COLUMN_INT64, BOTH),
    STORED(status, COLUMN_TEXT, BOTH),
    STORED(result, COLUMN_TEXT, BOTH),
    STORED(reason, COLUMN_TEXT, BOTH),
    STORED(draw_offer, COLUMN_INT, BOTH),
    STORED(takeback_offer, COLUMN_INT, BOTH),
    STORED(kibitz, COLUMN_BOOL, BOTH),
    COMPUTED(white_name, COLUMN_TEXT, "(SELECT " SHOWN_NAME " FROM users WHERE id = g.white)"),
    COMPUTED(black_name, COLUMN_TEXT, "(SELECT " SHOWN_NAME " FROM users WHERE id = g.black)"),
    /* A game's actions are plies 1 to n with none missing: an action is
     * added at the ply after the last (its primary key refuses a second
     * one there) and only the last is ever taken back.  So the count is
     * the highest ply, which the primary key finds in one descent; a
     * COUNT(*) read every action of the game (a long game, hundreds of
     * rows at every request: issue 30). */
    COMPUTED(ply, COLUMN_INT, "(SELECT COALESCE(MAX(ply), 0) FROM actions WHERE game_id = g.id)"),
    STORED(to_move, COLUMN_INT, BOTH),
    /* An end the players declared is only ever written by an update. */
    STORED(declared, COLUMN_TEXT, UPDATE),
    /* The version is raised by the UPDATE itself (store.c's stale check). */
    STORED(version, COLUMN_INT64, 0),
    COMPUTED(invited_name, COLUMN_TEXT, "(SELECT " SHOWN_NAME " FROM users WHERE id = g.invited)"),
    /* Read by the same statement as the row, so from the same snapshot:
     * the events up to this one are those the row's state includes, and a
     * stream opened after it sends exactly what changed since (docs/api.md,
     * "Live events").  The index events_game makes it one lookup. */
    COMPUTED(last_event, COLUMN_INT64, "(SELECT COALESCE(MAX(id), 0) FROM events WHERE game_id = g.id)"),
    /* Rated or casual is chosen when the game is made; the end of the
     * game marks it counted with a statement of its own (store_ratings.c),
     * so that no write of the row's other columns can undo that. */
    STORED(rated, COLUMN_INT, INSERT),
};

/* ---- The statements ------------------------------------------------------ */

enum { SQL_SIZE = 4096, SELECT_TAILS = 12 };

static pthread_once_t made_once = PTHREAD_ONCE_INIT;
static char select_list[SQL_SIZE], insert_sql[SQL_SIZE], update_sql[SQL_SIZE];

/* Appends to a statement being made (each is far shorter than SQL_SIZE). */
static void add(char *sql, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(char *sql, const char *format, ...)
{
    size_t n = strlen(sql);
    va_list ap;
    va_start(ap, format);
    vsnprintf(sql + n, SQL_SIZE - n, format, ap);
    va_end(ap);
}

static void make_statements(void)
{
    char values[SQL_SIZE] = "";
    int inserted = 0, updated = 0;
    strcpy(insert_sql, "INSERT INTO games(");
    strcpy(update_sql, "UPDATE games SET ");
    for (int i = 0; i < GAME_ROW_COLUMNS; i++) {
        const GameColumn *c = &COLUMNS[i];
        if (c->name) add(select_list, "%sg.%s", i ? ", " : "", c->name);
        else add(select_list, "%s%s", i ? ", " : "", c->computed);
        if (c->writes & GAME_INSERT) {
            add(insert_sql, "%s, ", c->name);
            add(values, "$%d, ", ++inserted);
        }
        if (c->writes & GAME_UPDATE) add(update_sql, "%s = $%d, ", c->name, ++updated);
    }
    add(insert_sql, "created) VALUES (%s$%d)", values, inserted + 1);
    add(update_sql, "version = version + 1 WHERE id = $%d AND version = $%d RETURNING version", updated + 1,
        updated + 2);
}

const char *game_insert_sql(void)
{
    pthread_once(&made_once, make_statements);
    return insert_sql;
}

const char *game_update_sql(void)
{
    pthread_once(&made_once, make_statements);
    return update_sql;
}

const char *game_select_sql(const char *tail)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *tails[SELECT_TAILS];
    static char made[SELECT_TAILS][SQL_SIZE];
    pthread_once(&made_once, make_statements);
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < SELECT_TAILS && tails[i] && tails[i] != tail) i++;
    if (i < SELECT_TAILS && !tails[i]) {
        add(made[i], "SELECT %s", select_list);
        add(made[i], "%s", tail);
        tails[i] = tail;
    }
    pthread_mutex_unlock(&lock);
    return i < SELECT_TAILS ? made[i] : NULL;
}

/* ---- Binding and reading ------------------------------------------------- */

int game_row_values(const GameRow *g, GameWrite what, DbValue out[GAME_ROW_COLUMNS])
{
    int n = 0;
    for (int i = 0; i < GAME_ROW_COLUMNS; i++) {
        const GameColumn *c = &COLUMNS[i];
        if (!(c->writes & what)) continue;
        const char *field = (const char *)g + c->offset;
        switch (c->type) {
        case COLUMN_TEXT: out[n++] = DB_S(*(char *const *)field); break;
        case COLUMN_INT64: out[n++] = DB_I(*(const int64_t *)field); break;
        case COLUMN_INT: out[n++] = DB_I(*(const int *)field); break;
        case COLUMN_BOOL: out[n++] = DB_I(*(const bool *)field); break;
        }
    }
    return n;
}

void game_row_read(const DbRows *r, int row, GameRow *g)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < GAME_ROW_COLUMNS; i++) {
        const GameColumn *c = &COLUMNS[i];
        char *field = (char *)g + c->offset;
        const char *text = db_text(r, row, i);
        switch (c->type) {
        case COLUMN_TEXT: *(char **)field = text ? strdup(text) : NULL; break;
        case COLUMN_INT64: *(int64_t *)field = db_int(r, row, i); break;
        case COLUMN_INT: *(int *)field = (int)db_int(r, row, i); break;
        case COLUMN_BOOL: *(bool *)field = db_int(r, row, i) != 0; break;
        }
    }
}

void store_game_free(GameRow *g)
{
    for (int i = 0; i < GAME_ROW_COLUMNS; i++)
        if (COLUMNS[i].type == COLUMN_TEXT) free(*(char **)((char *)g + COLUMNS[i].offset));
    memset(g, 0, sizeof *g);
}
