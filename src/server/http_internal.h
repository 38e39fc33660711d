/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the server's HTTP files share (http.c: requests, the API, the event
 * streams, the daemon; http_static.c: the browser client's files): the
 * server's own state and the replies every part sends the same way.
 */
#ifndef TTCHESS_HTTP_INTERNAL_H
#define TTCHESS_HTTP_INTERNAL_H

#include <limits.h>
#include <microhttpd.h>

#include "server.h"

/* The database's files, which no request may read wherever they are: the
 * file and those SQLite keeps beside it. */
static const char *const DB_SUFFIXES[] = { "", "-wal", "-shm", "-journal" };
enum { DB_FILES = sizeof DB_SUFFIXES / sizeof DB_SUFFIXES[0] };

struct Server {
    struct MHD_Daemon *daemon;
    Gate *gate;
    Store *store;
    const ServerConfig *cfg;
    char origins[3][128];    /* the Origins a state-changing request may carry */
    bool secure;             /* the server's origin is https: cookies are Secure */
    char static_root[PATH_MAX];        /* --static, resolved; "" when missing */
    /* The database's files, resolved ("" when the database is no file:
     * PostgreSQL); room for a resolved path and the longest suffix. */
    char db_files[DB_FILES][PATH_MAX + 16];
};

/* The security headers (gate.c holds the one list) and "Connection: close". */
void http_security_headers(struct MHD_Response *resp);
/* A reply of `body` (taken, even on failure) with the security headers;
 * NULL when out of memory. */
struct MHD_Response *http_new_response(char *body, size_t len);
/* Queues resp (MHD_NO when NULL) and lets it go. */
enum MHD_Result http_queue_response(struct MHD_Connection *c, int status, struct MHD_Response *resp);
/* A JSON error reply {"error": message}. */
enum MHD_Result http_send_error(struct MHD_Connection *c, int status, const char *message);

/* http_static.c: where the client's files are (--static) and which files
 * no request may read (the database's), resolved once at start; and a GET
 * of a path outside /api/. */
void static_guard_init(struct Server *srv, const ServerConfig *cfg);
enum MHD_Result serve_static(struct Server *srv, struct MHD_Connection *c, const char *url);

#endif
