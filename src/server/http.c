/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HTTP for ttchess serve, over libmicrohttpd: reading requests (bodies up
 * to SERVER_MAX_BODY), the session cookie, the Origin check, security
 * headers, the API (api.c), the live event streams, and the browser
 * client's files.
 *
 * libmicrohttpd runs a thread per connection, so an event stream may
 * block in its reader until something happens: streams wait on one
 * condition variable that events_notify broadcasts after every commit,
 * then read what is new from the database.  The database is the stream's
 * only source, so a reconnecting client (Last-Event-ID) gets exactly what
 * it missed.
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "api.h"

struct Server {
    struct MHD_Daemon *daemon;
    Store *store;
    const ServerConfig *cfg;
    char origins[3][128];    /* the Origins a state-changing request may carry */
};

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
 * while a connection could still be accepted. */
static struct {
    uint32_t address;
    int count;
} streams_by_client[SERVER_MAX_CONNECTIONS];
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;

/* Counts a new stream from address; false when it has its share. */
static bool stream_admit(uint32_t address)
{
    pthread_mutex_lock(&streams_lock);
    int slot = -1;
    for (int i = 0; i < SERVER_MAX_CONNECTIONS; i++) {
        if (streams_by_client[i].count && streams_by_client[i].address == address) {
            slot = i;
            break;
        }
        if (slot < 0 && !streams_by_client[i].count) slot = i;
    }
    bool ok = slot >= 0 && streams_by_client[slot].count < SERVER_MAX_STREAMS_PER_CLIENT;
    if (ok) {
        streams_by_client[slot].address = address;
        streams_by_client[slot].count++;
    }
    pthread_mutex_unlock(&streams_lock);
    return ok;
}

static void stream_leave(uint32_t address)
{
    pthread_mutex_lock(&streams_lock);
    for (int i = 0; i < SERVER_MAX_CONNECTIONS; i++)
        if (streams_by_client[i].count && streams_by_client[i].address == address) {
            streams_by_client[i].count--;
            break;
        }
    pthread_mutex_unlock(&streams_lock);
}

/* The client's IPv4 address (the server listens on IPv4 only). */
static uint32_t client_address(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || info->client_addr->sa_family != AF_INET) return 0;
    return ((const struct sockaddr_in *)(const void *)info->client_addr)->sin_addr.s_addr;
}

typedef struct Stream {
    Store *store;
    uint32_t client;          /* the address counted in streams_by_client */
    int fd;                   /* the connection's socket, or -1           */
    char game[64];
    int64_t last_id;          /* the last event sent                      */
    uint64_t generation;      /* events_generation when last read         */
    Text pending;             /* bytes formatted but not yet sent         */
    size_t sent;              /* of pending                               */
} Stream;

/* Formats every event after last_id into pending; false on a database error. */
static bool stream_fill(Stream *st)
{
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
    text_free(&st->pending);
    free(st);
}

/* ---- Requests ------------------------------------------------------------- */

typedef struct Upload {
    char *body;
    size_t len;
    bool too_large;
} Upload;

static const char CSP[] = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                          "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

static void add_security_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "Content-Security-Policy", CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
}

static enum MHD_Result send_buffer(struct MHD_Connection *c, int status, const char *type, char *body, size_t len,
                                   const char *cookie)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(body);
        return MHD_NO;
    }
    add_security_headers(resp);
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (cookie) MHD_add_response_header(resp, "Set-Cookie", cookie);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *message)
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

/* A state-changing request from a browser carries its Origin; it must be
 * this server's own.  A request without one (curl, another program) is
 * not a cross-site request a browser could be tricked into, and the
 * SameSite=Strict cookie is not sent cross-site either. */
static bool origin_allowed(const struct Server *srv, struct MHD_Connection *c)
{
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!origin) return true;
    for (int i = 0; i < 3; i++)
        if (srv->origins[i][0] && !strcmp(origin, srv->origins[i])) return true;
    return false;
}

