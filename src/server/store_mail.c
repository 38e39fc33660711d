/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The database's side of the correspondence mails (mail.c): each
 * player's e-mail address and what they want mailed, and the queue of
 * mails to send.  The address is read by these functions alone, for its
 * owner and for the queue: no other query of the server names the table
 * `emails`, so that no page or API shows it to anyone else.
 *
 * A mail is a row of mail_queue under a unique key (kind, game, ply,
 * player): enqueued with ON CONFLICT DO NOTHING, so that two servers (or
 * an action retried) make one row.  A sender claims a row (status
 * 'claimed', claimed_at now) in one statement, sends it, and marks it
 * 'sent'; a claim older than the lease is a sender that died, and the row
 * may be claimed again.
 */
#include "server.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store_rows.h"

static char *copy_cell(const DbRows *r, int row, int col)
{
    const char *v = db_text(r, row, col);
    return v ? strdup(v) : NULL;
}

bool store_email_set(Store *s, int64_t user, const char *address, const char *token_hash, int64_t expires)
{
    /* A new address is unconfirmed until its link is followed; the
     * player's choices of mails stay as they were. */
    return STORE_RUN(s,
                     "INSERT INTO emails(user_id, address, confirmed, token_hash, token_expires, moved, reminder) "
                     "VALUES ($1, $2, 0, $3, $4, 1, 1) ON CONFLICT (user_id) DO UPDATE SET address = $2, "
                     "confirmed = 0, token_hash = $3, token_expires = $4",
                     NULL, DB_I(user), DB_S(address), DB_S(token_hash), DB_I(expires)) == DB_OK;
}

bool store_email_get(Store *s, int64_t user, EmailRow *out)
{
    memset(out, 0, sizeof *out);
    DbRows r;
    if (STORE_RUN(s, "SELECT address, confirmed, moved, reminder FROM emails WHERE user_id = $1", &r, DB_I(user)))
        return false;
    if (r.rows) {
        out->address = copy_cell(&r, 0, 0);
        out->confirmed = db_int(&r, 0, 1) != 0;
        out->moved = db_int(&r, 0, 2) != 0;
        out->reminder = db_int(&r, 0, 3) != 0;
    }
    db_rows_free(&r);
    return true;
}

bool store_email_confirm(Store *s, const char *token_hash, int64_t now, bool *done)
{
    DbRows r;
    *done = false;
    if (STORE_RUN(s,
                  "UPDATE emails SET confirmed = 1, token_hash = NULL "
                  "WHERE token_hash = $1 AND token_expires >= $2 RETURNING user_id",
                  &r, DB_S(token_hash), DB_I(now)))
        return false;
    *done = r.rows > 0;
    db_rows_free(&r);
    return true;
}

bool store_email_notify(Store *s, int64_t user, bool moved, bool reminder, bool *found)
{
    DbRows r;
    *found = false;
    if (STORE_RUN(s, "UPDATE emails SET moved = $2, reminder = $3 WHERE user_id = $1 RETURNING user_id", &r,
                  DB_I(user), DB_I(moved), DB_I(reminder)))
        return false;
    *found = r.rows > 0;
    db_rows_free(&r);
    return true;
}

bool store_mail_add(Store *s, const MailRow *m, int64_t now)
{
    return STORE_RUN(s,
                     "INSERT INTO mail_queue(ukey, user_id, address, subject, body, status, claimed_at, attempts, "
                     "created, sent_at) VALUES ($1, $2, $3, $4, $5, 'queued', 0, 0, $6, 0) "
                     "ON CONFLICT (ukey) DO NOTHING",
                     NULL, DB_S(m->ukey), DB_I(m->user), DB_S(m->address), DB_S(m->subject), DB_S(m->body),
                     DB_I(now)) == DB_OK;
}

bool store_mail_add_if(Store *s, const MailRow *m, bool reminder, int64_t now)
{
    /* The address is the player's confirmed one, read in the statement
     * that enqueues: a player without one, or who wants no such mail,
     * gets no row. */
    const char *sql = reminder ? "INSERT INTO mail_queue(ukey, user_id, address, subject, body, status, claimed_at, "
                                 "attempts, created, sent_at) SELECT $1, user_id, address, $3, $4, 'queued', 0, 0, "
                                 "$5, 0 FROM emails WHERE user_id = $2 AND confirmed = 1 AND reminder = 1 "
                                 "ON CONFLICT (ukey) DO NOTHING"
                               : "INSERT INTO mail_queue(ukey, user_id, address, subject, body, status, claimed_at, "
                                 "attempts, created, sent_at) SELECT $1, user_id, address, $3, $4, 'queued', 0, 0, "
                                 "$5, 0 FROM emails WHERE user_id = $2 AND confirmed = 1 AND moved = 1 "
                                 "ON CONFLICT (ukey) DO NOTHING";
    return STORE_RUN(s, sql, NULL, DB_S(m->ukey), DB_I(m->user), DB_S(m->subject), DB_S(m->body), DB_I(now)) ==
           DB_OK;
}

