/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The database's versioned schema (store_schema.c).
 */
#ifndef TTCHESS_STORE_SCHEMA_H
#define TTCHESS_STORE_SCHEMA_H

#include "db.h"

extern const DbMigration STORE_MIGRATIONS[];
/* How many migrations there are: the version of a database they built. */
extern const int STORE_SCHEMA_VERSION;

#endif
