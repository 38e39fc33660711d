/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The handlers of a player's account (docs/api.md): registration, login
 * and logout with their session cookie, personal API tokens, and the
 * block list.
 */
#include "api_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A name: 1..SERVER_MAX_NAME letters, digits, '_' or '-' (so that it is
 * safe in a URL and cannot impersonate another name by look-alikes). */
static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SERVER_MAX_NAME) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-') return false;
    return true;
}

/* ---- Accounts ------------------------------------------------------------- */

/* The session cookie; Secure when the server is reached over https (its
 * --origin), so that the browser never sends it in clear. */
static char *session_cookie(const ApiRequest *req, const char *token, int max_age)
{
    char *c = malloc(200);
    if (c)
        snprintf(c, 200, "ttchess_session=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d%s", token ? token : "",
                 max_age, req->secure ? "; Secure" : "");
    return c;
}

/* Opens a session for the user and sets its cookie. */
static bool open_session(Store *s, const ApiRequest *req, int64_t user, ApiReply *r)
{
    char token[2 * SERVER_TOKEN_BYTES + 1], hash[65];
    auth_new_token(token);
    auth_token_hash(token, hash);
    if (!store_session_add(s, hash, user, server_now_ms() + SERVER_SESSION_DAYS * 86400000LL)) return false;
    r->set_cookie = session_cookie(req, token, SERVER_SESSION_DAYS * 86400);
    return r->set_cookie != NULL;
}

/* The length of a password as a person counts it: in characters (Unicode
 * code points), not bytes.  The text is valid UTF-8 (jansson checks it),
 * so the characters are the bytes that do not continue one. */
