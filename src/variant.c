/* SPDX-License-Identifier: GPL-3.0-or-later
 * The registry of variants and the result lines they share. */
#include "ttchess/variant.h"

#include <stdio.h>
#include <string.h>

extern const Variant VARIANT_GIFFORD;

static const Variant *const VARIANTS[] = { &VARIANT_CHESS, &VARIANT_GIFFORD };

const Variant *variant_find(const char *name)
{
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; i++)
        if (!strcmp(VARIANTS[i]->name, name)) return VARIANTS[i];
    return NULL;
}

const char *variant_names(void) { return "chess, gifford"; }

const char *result_string(uint8_t result)
{
    switch (result) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    case RESULT_BOTH_LOSE: return "0-0";
    default: return "*";
    }
}

Outcome outcome_make(uint8_t result, const char *reason)
{
    Outcome o;
    o.result = result;
    snprintf(o.reason, sizeof o.reason, "%s", reason ? reason : "");
    return o;
}

void outcome_format(const Outcome *o, char *buf, size_t len)
{
    if (o->result == RESULT_NONE) snprintf(buf, len, "ongoing");
    else snprintf(buf, len, "%s %s", result_string(o->result), o->reason);
}
