/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the storage drivers share: the rows a statement returns, and the
 * choice of a driver from the --db argument (db.h).
 */
#include "db.h"

#include <stdlib.h>
#include <string.h>

const char *db_text(const DbRows *r, int row, int col)
{
    if (!r || row < 0 || row >= r->rows || col < 0 || col >= r->cols) return NULL;
    return r->cell[row * r->cols + col];
}

int64_t db_int(const DbRows *r, int row, int col)
{
    const char *t = db_text(r, row, col);
    return t ? strtoll(t, NULL, 10) : 0;
}

void db_rows_free(DbRows *r)
{
    if (!r) return;
    for (int i = 0; i < r->rows * r->cols; i++) free(r->cell[i]);
    free(r->cell);
    memset(r, 0, sizeof *r);
}

bool db_rows_add(DbRows *r, int cols, const char *const *values)
{
    if (r->rows && r->cols != cols) return false;
    char **grown = realloc(r->cell, (size_t)(r->rows + 1) * (size_t)cols * sizeof *grown);
    if (!grown) return false;
    r->cell = grown;
    char **row = grown + (size_t)r->rows * (size_t)cols;
    for (int c = 0; c < cols; c++) {
        row[c] = values[c] ? strdup(values[c]) : NULL;
        if (values[c] && !row[c]) {
            while (c--) free(row[c]);
            return false;
        }
    }
    r->cols = cols;
    r->rows++;
    return true;
}

const DbDriver *db_driver_for(const char *target)
{
    if (DB_POSTGRES.accepts(target)) return &DB_POSTGRES;
    return &DB_SQLITE;
}
