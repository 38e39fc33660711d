/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HTTP for ttchess serve, over libmicrohttpd: reading requests (bodies up
 * to SERVER_MAX_BODY), the session cookie, the Origin check, security
 * headers, the API (api.c), the live event streams, and the browser
 * client's files.
 *
 * Connections come in through the gate (gate.c), which owns the listening
 * socket and hands libmicrohttpd only connections whose whole request has
 * arrived; every reply says "Connection: close", so that no second
 * request reaches libmicrohttpd on a kept-alive connection past the gate.
 *
 * libmicrohttpd runs a thread per connection, so an event stream may
 * block in its reader until something happens: streams wait on one
 * condition variable that events_notify broadcasts after every commit,
 * then read what is new from the database.  The database is the stream's
 * only source, so a reconnecting client (Last-Event-ID) gets exactly what
 * it missed.
 */
/* realpath is an X/Open function, which _POSIX_C_SOURCE alone leaves out. */
#define _XOPEN_SOURCE 700

#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <zlib.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "http_internal.h"

/* ---- Events --------------------------------------------------------------- */

static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t events_cond = PTHREAD_COND_INITIALIZER;
static uint64_t events_generation;
static volatile bool events_closing;

void events_notify(void)
{
    pthread_mutex_lock(&events_lock);
    events_generation++;
    pthread_cond_broadcast(&events_cond);
    pthread_mutex_unlock(&events_lock);
}

/* Waits until the generation moves past `seen` or `seconds` pass. */
static uint64_t events_wait(uint64_t seen, int seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    pthread_mutex_lock(&events_lock);
    while (events_generation == seen && !events_closing)
        if (pthread_cond_timedwait(&events_cond, &events_lock, &until) == ETIMEDOUT) break;
    uint64_t now = events_generation;
    pthread_mutex_unlock(&events_lock);
    return now;
}

/* Live streams open from each client address (docs/api.md, "Limits"):
 * each holds a thread of the server while it is open, so one address may
 * hold SERVER_MAX_STREAMS_PER_CLIENT of them.  The table holds as many
 * addresses as the server may have connections, so it is never full
 * while a connection could still be accepted.  The address is the one
 * the gate counted (X-Forwarded-For's with --trust-proxy). */
static struct {
    char address[GATE_ADDRESS_SIZE];
    int count;
} streams_by_client[SERVER_MAX_CONNECTIONS];
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;

/* Counts a new stream from address; false when it has its share. */
static bool stream_admit(const char *address)
{
    pthread_mutex_lock(&streams_lock);
    int slot = -1;
    for (int i = 0; i < SERVER_MAX_CONNECTIONS; i++) {
        if (streams_by_client[i].count && !strcmp(streams_by_client[i].address, address)) {
            slot = i;
            break;
        }
        if (slot < 0 && !streams_by_client[i].count) slot = i;
    }
    bool ok = slot >= 0 && streams_by_client[slot].count < SERVER_MAX_STREAMS_PER_CLIENT;
    if (ok) {
        snprintf(streams_by_client[slot].address, sizeof streams_by_client[slot].address, "%s", address);
        streams_by_client[slot].count++;
    }
    pthread_mutex_unlock(&streams_lock);
    return ok;
}

static void stream_leave(const char *address)
{
    pthread_mutex_lock(&streams_lock);
    for (int i = 0; i < SERVER_MAX_CONNECTIONS; i++)
        if (streams_by_client[i].count && !strcmp(streams_by_client[i].address, address)) {
            streams_by_client[i].count--;
            break;
        }
    pthread_mutex_unlock(&streams_lock);
}

/* The client's address, as the gate counted it ("" if unknown, which only
 * a connection libmicrohttpd did not announce could be). */
static const char *client_address(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    const char *address = info ? gate_address(info->socket_context) : NULL;
    return address ? address : "";
}

