/* SPDX-License-Identifier: GPL-3.0-or-later
 * Growing text (see ttchess/text.h). */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_init(Text *t)
{
    t->str = NULL;
    t->len = t->cap = 0;
    t->failed = false;
}

void text_free(Text *t)
{
    free(t->str);
    text_init(t);
}

void text_clear(Text *t)
{
    t->len = 0;
    t->failed = false;
    if (t->str) t->str[0] = 0;
}

const char *text_str(const Text *t) { return t->str ? t->str : ""; }

/* Makes room for `more` characters and the terminator. */
static bool reserve(Text *t, size_t more)
{
    if (t->failed) return false;
    if (t->len + more < t->cap) return true;
    size_t cap = t->cap ? t->cap : 64;
    while (cap <= t->len + more) {
        if (cap > ((size_t)-1) / 2) {
            t->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *s = realloc(t->str, cap);
    if (!s) {
        t->failed = true;
        return false;
    }
    t->str = s;
    t->cap = cap;
    return true;
}

void text_add_n(Text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) return;
    memcpy(t->str + t->len, s, n);
    t->len += n;
    t->str[t->len] = 0;
}

void text_add(Text *t, const char *s) { text_add_n(t, s, strlen(s)); }

void text_add_char(Text *t, char c) { text_add_n(t, &c, 1); }

static void add_va(Text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        t->failed = true;
    } else if (reserve(t, (size_t)n)) {
        vsnprintf(t->str + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void text_addf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_va(t, fmt, ap);
    va_end(ap);
}

bool text_fail(Text *t, const char *fmt, ...)
{
    if (!t) return false;
    text_clear(t);
    va_list ap;
    va_start(ap, fmt);
    add_va(t, fmt, ap);
    va_end(ap);
    return false;
}

char *text_take(Text *t)
{
    if (t->failed) {
        text_free(t);
        return NULL;
    }
    char *s = t->str;
    if (!s) s = calloc(1, 1);
    text_init(t);
    return s;
}
