/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gate's reading of a request (src/server/gate.c, gate_check_head):
 * the input is the bytes a client sends, as they are.
 *
 * Properties:
 *
 *   - a refusal has a status the gate may give (400, 413, 414, 431, 501,
 *     505) and a sentence (not cut short), and gate_format_reply makes of it a whole
 *     reply: its status line, Content-Length equal to the body's length,
 *     "Connection: close", every security header, and {"error": the
 *     sentence} as JSON (jansson reads it back);
 *   - a complete request lies within the input and the limits (a head of
 *     SERVER_MAX_HEAD bytes at most, a body of SERVER_MAX_CHUNKED as sent);
 *   - what the gate lets through, libmicrohttpd 0.9.75 reads without an
 *     error page of its own and as the same request: a reader written
 *     here after its connection.c (get_next_header_line, the request
 *     line's parse_initial_message_line and parse_http_version,
 *     process_header_line and folded lines at MHD_OPTION_STRICT_FOR_CLIENT
 *     -1, parse_connection_headers' Transfer-Encoding and Content-Length,
 *     process_request_body's chunks and the footers) must accept it, end
 *     it at the same byte, find a body of SERVER_MAX_BODY bytes at most,
 *     and count no more header fields, cookies and query arguments than
 *     the limits (so that its memory, SERVER_MHD_MEMORY, holds them);
 *   - the verdict does not depend on how the bytes came: every prefix of
 *     a complete request is incomplete, bytes after a complete request
 *     change nothing, and a refusal stays a refusal, with its status, when
 *     more bytes come;
 *   - X-Forwarded-For's address, when given, is an IP address in its
 *     usual spelling (inet_pton and inet_ntop give it back unchanged);
 *   - the input read as an Accept-Encoding value (up to its first NUL)
 *     accepts gzip only when it names "gzip".
 */
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <strings.h>

#include "api_fixture.h"
#include "fuzz.h"
#include "server.h"

/* ---- libmicrohttpd 0.9.75's reading, mirrored ------------------------------- */

typedef struct MhdRead {
    bool ok;              /* read without an error page or a close        */
    const char *why;      /* else what libmicrohttpd would do             */
    size_t end;           /* where the request ends                       */
    uint64_t body;        /* the body's bytes (decoded)                   */
    int headers, cookies, arguments;
} MhdRead;

static bool mhd_fail(MhdRead *r, const char *why)
{
    r->ok = false;
    r->why = why;
    return false;
}

/* get_next_header_line: a line ends at CR LF or at a bare LF. */
static bool mhd_line(const char *d, size_t len, size_t *pos, size_t *start, size_t *n)
{
    for (size_t i = *pos; i < len; i++) {
        if (d[i] == '\r' && i + 1 < len && d[i + 1] == '\n') {
            *start = *pos, *n = i - *pos, *pos = i + 2;
            return true;
        }
        if (d[i] == '\n') {
            *start = *pos, *n = i - *pos, *pos = i + 1;
            return true;
        }
    }
    return false;
}

/* parse_http_version: "HTTP/d.d", and only 1.x. */
static bool mhd_version(MhdRead *r, const char *v, size_t n)
{
    if (n != 8 || strncmp(v, "HTTP/", 5) || v[6] != '.' || v[5] < '0' || v[5] > '9' || v[7] < '0' || v[7] > '9')
        return mhd_fail(r, "400 from parse_http_version");
    if (v[5] != '1') return mhd_fail(r, "505 from parse_http_version");
    return true;
}

/* parse_initial_message_line, at strictness -1 (spaces skipped). */
static bool mhd_request_line(MhdRead *r, const char *line, size_t n)
{
    const char *uri = memchr(line, ' ', n);
    if (!uri || uri == line) return mhd_fail(r, "a close: no method");
    uri++;
    while (uri < line + n && *uri == ' ') uri++;
    if (uri == line + n) return mhd_version(r, "", 0);
    const char *v = line + n - 1;
    while (*v == ' ' && v > uri) v--;
    while (*v != ' ' && v > uri) v--;
    if (v <= uri) return mhd_version(r, "", 0);
    if (!mhd_version(r, v + 1, (size_t)(line + n - (v + 1)))) return false;
    const char *query = memchr(uri, '?', (size_t)(v - uri));
    if (query) {
        r->arguments = 1;
        for (const char *p = query; p < v; p++) r->arguments += *p == '&';
    }
    return true;
}

/* A header as libmicrohttpd keeps it: the name, and the value from its
 * first character that is not a space or tab to the line's end. */
typedef struct MhdHeader {
    char name[64];
    char value[SERVER_MAX_HEAD + 1];
    bool truncated_name;
} MhdHeader;

/* process_header_line: a colon, and at strictness -1 no space or tab
 * before it (the line is a C string there: a NUL ends it). */
static bool mhd_header_line(MhdRead *r, const char *line, size_t n, MhdHeader *h)
{
    if (memchr(line, '\0', n)) return mhd_fail(r, "a NUL in a header line");
    const char *colon = memchr(line, ':', n);
    if (!colon) return mhd_fail(r, "400 from process_header_line: no colon");
    for (const char *p = line; p < colon; p++)
        if (*p == ' ' || *p == '\t') return mhd_fail(r, "400 from process_header_line: space before the colon");
    size_t name_len = (size_t)(colon - line);
    h->truncated_name = name_len >= sizeof h->name;
    snprintf(h->name, sizeof h->name, "%.*s", (int)name_len, line);
    const char *v = colon + 1;
    while (v < line + n && (*v == ' ' || *v == '\t')) v++;
    snprintf(h->value, sizeof h->value, "%.*s", (int)(line + n - v), v);
    return true;
}

/* MHD_str_to_uint64_n_ and MHD_strx_to_uint64_n_: the digits read (0 on
 * overflow), and the value. */
static size_t mhd_number(const char *s, size_t n, int base, uint64_t *value)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < n; i++) {
        int d = s[i] >= '0' && s[i] <= '9'              ? s[i] - '0'
                : base == 16 && s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                : base == 16 && s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10
                                                           : -1;
        if (d < 0) break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return 0;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *value = v;
    return i;
}

