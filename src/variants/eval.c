/* SPDX-License-Identifier: GPL-3.0-or-later
 * The registry of evaluators (eval.h): one for every variant, each in the
 * file beside its rules. */
#include "eval.h"

#include <string.h>

extern const Evaluator EVAL_CHESS, EVAL_GIFFORD, EVAL_VANGOG, EVAL_VANGOG_PAST, EVAL_VANGOG_FUTURE, EVAL_TRAVELERS,
    EVAL_CHESSGI_CLASSIC, EVAL_CHESSGI;

static const Evaluator *const EVALUATORS[] = {
    &EVAL_CHESS,     &EVAL_GIFFORD,         &EVAL_VANGOG,  &EVAL_VANGOG_PAST, &EVAL_VANGOG_FUTURE,
    &EVAL_TRAVELERS, &EVAL_CHESSGI_CLASSIC, &EVAL_CHESSGI,
};

const Evaluator *evaluator_for(const Variant *v)
{
    for (size_t i = 0; i < sizeof EVALUATORS / sizeof EVALUATORS[0]; i++)
        if (!strcmp(EVALUATORS[i]->variant, v->name)) return EVALUATORS[i];
    /* Every variant has one (tests/test_engine.c); a new variant without
     * one still plays, on the board's evaluation alone. */
    return &EVAL_CHESS;
}
