/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The registry: every game's variants, as src/variants/games.h lists them
 * (variant.c).  It is the top of the variants' layer, the one place that
 * knows every game, so only the layers above it (the record, the engine,
 * the server, the CLI) and the tests include this; the history below
 * reaches a game only through the Variant it is given.
 */
#ifndef TTCHESS_REGISTRY_H
#define TTCHESS_REGISTRY_H

#include "variant.h"

/* Every variant, in the order help lists them; NULL after the last. */
extern const Variant *const VARIANTS[];
extern const Variant VARIANT_CHESS;
/* Chess960, which is not among VARIANTS: the UCI engine plays it when a
 * GUI sets UCI_Chess960 (src/variants/chess/chess.c). */
extern const Variant VARIANT_CHESS960;

/* Looks a variant up by name; NULL if there is none. */
const Variant *variant_find(const char *name);
/* Looks a variant up by name or title, ignoring case (PGN's [Variant]);
 * among variants that share a title, the one of `mode` ([VariantMode];
 * NULL or empty: the first of them). */
const Variant *variant_find_label(const char *label, const char *mode);
/* The names of every variant, "chess, gifford, ..." (for help and errors). */
void variant_names(Text *out);

#endif