typedef struct Stream {
    Store *store;
    char client[GATE_ADDRESS_SIZE]; /* the address counted in streams_by_client */
    int fd;                   /* the connection's socket, or -1           */
    char game[64];            /* "": the lobby's stream (api_lobby_line);
                               * "t:ID": a tournament's (api_tournament_line) */
    char *lobby;              /* the lobby's lists (a tournament's, or the
                               * player's count) last sent, or NULL       */
    int64_t user;             /* the player of a "your move" stream, or 0 */
    int64_t last_id;          /* the last event sent                      */
    uint64_t generation;      /* events_generation when last read         */
    Text pending;             /* bytes formatted but not yet sent         */
    size_t sent;              /* of pending                               */
} Stream;

/* The lobby's stream sends its lists (one `lobby` event) whenever they
 * differ from those it sent last: every commit wakes it, and most change
 * nothing it shows. */
static bool lobby_fill(Stream *st)
{
    /* A tournament's stream likewise sends its standings and games (one
     * `tournament` event) when they change. */
    bool tournament = !strncmp(st->game, "t:", 2);
    char *line = tournament ? api_tournament_line(st->store, st->game + 2) : api_lobby_line(st->store);
    if (!line) return false;
    if (st->lobby && !strcmp(st->lobby, line)) {
        free(line);
        return true;
    }
    text_addf(&st->pending, "event: %s\ndata: %s\n\n", tournament ? "tournament" : "lobby", line);
    free(st->lobby);
    st->lobby = line;
    return !st->pending.failed;
}

/* A player's stream (GET /api/account/events) sends the count of games
 * waiting for their move (one `yourmove` event) whenever it changes:
 * every commit, here or on another server (PostgreSQL's NOTIFY), wakes it
 * as it wakes the lobby's. */
static bool your_move_fill(Stream *st)
{
    int64_t count = store_your_move_count(st->store, st->user);
    if (count < 0) return false;
    char line[64];
    snprintf(line, sizeof line, "{\"count\":%lld}", (long long)count);
    if (st->lobby && !strcmp(st->lobby, line)) return true;
    text_addf(&st->pending, "event: yourmove\ndata: %s\n\n", line);
    free(st->lobby);
    st->lobby = strdup(line);
    return st->lobby && !st->pending.failed;
}

/* Formats every event after last_id into pending; false on a database error. */
static bool stream_fill(Stream *st)
{
    if (st->user) return your_move_fill(st);
    if (!st->game[0] || !strncmp(st->game, "t:", 2)) return lobby_fill(st);
    json_t *events = json_array();
    bool ok = events && store_events_after(st->store, st->game, st->last_id, events);
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        json_int_t id = json_integer_value(json_object_get(e, "id"));
        /* The data is the stored JSON object with the ply added; it is one
         * line (stored compact), as an SSE data field must be. */
        json_t *data = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
        if (!data) data = json_object();
        json_object_set_new(data, "ply", json_integer(json_integer_value(json_object_get(e, "ply"))));
        json_object_set_new(data, "type", json_string(json_string_value(json_object_get(e, "type"))));
        char *line = json_dumps(data, JSON_COMPACT);
        text_addf(&st->pending, "id: %lld\nevent: %s\ndata: %s\n\n", (long long)id,
                  json_string_value(json_object_get(e, "type")), line ? line : "{}");
        free(line);
        json_decref(data);
        st->last_id = id;
    }
    json_decref(events);
    return ok && !st->pending.failed;
}

/* Has the client closed the stream?  A write to a closed socket may still
 * succeed once, so waiting for a keep-alive to fail would hold the
 * stream's thread and its place in streams_by_client for up to two
 * keep-alive periods; a peek at the socket sees the close at once. */
