/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON API of docs/api.md, apart from the HTTP plumbing (http.c): a
 * request comes in as an ApiRequest, already read and checked for size
 * and Origin, with its session resolved; a handler fills an ApiReply.
 * Keeping the handlers free of libmicrohttpd lets tests and fuzzers call
 * them directly.
 */
#ifndef TTCHESS_SERVER_API_H
#define TTCHESS_SERVER_API_H

#include "server.h"

typedef struct ApiRequest {
    const char *method;         /* "GET", "POST", ...                        */
    const char *path;           /* "/api/games/abc/actions", no query string */
    const char *body;           /* NUL-terminated; "" when none              */
    size_t body_len;
    const char *(*query)(void *ctx, const char *name); /* a query argument, or NULL */
    void *query_ctx;
    int64_t user;               /* 0: not logged in                          */
    const char *user_name;
    const char *session_token;  /* the cookie's token, or NULL               */
    const char *client;         /* the client's address as text ("127.0.0.2"; from
                                 * X-Forwarded-For with --trust-proxy), or NULL */
    bool secure;                /* the server's origin is https: cookies are Secure */
    bool by_token;              /* the user comes from an API token (Bearer)  */
    const char *site;           /* the site's origin ("https://example.org"; --origin,
                                 * else from the Host header), or NULL      */
} ApiRequest;

typedef struct ApiReply {
    int status;
    json_t *json;               /* the body, or NULL with text               */
    char *text;                 /* a body that is not JSON (malloc'd)        */
    const char *content_type;   /* for text                                  */
    char *set_cookie;           /* a Set-Cookie value (malloc'd), or NULL    */
    char *disposition;          /* a Content-Disposition value (malloc'd), or NULL */
    /* A body made while it is sent (the PGN export), with text NULL:
     * stream_read fills buf with up to max bytes and gives their count, 0
     * at the end, -1 on an error; stream_free frees ctx once sent (or
     * api_reply_free does when it never is). */
    long (*stream_read)(void *ctx, char *buf, size_t max);
    void (*stream_free)(void *ctx);
    void *stream_ctx;
} ApiReply;

/* Handles one request under /api/ (all but the event stream, which
 * http.c serves).  Never fails: errors are replies. */
void api_handle(Store *s, const ApiRequest *req, ApiReply *reply);
void api_reply_free(ApiReply *reply);
/* The lobby's lists, {"seeks", "playing"} as GET /api/lobby sends them, as
 * one line of compact JSON (malloc'd) for the lobby's event stream; NULL
 * when the database cannot be read. */
char *api_lobby_line(Store *s);
/* A tournament's state as GET /api/tournaments/{id} sends it to a visitor,
 * one line of compact JSON (malloc'd) for its event stream; NULL when
 * there is no such tournament or the database cannot be read. */
char *api_tournament_line(Store *s, const char *id);

#endif
