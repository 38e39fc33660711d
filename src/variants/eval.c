/* SPDX-License-Identifier: GPL-3.0-or-later
 * The evaluator of a variant (eval.h): the one its table names, beside its
 * rules in its game's folder. */
#include "eval.h"

const Evaluator *evaluator_for(const Variant *v)
{
    /* Every registered variant names one (tests/test_variants.c); a table
     * made elsewhere without one has none, rather than another game's. */
    return v->evaluator;
}