static bool stream_closed(const Stream *st)
{
    if (st->fd < 0) return false;
    char c;
    ssize_t n = recv(st->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Waits for a new event, the keep-alive period, or the client's close,
 * looking at the socket each second. */
static uint64_t stream_wait(const Stream *st, uint64_t seen)
{
    uint64_t now = seen;
    for (int waited = 0; now == seen && waited < SERVER_SSE_KEEPALIVE_S && !events_closing; waited++) {
        if (stream_closed(st)) break;
        now = events_wait(seen, 1);
    }
    return now;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Stream *st = cls;
    while (st->sent == st->pending.len) {
        text_clear(&st->pending);
        st->sent = 0;
        if (events_closing) return MHD_CONTENT_READER_END_OF_STREAM;
        uint64_t gen = st->generation;
        if (!stream_fill(st)) return MHD_CONTENT_READER_END_WITH_ERROR;
        if (st->pending.len) break;
        st->generation = stream_wait(st, gen);
        if (st->generation == gen && stream_closed(st)) return MHD_CONTENT_READER_END_OF_STREAM;
        /* A comment line keeps proxies and the browser from closing a
         * quiet stream, and shows a dead client to the write. */
        if (st->generation == gen) text_add(&st->pending, ": keepalive\n\n");
    }
    size_t n = st->pending.len - st->sent;
    if (n > max) n = max;
    memcpy(buf, st->pending.str + st->sent, n);
    st->sent += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    Stream *st = cls;
    stream_leave(st->client);
    free(st->lobby);
    text_free(&st->pending);
    free(st);
}

/* ---- Requests ------------------------------------------------------------- */

typedef struct Upload {
    char *body;
    size_t len;
    bool too_large;
} Upload;

/* The security headers (gate.c holds the one list, which its own replies
 * carry too), and "Connection: close": each connection carries one
 * request, so that every request passes the gate. */
void http_security_headers(struct MHD_Response *resp)
{
    for (int i = 0; i < SERVER_SECURITY_HEADER_COUNT; i++)
        MHD_add_response_header(resp, SERVER_SECURITY_HEADERS[i][0], SERVER_SECURITY_HEADERS[i][1]);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

/* A reply of `body` (taken, even on failure) with the security headers;
 * NULL when out of memory. */
struct MHD_Response *http_new_response(char *body, size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(body);
        return NULL;
    }
    http_security_headers(resp);
    return resp;
}

enum MHD_Result http_queue_response(struct MHD_Connection *c, int status, struct MHD_Response *resp)
{
    if (!resp) return MHD_NO;
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* The API's replies are never stored by a browser or a proxy: each says
 * the game or the account as it is now, and may carry a cookie. */
static enum MHD_Result send_buffer(struct MHD_Connection *c, int status, const char *type, char *body, size_t len,
                                   const char *cookie)
{
    struct MHD_Response *resp = http_new_response(body, len);
    if (resp) {
        MHD_add_response_header(resp, "Content-Type", type);
        MHD_add_response_header(resp, "Cache-Control", "no-store");
        if (cookie) MHD_add_response_header(resp, "Set-Cookie", cookie);
    }
    return http_queue_response(c, status, resp);
}

/* Replies shorter than this go as they are: gzip's header and the time
 * to compress would cost more than the bytes saved. */
enum { GZIP_MIN_BYTES = 1024 };

/* body compressed with gzip into a malloc'd buffer (*out_len its size);
 * NULL when it could not be (out of memory), and the reply then goes
 * uncompressed. */
static char *gzip_body(const char *body, size_t len, size_t *out_len)
{
    z_stream z = { 0 };
    /* 15 + 16: a gzip header and trailer around the deflate stream;
     * level 6, zlib's default, is most of level 9's gain for a state's
     * JSON at a fraction of the time. */
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    uLong bound = deflateBound(&z, (uLong)len);
    char *out = malloc(bound);
    z.next_in = (Bytef *)body;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)bound;
    bool ok = out && deflate(&z, Z_FINISH) == Z_STREAM_END;
    *out_len = z.total_out;
    deflateEnd(&z);
    if (ok) return out;
    free(out);
    return NULL;
}

/* An API reply's body (taken), compressed when the client accepts gzip
 * and the body is long enough to gain from it: a game's state (a few
 * tens of KiB of JSON) arrives in a fifth of the bytes.  Every such reply
 * says that it depends on Accept-Encoding (Vary). */
static enum MHD_Result send_api_body(struct MHD_Connection *c, const ApiReply *reply, const char *type, char *body,
                                     size_t len)
{
    const char *encoding = NULL;
    if (len >= GZIP_MIN_BYTES && http_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Encoding"))) {
        size_t packed_len = 0;
        char *packed = gzip_body(body, len, &packed_len);
        if (packed) {
            free(body);
            body = packed;
            len = packed_len;
            encoding = "gzip";
        }
    }
    struct MHD_Response *resp = http_new_response(body, len);
    if (resp) {
        MHD_add_response_header(resp, "Content-Type", type);
        MHD_add_response_header(resp, "Cache-Control", "no-store");
        MHD_add_response_header(resp, "Vary", "Accept-Encoding");
        if (encoding) MHD_add_response_header(resp, "Content-Encoding", encoding);
        if (reply->set_cookie) MHD_add_response_header(resp, "Set-Cookie", reply->set_cookie);
        if (reply->disposition) MHD_add_response_header(resp, "Content-Disposition", reply->disposition);
    }
    return http_queue_response(c, reply->status, resp);
}

enum MHD_Result http_send_error(struct MHD_Connection *c, int status, const char *message)
{
    json_t *o = json_pack("{s:s}", "error", message);
    char *body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!body) return MHD_NO;
    return send_buffer(c, status, "application/json; charset=utf-8", body, strlen(body), NULL);
}

/* The session token of the cookie header, copied to `out`; false if none. */
static bool session_token(struct MHD_Connection *c, char *out, size_t size)
{
    const char *v = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "ttchess_session");
    if (!v || !*v || strlen(v) >= size) return false;
    for (const char *p = v; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    strcpy(out, v);
    return true;
}

/* Is the request's Origin one of this server's? */
static bool origin_ours(const struct Server *srv, const char *origin)
{
    for (int i = 0; i < 3; i++)
        if (srv->origins[i][0] && !strcmp(origin, srv->origins[i])) return true;
    return false;
}

/* The token of an "Authorization: Bearer TOKEN" header, or NULL when the
 * request has none (or another scheme); "" when it is malformed. */
static const char *bearer_token(struct MHD_Connection *c)
{
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!auth || strncasecmp(auth, "Bearer", 6) || (auth[6] != ' ' && auth[6] != '\0')) return NULL;
    const char *token = auth + 6;
    while (*token == ' ') token++;
    size_t n = strlen(token);
    if (n == 0 || n > 256) return "";
    for (const char *p = token; *p; p++)
        if (*p <= ' ' || *p > '~') return "";
    return token;
}