static const char *query_value(void *ctx, const char *name)
{
    return MHD_lookup_connection_value((struct MHD_Connection *)ctx, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result serve_events(struct Server *srv, struct MHD_Connection *c, const char *game)
{
    GameRow row;
    bool found;
    bool ok = store_game_get(srv->store, game, &row, &found);
    if (!ok) return send_error(c, 503, "the database cannot be read now");
    if (!found) return send_error(c, 404, "no such game");
    store_game_free(&row);
    uint32_t client = client_address(c);
    if (!stream_admit(client)) {
        char why[128];
        snprintf(why, sizeof why, "at most %d live streams from one address: close some pages",
                 SERVER_MAX_STREAMS_PER_CLIENT);
        return send_error(c, 429, why);
    }
    Stream *st = calloc(1, sizeof *st);
    if (!st) {
        stream_leave(client);
        return MHD_NO;
    }
    st->client = client;
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    st->fd = fd ? fd->connect_fd : -1;
    st->store = srv->store;
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
    add_security_headers(resp);
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ---- The client's files ------------------------------------------------------ */

static const char *content_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot) return "application/octet-stream";
    if (!strcmp(dot, ".html")) return "text/html; charset=utf-8";
    if (!strcmp(dot, ".js")) return "text/javascript; charset=utf-8";
    if (!strcmp(dot, ".css")) return "text/css; charset=utf-8";
    if (!strcmp(dot, ".svg")) return "image/svg+xml";
    if (!strcmp(dot, ".png")) return "image/png";
    if (!strcmp(dot, ".json")) return "application/json";
    if (!strcmp(dot, ".map")) return "application/json";
    return "application/octet-stream";
}

/* Serves a file of the client; any page path that is not a file gets
 * index.html, which routes in the browser (/games/ID, /login, ...). */
static enum MHD_Result serve_static(struct Server *srv, struct MHD_Connection *c, const char *url)
{
    /* Only plain names: no "..", no hidden files, nothing outside the folder. */
    for (const char *p = url; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-", *p))
            return send_error(c, 404, "no such page");
    if (strstr(url, "/.")) return send_error(c, 404, "no such page");
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s%s", srv->cfg->static_dir, url);
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) snprintf(path, sizeof path, "%s/index.html", srv->cfg->static_dir);
    FILE *f = fopen(path, "rb");
    if (!f) return send_error(c, 404, "the web client is not built: run make");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *body = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (!body || fread(body, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(body);
        return send_error(c, 500, "cannot read the client's file");
    }
    fclose(f);
    return send_buffer(c, 200, content_type(path), body, (size_t)size, NULL);
}

/* ---- The handler ---------------------------------------------------------- */

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
    if (*upload_size) {
        if (up->len + *upload_size > SERVER_MAX_BODY) {
            up->too_large = true;
        } else if (!up->too_large) {
            char *grown = realloc(up->body, up->len + *upload_size + 1);
            if (!grown) return MHD_NO;
            memcpy(grown + up->len, upload_data, *upload_size);
            up->body = grown;
            up->len += *upload_size;
            up->body[up->len] = '\0';
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (up->too_large) return send_error(c, 413, "the request is too large (16 KiB at most)");
    bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    if (!get && !origin_allowed(srv, c)) return send_error(c, 403, "this request came from another site");
    if (strncmp(url, "/api/", 5)) {
        if (!get) return send_error(c, 405, "only GET here");
        return serve_static(srv, c, url);
    }
    char game[64];
    size_t n = strlen("/api/games/");
    if (get && !strncmp(url, "/api/games/", n)) {
        const char *rest = url + n, *slash = strchr(rest, '/');
        if (slash && !strcmp(slash, "/events") && (size_t)(slash - rest) < sizeof game) {
            memcpy(game, rest, (size_t)(slash - rest));
            game[slash - rest] = '\0';
            return serve_events(srv, c, game);
        }
    }
    char token[2 * SERVER_TOKEN_BYTES + 1];
    ApiRequest req = { .method = get ? "GET" : method, .path = url, .body = up->body ? up->body : "",
                       .body_len = up->len, .query = query_value, .query_ctx = c };
    char *name = NULL;
    if (session_token(c, token, sizeof token)) {
        char hash[65];
        auth_token_hash(token, hash);
        req.session_token = token;
        /* A database that cannot be read is not a player logged out: the
         * request would be answered as a visitor's (401, or an empty
         * session), and a page would ask its player to log in again. */
        if (!store_session_user(srv->store, hash, server_now_ms(), &req.user, &name))
            return send_error(c, 503, "the database cannot be read now");
        req.user_name = name;
    }
    ApiReply reply;
    api_handle(srv->store, &req, &reply);
    free(name);
    enum MHD_Result ret;
    if (reply.json) {
        char *body = json_dumps(reply.json, JSON_COMPACT);
        ret = body ? send_buffer(c, reply.status, "application/json; charset=utf-8", body, strlen(body), reply.set_cookie)
                   : MHD_NO;
    } else {
        char *body = reply.text;
        reply.text = NULL;
        ret = send_buffer(c, reply.status, reply.content_type, body, strlen(body), reply.set_cookie);
    }
    api_reply_free(&reply);
    return ret;
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)c, (void)code;
    Upload *up = *con_cls;
    if (up) free(up->body);
    free(up);
    *con_cls = NULL;
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
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)cfg->port) };
    if (inet_pton(AF_INET, cfg->host, &addr.sin_addr) != 1) {
        free(srv);
        return text_fail(err, "--host must be an IPv4 address such as 127.0.0.1, not '%s'", cfg->host), NULL;
    }
    events_closing = false;
    srv->daemon = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, (uint16_t)cfg->port,
                                   NULL, NULL, handle, srv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                                   MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL, MHD_OPTION_CONNECTION_TIMEOUT,
                                   (unsigned)120, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVER_MAX_CONNECTIONS,
                                   MHD_OPTION_END);
    if (!srv->daemon) {
        free(srv);
        return text_fail(err, "cannot listen on %s:%d (%s)", cfg->host, cfg->port, strerror(errno)), NULL;
    }
    return srv;
}

void server_stop(struct Server *srv)
{
    if (!srv) return;
    events_closing = true;
    events_notify();
    MHD_stop_daemon(srv->daemon);
    free(srv);
}