static size_t characters(const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

static const char HASH_BUSY[] = "the server is checking many passwords right now: try again in a few seconds";

void api_register(Store *s, const ApiRequest *req, ApiReply *r)
{
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    if (!name || !password) {
        reply_error(r, 400, "give a name and a password");
    } else if (!valid_name(name)) {
        reply_error(r, 400, "a name is 1 to 32 letters, digits, '_' or '-'");
    } else if (characters(password) < SERVER_MIN_PASSWORD || characters(password) > SERVER_MAX_PASSWORD) {
        reply_error(r, 400, "a password is 8 to 256 characters");
    } else {
        char hash[128];
        int64_t id;
        bool taken;
        AuthStatus hashed;
        /* A taken name is refused before the costly hash (and the insert
         * below refuses it again if two registrations race for it). */
        /* "deleted" is what a deleted account's name shows as (api_users.c):
         * nobody may take it. */
        if (store_user_id(s, name, &id) || !strcasecmp(name, "deleted")) {
            reply_error(r, 409, "that name is taken");
        } else if (!auth_register_allowed(req->client, server_now_ms())) {
            char why[160];
            snprintf(why, sizeof why, "at most %d new accounts an hour from one address: try again later",
                     auth_register_limit());
            reply_error(r, 429, why);
        } else if ((hashed = auth_hash_password(password, hash)) != AUTH_OK) {
            reply_error(r, hashed == AUTH_BUSY ? 503 : 500, hashed == AUTH_BUSY ? HASH_BUSY : "out of memory");
        } else if (!store_begin(s)) {
            reply_error(r, 503, "the database cannot be written now");
        } else if (!store_user_add(s, name, hash, &id, &taken)) {
            store_rollback(s);
            reply_error(r, taken ? 409 : 503, taken ? "that name is taken" : "the database cannot be written now");
        } else if (!open_session(s, req, id, r) || !store_commit(s)) {
            store_rollback(s);
            reply_error(r, 503, "the database cannot be written now");
        } else {
            reply_json(r, 201, json_pack("{s:s}", "name", name));
        }
    }
    json_decref(body);
}

/* A login: the name's attempt is taken before the password is checked
 * (auth.c), so that parallel requests cannot check more passwords than
 * the limit; a name that does not exist is checked against a decoy at the
 * same cost and never counted (no password can be guessed for it). */
void api_login(Store *s, const ApiRequest *req, ApiReply *r)
{
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    int64_t now = server_now_ms(), id = 0;
    char *hash = NULL;
    if (!name || !password) {
        reply_error(r, 400, "give a name and a password");
    } else if (!store_user_hash(s, name, &id, &hash)) {
        reply_error(r, 503, "the database cannot be read now");
    } else if (hash && !auth_login_begin(name, now)) {
        reply_error(r, 429, "too many failed logins for this name: wait a minute and try again");
    } else {
        AuthStatus checked = auth_check_password(hash, password);
        if (hash) auth_login_end(name, checked, now);
        if (checked == AUTH_BUSY) {
            reply_error(r, 503, HASH_BUSY);
        } else if (checked != AUTH_OK) {
            reply_error(r, 401, "wrong name or password");
        } else if (!store_begin(s) || !open_session(s, req, id, r) || !store_commit(s)) {
            store_rollback(s);
            reply_error(r, 503, "the database cannot be written now");
        } else {
            reply_json(r, 200, json_pack("{s:s}", "name", name));
        }
    }
    free(hash);
    json_decref(body);
}

void api_logout(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (req->session_token) {
        char hash[65];
        auth_token_hash(req->session_token, hash);
        store_session_remove(s, hash);
    }
    r->set_cookie = session_cookie(req, NULL, 0);
    reply_json(r, 200, json_pack("{s:b}", "ok", 1));
}

/* ---- Personal API tokens and the block list ----------------------------------- */

/* Tokens are how scripts and bots use the API (docs/api.md, "Tokens"): a
 * token is shown once, when made, and kept only as its hash.  A token is
 * made from a browser session, never by another token, so that a leaked
 * token cannot mint more. */
void api_token_create(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to make an API token");
    if (req->by_token) return reply_error(r, 403, "API tokens are made from your account page, not with another token");
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *label = member_string(body, "label");
    if (!label || !*label || characters(label) > SERVER_MAX_NAME) {
        reply_error(r, 400, "give the token a label of 1 to 32 characters (what it is for)");
        json_decref(body);
        return;
    }
    char token[2 * SERVER_TOKEN_BYTES + 1], hash[65];
    auth_new_token(token);
    auth_token_hash(token, hash);
    int64_t id;
    if (!store_begin(s) || !store_lock_user(s, req->user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else if (!under_limit(store_tokens_count(s, req->user), SERVER_MAX_TOKENS,
                            "you hold %d API tokens, the most a player may: revoke one first", r)) {
        store_rollback(s);
    } else if (!store_token_add(s, req->user, hash, label, &id) || !store_commit(s)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else {
        reply_json(r, 201, json_pack("{s:I, s:s, s:s, s:I}", "id", (json_int_t)id, "label", label, "token", token,
                                     "created", (json_int_t)server_now_ms()));
    }
    json_decref(body);
}

void api_tokens(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to see your API tokens");
    json_t *list = json_array();
    if (list && store_tokens_of(s, req->user, list)) reply_json(r, 200, json_pack("{s:o}", "tokens", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
}

void api_token_revoke(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to revoke an API token");
    char *end;
    long long n = strtoll(id, &end, 10);
    bool found = false;
    if (*end || n <= 0) reply_error(r, 404, "no such API token");
    else if (!store_token_remove(s, req->user, n, &found)) reply_error(r, 503, "the database cannot be written now");
    else if (!found) reply_error(r, 404, "no such API token");
    else reply_json(r, 200, json_pack("{s:b}", "revoked", 1));
}

void api_blocks(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to see whom you block");
    json_t *list = json_array();
    if (list && store_blocks_of(s, req->user, list)) reply_json(r, 200, json_pack("{s:o}", "blocked", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
}

/* Blocking a player refuses their challenges from then on; games already
 * accepted go on. */
void api_block(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to block a player");
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name");
    int64_t them;
    if (!name || !store_user_id(s, name, &them)) reply_error(r, 404, "no player of that name");
    else if (them == req->user) reply_error(r, 400, "you cannot block yourself");
    else if (!store_block_add(s, req->user, them)) reply_error(r, 503, "the database cannot be written now");
    else reply_json(r, 201, json_pack("{s:s}", "blocked", name));
    json_decref(body);
}

void api_unblock(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to unblock a player");
    int64_t them;
    bool found = false;
    if (!store_user_id(s, name, &them)) reply_error(r, 404, "no player of that name");
    else if (!store_block_remove(s, req->user, them, &found)) reply_error(r, 503, "the database cannot be written now");
    else if (!found) reply_error(r, 404, "you do not block this player");
    else reply_json(r, 200, json_pack("{s:s}", "unblocked", name));
}
