/* SPDX-License-Identifier: GPL-3.0-or-later
 * The toy game in the registry, in a build made with
 * GAME_DIR_EXTRA=tests/toy_game (src/variants/games.h; read more than
 * once, so no include guard). */
VARIANT(VARIANT_TOY)
