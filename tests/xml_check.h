/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small XML reader, enough to say whether an SVG diagram of
 * include/ttchess/diagram.h is well-formed: tests/test_diagram.c and
 * fuzz/fuzz_query.c (the server's diagram.svg) both check with it.
 * xml_problem returns NULL if the document is well-formed XML (as this
 * writer uses it: an XML declaration first, elements, attributes in
 * double quotes, text, no comments), else what is wrong with it, in a
 * static buffer.  Static functions: include it in one file of a program.
 */
#ifndef TTCHESS_TESTS_XML_CHECK_H
#define TTCHESS_TESTS_XML_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ':';
}

/* The length of the entity at s ("&amp;", "&#215;"), or 0 if none. */
static size_t entity(const char *s)
{
    static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
    for (size_t i = 0; i < 5; i++)
        if (!strncmp(s, named[i], strlen(named[i]))) return strlen(named[i]);
    if (s[1] != '#') return 0;
    size_t n = 2;
    while (s[n] >= '0' && s[n] <= '9') n++;
    return n > 2 && s[n] == ';' ? n + 1 : 0;
}

/* NULL if the document is well-formed XML (as this writer uses it: an
 * XML declaration first, elements, attributes in double quotes, text, no
 * comments), else what is wrong with it, in a static buffer. */
static const char *xml_problem(const char *doc)
{
    static char why[128];
    char stack[32][32];
    int depth = 0, roots = 0;
    const char *s = doc;
#define PROBLEM(...) (snprintf(why, sizeof why, __VA_ARGS__), why)
    if (!strncmp(s, "<?xml ", 6)) {
        s = strstr(s, "?>");
        if (!s) return PROBLEM("unclosed XML declaration");
        s += 2;
    }
    while (*s) {
        if (*s != '<') {
            if (*s == '&' && !entity(s)) return PROBLEM("a bare '&' at %d", (int)(s - doc));
            if (*s == '>') return PROBLEM("a bare '>' at %d", (int)(s - doc));
            if ((unsigned char)*s < ' ' && *s != '\n' && *s != '\t' && *s != '\r')
                return PROBLEM("a control character at %d", (int)(s - doc));
            if (depth == 0 && *s != '\n' && *s != ' ') return PROBLEM("text outside the root at %d", (int)(s - doc));
            s++;
            continue;
        }
        bool closing = s[1] == '/';
        s += closing ? 2 : 1;
        const char *name = s;
        while (is_name_char(*s)) s++;
        size_t len = (size_t)(s - name);
        if (len == 0 || len >= sizeof stack[0]) return PROBLEM("a bad tag name at %d", (int)(name - doc));
        if (closing) {
            if (*s != '>') return PROBLEM("a bad closing tag at %d", (int)(s - doc));
            if (depth == 0 || strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], name, len))
                return PROBLEM("</%.*s> closes nothing open", (int)len, name);
            depth--;
            s++;
            continue;
        }
        if (depth == 0 && (roots++ || len != 3 || strncmp(name, "svg", 3))) return PROBLEM("a root that is not one <svg>");
        for (;;) {
            while (*s == ' ' || *s == '\n') s++;
            if (*s == '>' || (s[0] == '/' && s[1] == '>')) break;
            const char *attr = s;
            while (is_name_char(*s)) s++;
            if (s == attr || s[0] != '=' || s[1] != '"') return PROBLEM("a bad attribute at %d", (int)(attr - doc));
            for (s += 2; *s != '"'; s++) {
                if (!*s || *s == '<') return PROBLEM("an unclosed attribute at %d", (int)(attr - doc));
                if (*s == '&' && !entity(s)) return PROBLEM("a bare '&' in an attribute at %d", (int)(s - doc));
            }
            s++;
            if (*s != ' ' && *s != '>' && *s != '/') return PROBLEM("no space after an attribute at %d", (int)(s - doc));
        }
        if (*s == '/') {
            s += 2;
            continue;
        }
        if (depth == 32) return PROBLEM("too deep");
        memcpy(stack[depth], name, len);
        stack[depth++][len] = 0;
        s++;
    }
    if (depth) return PROBLEM("<%s> is not closed", stack[depth - 1]);
    if (roots != 1) return PROBLEM("no root");
    return NULL;
#undef PROBLEM
}

#endif
