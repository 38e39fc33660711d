/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The browser client's files (--static): a GET of any path outside /api/
 * is a file of that folder, never one outside it (no dot segment, no link
 * leading out, never the database's files), or index.html for the
 * client's own routes.  A file whose name carries its content's hash is
 * kept by the browser for a year; every other is revalidated (ETag), and
 * a gzip-compressed copy beside a file goes to a browser that accepts it.
 */
/* realpath is an X/Open function, which _POSIX_C_SOURCE alone leaves out. */
#define _XOPEN_SOURCE 700

#include "http_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
    /* The type a browser requires to compile a module while it downloads
     * (WebAssembly.instantiateStreaming). */
    if (!strcmp(dot, ".wasm")) return "application/wasm";
    return "application/octet-stream";
}

/* Resolves the static folder and the database's files once, at the
 * start (the database file exists by then: the store created it). */
void static_guard_init(struct Server *srv, const ServerConfig *cfg)
{
    if (!cfg->static_dir || !realpath(cfg->static_dir, srv->static_root)) srv->static_root[0] = '\0';
    char db[PATH_MAX];
    struct stat sb;
    if (!cfg->db_path || stat(cfg->db_path, &sb) != 0 || !S_ISREG(sb.st_mode) || !realpath(cfg->db_path, db)) return;
    for (int i = 0; i < DB_FILES; i++) snprintf(srv->db_files[i], sizeof srv->db_files[i], "%s%s", db, DB_SUFFIXES[i]);
}

/* Is the resolved path the folder itself or inside it? */
static bool inside_root(const struct Server *srv, const char *resolved)
{
    size_t n = strlen(srv->static_root);
    if (n == 1) return resolved[0] == '/';   /* the root of the file system */
    return !strncmp(resolved, srv->static_root, n) && (resolved[n] == '\0' || resolved[n] == '/');
}

/* Is the open file (or its resolved path) one of the database's files?
 * Compared by path and by inode, so that neither a link nor a second
 * name of the database can serve it. */
static bool is_database(const struct Server *srv, const char *resolved, int fd)
{
    struct stat file, db;
    if (fstat(fd, &file) != 0) return true;
    for (int i = 0; i < DB_FILES; i++) {
        if (!srv->db_files[i][0]) continue;
        if (!strcmp(resolved, srv->db_files[i])) return true;
        if (stat(srv->db_files[i], &db) == 0 && db.st_dev == file.st_dev && db.st_ino == file.st_ino) return true;
    }
    return false;
}

/* Does a segment of the path start with '.'?  That covers "..", and the
 * hidden files (.git, .env) that a folder of built files may hold. */
static bool has_dot_segment(const char *url)
{
    for (const char *p = url; (p = strchr(p, '/')); p++)
        if (p[1] == '.') return true;
    return false;
}

/* Is the path valid UTF-8?  Overlong forms (%c0%ae for '.') and other
 * invalid bytes name no file of the client, and a path that uses them is
 * trying something: it is refused rather than taken for a page. */
static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int extra = *p < 0x80 ? 0 : *p >= 0xc2 && *p <= 0xdf ? 1 : *p >= 0xe0 && *p <= 0xef ? 2
                  : *p >= 0xf0 && *p <= 0xf4 ? 3 : -1;
        if (extra < 0) return false;
        unsigned lead = *p++;
        for (int i = 0; i < extra; i++, p++)
            if ((*p & 0xc0) != 0x80) return false;
        /* The shortest form only, no UTF-16 surrogates, nothing past U+10FFFF. */
        if ((lead == 0xe0 && p[-2] < 0xa0) || (lead == 0xed && p[-2] >= 0xa0) || (lead == 0xf0 && p[-3] < 0x90) ||
            (lead == 0xf4 && p[-3] >= 0x90))
            return false;
    }
    return true;
}

typedef enum StaticKind {
    STATIC_FILE,        /* a file inside the folder: resolved holds it      */
    STATIC_PAGE,        /* nothing there, or a folder: a page of the client */
    STATIC_REFUSED,     /* it leads outside the folder                      */
} StaticKind;