/* The footers after the last chunk: header lines to a blank one. */
static bool mhd_footers(MhdRead *r, const char *d, size_t len, size_t pos)
{
    size_t start, n;
    MhdHeader *h = malloc(sizeof *h);
    if (!h) abort();
    bool ok = true;
    for (;;) {
        if (!mhd_line(d, len, &pos, &start, &n)) {
            ok = mhd_fail(r, "the footers never end");
            break;
        }
        if (n == 0) break;
        if (d[start] == ' ' || d[start] == '\t') continue;
        if (!mhd_header_line(r, d + start, n, h)) {
            ok = false;
            break;
        }
    }
    free(h);
    r->end = pos;
    return ok;
}

/* process_request_body's chunks. */
static bool mhd_chunked(MhdRead *r, const char *d, size_t len, size_t pos)
{
    for (;;) {
        size_t i = pos, size_len = 0;
        bool found = false;
        for (; i < len; i++) {
            if (d[i] == '\n') {
                if (!found) size_len = i > pos && d[i - 1] == '\r' ? i - 1 - pos : i - pos;
                found = true;
                break;
            }
            if (!found && d[i] == ';') {
                size_len = i - pos;
                found = true;
            }
        }
        if (i == len) return mhd_fail(r, "a chunk size line never ends");
        if (size_len == 0) return mhd_fail(r, "400 from process_request_body: no chunk size");
        uint64_t size;
        size_t digits = mhd_number(d + pos, size_len, 16, &size);
        if (digits == 0) return mhd_fail(r, "413 from process_request_body: a chunk size overflows");
        if (digits != size_len) return mhd_fail(r, "400 from process_request_body: a bad chunk size");
        pos = i + 1;
        if (size == 0) return mhd_footers(r, d, len, pos);
        if (len - pos < size) return mhd_fail(r, "a chunk never ends");
        r->body += size;
        pos += (size_t)size;
        if (pos + 1 < len && d[pos] == '\r' && d[pos + 1] == '\n') pos += 2;
        else if (pos < len && d[pos] == '\n') pos++;
        else return mhd_fail(r, "400 from process_request_body: no line end after a chunk");
    }
}

