/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A game's named rule limits (variant.h, "Options"): their defaults, and
 * "name=value" assignments read and written.  They sit in the history's
 * layer, below the games, since a record keeps its game's options and
 * every game reads its own.
 */
#include "variant.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_default(const Variant *v, Options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < v->option_count; i++) o->value[i] = v->options[i].value;
}

static int option_index(const Variant *v, const char *name, size_t len)
{
    for (int i = 0; i < v->option_count; i++)
        if (strlen(v->options[i].name) == len && !strncmp(v->options[i].name, name, len)) return i;
    return -1;
}

/* One "name=value" of length len. */
static bool parse_assignment(const Variant *v, Options *o, const char *s, size_t len, Text *err)
{
    const char *eq = memchr(s, '=', len);
    if (!eq) return text_fail(err, "bad option '%.*s': write name=value, e.g. %s=%d", (int)len, s,
                              v->option_count ? v->options[0].name : "name", v->option_count ? v->options[0].value : 1);
    int i = option_index(v, s, (size_t)(eq - s));
    if (i < 0) {
        if (!v->option_count) return text_fail(err, "%s has no options (given '%.*s')", v->name, (int)len, s);
        Text names = TEXT_INIT;
        for (int k = 0; k < v->option_count; k++) text_addf(&names, "%s%s", k ? ", " : "", v->options[k].name);
        text_fail(err, "%s has no option '%.*s' (its options: %s)", v->name, (int)(eq - s), s, text_str(&names));
        text_free(&names);
        return false;
    }
    const OptionSpec *spec = &v->options[i];
    const char *p = eq + 1, *end = s + len;
    long value = 0;
    bool digits = p < end;
    for (; p < end && digits; p++) {
        digits = isdigit((unsigned char)*p);
        if (digits) value = value * 10 + (*p - '0');
        if (value > 1000000) digits = false;
    }
    if (!digits || value < spec->min || value > spec->max)
        return text_fail(err, "bad option '%.*s': %s is a whole number from %d to %d", (int)len, s, spec->name,
                         spec->min, spec->max);
    o->value[i] = (int)value;
    return true;
}

bool options_parse(const Variant *v, Options *o, const char *assignments, Text *err)
{
    const char *p = assignments ? assignments : "";
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t') p++;
        if (!*p) return true;
        size_t len = strcspn(p, " ,\t");
        if (!parse_assignment(v, o, p, len, err)) return false;
        p += len;
    }
}

void options_format(const Variant *v, const Options *o, bool all, Text *out)
{
    bool any = false;
    for (int i = 0; i < v->option_count; i++) {
        if (!all && o->value[i] == v->options[i].value) continue;
        text_addf(out, "%s%s=%d", any ? " " : "", v->options[i].name, o->value[i]);
        any = true;
    }
}