static const char *query_value(void *ctx, const char *name)
{
    return MHD_lookup_connection_value((struct MHD_Connection *)ctx, MHD_GET_ARGUMENT_KIND, name);
}

/* A game's stream, or with game "" the lobby's (GET /api/lobby/events),
 * or with a user the player's count of games waiting for their move. */
static enum MHD_Result serve_events(struct Server *srv, struct MHD_Connection *c, const char *game, int64_t user)
{
    GameRow row;
    bool found = true;
    bool games = game[0] && strncmp(game, "t:", 2);
    char *line = games || !game[0] ? NULL : api_tournament_line(srv->store, game + 2);
    bool ok = !games || store_game_get(srv->store, game, &row, &found);
    if (!ok) return http_send_error(c, 503, "the database cannot be read now");
    if (!found) return http_send_error(c, 404, "no such game");
    if (!games && game[0] && !line) return http_send_error(c, 404, "no such tournament");
    free(line);
    if (games) store_game_free(&row);
    const char *client = client_address(c);
    if (!stream_admit(client)) {
        char why[128];
        snprintf(why, sizeof why, "at most %d live streams from one address: close some pages",
                 SERVER_MAX_STREAMS_PER_CLIENT);
        return http_send_error(c, 429, why);
    }
    Stream *st = calloc(1, sizeof *st);
    if (!st) {
        stream_leave(client);
        return MHD_NO;
    }
    snprintf(st->client, sizeof st->client, "%s", client);
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    st->fd = fd ? fd->connect_fd : -1;
    st->store = srv->store;
    st->user = user;
    snprintf(st->game, sizeof st->game, "%s", game);
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (!last) last = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "last_event_id");
    st->last_id = last ? strtoll(last, NULL, 10) : 0;
    if (st->last_id < 0) st->last_id = 0;
    pthread_mutex_lock(&events_lock);
    st->generation = events_generation;
    pthread_mutex_unlock(&events_lock);
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
    if (!resp) {
        stream_free(st);
        return MHD_NO;
    }
    http_security_headers(resp);
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ---- Who asks, and from where -------------------------------------------------- */