/* The request as libmicrohttpd reads it from the start of d. */
static void mhd_read(const char *d, size_t len, MhdRead *r)
{
    memset(r, 0, sizeof *r);
    r->ok = true;
    size_t pos = 0, start, n;
    do {
        if (!mhd_line(d, len, &pos, &start, &n)) return (void)mhd_fail(r, "the request line never ends");
    } while (n == 0);
    if (!mhd_request_line(r, d + start, n)) return;
    MhdHeader *h = malloc(sizeof *h);
    if (!h) abort();
    const char *encoding = NULL, *length = NULL;
    char encoding_value[SERVER_MAX_HEAD + 1], length_value[SERVER_MAX_HEAD + 1];
    /* Folded lines join the header before them; a header is taken once
     * the next line shows it is whole. */
    bool pending = false;
    for (;;) {
        if (!mhd_line(d, len, &pos, &start, &n)) {
            mhd_fail(r, "the head never ends");
            break;
        }
        bool folded = n && (d[start] == ' ' || d[start] == '\t');
        if (folded && pending) {
            size_t k = strlen(h->value);
            const char *more = d + start;
            while (more < d + start + n && (*more == ' ' || *more == '\t')) more++;
            snprintf(h->value + k, sizeof h->value - k, "%.*s", (int)(d + start + n - more), more);
            continue;
        }
        if (pending) {
            r->headers++;
            if (!strcasecmp(h->name, "Transfer-Encoding") && !encoding)
                encoding = strcpy(encoding_value, h->value);
            if (!strcasecmp(h->name, "Content-Length") && !length) length = strcpy(length_value, h->value);
            if (!strcasecmp(h->name, "Cookie")) {
                r->cookies++;
                for (const char *p = h->value; *p; p++) r->cookies += *p == ';' || *p == ',';
            }
            pending = false;
        }
        if (n == 0) break;
        if (!mhd_header_line(r, d + start, n, h)) break;
        pending = true;
    }
    free(h);
    if (!r->ok) return;
    if (encoding) {
        if (strcasecmp(encoding, "chunked")) return (void)mhd_fail(r, "a body read until the close");
        mhd_chunked(r, d, len, pos);
        return;
    }
    if (length) {
        uint64_t value;
        size_t k = strlen(length), digits = mhd_number(length, k, 10, &value);
        if (digits != k || digits == 0) return (void)mhd_fail(r, "400 or 413 from parse_connection_headers");
        if (len - pos < value) return (void)mhd_fail(r, "the body never ends");
        r->body = value;
        pos += (size_t)value;
    }
    r->end = pos;
}

/* ---- The checks ------------------------------------------------------------- */

/* The refusal as the gate sends it: a whole reply with every header. */
static void check_reply(const GateHead *h)
{
    char reply[2048];
    size_t n = gate_format_reply(h->status, h->reason, reply, sizeof reply);
    FUZZ_CHECK(n > 0 && n < sizeof reply, "the refusal '%s' does not fit in a reply", h->reason);
    reply[n] = '\0';
    char start[32];
    snprintf(start, sizeof start, "HTTP/1.1 %d ", h->status);
    FUZZ_CHECK(!strncmp(reply, start, strlen(start)), "the reply starts '%.40s'", reply);
    FUZZ_CHECK(strstr(reply, "\r\nConnection: close\r\n"), "the reply does not close the connection");
    for (int i = 0; i < SERVER_SECURITY_HEADER_COUNT; i++) {
        char line[512];
        snprintf(line, sizeof line, "\r\n%s: %s\r\n", SERVER_SECURITY_HEADERS[i][0], SERVER_SECURITY_HEADERS[i][1]);
        FUZZ_CHECK(strstr(reply, line), "the reply lacks %s", SERVER_SECURITY_HEADERS[i][0]);
    }
    const char *body = strstr(reply, "\r\n\r\n");
    const char *length = strstr(reply, "\r\nContent-Length: ");
    FUZZ_CHECK(body && length && length < body, "the reply has no Content-Length before its body");
    body += 4;
    FUZZ_CHECK(strtoul(length + 18, NULL, 10) == strlen(body), "Content-Length is not the body's length");
    json_t *o = json_loads(body, 0, NULL);
    const char *error = json_string_value(json_object_get(o, "error"));
    FUZZ_CHECK(error && !strcmp(error, h->reason), "the reply's body is not {\"error\": the reason}: %s", body);
    json_decref(o);
}

static void check_verdict(const GateHead *h, size_t len)
{
    if (h->verdict == GATE_REFUSED) {
        static const int STATUSES[] = { 400, 413, 414, 431, 501, 505 };
        bool known = false;
        for (size_t i = 0; i < sizeof STATUSES / sizeof STATUSES[0]; i++) known |= h->status == STATUSES[i];
        FUZZ_CHECK(known, "a refusal with the status %d", h->status);
        FUZZ_CHECK(h->reason[0], "a refusal without a sentence");
        FUZZ_CHECK(strlen(h->reason) + 1 < sizeof h->reason, "a refusal's sentence is cut: %s", h->reason);
        check_reply(h);
    } else if (h->verdict == GATE_COMPLETE) {
        FUZZ_CHECK(h->head_len > 0 && h->head_len <= h->length && h->length <= len,
                   "a complete request of %zu bytes (head %zu) in %zu", h->length, h->head_len, len);
        FUZZ_CHECK(h->head_len <= SERVER_MAX_HEAD, "a head of %zu bytes passed", h->head_len);
        FUZZ_CHECK(h->length - h->head_len <= SERVER_MAX_CHUNKED, "a body of %zu bytes passed", h->length - h->head_len);
        FUZZ_CHECK(!h->expects_continue, "a complete request still expects 100 Continue");
    }
}

