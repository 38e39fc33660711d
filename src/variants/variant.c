/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The registry: the one list of the games' variants (games.h), looked up
 * by name, or by title and mode.  It is the top of the variants' layer,
 * the only file that knows every game; their options and the words of
 * their outcomes are the history's (options.c, outcome.c).
 */
#include "registry.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every game's variants, as games.h lists them. */
#define VARIANT(name) extern const Variant name;
#include "games.h"
#undef VARIANT

const Variant *const VARIANTS[] = {
#define VARIANT(name) &name,
#include "games.h"
#undef VARIANT
    NULL,
};

const Variant *variant_find(const char *name)
{
    for (int i = 0; VARIANTS[i]; i++)
        if (!strcmp(VARIANTS[i]->name, name)) return VARIANTS[i];
    return NULL;
}

static bool same_text_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

/* The variant whose name is the label (exactly, or ignoring case); NULL if none. */
static const Variant *named(const char *label, bool exact)
{
    for (int i = 0; VARIANTS[i]; i++)
        if (exact ? !strcmp(label, VARIANTS[i]->name) : same_text_nocase(label, VARIANTS[i]->name)) return VARIANTS[i];
    return NULL;
}

const Variant *variant_find_label(const char *label, const char *mode)
{
    /* "chessgi" is the variant of that name, "Chessgi" the title of the
     * base game (chessgi-classic): an exact name first, then an exact
     * title, and only then the same ignoring case. */
    const Variant *v = named(label, true);
    if (v) return v;
    const Variant *first = NULL;
    for (int pass = 0; pass < 2 && !first; pass++) {
        if (pass == 1 && (v = named(label, false))) return v;
        for (int i = 0; VARIANTS[i]; i++) {
            v = VARIANTS[i];
            if (pass == 0 ? strcmp(label, v->title) : !same_text_nocase(label, v->title)) continue;
            if (!mode || !*mode || (v->mode && same_text_nocase(mode, v->mode))) return v;
            if (!first) first = v;
        }
    }
    /* A title with a mode none of its variants has: the mode is wrong, not
     * the game, and the caller says so. */
    return mode && *mode ? NULL : first;
}

void variant_names(Text *out)
{
    for (int i = 0; VARIANTS[i]; i++) text_addf(out, "%s%s", i ? ", " : "", VARIANTS[i]->name);
}