/* The player of the request: from an API token (Authorization: Bearer),
 * which wins over the cookie, or from the session cookie.  On success
 * *name is malloc'd (or NULL); otherwise the status of the refusal, with
 * its sentence in *why. */
static int identify(struct Server *srv, struct MHD_Connection *c, ApiRequest *req, char *token, size_t size,
                    char **name, const char **why)
{
    char hash[65];
    const char *bearer = bearer_token(c);
    if (bearer) {
        *why = "this API token is not valid (revoked or mistyped)";
        if (!*bearer) return 401;
        auth_token_hash(bearer, hash);
        if (!store_token_user(srv->store, hash, &req->user, name)) {
            *why = "the database cannot be read now";
            return 503;
        }
        if (!req->user) return 401;
        req->user_name = *name;
        req->by_token = true;
        return 0;
    }
    if (!session_token(c, token, size)) return 0;
    auth_token_hash(token, hash);
    req->session_token = token;
    /* A database that cannot be read is not a player logged out: the
     * request would be answered as a visitor's (401, or an empty
     * session), and a page would ask its player to log in again. */
    if (!store_session_user(srv->store, hash, server_now_ms(), &req->user, name)) {
        *why = "the database cannot be read now";
        return 503;
    }
    req->user_name = *name;
    return 0;
}

/* A request that changes something must come from this site's own pages
 * (the Origin header, which browsers send on every such request) or
 * carry an API token: a page of another site can make a browser send
 * neither.  NULL when the request may go on, else the refusal's sentence. */
static const char *origin_refusal(const struct Server *srv, struct MHD_Connection *c, const ApiRequest *req)
{
    if (req->by_token) return NULL;
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!origin)
        return "a request that changes something needs this site's Origin header (browsers send it) "
               "or an API token: Authorization: Bearer TOKEN (docs/api.md, \"Tokens\")";
    return origin_ours(srv, origin) ? NULL : "this request came from another site";
}

/* ---- The handler ---------------------------------------------------------- */

/* Takes a piece of the body (up to SERVER_MAX_BODY; the gate refuses
 * larger ones before they come, so too_large is a second guard). */
static enum MHD_Result take_upload(Upload *up, const char *data, size_t *size)
{
    if (up->len + *size > SERVER_MAX_BODY) {
        up->too_large = true;
    } else if (!up->too_large) {
        char *grown = realloc(up->body, up->len + *size + 1);
        if (!grown) return MHD_NO;
        memcpy(grown + up->len, data, *size);
        up->body = grown;
        up->len += *size;
        up->body[up->len] = '\0';
    }
    *size = 0;
    return MHD_YES;
}

/* Sends the API's reply. */
/* A body the handler makes while it is sent (ApiReply's stream). */
typedef struct ReplyStream {
    long (*read)(void *ctx, char *buf, size_t max);
    void (*free)(void *ctx);
    void *ctx;
} ReplyStream;

static ssize_t reply_stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    ReplyStream *rs = cls;
    long n = rs->read(rs->ctx, buf, max);
    return n > 0 ? (ssize_t)n : n == 0 ? MHD_CONTENT_READER_END_OF_STREAM : MHD_CONTENT_READER_END_WITH_ERROR;
}

static void reply_stream_free(void *cls)
{
    ReplyStream *rs = cls;
    rs->free(rs->ctx);
    free(rs);
}

/* Sends a streamed reply, uncompressed and of no announced length (so
 * chunked): the handler's stream is read as the client takes the bytes. */
