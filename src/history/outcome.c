/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The outcomes of games in words (variant.h, "Outcomes"): the result
 * strings, the reasons' words and back, and the end on time.  Every game
 * and every record format uses them, so they sit below the games, in the
 * history's layer.
 */
#include "game.h"
#include "variant.h"

#include <stdio.h>
#include <string.h>

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
    if (o.reason == REASON_OWN) {
        if (o.side != SIDE_NONE) text_addf(out, "%s ", side_word(o.side));
        text_add(out, o.own ? o.own : "an end of the game's own");
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

/* The side that words start with ("white ..."), and the words after it;
 * SIDE_NONE (and the words as they are) when they start with none. */
static uint8_t side_of_words(const char *words, const char **rest)
{
    static const char *const sides[] = { "white ", "black ", "both " };
    for (uint8_t k = 0; k < 3; k++)
        if (!strncmp(words, sides[k], strlen(sides[k]))) {
            *rest = words + strlen(sides[k]);
            return k;
        }
    *rest = words;
    return SIDE_NONE;
}

/* One of the game's own ends, with or without a side before it. */
static bool own_end_from_words(const Variant *v, const char *words, Outcome *o)
{
    const char *rest;
    uint8_t side = side_of_words(words, &rest);
    for (const char *const *end = v->ends; end && *end; end++) {
        if (strcmp(rest, *end) && strcmp(words, *end)) continue;
        o->reason = REASON_OWN;
        o->side = strcmp(rest, *end) ? SIDE_NONE : side;
        o->own = *end;
        return true;
    }
    return false;
}

bool outcome_from_words(const Variant *v, const char *words, Outcome *o)
{
    for (int r = REASON_CHECKMATE; r < REASON_RECORDED; r++) {
        const char *rest = words;
        uint8_t side = SIDE_NONE;
        if (REASON_WORDS[r].sided) {
            side = side_of_words(words, &rest);
            /* Only obligations can be unmet on both sides at once. */
            if (side == SIDE_NONE || (side == SIDE_BOTH && r != REASON_OBLIGATIONS_UNMET)) continue;
        }
        if (!strcmp(rest, REASON_WORDS[r].words) || (r == REASON_TIME && time_draw_words(rest, side))) {
            o->reason = (uint8_t)r;
            o->side = side;
            o->own = NULL;
            return true;
        }
    }
    return own_end_from_words(v, words, o);
}

/* ---- Time --------------------------------------------------------------- */

Outcome outcome_on_time(const Line *l, Color flagged)
{
    const Variant *v = line_variant(l);
    Color other = (Color)!flagged;
    bool wins = variant_can_win(v, l, other);
    return outcome_make(wins ? result_loss_for(flagged) : RESULT_DRAW, REASON_TIME, flagged);
}
