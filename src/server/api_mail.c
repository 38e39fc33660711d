/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The handlers of a player's e-mail address and mails (docs/api.md,
 * "E-mail"): the address given and confirmed by a link sent to it, the
 * choice of mails, and the count of games waiting for the player's move
 * (the pages' header).  The address is the owner's alone: only these
 * handlers read it, for the player logged in.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAIL_CONFIRMATIONS = 5,              /* confirmation mails a player may ask for ... */
    MAIL_CONFIRMATION_WINDOW_MS = 3600 * 1000, /* ... within this time              */
    MAIL_TOKEN_MS = 24 * 3600 * 1000,    /* a confirmation link's life            */
};

static const char MAIL_OFF[] = "this server sends no mail (it was started without --smtp)";

/* True when a player is logged in; else 401. */
static bool logged_in(const ApiRequest *req, ApiReply *r)
{
    if (!req->user) reply_error(r, 401, "log in first");
    return req->user != 0;
}

void api_email(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!logged_in(req, r)) return;
    if (!mail_enabled()) {
        reply_json(r, 200, json_pack("{s:b, s:s}", "enabled", 0, "why", MAIL_OFF));
        return;
    }
    EmailRow e;
    if (!store_email_get(s, req->user, &e)) {
        reply_error(r, 503, "the database cannot be read now");
        return;
    }
    reply_json(r, 200,
               json_pack("{s:b, s:s?, s:b, s:b, s:b}", "enabled", 1, "email", e.address, "confirmed", e.confirmed,
                         "moved", e.address ? e.moved : 1, "reminder", e.address ? e.reminder : 1));
    email_row_free(&e);
}

/* The new address, its token and its confirmation mail, in one
 * transaction under the player's lock: the count of confirmations asked
 * for within the hour and the one added are atomic against the player's
 * other requests, so that 50 at once send 5 mails, not 50. */
static void email_set(Store *s, const ApiRequest *req, const char *address, ApiReply *r)
{
    char token[2 * SERVER_TOKEN_BYTES + 1], hash[65], prefix[48];
    auth_new_token(token);
    auth_token_hash(token, hash);
    snprintf(prefix, sizeof prefix, "confirm:%lld:", (long long)req->user);
    int64_t now = server_now_ms();
    if (!store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    if (!store_lock_user(s, req->user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    if (!under_limit(store_mail_count_since(s, prefix, now - MAIL_CONFIRMATION_WINDOW_MS), MAIL_CONFIRMATIONS,
                     "%d confirmation mails an hour at most: look for the last one in your mailbox", r)) {
        store_rollback(s);
        return;
    }
    if (!store_email_set(s, req->user, address, hash, now + MAIL_TOKEN_MS) ||
        !mail_confirmation(s, req->user, req->user_name, address, token, req->site) || !store_commit(s)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    mail_wake();
    reply_json(r, 202, json_pack("{s:s, s:b}", "email", address, "confirmed", 0));
}

void api_email_set(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!logged_in(req, r)) return;
    if (!mail_enabled()) {
        reply_error(r, 409, MAIL_OFF);
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *address = member_string(body, "email");
    if (!address || !mail_address_valid(address))
        reply_error(r, 400, "give {\"email\": an address such as name@example.org, at most 254 bytes}");
    else
        email_set(s, req, address, r);
    json_decref(body);
}

/* The link of the confirmation mail: GET (a click in the mail, answered
 * with a short page) or POST (a page or a program, answered in JSON). */
void api_email_confirm(Store *s, const ApiRequest *req, bool page, ApiReply *r)
{
    const char *token = req->query ? req->query(req->query_ctx, "token") : NULL;
    char hash[65];
    bool done = false;
    if (!token || strlen(token) != 2 * SERVER_TOKEN_BYTES) {
        reply_error(r, 400, "the link has no token, or a mistyped one: copy the whole link of the mail");
        return;
    }
    auth_token_hash(token, hash);
    if (!store_email_confirm(s, hash, server_now_ms(), &done)) {
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    if (!done) {
        reply_error(r, 404, "this link is not valid: used already, expired (24 hours), or replaced by a newer one");
    } else if (page) {
        reply_text(r, 200, "text/html; charset=utf-8",
                   strdup("<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Address confirmed - "
                          "ttchess</title><main><h1>Your e-mail address is confirmed</h1><p><a href=\"/account\">"
                          "Your account</a> says which mails you get.</p></main></html>\n"));
    } else {
        reply_json(r, 200, json_pack("{s:b}", "confirmed", 1));
    }
}

void api_notify_set(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!logged_in(req, r)) return;
    if (!mail_enabled()) {
        reply_error(r, 409, MAIL_OFF);
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    json_t *moved = json_object_get(body, "moved"), *reminder = json_object_get(body, "reminder");
    bool found = false;
    if (!json_is_boolean(moved) || !json_is_boolean(reminder))
        reply_error(r, 400, "give {\"moved\": true or false, \"reminder\": true or false}");
    else if (!store_email_notify(s, req->user, json_is_true(moved), json_is_true(reminder), &found))
        reply_error(r, 503, "the database cannot be written now");
    else if (!found)
        reply_error(r, 409, "give an e-mail address first (PUT /api/account/email)");
    else
        reply_json(r, 200, json_pack("{s:O, s:O}", "moved", moved, "reminder", reminder));
    json_decref(body);
}

void api_your_move(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!logged_in(req, r)) return;
    int64_t n = store_your_move_count(s, req->user);
    if (n < 0) reply_error(r, 503, "the database cannot be read now");
    else reply_json(r, 200, json_pack("{s:I}", "count", (json_int_t)n));
}
