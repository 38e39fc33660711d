/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gate's reading of a request (server.h, "gate.c"): the bytes of a
 * request received so far, checked as a pure function (gate_check_head),
 * and the gate's own replies with the security headers
 * (gate_format_reply).  gate.c holds the connections and calls these;
 * keeping them apart leaves them free of sockets, so that the fuzzers
 * (fuzz_head) and tests call them directly.
 *
 * The checks are at least as strict as libmicrohttpd 0.9.75, so that what
 * they let through libmicrohttpd reads without an error page of its own
 * (it has no hook to add the security headers to those).
 */
#include "server.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- The request's head, checked ------------------------------------------- */

/* 'wasm-unsafe-eval' lets the page compile the library's WebAssembly build
 * (web/dist/ttchess.wasm, served from here); it allows no eval of script. */
const char *const SERVER_SECURITY_HEADERS[SERVER_SECURITY_HEADER_COUNT][2] = {
    { "Content-Security-Policy",
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
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

/* ---- What the head asks of the reply ----------------------------------------- */

bool http_accepts_gzip(const char *accept_encoding)
{
    const char *all = accept_encoding;
    for (const char *p = all ? strstr(all, "gzip") : NULL; p; p = strstr(p + 4, "gzip")) {
        const char *after = p + 4 + strspn(p + 4, " \t");
        bool whole = (p == all || p[-1] == ' ' || p[-1] == ',' || p[-1] == '\t') &&
                     (!*after || *after == ',' || *after == ';');
        if (!whole) continue;
        if (*after != ';') return true;
        const char *q = after + 1 + strspn(after + 1, " \t");
        if (strncmp(q, "q=", 2)) return true;
        return strtod(q + 2, NULL) > 0;
    }
    return false;
}
