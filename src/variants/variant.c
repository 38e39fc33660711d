/* SPDX-License-Identifier: GPL-3.0-or-later
 * The registry of variants, their options, and the words of outcomes. */
#include "ttchess/variant.h"
#include "ttchess/game.h"

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

/* ---- Options ------------------------------------------------------------ */

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

/* ---- Outcomes ----------------------------------------------------------- */

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

/* The words of each reason; a reason that names a side has it first
 * ("white king lost in time"). */
static const struct {
    bool sided;
    const char *words;
} REASON_WORDS[REASON_COUNT] = {
    [REASON_NONE] = { false, "" },
    [REASON_CHECKMATE] = { false, "checkmate" },
    [REASON_STALEMATE] = { false, "stalemate" },
    [REASON_INSUFFICIENT_MATERIAL] = { false, "insufficient material" },
    [REASON_FIFTY_MOVES] = { false, "fifty-move rule" },
    [REASON_REPETITION] = { false, "threefold repetition" },
    [REASON_KING_LOST_IN_TIME] = { true, "king lost in time" },
    [REASON_OBLIGATIONS_UNMET] = { true, "obligations unmet" },
    [REASON_GRAMMATICALLY_INCORRECT] = { true, "grammatically incorrect" },
    [REASON_RESIGNATION] = { true, "resigns" },
    [REASON_AGREED_DRAW] = { false, "agreed draw" },
    [REASON_TIME] = { true, "lost on time" },
    [REASON_RECORDED] = { false, "" },
};

/* The words after "white lost on time" when the flag is a draw. */
#define TIME_DRAW_WORDS ", but %s cannot win"

static const char *side_word(uint8_t side)
{
    switch (side) {
    case SIDE_WHITE: return "white";
    case SIDE_BLACK: return "black";
    case SIDE_BOTH: return "both";
    default: return "someone";
    }
}

void outcome_words(Outcome o, const char *recorded, Text *out)
{
    if (o.reason == REASON_RECORDED) {
        text_add(out, recorded && *recorded ? recorded : "result recorded in the game file");
        return;
    }
    if (o.reason >= REASON_COUNT) return;
    if (REASON_WORDS[o.reason].sided) text_addf(out, "%s ", side_word(o.side));
    text_add(out, REASON_WORDS[o.reason].words);
    /* A flag that gives no win says why, so that a draw on time does not
     * read as a loss. */
    if (o.reason == REASON_TIME && o.result == RESULT_DRAW && o.side <= BLACK)
        text_addf(out, TIME_DRAW_WORDS, side_word((uint8_t)!o.side));
}

void outcome_line(Outcome o, const char *recorded, Text *out)
{
    if (o.result == RESULT_NONE) {
        text_add(out, "ongoing");
        return;
    }
    text_addf(out, "%s ", result_string(o.result));
    outcome_words(o, recorded, out);
}

/* Are these the words of a draw on time after the flagged side's name
 * ("lost on time, but black cannot win", white flagged)? */
static bool time_draw_words(const char *rest, uint8_t side)
{
    if (side > BLACK) return false;
    char words[64];
    snprintf(words, sizeof words, "%s" TIME_DRAW_WORDS, REASON_WORDS[REASON_TIME].words, side_word((uint8_t)!side));
    return !strcmp(rest, words);
}

bool outcome_from_words(const char *words, Outcome *o)
{
    for (int r = REASON_CHECKMATE; r < REASON_RECORDED; r++) {
        const char *rest = words;
        uint8_t side = SIDE_NONE;
        if (REASON_WORDS[r].sided) {
            static const char *const sides[] = { "white ", "black ", "both " };
            side = SIDE_NONE;
            for (uint8_t k = 0; k < 3 && side == SIDE_NONE; k++)
                if (!strncmp(words, sides[k], strlen(sides[k]))) side = k;
            /* Only obligations can be unmet on both sides at once. */
            if (side == SIDE_NONE || (side == SIDE_BOTH && r != REASON_OBLIGATIONS_UNMET)) continue;
            rest = words + strlen(side_word(side)) + 1;
        }
        if (!strcmp(rest, REASON_WORDS[r].words) || (r == REASON_TIME && time_draw_words(rest, side))) {
            o->reason = (uint8_t)r;
            o->side = side;
            return true;
        }
    }
    return false;
}

/* ---- Time --------------------------------------------------------------- */

Outcome outcome_on_time(const Line *l, Color flagged)
{
    const Variant *v = line_variant(l);
    Color other = (Color)!flagged;
    bool wins = !v->can_win || v->can_win(l, other);
    return outcome_make(wins ? result_loss_for(flagged) : RESULT_DRAW, REASON_TIME, flagged);
}
