/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gate: the server's door (server.h, "gate.c").
 *
 * libmicrohttpd gives each connection a thread from the moment it is
 * accepted, and its time-out is an idle time-out that a slow client resets
 * with each byte, so a client holding a thousand quiet connections, or
 * sending a header line every few seconds, could take every thread.  The
 * gate owns the listening socket instead.  Its one thread (epoll, edge
 * triggered) accepts each connection, counts it against its client
 * address, and peeks at it (MSG_PEEK: the bytes stay in the socket) until
 * its whole request, head and body, has arrived; only then does it hand
 * the socket to libmicrohttpd, whose thread reads the request at once.
 * Waiting costs a socket and a small record, not a thread.
 *
 * The gate answers, itself and with the security headers, what
 * libmicrohttpd would otherwise answer with a bare error page of its own
 * (it has no hook to add headers to those): a malformed request (400), a
 * head too large (431) or a request line too long (414), a body over the
 * limit (413, at once, without reading it), a transfer coding it does not
 * know (501), another HTTP version (505), a request not all there within
 * SERVER_REQUEST_TIMEOUT_S (408), a client address over its share of
 * connections (429), and a full server (503).
 *
 * Every response of the server carries "Connection: close" (http.c): a
 * kept-alive connection's second request would reach libmicrohttpd
 * without passing the gate.
 *
 * The request's head is checked, and the gate's replies written, in
 * gate_head.c.
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- The connections the gate holds ----------------------------------------- */

typedef enum ConnState {
    CONN_WAITING,               /* its request is still coming                */
    CONN_LINGERING,             /* refused: its input is dropped until the close */
    CONN_IN_TRANSIT,            /* handed to libmicrohttpd, not yet started   */
    CONN_SERVED,                /* libmicrohttpd's, until it closes it        */
} ConnState;

typedef struct GateConn {
    int fd;
    ConnState state;
    struct sockaddr_in peer;
    char address[GATE_ADDRESS_SIZE];   /* the client's, as counted           */
    bool counted;                      /* in its address's share             */
    bool sent_continue;                /* "100 Continue" went out            */
    size_t peeked;                     /* bytes seen at the last look        */
    size_t drained;                    /* lingering: bytes read and dropped  */
    int64_t deadline_ms;               /* waiting: the 408; lingering: the close */
    struct GateConn *prev, *next;      /* in its list                        */
} GateConn;

typedef struct ConnList {
    GateConn *head, *tail;
    int count;
} ConnList;

/* Connections at once from one client address. */
typedef struct AddressCount {
    char address[GATE_ADDRESS_SIZE];
    int count;
    struct AddressCount *next;
} AddressCount;

enum {
    GATE_BUCKETS = 4096,        /* of the address table                       */
    GATE_EVENTS = 256,          /* epoll events taken at once                 */
    GATE_ACCEPT_PAUSE_MS = 100, /* out of file descriptors: accept again after */
    GATE_TICK_MS = 1000,        /* the longest wait between looks at the clock */
};

struct Gate {
    int listen_fd, epoll_fd;
    int wake[2];                        /* a pipe: gate_stop wakes the thread  */
    int max_per_address;
    bool trust_proxy;
    GateHandOff hand_off;
    void *hand_off_ctx;
    pthread_t thread;
    bool running;
    atomic_bool stopping;
    /* The gate thread's own. */
    ConnList waiting;                   /* by deadline: each is appended when accepted */
    ConnList lingering;                 /* by deadline too                    */
    int64_t accept_paused_until;        /* 0: accepting                       */
    char peek[SERVER_MAX_HEAD + SERVER_MAX_CHUNKED + 1];
    /* Shared with libmicrohttpd's threads (gate_started, gate_closed). */
    pthread_mutex_t lock;
    ConnList in_transit;
    int served;                         /* handed off and not yet closed      */
    AddressCount *addresses[GATE_BUCKETS];
};

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void list_append(ConnList *l, GateConn *c)
{
    c->next = NULL;
    c->prev = l->tail;
    if (l->tail) l->tail->next = c;
    else l->head = c;
    l->tail = c;
    l->count++;
}

static void list_remove(ConnList *l, GateConn *c)
{
    if (c->prev) c->prev->next = c->next;
    else l->head = c->next;
    if (c->next) c->next->prev = c->prev;
    else l->tail = c->prev;
    c->prev = c->next = NULL;
    l->count--;
}

/* ---- Connections by client address ----------------------------------------- */

