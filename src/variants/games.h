/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The games, one line each.  A game is one folder, src/variants/<game>/:
 * its rules, notation, FEN and evaluation, and <game>_variants.h, which
 * names the Variant tables the folder defines (each names its Evaluator).
 * Adding a game is its folder and its line here: the Makefile compiles
 * every folder's sources and puts every folder on the include path.
 *
 * The order of the lines, and of the variants within each file, is the
 * order of VARIANTS[]: the order in which `ttchess variants` and help
 * list them.
 *
 * No include guard: the registry (variant.c) reads this file twice, with
 * a VARIANT(name) of its own each time (the declarations, then the
 * table).  The folders list the names of their tables rather than export
 * one array each because C cannot join arrays of other files into one
 * constant array.
 */
#include "chess/chess_variants.h"
#include "gifford/gifford_variants.h"
#include "vangog/vangog_variants.h"
#include "travelers/travelers_variants.h"
#include "chessgi/chessgi_variants.h"

/* A game from a folder outside src/variants, for a build of its own:
 * make BUILD=build-toy GAME_DIR_EXTRA=tests/toy_game ... compiles the
 * folder's sources into the library, puts it on the include path and
 * names its <folder>_variants.h here; its variants come last. */
#ifdef TTCHESS_GAME_EXTRA
#include TTCHESS_GAME_EXTRA
#endif
