/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The HTTP API of ttchess serve (docs/api.md), below libmicrohttpd: the
 * input is a few requests, one a line, each handed to api_handle
 * (src/server/api.c, linked into the harness with the rest of
 * src/server/) as http.c would hand it over.
 *
 * A line is
 *
 *     WHO METHOD TARGET<TAB>BODY
 *
 * WHO is one byte, the session the request carries (counted modulo 5):
 * '0' none, '1' alice's, '2' bob's, '3' the last session a reply of this
 * input opened (a register or login), '4' a well-formed token that no
 * session has.  TARGET is the path with an optional query string, split
 * and %-decoded by libmicrohttpd's own rules (fuzz/api_fixture.c: its
 * MHD_http_unescape; query arguments split at '&' and the first '=', a
 * name looked up without regard to case, the first of repeated names
 * taken).  The body (optional, up to
 * the 16 KiB http.c lets through) is the rest of the line.  A line that
 * starts with '#' is a comment.  In TARGET and BODY, "$0" to "$9" stand
 * for the ids of the games set up below (game ids are random, so a seed
 * could not name them otherwise), "$i" for the invitation token of the
 * waiting game $6, "$n" and "$j" for the id and the invitation token of
 * the last game an earlier line of the input created.
 *
 * The database (fuzz/api_fixture.c, shared with fuzz_body, fuzz_query
 * and fuzz_action) is SQLite in memory, set up once through api_handle
 * itself, and put back as it was before each input (sqlite3_backup): alice
 * and bob are registered, and alice has created games against bob in
 * every family of variants, so that action texts in each variant's
 * notation reach the rules through POST .../actions:
 *
 *     $0 chess          $1 gifford       $2 vangog        $3 travelers
 *     $4 chessgi        (alice White, bob Black, 3 days a move, ply 0)
 *     $5 chess, a live clock of 5+2, bob White
 *     $6 chess, waiting: anyone with the invitation $i may join
 *     $7 chess, over: 1. e4 e5, then alice resigned
 *     $8 chess against the engine (level 1; no engine runs here, so it
 *        never answers)
 *     $9 chess from a FEN where White mates at once (Qxf7#)
 *
 * plus one kibitz of bob's on $0.  The failed logins that auth.c counts
 * in memory are forgotten after each input too.
 *
 * After each request: the status is 200..599; the reply has exactly one
 * body, JSON or text (none only for 204); a JSON body is an object, and
 * an error (4xx, 5xx) is JSON with a string "error"; no reply is a 500 or
 * 503 (nothing runs out of memory here, and the database is in memory and
 * ours alone, so either is a bug: a game stored that does not replay, a
 * transaction left open); the handler left no transaction open and the
 * store's lock free; a Set-Cookie is the session cookie; and no reply
 * carries a password hash, alice's or bob's session token, or the
 * invitation of $6, unless the input itself sent it (say in a kibitz:
 * libFuzzer soon learns these strings from the comparisons that look for
 * them; sent means its characters in order, as a refusal may quote an
 * action's text without its annotations and line ends).
 * Password hashing is at libsodium's least cost in this build (auth.c,
 * TTCHESS_FUZZ): at the interactive cost a registration takes 64 MiB and
 * most of a second.
 */
#include "api_fixture.h"

enum {
    MAX_REQUESTS = 24,  /* requests of one input (the rest is ignored) */
    WHO_COUNT = 5,
};

/* ---- Reading the input -------------------------------------------------- */

/* What the input has done so far. */
typedef struct Session {
    char last_game[64], last_invite[2 * SERVER_TOKEN_BYTES + 1];
    char last_token[2 * SERVER_TOKEN_BYTES + 1];
    bool sent[FIXTURE_SECRETS];   /* did a request carry fixture_secrets[i]? */
    char *login_names[MAX_REQUESTS];   /* the names of its logins (malloc'd) */
    int logins;
} Session;

static void append(Text *t, const char *s) { text_addf(t, "%s", s); }

/* `src` (n bytes, no NUL in it) with the $ names replaced. */
static void substitute(const char *src, size_t n, const Session *ss, Text *out)
{
    for (size_t i = 0; i < n; i++) {
        char c = i + 1 < n ? src[i + 1] : '\0';
        if (src[i] != '$' || !c) {
            text_addf(out, "%c", src[i]);
        } else if (c >= '0' && c <= '9') {
            append(out, fixture_games[c - '0'].id);
            i++;
        } else if (c == 'i') {
            append(out, fixture_invite);
            i++;
        } else if (c == 'n') {
            append(out, ss->last_game);
            i++;
        } else if (c == 'j') {
            append(out, ss->last_invite);
            i++;
        } else {
            text_addf(out, "%c", src[i]);
        }
    }
}

/* ---- What replies open ------------------------------------------------------ */

/* Notes what a reply opened: a session, a game and its invitation. */
static void note_reply(const ApiReply *r, Session *ss)
{
    char token[FIXTURE_TOKEN_CHARS + 1];
    if (r->set_cookie && fixture_cookie_token(r->set_cookie, token)) strcpy(ss->last_token, token);
    const char *id = json_string_value(json_object_get(r->json, "id"));
    const char *url = json_string_value(json_object_get(r->json, "invite_url"));
    if (r->status == 201 && id && strlen(id) < sizeof ss->last_game) {
        strcpy(ss->last_game, id);
        const char *tok = url ? strstr(url, "invite=") : NULL;
        snprintf(ss->last_invite, sizeof ss->last_invite, "%s", tok ? tok + 7 : "");
    }
}

/* Keeps the name a login tries, so that its failures can be forgotten
 * after the input (see LLVMFuzzerTestOneInput). */
static void note_login(const char *path, const char *body, Session *ss)
{
    if (strcmp(path, "/api/login") || ss->logins == MAX_REQUESTS) return;
    json_t *o = json_loads(body, 0, NULL);
    const char *name = json_string_value(json_object_get(o, "name"));
    if (name && (ss->login_names[ss->logins] = strdup(name))) ss->logins++;
    json_decref(o);
}

/* ---- One input ------------------------------------------------------------- */

/* Runs one line (n bytes, without its '\n'); false when it is no request. */
static bool run_line(const char *line, size_t n, Session *ss)
{
    if (n < 2 || line[0] == '#') return false;
    const char *who_token[WHO_COUNT] = { NULL, fixture_alice, fixture_bob, ss->last_token, FIXTURE_STRANGER };
    const char *token = who_token[(uint8_t)(line[0] - '0') % WHO_COUNT];
    const char *p = line + 1, *end = line + n;
    while (p < end && *p == ' ') p++;
    const char *method = p;
    while (p < end && *p != ' ' && *p != '\t') p++;
    size_t method_len = (size_t)(p - method);
    while (p < end && *p == ' ') p++;
    const char *target = p;
    while (p < end && *p != '\t') p++;
    size_t target_len = (size_t)(p - target);
    const char *body = p < end ? p + 1 : end;
    if (method_len == 0 || method_len > 16) return false;

    Text m = TEXT_INIT, t = TEXT_INIT, b = TEXT_INIT;
    text_addf(&m, "%.*s", (int)method_len, method);
    substitute(target, target_len, ss, &t);
    substitute(body, (size_t)(end - body), ss, &b);
    char *path = fuzz_string((const uint8_t *)fuzz_str(&t), strlen(fuzz_str(&t)));
    const char *body_text = fuzz_str(&b);
    fixture_note_sent(path, strlen(path), ss->sent);
    fixture_note_sent(body_text, strlen(body_text), ss->sent);
    /* http.c answers a larger body with 413 before the API sees it. */
    if (strlen(body_text) <= SERVER_MAX_BODY) {
        FixtureQuery q;
        char *qs = strchr(path, '?');
        if (qs) *qs++ = '\0';
        fixture_query_parse(&q, qs ? qs : "");
        fixture_unescape(path);
        /* http.c hands HEAD to the API as GET. */
        const char *meth = !strcmp(fuzz_str(&m), "HEAD") ? "GET" : fuzz_str(&m);
        note_login(path, body_text, ss);
        ApiReply r;
        fixture_request(token, meth, path, body_text, strlen(body_text), &q, &r);
        const char *error = json_string_value(json_object_get(r.json, "error"));
        FUZZ_SAY("%s %s -> %d %s\n", meth, path, r.status, error ? error : r.text ? "(text)" : "");
        fixture_check_common(meth, path, &r, ss->sent);
        note_reply(&r, ss);
        api_reply_free(&r);
        fixture_query_free(&q);
    }
    free(path);
    text_free(&m);
    text_free(&t);
    text_free(&b);
    return true;
}

const FixtureNeed fixture_need = FIXTURE_BASE;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fixture_setup(fixture_need == FIXTURE_STARTS);
    fixture_restore();
    Session ss = { .last_game = "", .last_invite = "", .last_token = "", .sent = { false } };
    /* An input with a NUL in it ends there, as the other harnesses read
     * text (a C string cannot carry one into a request anyway). */
    char *text = fuzz_string(data, size);
    int requests = 0;
    for (char *line = text; *line && requests < MAX_REQUESTS;) {
        size_t n = strcspn(line, "\n");
        if (n && line[n - 1] == '\r') n--;   /* seeds written on another system */
        requests += run_line(line, n, &ss);
        line += strcspn(line, "\n");
        if (*line) line++;
    }
    /* The failed logins are forgotten, as the database is put back. */
    for (int i = 0; i < ss.logins; i++) {
        fixture_forget_login(ss.login_names[i]);
        free(ss.login_names[i]);
    }
    free(text);
    return 0;
}