static unsigned address_bucket(const char *address)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)address; *p; p++) h = (h ^ *p) * 16777619u;
    return h % GATE_BUCKETS;
}

typedef enum Admission { ADMITTED, OVER_SHARE, NO_MEMORY } Admission;

/* Counts one more connection from address, unless it has its share. */
static Admission address_take(Gate *g, const char *address)
{
    AddressCount **slot = &g->addresses[address_bucket(address)];
    pthread_mutex_lock(&g->lock);
    AddressCount *a = *slot;
    while (a && strcmp(a->address, address)) a = a->next;
    Admission result = ADMITTED;
    if (!a && (a = calloc(1, sizeof *a))) {
        snprintf(a->address, sizeof a->address, "%s", address);
        a->next = *slot;
        *slot = a;
    }
    if (!a) result = NO_MEMORY;
    else if (a->count >= g->max_per_address) result = OVER_SHARE;
    else a->count++;
    pthread_mutex_unlock(&g->lock);
    return result;
}

/* The sentence of an address refused. */
static const char *refusal_of(const Gate *g, Admission a, char *why, size_t size)
{
    if (a == NO_MEMORY) return "the server is out of memory";
    snprintf(why, size, "at most %d connections at once from one address: wait for some to finish", g->max_per_address);
    return why;
}

/* Ends a connection's count; the caller holds the lock. */
static void address_release_locked(Gate *g, const char *address)
{
    AddressCount **slot = &g->addresses[address_bucket(address)];
    while (*slot && strcmp((*slot)->address, address)) slot = &(*slot)->next;
    AddressCount *a = *slot;
    if (!a) return;
    if (--a->count == 0) {
        *slot = a->next;
        free(a);
    }
}

/* Closes a connection the gate holds (waiting or lingering). */
static void conn_close(Gate *g, GateConn *c)
{
    list_remove(c->state == CONN_WAITING ? &g->waiting : &g->lingering, c);
    close(c->fd);   /* which also takes it out of the epoll set */
    if (c->counted) {
        pthread_mutex_lock(&g->lock);
        address_release_locked(g, c->address);
        pthread_mutex_unlock(&g->lock);
    }
    free(c);
}

/* ---- Refusals ---------------------------------------------------------------- */

/* Sends one of the gate's replies.  The socket is fresh and the reply
 * small, so it fits in the socket's buffer at once; a client that has
 * already gone gets nothing, which is all it could get. */
static void send_reply(int fd, int status, const char *message)
{
    char reply[2048];
    size_t n = gate_format_reply(status, message, reply, sizeof reply);
    if (n) (void)!send(fd, reply, n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Reads and drops what the client sent: a socket closed with unread
 * input sends a reset, which can make the client lose the reply before
 * it reads it.  Up to SERVER_LINGER_BYTES: a client that goes on sending
 * (a refused 50 MiB body) is not read to its end.  false when the
 * connection is to be closed now (the client closed its side, or sent
 * too much). */
static bool drain(Gate *g, int fd, size_t *drained)
{
    while (*drained <= SERVER_LINGER_BYTES) {
        ssize_t n = recv(fd, g->peek, sizeof g->peek, MSG_DONTWAIT);
        if (n == 0) return false;
        if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        *drained += (size_t)n;
    }
    return false;
}

/* Answers a waiting connection and lets it linger: it stays counted
 * against its address until it is closed, so that reconnecting at once
 * gains a client nothing. */
static void refuse(Gate *g, GateConn *c, int status, const char *message)
{
    send_reply(c->fd, status, message);
    shutdown(c->fd, SHUT_WR);
    list_remove(&g->waiting, c);
    c->state = CONN_LINGERING;
    c->deadline_ms = monotonic_ms() + SERVER_LINGER_MS;
    list_append(&g->lingering, c);
    if (g->lingering.count > SERVER_MAX_PENDING || !drain(g, c->fd, &c->drained)) conn_close(g, c);
}

/* Answers a connection refused as it was accepted (the server or its
 * address is full), and closes it, lingering only while there is room:
 * a flood of refused connections must not hold the server's files. */
static void refuse_at_door(Gate *g, int fd, const struct sockaddr_in *peer, int status, const char *message)
{
    send_reply(fd, status, message);
    shutdown(fd, SHUT_WR);
    GateConn *c = g->lingering.count < SERVER_MAX_PENDING ? calloc(1, sizeof *c) : NULL;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = c };
    if (!c || epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, fd, &ev)) {
        size_t drained = 0;
        drain(g, fd, &drained);
        close(fd);
        free(c);
        return;
    }
    c->fd = fd;
    c->peer = *peer;
    c->state = CONN_LINGERING;
    c->deadline_ms = monotonic_ms() + SERVER_LINGER_MS;
    list_append(&g->lingering, c);
}

