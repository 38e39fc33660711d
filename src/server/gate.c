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
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- The request's head, checked ------------------------------------------- */

const char *const SERVER_SECURITY_HEADERS[SERVER_SECURITY_HEADER_COUNT][2] = {
    { "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'" },
    { "X-Content-Type-Options", "nosniff" },
    { "Referrer-Policy", "same-origin" },
    { "X-Frame-Options", "DENY" },
};

/* The scan of one request's bytes: where it is, and what the head said. */
typedef struct HeadScan {
    const char *data;
    size_t len;
    GateHead *out;
    bool http11;
    int fields;                 /* header fields and cookies so far          */
    int hosts, lengths, encodings;
    bool expects_continue;      /* Expect: 100-continue                      */
    uint64_t content_length;
    const char *forwarded;      /* X-Forwarded-For's last element, and ...   */
    size_t forwarded_len;       /* ... its length                            */
} HeadScan;

static bool reject(GateHead *h, int status, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Marks the request refused with status and a sentence; returns false so
 * that a check can end with `return reject(...)`. */
static bool reject(GateHead *h, int status, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(h->reason, sizeof h->reason, format, ap);
    va_end(ap);
    h->verdict = GATE_REFUSED;
    h->status = status;
    return false;
}

static bool reject_too_large(GateHead *h)
{
    return reject(h, 413, "the request is too large (%d KiB at most)", SERVER_MAX_BODY / 1024);
}

/* RFC 9110's token characters: methods and header names. */
static bool is_token_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* A header value's characters: visible ASCII, space, tab and bytes of
 * UTF-8 (obs-text); never another control character, which could end a
 * line for one reader and not for another. */
static bool is_value_char(unsigned char c)
{
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

/* A request target's characters: visible ASCII only (no space, which
 * libmicrohttpd would take into the path). */
static bool is_target_char(unsigned char c)
{
    return c > 0x20 && c < 0x7f;
}

static bool same_name(const char *name, size_t n, const char *expected)
{
    return strlen(expected) == n && !strncasecmp(name, expected, n);
}

/* Query arguments of a target: libmicrohttpd keeps a record of each in
 * the connection's memory, so they are counted like header fields. */
static int query_arguments(const char *target, size_t n)
{
    const char *query = memchr(target, '?', n);
    if (!query) return 0;
    int count = 1;
    for (const char *p = query; p < target + n; p++) count += *p == '&';
    return count;
}

/* Does the target hold "%00"?  libmicrohttpd decodes it to a NUL, which
 * ends the path the server sees ("/index.html%00/../x" would read as
 * "/index.html"): a target that needs one is up to no good. */
static bool has_escaped_nul(const char *target, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (target[i] == '%' && target[i + 1] == '0' && target[i + 2] == '0') return true;
    return false;
}

/* METHOD SP TARGET SP HTTP/1.x, the line without its CR LF. */
static bool check_request_line(HeadScan *s, const char *line, size_t n)
{
    GateHead *h = s->out;
    size_t i = 0;
    while (i < n && is_token_char((unsigned char)line[i])) i++;
    if (i == 0 || i == n || line[i] != ' ')
        return reject(h, 400, "the request line must be METHOD TARGET HTTP/1.1, with one space between each");
    const char *target = line + ++i;
    while (i < n && is_target_char((unsigned char)line[i])) i++;
    size_t target_len = (size_t)(line + i - target);
    if (target_len == 0 || i == n || line[i] != ' ')
        return reject(h, 400, "the request line must be METHOD TARGET HTTP/1.1, and the target printable ASCII "
                              "without spaces");
    const char *version = line + i + 1;
    size_t version_len = n - i - 1;
    if (version_len != 8 || strncmp(version, "HTTP/", 5) || version[6] != '.' || version[5] < '0' ||
        version[5] > '9' || version[7] < '0' || version[7] > '9')
        return reject(h, 400, "the request line must end with the HTTP version, such as HTTP/1.1");
    if (strncmp(version, "HTTP/1.1", 8) && strncmp(version, "HTTP/1.0", 8))
        return reject(h, 505, "only HTTP/1.0 and HTTP/1.1 are spoken here");
    s->http11 = version[7] == '1';
    if (has_escaped_nul(target, target_len)) return reject(h, 400, "the request target may not hold %%00 (a NUL byte)");
    if (query_arguments(target, target_len) > SERVER_MAX_FIELDS)
        return reject(h, 414, "the request has too many query arguments (%d at most)", SERVER_MAX_FIELDS);
    return true;
}

/* A Content-Length: digits only, as libmicrohttpd reads it (no space
 * after them either), and within the body limit. */
static bool check_content_length(HeadScan *s, const char *value, size_t n)
{
    GateHead *h = s->out;
    if (++s->lengths > 1) return reject(h, 400, "the request has more than one Content-Length header");
    if (n == 0) return reject(h, 400, "the Content-Length header must be a number of bytes");
    uint64_t length = 0;
    for (size_t i = 0; i < n; i++) {
        if (value[i] < '0' || value[i] > '9') return reject(h, 400, "the Content-Length header must be a number of bytes");
        /* Past the limit the number need not be read further: the body
         * is refused whatever its exact size (and nothing overflows). */
        if (length <= SERVER_MAX_BODY) length = length * 10 + (uint64_t)(value[i] - '0');
    }
    if (length > SERVER_MAX_BODY) return reject_too_large(h);
    s->content_length = length;
    return true;
}

/* Cookies: libmicrohttpd keeps a record of each (split at ';' and ','),
 * so each counts as a field. */
static int cookies_in(const char *value, size_t n)
{
    int count = 1;
    for (size_t i = 0; i < n; i++) count += value[i] == ';' || value[i] == ',';
    return count;
}

/* The meaning of the headers the gate acts on; `value` starts after the
 * optional white space and `trimmed` leaves it out at the end too. */
static bool check_field(HeadScan *s, const char *name, size_t name_len, const char *value, size_t value_len,
                        size_t trimmed)
{
    GateHead *h = s->out;
    if (same_name(name, name_len, "Host")) {
        if (++s->hosts > 1) return reject(h, 400, "the request has more than one Host header");
    } else if (same_name(name, name_len, "Content-Length")) {
        return check_content_length(s, value, value_len);
    } else if (same_name(name, name_len, "Transfer-Encoding")) {
        if (++s->encodings > 1) return reject(h, 400, "the request has more than one Transfer-Encoding header");
        if (value_len != 7 || strncasecmp(value, "chunked", 7))
            return reject(h, 501, "only the chunked transfer coding is understood here");
    } else if (same_name(name, name_len, "Expect")) {
        s->expects_continue = trimmed == 12 && !strncasecmp(value, "100-continue", 12);
    } else if (same_name(name, name_len, "Cookie")) {
        s->fields += cookies_in(value, trimmed);
    } else if (same_name(name, name_len, "X-Forwarded-For")) {
        /* The last element is the address the nearest proxy saw. */
        const char *last = value;
        for (const char *p = value; p < value + trimmed; p++)
            if (*p == ',') last = p + 1;
        while (last < value + trimmed && (*last == ' ' || *last == '\t')) last++;
        s->forwarded = last;
        s->forwarded_len = (size_t)(value + trimmed - last);
    }
    return true;
}

/* NAME ":" OWS VALUE OWS, the line without its CR LF. */
static bool check_header_line(HeadScan *s, const char *line, size_t n)
{
    GateHead *h = s->out;
    if (n && (line[0] == ' ' || line[0] == '\t'))
        return reject(h, 400, "a header line may not start with white space (folded headers are not accepted)");
    size_t i = 0;
    while (i < n && is_token_char((unsigned char)line[i])) i++;
    if (i == 0 || i == n || line[i] != ':')
        return reject(h, 400, "a header line must be NAME: VALUE, with no space before the colon");
    size_t name_len = i++;
    while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
    const char *value = line + i;
    size_t value_len = n - i, trimmed = value_len;
    for (size_t k = 0; k < value_len; k++)
        if (!is_value_char((unsigned char)value[k]))
            return reject(h, 400, "a header value may not hold control characters");
    while (trimmed && (value[trimmed - 1] == ' ' || value[trimmed - 1] == '\t')) trimmed--;
    if (++s->fields > SERVER_MAX_FIELDS) goto too_many;
    if (!check_field(s, line, name_len, value, value_len, trimmed)) return false;
    if (s->fields > SERVER_MAX_FIELDS) goto too_many;
    return true;
too_many:
    return reject(h, 431, "the request has too many header fields and cookies (%d at most)", SERVER_MAX_FIELDS);
}

/* What the head as a whole must say: a Host for HTTP/1.1, one way to
 * know the body's length (two would let two readers disagree on where
 * the request ends), and no chunks in HTTP/1.0; X-Forwarded-For read. */
static bool check_framing(HeadScan *s)
{
    GateHead *h = s->out;
    if (s->http11 && !s->hosts) return reject(h, 400, "an HTTP/1.1 request must have a Host header");
    if (s->encodings && s->lengths)
        return reject(h, 400, "the request has both Content-Length and Transfer-Encoding headers");
    if (s->encodings && !s->http11) return reject(h, 400, "HTTP/1.0 has no chunked transfer coding");
    if (s->forwarded) {
        char text[GATE_ADDRESS_SIZE];
        unsigned char binary[sizeof(struct in6_addr)];
        h->forwarded_for_invalid = true;
        if (s->forwarded_len < sizeof text) {
            memcpy(text, s->forwarded, s->forwarded_len);
            text[s->forwarded_len] = '\0';
            int family = strchr(text, ':') ? AF_INET6 : AF_INET;
            if (inet_pton(family, text, binary) == 1 && inet_ntop(family, binary, h->forwarded_for, sizeof h->forwarded_for))
                h->forwarded_for_invalid = false;
        }
    }
    return true;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A chunk size line without its CR LF: hexadecimal digits, then an
 * extension after ';' if any.  The size is read no further than past
 * SERVER_MAX_BODY (such a chunk is refused whatever its exact size, and
 * nothing overflows). */
static bool read_chunk_size(GateHead *h, const char *line, size_t n, uint64_t *size)
{
    size_t i = 0;
    *size = 0;
    for (int digit; i < n && (digit = hex_digit(line[i])) >= 0; i++)
        if (*size <= SERVER_MAX_BODY) *size = *size * 16 + (uint64_t)digit;
    if (i == 0 || (i < n && line[i] != ';')) return reject(h, 400, "a chunk must start with its size in hexadecimal");
    for (; i < n; i++)
        if (!is_value_char((unsigned char)line[i]))
            return reject(h, 400, "a chunk extension may not hold control characters");
    return true;
}

/* A chunked body from `pos`: each chunk's size line ending with CR LF,
 * its data and CR LF, the last chunk "0" and a blank line (no trailer
 * fields).  The sizes count against SERVER_MAX_BODY as soon as they are
 * read, so a body over the limit is refused without waiting for its
 * data; everything as sent counts against SERVER_MAX_CHUNKED. */
static void check_chunked_body(HeadScan *s, size_t pos)
{
    GateHead *h = s->out;
    const char *data = s->data;
    size_t start = pos;
    uint64_t total = 0, size;
    for (;;) {
        const char *lf = memchr(data + pos, '\n', s->len - pos);
        if (!lf) {
            if (s->len - start > SERVER_MAX_CHUNKED) reject_too_large(h);
            return;
        }
        size_t line_len = (size_t)(lf - (data + pos));
        if (line_len == 0 || data[pos + line_len - 1] != '\r') {
            reject(h, 400, "a chunk size line must end with CR LF");
            return;
        }
        if (!read_chunk_size(h, data + pos, line_len - 1, &size)) return;
        total += size;
        pos += line_len + 1;
        /* The chunk's data and its CR LF (after the last chunk, the blank
         * line that ends the body). */
        size_t need = (size_t)size + 2;
        if (total > SERVER_MAX_BODY || pos + need - start > SERVER_MAX_CHUNKED) {
            reject_too_large(h);
            return;
        }
        if (s->len - pos < need) {
            /* A last chunk followed by anything but the blank line starts
             * a trailer: refused now rather than when it ends. */
            if (size == 0 && s->len > pos && data[pos] != '\r')
                reject(h, 400, "trailer fields after a chunked body are not accepted");
            return;
        }
        if (data[pos + size] != '\r' || data[pos + size + 1] != '\n') {
            reject(h, 400, size ? "a chunk's data must end with CR LF, as long as its size says"
                                : "trailer fields after a chunked body are not accepted");
            return;
        }
        pos += need;
        if (size == 0) {
            h->verdict = GATE_COMPLETE;
            h->length = pos;
            return;
        }
    }
}

/* The body after a complete head: complete when all of it is there. */
static void check_body(HeadScan *s)
{
    GateHead *h = s->out;
    bool complete;
    if (s->encodings) {
        check_chunked_body(s, h->head_len);
        complete = h->verdict == GATE_COMPLETE;
    } else {
        complete = s->len - h->head_len >= s->content_length;
        if (complete) {
            h->verdict = GATE_COMPLETE;
            h->length = h->head_len + (size_t)s->content_length;
        }
    }
    /* "100 Continue" makes sense only while a body is awaited. */
    h->expects_continue = s->expects_continue && s->http11 && !complete && h->verdict == GATE_INCOMPLETE;
}

void gate_check_head(const char *data, size_t len, GateHead *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = GATE_INCOMPLETE;
    HeadScan s = { .data = data, .len = len, .out = out };
    size_t pos = 0;
    /* Blank lines before the request line are ignored, as RFC 9112 asks
     * (and libmicrohttpd does). */
    while (pos + 1 < len && pos < SERVER_MAX_HEAD && data[pos] == '\r' && data[pos + 1] == '\n') pos += 2;
    bool first = true;
    for (;;) {
        /* A line must end within its limit: the request line's own, and
         * the head's for every line. */
        size_t head_room = pos < SERVER_MAX_HEAD ? SERVER_MAX_HEAD - pos : 0;
        bool line_limited = first && SERVER_MAX_REQUEST_LINE + 2 < head_room;
        size_t limit = line_limited ? SERVER_MAX_REQUEST_LINE + 2 : head_room;
        size_t avail = len - pos < limit ? len - pos : limit;
        const char *lf = memchr(data + pos, '\n', avail);
        if (!lf) {
            if (avail < limit) return;   /* the line is not all there yet */
            if (line_limited) reject(out, 414, "the request line is too long (%d bytes at most)", SERVER_MAX_REQUEST_LINE);
            else reject(out, 431, "the request's headers are too large (%d KiB at most)", SERVER_MAX_HEAD / 1024);
            return;
        }
        size_t line_len = (size_t)(lf - (data + pos));
        if (line_len == 0 || data[pos + line_len - 1] != '\r') {
            reject(out, 400, "each line of the request's head must end with CR LF");
            return;
        }
        const char *line = data + pos;
        size_t n = line_len - 1;
        pos += line_len + 1;
        if (first) {
            if (!check_request_line(&s, line, n)) return;
            first = false;
        } else if (n == 0) {
            break;
        } else if (!check_header_line(&s, line, n)) {
            return;
        }
    }
    if (pos > SERVER_MAX_HEAD) {
        reject(out, 431, "the request's headers are too large (%d KiB at most)", SERVER_MAX_HEAD / 1024);
        return;
    }
    out->head_len = pos;
    if (!check_framing(&s)) return;
    check_body(&s);
}

/* ---- The gate's own replies ------------------------------------------------ */

static const char *reason_phrase(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* Writes `s` JSON-escaped into out (the gate's sentences are ASCII, but
 * an escape costs nothing); false when it does not fit. */
static bool json_escaped(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char piece[8];
        if (c == '"' || c == '\\') snprintf(piece, sizeof piece, "\\%c", c);
        else if (c < 0x20) snprintf(piece, sizeof piece, "\\u%04x", c);
        else snprintf(piece, sizeof piece, "%c", c);
        size_t k = strlen(piece);
        if (n + k >= size) return false;
        memcpy(out + n, piece, k);
        n += k;
    }
    out[n] = '\0';
    return true;
}

size_t gate_format_reply(int status, const char *message, char *out, size_t size)
{
    char escaped[512];
    if (!json_escaped(message, escaped, sizeof escaped)) return 0;
    char body[600];
    int body_len = snprintf(body, sizeof body, "{\"error\":\"%s\"}", escaped);
    if (body_len < 0 || (size_t)body_len >= sizeof body) return 0;
    int n = snprintf(out, size,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n",
                     status, reason_phrase(status), body_len);
    for (int i = 0; i < SERVER_SECURITY_HEADER_COUNT && n >= 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, "%s: %s\r\n", SERVER_SECURITY_HEADERS[i][0],
                      SERVER_SECURITY_HEADERS[i][1]);
    if (n >= 0 && (size_t)n < size) n += snprintf(out + n, size - (size_t)n, "\r\n%s", body);
    return n >= 0 && (size_t)n < size ? (size_t)n : 0;
}

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