/* Does the deepest part of `joined` that exists lie inside the folder?
 * A page path that does not exist still must not pass through a link
 * that leaves the folder. */
static bool existing_part_inside(const struct Server *srv, char *joined)
{
    char resolved[PATH_MAX];
    size_t root_len = strlen(srv->static_root);
    for (char *slash; (slash = strrchr(joined, '/')) && (size_t)(slash - joined) >= root_len;) {
        *slash = '\0';
        if (realpath(joined[0] ? joined : "/", resolved)) return inside_root(srv, resolved);
        if (errno != ENOENT && errno != ENOTDIR) return false;
    }
    return false;
}

/* Where a path of the site leads, after every link in it. */
static StaticKind static_resolve(const struct Server *srv, const char *url, char resolved[PATH_MAX])
{
    char joined[PATH_MAX];
    int n = snprintf(joined, sizeof joined, "%s%s", srv->static_root, url);
    if (n < 0 || (size_t)n >= sizeof joined) return STATIC_REFUSED;
    if (realpath(joined, resolved)) {
        if (!inside_root(srv, resolved)) return STATIC_REFUSED;
        struct stat sb;
        return stat(resolved, &sb) == 0 && S_ISREG(sb.st_mode) ? STATIC_FILE : STATIC_PAGE;
    }
    if (errno != ENOENT && errno != ENOTDIR) return STATIC_REFUSED;
    return existing_part_inside(srv, joined) ? STATIC_PAGE : STATIC_REFUSED;
}

/* Reads a whole open file into a malloc'd buffer; NULL on failure. */
static char *read_whole(int fd, size_t *size)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 0) return NULL;
    char *body = malloc((size_t)sb.st_size + 1);
    size_t got = 0;
    while (body && got < (size_t)sb.st_size) {
        ssize_t n = read(fd, body + got, (size_t)sb.st_size - got);
        if (n <= 0) {
            free(body);
            return NULL;
        }
        got += (size_t)n;
    }
    *size = got;
    return body;
}

/* A file's entity tag: its inode, size and modification time to the
 * nanosecond, which change whenever the build writes it again (a
 * rebuild within the same second included), so that no file is ever
 * answered "not modified" after it changed. */
static void file_etag(const struct stat *sb, char out[80])
{
    snprintf(out, 80, "\"%llx-%llx-%llx.%lx\"", (unsigned long long)sb->st_ino, (unsigned long long)sb->st_size,
             (unsigned long long)sb->st_mtim.tv_sec, (long)sb->st_mtim.tv_nsec);
}

/* Does the request's If-None-Match name this tag (or "*")?  Tags hold no
 * quote inside, so the quoted tag found in the list is that tag. */
static bool etag_matches(struct MHD_Connection *c, const char *etag)
{
    const char *asked = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
    return asked && (!strcmp(asked, "*") || strstr(asked, etag));
}

/* Is the file named after its content (web/build.mjs: app.3f9a0c12de.js,
 * ttchess.3f9a0c12de.wasm, app.3f9a0c12de.js.map): ten lowercase hex
 * digits between dots in the last segment of the path?  Such a name never
 * names other bytes, so the browser may keep it without asking again. */
static bool hashed_name(const char *url)
{
    const char *name = strrchr(url, '/');
    name = name ? name + 1 : url;
    for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
        size_t hex = strspn(dot + 1, "0123456789abcdef");
        if (hex == 10 && dot[11] == '.') return true;
    }
    return false;
}

/* The client's files named after their content are kept by the browser
 * for a year and never asked for again ("immutable"): a new build brings
 * new names, which index.html gives.  Every other file (index.html
 * first) is kept and revalidated at each use ("no-cache" with the file's
 * tag), an unchanged one costing a 304 with no body, so that a page is
 * never shown stale after a new build.  `encoding` is "gzip" for a
 * file's compressed copy, else NULL; either way the reply depends on
 * Accept-Encoding, which a cache must know (Vary). */