/* ---- Accepting --------------------------------------------------------------- */

/* A connection handed off whose socket number comes back from accept was
 * closed by libmicrohttpd without a word (it failed to start it, which
 * only running out of memory does): its count ends here. */
static void forget_lost(Gate *g, int fd)
{
    pthread_mutex_lock(&g->lock);
    for (GateConn *c = g->in_transit.head, *next; c; c = next) {
        next = c->next;
        if (c->fd != fd) continue;
        list_remove(&g->in_transit, c);
        g->served--;
        if (c->counted) address_release_locked(g, c->address);
        free(c);
    }
    pthread_mutex_unlock(&g->lock);
}

/* Takes in one accepted connection: counted against its address (unless
 * the address is only known from X-Forwarded-For, once the head is in),
 * then watched until its request is all there. */
static void take_in(Gate *g, int fd, const struct sockaddr_in *peer)
{
    char address[GATE_ADDRESS_SIZE];
    inet_ntop(AF_INET, &peer->sin_addr, address, sizeof address);
    forget_lost(g, fd);
    if (g->waiting.count >= SERVER_MAX_PENDING) {
        refuse_at_door(g, fd, peer, 503, "the server holds as many incoming connections as it can: try again in a moment");
        return;
    }
    if (!g->trust_proxy) {
        Admission a = address_take(g, address);
        if (a != ADMITTED) {
            char why[160];
            refuse_at_door(g, fd, peer, a == OVER_SHARE ? 429 : 503, refusal_of(g, a, why, sizeof why));
            return;
        }
    }
    GateConn *c = calloc(1, sizeof *c);
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = c };
    if (!c || epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, fd, &ev)) {
        if (!g->trust_proxy) {
            pthread_mutex_lock(&g->lock);
            address_release_locked(g, address);
            pthread_mutex_unlock(&g->lock);
        }
        free(c);
        close(fd);
        return;
    }
    c->fd = fd;
    c->peer = *peer;
    c->counted = !g->trust_proxy;
    snprintf(c->address, sizeof c->address, "%s", address);
    c->state = CONN_WAITING;
    c->deadline_ms = monotonic_ms() + SERVER_REQUEST_TIMEOUT_S * 1000;
    list_append(&g->waiting, c);
}

/* Accepts every connection queued (the listening socket is edge
 * triggered); out of file descriptors, it pauses a moment and the
 * kernel keeps the rest queued. */
static void accept_all(Gate *g)
{
    g->accept_paused_until = 0;
    for (;;) {
        struct sockaddr_in peer;
        socklen_t len = sizeof peer;
        int fd = accept(g->listen_fd, (struct sockaddr *)&peer, &len);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO) continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                g->accept_paused_until = monotonic_ms() + GATE_ACCEPT_PAUSE_MS;
            return;
        }
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) || fcntl(fd, F_SETFD, FD_CLOEXEC) ||
            len != sizeof peer || peer.sin_family != AF_INET) {
            close(fd);
            continue;
        }
        take_in(g, fd, &peer);
    }
}

/* ---- Handing off --------------------------------------------------------------- */

/* With --trust-proxy, a connection is counted once its head is in, under
 * X-Forwarded-For's last address (the proxy's own when it has none);
 * false when it was refused instead. */
static bool count_forwarded(Gate *g, GateConn *c, const GateHead *h)
{
    if (h->forwarded_for_invalid) {
        refuse(g, c, 400, "X-Forwarded-For must end with the client's IP address");
        return false;
    }
    if (h->forwarded_for[0]) snprintf(c->address, sizeof c->address, "%s", h->forwarded_for);
    Admission a = address_take(g, c->address);
    if (a != ADMITTED) {
        char why[160];
        refuse(g, c, a == OVER_SHARE ? 429 : 503, refusal_of(g, a, why, sizeof why));
        return false;
    }
    c->counted = true;
    return true;
}