/* SQLite has one writer at a time: the statement is the claim.  On
 * PostgreSQL several servers claim at once, and SKIP LOCKED lets each
 * take a different row instead of waiting on the same one. */
static const char *claim_sql(const Store *s)
{
    if (!strcmp(store_kind(s), "postgresql"))
        return "UPDATE mail_queue SET status = 'claimed', claimed_at = $1, attempts = attempts + 1 WHERE id = ("
               "SELECT id FROM mail_queue WHERE status = 'queued' OR (status = 'claimed' AND claimed_at < $2) "
               "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, ukey, user_id, address, subject, body, "
               "attempts";
    return "UPDATE mail_queue SET status = 'claimed', claimed_at = $1, attempts = attempts + 1 WHERE id = ("
           "SELECT id FROM mail_queue WHERE status = 'queued' OR (status = 'claimed' AND claimed_at < $2) "
           "ORDER BY id LIMIT 1) RETURNING id, ukey, user_id, address, subject, body, attempts";
}

bool store_mail_claim(Store *s, int64_t now, int64_t lease_ms, MailRow *out, bool *found)
{
    memset(out, 0, sizeof *out);
    *found = false;
    DbRows r;
    if (STORE_RUN(s, claim_sql(s), &r, DB_I(now), DB_I(now - lease_ms))) return false;
    if (r.rows) {
        *found = true;
        out->id = db_int(&r, 0, 0);
        out->ukey = copy_cell(&r, 0, 1);
        out->user = db_int(&r, 0, 2);
        out->address = copy_cell(&r, 0, 3);
        out->subject = copy_cell(&r, 0, 4);
        out->body = copy_cell(&r, 0, 5);
        out->attempts = (int)db_int(&r, 0, 6);
    }
    db_rows_free(&r);
    return true;
}

bool store_mail_done(Store *s, int64_t id, const char *status, int64_t now)
{
    /* A sent mail's body is erased: a confirmation's holds its token,
     * which the database otherwise keeps only as a hash. */
    if (!strcmp(status, "sent"))
        return STORE_RUN(s, "UPDATE mail_queue SET status = 'sent', sent_at = $2, body = '' WHERE id = $1", NULL,
                         DB_I(id), DB_I(now)) == DB_OK;
    return STORE_RUN(s, "UPDATE mail_queue SET status = $2 WHERE id = $1", NULL, DB_I(id), DB_S(status)) == DB_OK;
}

int64_t store_mail_count_since(Store *s, const char *ukey_prefix, int64_t since)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT count(*) FROM mail_queue WHERE substr(ukey, 1, length($1)) = $1 AND created >= $2",
                  &r, DB_S(ukey_prefix), DB_I(since)))
        return -1;
    int64_t n = r.rows ? db_int(&r, 0, 0) : -1;
    db_rows_free(&r);
    return n;
}

bool store_reminders_due(Store *s, int64_t now, int64_t day_ms, json_t *out)
{
    /* Correspondence games whose side to move has a third of its time
     * left, or less, and has not yet run out; the time runs from the
     * first action on, as clock_deadline has it. */
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT g.id, g.last_action_at, e.user_id, g.last_action_at + g.days_per_move * CAST($2 AS BIGINT) FROM games g "
                  "JOIN emails e ON e.user_id = CASE g.to_move WHEN 0 THEN g.white ELSE g.black END "
                  "WHERE g.status = 'active' AND g.days_per_move > 0 AND g.last_action_at > 0 "
                  "AND EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id) "
                  "AND e.confirmed = 1 AND e.reminder = 1 "
                  "AND CAST($1 AS BIGINT) * 3 >= g.last_action_at * 3 + g.days_per_move * CAST($2 AS BIGINT) * 2 "
                  "AND CAST($1 AS BIGINT) < g.last_action_at + g.days_per_move * CAST($2 AS BIGINT)",
                  &r, DB_I(now), DB_I(day_ms)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *e = json_pack("{s:s, s:I, s:I, s:I}", "game", db_text(&r, i, 0), "moved_at", (json_int_t)db_int(&r, i, 1),
                              "user", (json_int_t)db_int(&r, i, 2), "deadline", (json_int_t)db_int(&r, i, 3));
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

int64_t store_your_move_count(Store *s, int64_t user)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT count(*) FROM games WHERE status = 'active' "
                  "AND ((to_move = 0 AND white = $1) OR (to_move = 1 AND black = $1))",
                  &r, DB_I(user)))
        return -1;
    int64_t n = r.rows ? db_int(&r, 0, 0) : -1;
    db_rows_free(&r);
    return n;
}

void mail_row_free(MailRow *m)
{
    free(m->ukey);
    free(m->address);
    free(m->subject);
    free(m->body);
    memset(m, 0, sizeof *m);
}

void email_row_free(EmailRow *e)
{
    free(e->address);
    memset(e, 0, sizeof *e);
}