static enum MHD_Result send_file_reply(struct MHD_Connection *c, int status, const char *type, char *body,
                                       size_t len, const char *etag, const char *encoding, bool immutable)
{
    struct MHD_Response *resp = http_new_response(body, len);
    if (resp) {
        if (type) MHD_add_response_header(resp, "Content-Type", type);
        if (encoding) MHD_add_response_header(resp, "Content-Encoding", encoding);
        MHD_add_response_header(resp, "Vary", "Accept-Encoding");
        MHD_add_response_header(resp, "Cache-Control",
                                immutable ? "public, max-age=31536000, immutable" : "no-cache");
        MHD_add_response_header(resp, "ETag", etag);
    }
    return http_queue_response(c, status, resp);
}

/* The compressed copy of a resolved file that the build made beside it
 * (NAME.gz: app.js, app.css, ttchess.wasm), open, with its status; -1
 * when there is none, or when it is older than the file, so that a copy
 * left from an earlier build is never served for a newer file. */
static int open_compressed(struct Server *srv, const char *resolved, const struct stat *file, struct stat *sb)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s.gz", resolved) >= (int)sizeof path) return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    bool fresh = fstat(fd, sb) == 0 && S_ISREG(sb->st_mode) && !is_database(srv, path, fd) &&
                 (sb->st_mtim.tv_sec > file->st_mtim.tv_sec ||
                  (sb->st_mtim.tv_sec == file->st_mtim.tv_sec && sb->st_mtim.tv_nsec >= file->st_mtim.tv_nsec));
    if (fresh) return fd;
    close(fd);
    return -1;
}

/* Sends a resolved file of the folder, unless it is the database; 304
 * when the browser's copy has the file's tag. */
static enum MHD_Result send_file(struct Server *srv, struct MHD_Connection *c, const char *resolved, bool immutable)
{
    /* O_NOFOLLOW: the path was resolved already, so a link in its place
     * now was put there since; O_NONBLOCK: a FIFO must not hang a thread. */
    int fd = open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return http_send_error(c, 404, "no such page");
    struct stat sb;
    if (is_database(srv, resolved, fd) || fstat(fd, &sb) != 0) {
        close(fd);
        return http_send_error(c, 404, "no such page");
    }
    /* The compressed copy when the browser takes it: ttchess.wasm is a
     * seventh of its size gzip-compressed, and arrives that much sooner. */
    struct stat gz_sb;
    int gz = http_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Encoding")) ? open_compressed(srv, resolved, &sb, &gz_sb) : -1;
    const char *encoding = gz >= 0 ? "gzip" : NULL;
    if (gz >= 0) {
        close(fd);
        fd = gz;
        sb = gz_sb;
    }
    char etag[80];
    file_etag(&sb, etag);
    if (etag_matches(c, etag)) {
        close(fd);
        return send_file_reply(c, 304, NULL, NULL, 0, etag, encoding, immutable);
    }
    size_t size = 0;
    char *body = read_whole(fd, &size);
    close(fd);
    if (!body) return http_send_error(c, 500, "cannot read the client's file");
    return send_file_reply(c, 200, content_type(resolved), body, size, etag, encoding, immutable);
}

/* Serves a file of the client from inside the static folder only; any
 * page path that is not a file gets index.html, which routes in the
 * browser (/games/ID, /login, ...), unless the path tried to leave the
 * folder. */
enum MHD_Result serve_static(struct Server *srv, struct MHD_Connection *c, const char *url)
{
    if (url[0] != '/' || has_dot_segment(url) || !valid_utf8(url)) return http_send_error(c, 404, "no such page");
    if (!srv->static_root[0]) return http_send_error(c, 404, "the web client is not built: run make");
    char resolved[PATH_MAX];
    StaticKind kind = static_resolve(srv, url, resolved);
    if (kind == STATIC_REFUSED) return http_send_error(c, 404, "no such page");
    if (kind == STATIC_PAGE && static_resolve(srv, "/index.html", resolved) != STATIC_FILE)
        return http_send_error(c, 404, "the web client is not built: run make");
    /* A page path gets index.html, which is never immutable. */
    return send_file(srv, c, resolved, kind == STATIC_FILE && hashed_name(url));
}