/* The request is all there: the connection goes to libmicrohttpd. */
static void hand_off(Gate *g, GateConn *c, const GateHead *h)
{
    if (g->trust_proxy && !count_forwarded(g, c, h)) return;
    pthread_mutex_lock(&g->lock);
    bool full = g->served >= SERVER_MAX_CONNECTIONS;
    pthread_mutex_unlock(&g->lock);
    if (full) {
        refuse(g, c, 503, "the server is serving as many connections as it can: try again in a moment");
        return;
    }
    epoll_ctl(g->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    list_remove(&g->waiting, c);
    c->state = CONN_IN_TRANSIT;
    pthread_mutex_lock(&g->lock);
    g->served++;
    list_append(&g->in_transit, c);
    pthread_mutex_unlock(&g->lock);
    /* Once handed off, the record is libmicrohttpd's threads' to free
     * (gate_closed): it is not touched again here unless refused. */
    int fd = c->fd;
    struct sockaddr_in peer = c->peer;
    if (!g->hand_off(g->hand_off_ctx, fd, &peer)) {
        pthread_mutex_lock(&g->lock);
        list_remove(&g->in_transit, c);
        g->served--;
        if (c->counted) address_release_locked(g, c->address);
        pthread_mutex_unlock(&g->lock);
        free(c);
    }
}

/* Looks at what a waiting connection has sent so far. */
static void look(Gate *g, GateConn *c, uint32_t events)
{
    ssize_t n = recv(c->fd, g->peek, sizeof g->peek, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        conn_close(g, c);
        return;
    }
    bool ended = events & (EPOLLRDHUP | EPOLLHUP);
    /* Nothing new (each segment wakes the gate, and a look re-reads from
     * the start): the check is not done again. */
    if (n < 0 || ((size_t)n == c->peeked && !ended)) return;
    c->peeked = (size_t)n;
    GateHead h;
    gate_check_head(g->peek, (size_t)n, &h);
    if (h.verdict == GATE_REFUSED) {
        refuse(g, c, h.status, h.reason);
    } else if (h.verdict == GATE_COMPLETE) {
        hand_off(g, c, &h);
    } else if (ended) {
        refuse(g, c, 400, "the connection was shut before the request was complete");
    } else if (h.expects_continue && !c->sent_continue) {
        static const char CONTINUE[] = "HTTP/1.1 100 Continue\r\n\r\n";
        c->sent_continue = true;
        (void)!send(c->fd, CONTINUE, sizeof CONTINUE - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
}

/* Refuses the requests past their time, closes the refusals past theirs. */
static void expire(Gate *g, int64_t now)
{
    char why[160];
    snprintf(why, sizeof why, "the request did not all arrive within %d seconds", SERVER_REQUEST_TIMEOUT_S);
    while (g->waiting.head && g->waiting.head->deadline_ms <= now) refuse(g, g->waiting.head, 408, why);
    while (g->lingering.head && g->lingering.head->deadline_ms <= now) conn_close(g, g->lingering.head);
}

/* Milliseconds until the next deadline. */
static int next_wait(const Gate *g, int64_t now)
{
    int64_t next = now + GATE_TICK_MS;
    if (g->waiting.head && g->waiting.head->deadline_ms < next) next = g->waiting.head->deadline_ms;
    if (g->lingering.head && g->lingering.head->deadline_ms < next) next = g->lingering.head->deadline_ms;
    if (g->accept_paused_until && g->accept_paused_until < next) next = g->accept_paused_until;
    return next > now ? (int)(next - now) : 0;
}

static void *gate_thread(void *arg)
{
    Gate *g = arg;
    struct epoll_event events[GATE_EVENTS];
    while (!atomic_load(&g->stopping)) {
        int n = epoll_wait(g->epoll_fd, events, GATE_EVENTS, next_wait(g, monotonic_ms()));
        for (int i = 0; i < n; i++) {
            void *what = events[i].data.ptr;
            if (what == &g->listen_fd) {
                if (!g->accept_paused_until) accept_all(g);
            } else if (what != &g->wake[0]) {
                GateConn *c = what;
                if (c->state == CONN_WAITING) look(g, c, events[i].events);
                else if (!drain(g, c->fd, &c->drained)) conn_close(g, c);
            }
        }
        int64_t now = monotonic_ms();
        if (g->accept_paused_until && g->accept_paused_until <= now) accept_all(g);
        expire(g, now);
    }
    return NULL;
}

/* ---- Starting and stopping --------------------------------------------------- */

static void gate_close_fds(Gate *g)
{
    if (g->listen_fd >= 0) close(g->listen_fd);
    if (g->epoll_fd >= 0) close(g->epoll_fd);
    for (int i = 0; i < 2; i++)
        if (g->wake[i] >= 0) close(g->wake[i]);
    g->listen_fd = g->epoll_fd = g->wake[0] = g->wake[1] = -1;
}

/* The listening socket, bound to the configured address. */
static bool gate_listen(Gate *g, const ServerConfig *cfg, Text *err)
{
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)cfg->port) };
    if (inet_pton(AF_INET, cfg->host, &addr.sin_addr) != 1)
        return text_fail(err, "--host must be an IPv4 address such as 127.0.0.1, not '%s'", cfg->host), false;
    g->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1;
    if (g->listen_fd < 0 || setsockopt(g->listen_fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) ||
        bind(g->listen_fd, (struct sockaddr *)&addr, sizeof addr) || listen(g->listen_fd, SERVER_LISTEN_BACKLOG))
        return text_fail(err, "cannot listen on %s:%d (%s)", cfg->host, cfg->port, strerror(errno)), false;
    return true;
}