static enum MHD_Result send_stream(struct MHD_Connection *c, ApiReply *reply)
{
    ReplyStream *rs = malloc(sizeof *rs);
    if (!rs) return MHD_NO;
    *rs = (ReplyStream){ reply->stream_read, reply->stream_free, reply->stream_ctx };
    reply->stream_free = NULL;
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, reply_stream_read, rs, reply_stream_free);
    if (!resp) {
        reply_stream_free(rs);
        return MHD_NO;
    }
    http_security_headers(resp);
    MHD_add_response_header(resp, "Content-Type", reply->content_type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (reply->disposition) MHD_add_response_header(resp, "Content-Disposition", reply->disposition);
    return http_queue_response(c, reply->status, resp);
}

static enum MHD_Result send_reply(struct MHD_Connection *c, ApiReply *reply)
{
    enum MHD_Result ret;
    if (reply->stream_read) {
        ret = send_stream(c, reply);
    } else if (reply->json) {
        char *body = json_dumps(reply->json, JSON_COMPACT);
        ret = body ? send_api_body(c, reply, "application/json; charset=utf-8", body, strlen(body)) : MHD_NO;
    } else {
        char *body = reply->text;
        reply->text = NULL;
        ret = send_api_body(c, reply, reply->content_type, body, strlen(body));
    }
    api_reply_free(reply);
    return ret;
}

/* The site's origin for links the API writes (the PGN's Site tag):
 * --origin when given, else the Host the request was sent to. */
static const char *site_origin(const struct Server *srv, struct MHD_Connection *c, char *buf, size_t size)
{
    if (srv->cfg->origin) return srv->cfg->origin;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!host || !*host || strlen(host) > 200 || strpbrk(host, "\"\\ /")) return NULL;
    snprintf(buf, size, "http://%s", host);
    return buf;
}

/* The live stream of a game: GET /api/games/ID/events, or of a
 * tournament: GET /api/tournaments/ID/events (game "t:ID"); false when
 * the path is another. */
static bool events_path(const char *url, char game[64])
{
    bool tournament = !strncmp(url, "/api/tournaments/", strlen("/api/tournaments/"));
    const char *prefix = tournament ? "/api/tournaments/" : "/api/games/";
    size_t n = strlen(prefix), skip = tournament ? 2 : 0;
    if (strncmp(url, prefix, n)) return false;
    const char *rest = url + n, *slash = strchr(rest, '/');
    if (!slash || slash == rest || strcmp(slash, "/events") || (size_t)(slash - rest) + skip >= 64) return false;
    memcpy(game, "t:", skip);
    memcpy(game + skip, rest, (size_t)(slash - rest));
    game[skip + (size_t)(slash - rest)] = '\0';
    return true;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void)version;
    struct Server *srv = cls;
    Upload *up = *con_cls;
    if (!up) {
        up = calloc(1, sizeof *up);
        if (!up) return MHD_NO;
        *con_cls = up;
        return MHD_YES;
    }
    if (*upload_size) return take_upload(up, upload_data, upload_size);
    if (up->too_large) return http_send_error(c, 413, "the request is too large (16 KiB at most)");
    bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    if (strncmp(url, "/api/", 5)) return get ? serve_static(srv, c, url) : http_send_error(c, 405, "only GET here");
    char game[64];
    if (get && events_path(url, game)) return serve_events(srv, c, game, 0);
    if (get && !strcmp(url, "/api/lobby/events")) return serve_events(srv, c, "", 0);
    char token[2 * SERVER_TOKEN_BYTES + 1];
    ApiRequest req = { .method = get ? "GET" : method, .path = url, .body = up->body ? up->body : "",
                       .body_len = up->len, .query = query_value, .query_ctx = c, .client = client_address(c),
                       .secure = srv->secure };
    char site[256];
    req.site = site_origin(srv, c, site, sizeof site);
    char *name = NULL;
    const char *why = NULL;
    int refused = identify(srv, c, &req, token, sizeof token, &name, &why);
    if (!refused && !get && (why = origin_refusal(srv, c, &req))) refused = 403;
    if (refused) {
        free(name);
        return http_send_error(c, refused, why);
    }
    if (get && !strcmp(url, "/api/account/events")) {
        free(name);
        return req.user ? serve_events(srv, c, "", req.user) : http_send_error(c, 401, "log in first");
    }
    ApiReply reply;
    api_handle(srv->store, &req, &reply);
    free(name);
    return send_reply(c, &reply);
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)c, (void)code;
    Upload *up = *con_cls;
    if (up) free(up->body);
    free(up);
    *con_cls = NULL;
}

