/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The database's schema, as the list of migrations that build it:
 * STORE_MIGRATIONS[i] takes a database from version i to i + 1, written
 * for each dialect (SQLite, PostgreSQL) where they differ.  store_open runs
 * the ones a database has not had yet, so a migration, once released, never
 * changes: a new table or column is a new entry at the end.
 */
#include "db.h"
#include "store_schema.h"

const DbMigration STORE_MIGRATIONS[] = {
    /* 0 -> 1: accounts, sessions, games, actions, events, kibitz. */
    { .sqlite = "CREATE TABLE users ("
                "  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
                "  hash TEXT NOT NULL, created INTEGER NOT NULL);"
                "CREATE TABLE sessions ("
                "  token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),"
                "  expires INTEGER NOT NULL);"
                "CREATE TABLE games ("
                "  id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT, fen TEXT,"
                "  white INTEGER NOT NULL, black INTEGER NOT NULL, creator INTEGER NOT NULL,"
                "  invited INTEGER NOT NULL, invite_token TEXT UNIQUE,"
                "  base_ms INTEGER NOT NULL, inc_ms INTEGER NOT NULL, days_per_move INTEGER NOT NULL,"
                "  engine_level INTEGER NOT NULL, white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,"
                "  last_action_at INTEGER NOT NULL, status TEXT NOT NULL, result TEXT, reason TEXT,"
                "  draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL, kibitz INTEGER NOT NULL,"
                "  to_move INTEGER NOT NULL, declared TEXT, created INTEGER NOT NULL);"
                "CREATE TABLE actions ("
                "  game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                "  coord TEXT NOT NULL, human TEXT NOT NULL, at INTEGER NOT NULL,"
                "  PRIMARY KEY (game_id, ply));"
                "CREATE TABLE events ("
                "  id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL REFERENCES games(id),"
                "  type TEXT NOT NULL, ply INTEGER NOT NULL, data TEXT NOT NULL);"
                "CREATE INDEX events_game ON events(game_id, id);"
                "CREATE TABLE kibitz ("
                "  id INTEGER PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id),"
                "  user_id INTEGER NOT NULL REFERENCES users(id), text TEXT NOT NULL, at INTEGER NOT NULL);"
                "CREATE INDEX kibitz_game ON kibitz(game_id, id);",
      /* The same for PostgreSQL: 64-bit integers for times in milliseconds,
       * sequences for the ids, and names unique whatever their case. */
      .postgres = "CREATE TABLE users ("
                  "  id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, created BIGINT NOT NULL);"
                  "CREATE UNIQUE INDEX users_name ON users (lower(name));"
                  "CREATE TABLE sessions ("
                  "  token_hash TEXT PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users(id),"
                  "  expires BIGINT NOT NULL);"
                  "CREATE TABLE games ("
                  "  id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT, fen TEXT,"
                  "  white BIGINT NOT NULL, black BIGINT NOT NULL, creator BIGINT NOT NULL,"
                  "  invited BIGINT NOT NULL, invite_token TEXT UNIQUE,"
                  "  base_ms BIGINT NOT NULL, inc_ms BIGINT NOT NULL, days_per_move INTEGER NOT NULL,"
                  "  engine_level INTEGER NOT NULL, white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL,"
                  "  last_action_at BIGINT NOT NULL, status TEXT NOT NULL, result TEXT, reason TEXT,"
                  "  draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL, kibitz INTEGER NOT NULL,"
                  "  to_move INTEGER NOT NULL, declared TEXT, created BIGINT NOT NULL);"
                  "CREATE TABLE actions ("
                  "  game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                  "  coord TEXT NOT NULL, human TEXT NOT NULL, at BIGINT NOT NULL,"
                  "  PRIMARY KEY (game_id, ply));"
                  "CREATE TABLE events ("
                  "  id BIGSERIAL PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id),"
                  "  type TEXT NOT NULL, ply INTEGER NOT NULL, data TEXT NOT NULL);"
                  "CREATE INDEX events_game ON events(game_id, id);"
                  "CREATE TABLE kibitz ("
                  "  id BIGSERIAL PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id),"
                  "  user_id BIGINT NOT NULL REFERENCES users(id), text TEXT NOT NULL, at BIGINT NOT NULL);"
                  "CREATE INDEX kibitz_game ON kibitz(game_id, id);" },
    /* 1 -> 2 (issue 12): the games' versions (see above); indexes for the
     * kibitz rate limit, a player's games, and names looked up whatever
     * their case. */
    { .sqlite = "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;"
                "CREATE INDEX kibitz_user ON kibitz(user_id, at);"
                "CREATE INDEX games_white ON games(white);"
                "CREATE INDEX games_black ON games(black);"
                "CREATE INDEX users_lower_name ON users(lower(name));",
      .postgres = "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;"
                  "CREATE INDEX kibitz_user ON kibitz(user_id, at);"
                  "CREATE INDEX games_white ON games(white);"
                  "CREATE INDEX games_black ON games(black);" },
    /* 2 -> 3 (issue 24): personal API tokens, kept as hashes like sessions;
     * each player's block list; challenges looked up by the player they
     * name. */
    { .sqlite = "CREATE TABLE api_tokens ("
                "  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),"
                "  token_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL, created INTEGER NOT NULL,"
                "  last_used INTEGER);"
                "CREATE INDEX api_tokens_user ON api_tokens(user_id);"
                "CREATE TABLE blocks ("
                "  user_id INTEGER NOT NULL REFERENCES users(id), blocked_id INTEGER NOT NULL REFERENCES users(id),"
                "  PRIMARY KEY (user_id, blocked_id));"
                "CREATE INDEX games_invited ON games(invited);",
      .postgres = "CREATE TABLE api_tokens ("
                  "  id BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users(id),"
                  "  token_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL, created BIGINT NOT NULL,"
                  "  last_used BIGINT);"
                  "CREATE INDEX api_tokens_user ON api_tokens(user_id);"
                  "CREATE TABLE blocks ("
                  "  user_id BIGINT NOT NULL REFERENCES users(id), blocked_id BIGINT NOT NULL REFERENCES users(id),"
                  "  PRIMARY KEY (user_id, blocked_id));"
                  "CREATE INDEX games_invited ON games(invited);" },
    /* (issue 29, players) a deleted account: its row stays, so that its
     * games keep their players and its name is never registered again,
     * but it logs in no more and is shown as "deleted".  Indexes for a
     * player's games newest first (their page, the PGN export). */
    { .sqlite = "ALTER TABLE users ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;"
                "CREATE INDEX games_white_created ON games(white, created, id);"
                "CREATE INDEX games_black_created ON games(black, created, id);",
      .postgres = "ALTER TABLE users ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;"
                  "CREATE INDEX games_white_created ON games(white, created, id);"
                  "CREATE INDEX games_black_created ON games(black, created, id);" },
    /* (issue 29) Ratings: each game rated or casual from its creation
     * (0 casual, 1 rated, 2 rated and counted: the end of a game counts
     * it once, store_ratings.c); a player's Glicko-2 rating per variant
     * and speed ("live", "correspondence"), best first for the
     * leaderboards; and each rating after each game, for the charts. */
    { .sqlite = "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                "CREATE TABLE ratings ("
                "  user_id INTEGER NOT NULL REFERENCES users(id), variant TEXT NOT NULL, speed TEXT NOT NULL,"
                "  rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
                "  updated INTEGER NOT NULL, PRIMARY KEY (user_id, variant, speed));"
                "CREATE INDEX ratings_board ON ratings(variant, speed, rating);"
                "CREATE TABLE rating_history ("
                "  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), variant TEXT NOT NULL,"
                "  speed TEXT NOT NULL, game_id TEXT NOT NULL REFERENCES games(id), rating REAL NOT NULL,"
                "  rd REAL NOT NULL, at INTEGER NOT NULL, UNIQUE (user_id, game_id));"
                "CREATE INDEX rating_history_user ON rating_history(user_id, variant, speed, id);",
      .postgres = "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                  "CREATE TABLE ratings ("
                  "  user_id BIGINT NOT NULL REFERENCES users(id), variant TEXT NOT NULL, speed TEXT NOT NULL,"
                  "  rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
                  "  volatility DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,"
                  "  updated BIGINT NOT NULL, PRIMARY KEY (user_id, variant, speed));"
                  "CREATE INDEX ratings_board ON ratings(variant, speed, rating);"
                  "CREATE TABLE rating_history ("
                  "  id BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users(id), variant TEXT NOT NULL,"
                  "  speed TEXT NOT NULL, game_id TEXT NOT NULL REFERENCES games(id),"
                  "  rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL,"
                  "  UNIQUE (user_id, game_id));"
                  "CREATE INDEX rating_history_user ON rating_history(user_id, variant, speed, id);" },
    /* Tournaments (issue 29): arenas and round-robins, each player's entry
     * with their score, fire streak and sheet (a letter a game: W, D, L),
     * and the games' tournament. */
    { .sqlite = "CREATE TABLE tournaments ("
                "  id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,"
                "  creator INTEGER NOT NULL REFERENCES users(id), variant TEXT NOT NULL, options TEXT,"
                "  base_ms INTEGER NOT NULL, inc_ms INTEGER NOT NULL, days_per_move INTEGER NOT NULL,"
                "  starts_at INTEGER NOT NULL, minutes INTEGER NOT NULL, ends_at INTEGER NOT NULL,"
                "  status TEXT NOT NULL, created INTEGER NOT NULL);"
                "CREATE INDEX tournaments_status ON tournaments(status, starts_at);"
                "CREATE INDEX tournaments_creator ON tournaments(creator, status);"
                "CREATE TABLE tournament_entries ("
                "  tournament INTEGER NOT NULL REFERENCES tournaments(id),"
                "  user_id INTEGER NOT NULL REFERENCES users(id), status TEXT NOT NULL,"
                "  score INTEGER NOT NULL DEFAULT 0, streak INTEGER NOT NULL DEFAULT 0,"
                "  sheet TEXT NOT NULL DEFAULT '', joined INTEGER NOT NULL,"
                "  PRIMARY KEY (tournament, user_id));"
                "ALTER TABLE games ADD COLUMN tournament INTEGER;"
                "CREATE INDEX games_tournament ON games(tournament);",
      .postgres = "CREATE TABLE tournaments ("
                  "  id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,"
                  "  creator BIGINT NOT NULL REFERENCES users(id), variant TEXT NOT NULL, options TEXT,"
                  "  base_ms BIGINT NOT NULL, inc_ms BIGINT NOT NULL, days_per_move INTEGER NOT NULL,"
                  "  starts_at BIGINT NOT NULL, minutes INTEGER NOT NULL, ends_at BIGINT NOT NULL,"
                  "  status TEXT NOT NULL, created BIGINT NOT NULL);"
                  "CREATE INDEX tournaments_status ON tournaments(status, starts_at);"
                  "CREATE INDEX tournaments_creator ON tournaments(creator, status);"
                  "CREATE TABLE tournament_entries ("
                  "  tournament BIGINT NOT NULL REFERENCES tournaments(id),"
                  "  user_id BIGINT NOT NULL REFERENCES users(id), status TEXT NOT NULL,"
                  "  score INTEGER NOT NULL DEFAULT 0, streak INTEGER NOT NULL DEFAULT 0,"
                  "  sheet TEXT NOT NULL DEFAULT '', joined BIGINT NOT NULL,"
                  "  PRIMARY KEY (tournament, user_id));"
                  "ALTER TABLE games ADD COLUMN tournament BIGINT;"
                  "CREATE INDEX games_tournament ON games(tournament);" },
    /* (issue 29, correspondence reminders) Each player's e-mail address,
     * confirmed by a link whose token is kept as its hash, and what they
     * want mailed; the mails to send, one row each under a unique key
     * (kind, game, ply, player), so that two servers enqueue a mail once,
     * claimed by one sender at a time (mail.c). */
    { .sqlite = "CREATE TABLE emails ("
                "  user_id INTEGER PRIMARY KEY REFERENCES users(id), address TEXT NOT NULL,"
                "  confirmed INTEGER NOT NULL, token_hash TEXT UNIQUE, token_expires INTEGER NOT NULL,"
                "  moved INTEGER NOT NULL, reminder INTEGER NOT NULL);"
                "CREATE TABLE mail_queue ("
                "  id INTEGER PRIMARY KEY, ukey TEXT NOT NULL UNIQUE, user_id INTEGER NOT NULL,"
                "  address TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,"
                "  claimed_at INTEGER NOT NULL, attempts INTEGER NOT NULL, created INTEGER NOT NULL,"
                "  sent_at INTEGER NOT NULL);"
                "CREATE INDEX mail_queue_status ON mail_queue(status, id);",
      .postgres = "CREATE TABLE emails ("
                  "  user_id BIGINT PRIMARY KEY REFERENCES users(id), address TEXT NOT NULL,"
                  "  confirmed INTEGER NOT NULL, token_hash TEXT UNIQUE, token_expires BIGINT NOT NULL,"
                  "  moved INTEGER NOT NULL, reminder INTEGER NOT NULL);"
                  "CREATE TABLE mail_queue ("
                  "  id BIGSERIAL PRIMARY KEY, ukey TEXT NOT NULL UNIQUE, user_id BIGINT NOT NULL,"
                  "  address TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,"
                  "  claimed_at BIGINT NOT NULL, attempts INTEGER NOT NULL, created BIGINT NOT NULL,"
                  "  sent_at BIGINT NOT NULL);"
                  "CREATE INDEX mail_queue_status ON mail_queue(status, id);" },
};
const int STORE_SCHEMA_VERSION = sizeof STORE_MIGRATIONS / sizeof STORE_MIGRATIONS[0];
