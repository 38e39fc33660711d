/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQL of players' pages, the archive and account deletion
 * (store_users.c; docs/api.md, "Players and the archive").  Like store.c's
 * functions, each takes one of the pool's connections for itself and
 * gives it back before it returns: the PGN export reads a page of games,
 * lets the connection go, and only then writes to a reader who may be slow.
 */
#ifndef TTCHESS_SERVER_STORE_USERS_H
#define TTCHESS_SERVER_STORE_USERS_H

#include "server.h"

/* A player as their page shows them; `name` is as registered (its case). */
typedef struct Player {
    int64_t id;
    char name[SERVER_MAX_NAME + 1];
    int64_t created;            /* ms since the epoch                        */
} Player;

/* Which of a player's games a listing gives, newest first (by creation,
 * then id).  Empty strings and zeros mean "any". */
/* Which games of a listing: a filter left out (zero) lets all through. */
typedef enum GameRatedFilter { GAMES_RATED_OR_CASUAL, GAMES_RATED, GAMES_CASUAL } GameRatedFilter;

typedef struct GameFilter {
    const char *status;         /* "over" (finished) or "active"             */
    const char *variant;        /* a variant's name, or ""                   */
    const char *result;         /* "won", "drawn", "lost" (the player's), or "" */
    int64_t opponent;           /* the other player's id, or 0               */
    int64_t until;              /* games created before this ms, or 0 ...    */
    const char *after_id;       /* ... or at it with a smaller id ("": none) */
    int max;                    /* at most this many                         */
    GameRatedFilter rated;      /* rated games, casual ones, or both         */
} GameFilter;

/* The player of that name (any case); *found false when there is none or
 * the account is deleted.  False only when the database cannot say. */
bool store_player(Store *s, const char *name, Player *out, bool *found);
/* A game of a listing: its row and when it was created. */
typedef struct PlayerGame {
    GameRow row;
    int64_t created;            /* ms since the epoch                        */
} PlayerGame;

/* The player's games that pass the filter (store_player_games_free). */
bool store_player_games(Store *s, int64_t user, const GameFilter *f, PlayerGame **games, int *count);
void store_player_games_free(PlayerGame *games, int count);
/* {"<variant>": {"played", "won", "drawn", "lost"}} of finished games. */
bool store_player_stats(Store *s, int64_t user, json_t *out);
/* Inside a transaction: the account can log in no more (no hash, no
 * sessions, no API tokens, no block list), its open challenges and seeks
 * are withdrawn, and its name shows as "deleted"; its games stay. */
bool store_account_delete(Store *s, int64_t user);

#endif