static void check_forwarded(const GateHead *h)
{
    if (!h->forwarded_for[0]) return;
    FUZZ_CHECK(!h->forwarded_for_invalid, "an X-Forwarded-For address both given and invalid");
    unsigned char binary[sizeof(struct in6_addr)];
    char again[GATE_ADDRESS_SIZE];
    int family = strchr(h->forwarded_for, ':') ? AF_INET6 : AF_INET;
    FUZZ_CHECK(inet_pton(family, h->forwarded_for, binary) == 1 &&
                   inet_ntop(family, binary, again, sizeof again) && !strcmp(again, h->forwarded_for),
               "X-Forwarded-For gives '%s', not an address in its usual spelling", h->forwarded_for);
}

/* libmicrohttpd reads what the gate lets through as the same request. */
static void check_mhd_agrees(const char *d, const GateHead *h)
{
    MhdRead r;
    mhd_read(d, h->length, &r);
    FUZZ_CHECK(r.ok, "the gate lets through what libmicrohttpd refuses (%s):\n%.*s", r.why, (int)h->length, d);
    FUZZ_CHECK(r.end == h->length, "libmicrohttpd ends the request at %zu, the gate at %zu", r.end, h->length);
    FUZZ_CHECK(r.body <= SERVER_MAX_BODY, "a body of %llu bytes passed", (unsigned long long)r.body);
    FUZZ_CHECK(r.headers + r.cookies <= SERVER_MAX_FIELDS, "%d header fields and %d cookies passed", r.headers,
               r.cookies);
    FUZZ_CHECK(r.arguments <= SERVER_MAX_FIELDS, "%d query arguments passed", r.arguments);
}

/* The verdict on the first k bytes. */
static GateHead verdict_of(const char *d, size_t k)
{
    char *copy = malloc(k ? k : 1);   /* exactly k bytes: ASan sees a read past them */
    if (!copy) abort();
    memcpy(copy, d, k);
    GateHead h;
    gate_check_head(copy, k, &h);
    free(copy);
    return h;
}

/* However the bytes come, in pieces or with more behind them. */
static void check_prefixes(const char *d, size_t len, const GateHead *whole)
{
    size_t cuts[16];
    int count = 0;
    for (int i = 1; i <= 12; i++) cuts[count++] = len * (size_t)i / 13;
    if (whole->verdict == GATE_COMPLETE) {
        cuts[count++] = whole->length - 1;
        cuts[count++] = whole->head_len - 1;
        cuts[count++] = whole->head_len;
    }
    for (int i = 0; i < count; i++) {
        size_t k = cuts[i];
        if (k >= len) continue;
        GateHead part = verdict_of(d, k);
        if (whole->verdict == GATE_COMPLETE && k < whole->length)
            FUZZ_CHECK(part.verdict == GATE_INCOMPLETE, "the first %zu bytes of a complete request of %zu are %s", k,
                       whole->length, part.verdict == GATE_REFUSED ? part.reason : "complete");
        if (whole->verdict == GATE_COMPLETE && k >= whole->length)
            FUZZ_CHECK(part.verdict == GATE_COMPLETE && part.length == whole->length,
                       "bytes after a complete request change its verdict");
        if (part.verdict == GATE_REFUSED)
            FUZZ_CHECK(whole->verdict == GATE_REFUSED && whole->status == part.status,
                       "the first %zu bytes are refused (%d: %s), all %zu are not (%d)", k, part.status, part.reason,
                       len, whole->verdict == GATE_REFUSED ? whole->status : 0);
        if (part.verdict == GATE_COMPLETE)
            FUZZ_CHECK(whole->verdict == GATE_COMPLETE && whole->length == part.length,
                       "the first %zu bytes are a complete request, all %zu are not the same one", k, len);
    }
}

/* The server's harnesses are linked with fuzz/api_fixture.c; this one
 * reads no database. */
const FixtureNeed fixture_need = FIXTURE_NONE;

/* http_accepts_gzip reads any value without reading past it, and says yes
 * only to a value that names gzip. */
static void check_accept_encoding(const char *d, size_t size)
{
    char *value = malloc(size + 1);
    if (!value) abort();
    memcpy(value, d, size);
    value[size] = '\0';
    bool yes = http_accepts_gzip(value);
    FUZZ_CHECK(!yes || strstr(value, "gzip"), "'%s' accepted gzip without naming it", value);
    free(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *d = (const char *)data;
    GateHead h;
    gate_check_head(d, size, &h);
    FUZZ_SAY("%s %d %s (head %zu, length %zu)\n",
             h.verdict == GATE_COMPLETE   ? "complete"
             : h.verdict == GATE_REFUSED ? "refused"
                                         : "incomplete",
             h.status, h.reason, h.head_len, h.length);
    check_verdict(&h, size);
    check_forwarded(&h);
    if (h.verdict == GATE_COMPLETE) check_mhd_agrees(d, &h);
    check_prefixes(d, size, &h);
    check_accept_encoding(d, size);
    return 0;
}