/* ---- The daemon ------------------------------------------------------------ */

/* The gate hands over a connection whose request has all come. */
static bool hand_to_daemon(void *ctx, int fd, const struct sockaddr_in *peer)
{
    struct Server *srv = ctx;
    return MHD_add_connection(srv->daemon, fd, (const struct sockaddr *)peer, sizeof *peer) == MHD_YES;
}

/* libmicrohttpd starts and closes the connections the gate handed it:
 * the gate's record becomes the socket's context (its client address),
 * and its count ends with the close. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode what)
{
    struct Server *srv = cls;
    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = fd ? gate_started(srv->gate, fd->connect_fd) : NULL;
    } else if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
        gate_closed(srv->gate, *socket_context);
        *socket_context = NULL;
    }
}

/* libmicrohttpd without a listening socket of its own (the gate's is the
 * server's), a thread per connection (handlers block: the database,
 * password hashing, event streams), poll() rather than select() (whose
 * sockets must be numbered under 1024).  Its connection limit leaves a
 * margin over the gate's: libmicrohttpd forgets a closed connection a
 * moment after it tells the gate, and must never refuse one the gate
 * counted in.  Strictness -1: the gate is the stricter reader, so that
 * libmicrohttpd never answers a request with an error page of its own. */
static struct MHD_Daemon *start_daemon(struct Server *srv)
{
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
                                MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC,
                            0, NULL, NULL, handle, srv, MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv, MHD_OPTION_CONNECTION_TIMEOUT,
                            (unsigned)SERVER_IDLE_TIMEOUT_S, MHD_OPTION_CONNECTION_LIMIT,
                            (unsigned)(2 * SERVER_MAX_CONNECTIONS), MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                            (size_t)SERVER_MHD_MEMORY, MHD_OPTION_STRICT_FOR_CLIENT, -1, MHD_OPTION_END);
}

struct Server *server_start(const ServerConfig *cfg, Store *store, Text *err)
{
    struct Server *srv = calloc(1, sizeof *srv);
    if (!srv) return text_fail(err, "out of memory"), NULL;
    srv->store = store;
    srv->cfg = cfg;
    snprintf(srv->origins[0], sizeof srv->origins[0], "http://127.0.0.1:%d", cfg->port);
    snprintf(srv->origins[1], sizeof srv->origins[1], "http://localhost:%d", cfg->port);
    if (cfg->origin) snprintf(srv->origins[2], sizeof srv->origins[2], "%s", cfg->origin);
    srv->secure = cfg->origin && !strncasecmp(cfg->origin, "https://", 8);
    static_guard_init(srv, cfg);
    events_closing = false;
    srv->gate = gate_open(cfg, err);
    if (!srv->gate) {
        free(srv);
        return NULL;
    }
    srv->daemon = start_daemon(srv);
    if (!srv->daemon) {
        text_fail(err, "cannot start libmicrohttpd (%s)", strerror(errno));
    } else if (gate_start(srv->gate, hand_to_daemon, srv, err)) {
        return srv;
    }
    gate_stop(srv->gate);
    if (srv->daemon) MHD_stop_daemon(srv->daemon);
    gate_free(srv->gate);
    free(srv);
    return NULL;
}

void server_stop(struct Server *srv)
{
    if (!srv) return;
    events_closing = true;
    events_notify();
    /* The gate first: nothing new is handed off while libmicrohttpd
     * closes what it holds (and tells the gate of each close). */
    gate_stop(srv->gate);
    MHD_stop_daemon(srv->daemon);
    gate_free(srv->gate);
    free(srv);
}
