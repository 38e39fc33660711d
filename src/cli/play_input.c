/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess play: what it reads, the lines typed (or piped) at the prompt
 * and the game files that load and --load read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "play_session.h"

/* The largest game file that load accepts; real ones are far smaller. */
enum { LOAD_LIMIT = 16 * 1024 * 1024 };

/* Reads a whole file into a malloc'd string.  On failure returns NULL and
 * writes why into err. */
static char *read_whole_file(const char *path, Text *err)
{
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOMEM) cli_fail("out of memory");
    if (!f) {
        text_fail(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = checked_malloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= LOAD_LIMIT) {
                text_fail(err, "%s: too large to be a game file", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown) cli_fail("out of memory");
            buf = grown;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        text_fail(err, "%s: read error", path);
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

/* Reads a PGN file into a fresh game.  On failure the game is freed and
 * err says why; on success the caller owns the game and the header. */
bool play_load_file(const char *path, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
                    Text *err)
{
    char *text = read_whole_file(path, err);
    if (!text) return false;
    Text why = TEXT_INIT;
    pgn_header_init(h);
    bool ok = pgn_read(text, force, force_options, g, h, NULL, &why);
    free(text);
    if (!ok) {
        game_free(g);
        pgn_header_free(h);
        text_fail(err, "%s: %s", path, why.failed ? "out of memory" : text_str(&why));
    }
    text_free(&why);
    return ok;
}
/* Reads one line into buf (LINE_LIMIT + 1 bytes), byte by byte so that no
 * input can split a line or overflow the buffer.  Control characters
 * become spaces: they can mean nothing here, and echoing them could
 * drive the terminal. */
LineStatus play_read_line(char *buf)
{
    size_t n = 0;
    bool any = false, too_long = false;
    int c;
    while ((c = getchar()) != EOF) {
        any = true;
        if (c == '\n') break;
        if (c < 0x20 || c == 0x7f) c = ' ';
        if (n < LINE_LIMIT) buf[n++] = (char)c;
        else too_long = true;
    }
    buf[n] = 0;
    if (!any) return LINE_END;
    return too_long ? LINE_TOO_LONG : LINE_OK;
}

/* Removes leading and trailing spaces in place; returns the start. */
char *play_trim(char *s)
{
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == ' ') s[--n] = 0;
    return s;
}

/* Reads the answer to a question: true for y or yes in any case.  The
 * end of the input counts as no. */
bool play_read_yes(bool echo)
{
    char buf[LINE_LIMIT + 1];
    LineStatus st = play_read_line(buf);
    if (st == LINE_END) {
        fputc('\n', stdout);
        return false;
    }
    char *answer = play_trim(buf);
    if (echo) printf("%s\n", st == LINE_TOO_LONG ? "(overlong line)" : answer);
    return st == LINE_OK && (!strcasecmp(answer, "y") || !strcasecmp(answer, "yes"));
}