/* The epoll set: the listening socket and the wake-up pipe. */
static bool gate_watch(Gate *g, Text *err)
{
    g->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (g->epoll_fd < 0 || pipe(g->wake))
        return text_fail(err, "cannot start the connection gate (%s)", strerror(errno)), false;
    struct epoll_event on_listen = { .events = EPOLLIN | EPOLLET, .data.ptr = &g->listen_fd };
    struct epoll_event on_wake = { .events = EPOLLIN, .data.ptr = &g->wake[0] };
    if (epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, g->listen_fd, &on_listen) ||
        epoll_ctl(g->epoll_fd, EPOLL_CTL_ADD, g->wake[0], &on_wake))
        return text_fail(err, "cannot start the connection gate (%s)", strerror(errno)), false;
    return true;
}

Gate *gate_open(const ServerConfig *cfg, Text *err)
{
    Gate *g = calloc(1, sizeof *g);
    if (!g) return text_fail(err, "out of memory"), NULL;
    g->listen_fd = g->epoll_fd = g->wake[0] = g->wake[1] = -1;
    g->max_per_address = cfg->max_per_address > 0 ? cfg->max_per_address : SERVER_MAX_PER_ADDRESS;
    g->trust_proxy = cfg->trust_proxy;
    pthread_mutex_init(&g->lock, NULL);
    if (!gate_listen(g, cfg, err) || !gate_watch(g, err)) {
        gate_close_fds(g);
        pthread_mutex_destroy(&g->lock);
        free(g);
        return NULL;
    }
    return g;
}

bool gate_start(Gate *g, GateHandOff hand_off_to, void *ctx, Text *err)
{
    g->hand_off = hand_off_to;
    g->hand_off_ctx = ctx;
    int rc = pthread_create(&g->thread, NULL, gate_thread, g);
    if (rc) return text_fail(err, "cannot start the connection gate's thread (%s)", strerror(rc)), false;
    g->running = true;
    return true;
}

void gate_stop(Gate *g)
{
    if (!g) return;
    if (g->running) {
        atomic_store(&g->stopping, true);
        (void)!write(g->wake[1], "x", 1);
        pthread_join(g->thread, NULL);
        g->running = false;
    }
    while (g->waiting.head) conn_close(g, g->waiting.head);
    while (g->lingering.head) conn_close(g, g->lingering.head);
    gate_close_fds(g);
}

void gate_free(Gate *g)
{
    if (!g) return;
    gate_stop(g);
    /* Handed off but never started: libmicrohttpd closed them as it stopped. */
    while (g->in_transit.head) {
        GateConn *c = g->in_transit.head;
        list_remove(&g->in_transit, c);
        free(c);
    }
    for (int i = 0; i < GATE_BUCKETS; i++)
        while (g->addresses[i]) {
            AddressCount *a = g->addresses[i];
            g->addresses[i] = a->next;
            free(a);
        }
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void *gate_started(Gate *g, int fd)
{
    pthread_mutex_lock(&g->lock);
    GateConn *c = g->in_transit.head;
    while (c && c->fd != fd) c = c->next;
    if (c) {
        list_remove(&g->in_transit, c);
        c->state = CONN_SERVED;
    }
    pthread_mutex_unlock(&g->lock);
    return c;
}

void gate_closed(Gate *g, void *connection)
{
    GateConn *c = connection;
    if (!c) return;
    pthread_mutex_lock(&g->lock);
    g->served--;
    if (c->counted) address_release_locked(g, c->address);
    pthread_mutex_unlock(&g->lock);
    free(c);
}

const char *gate_address(const void *connection)
{
    return connection ? ((const GateConn *)connection)->address : NULL;
}
