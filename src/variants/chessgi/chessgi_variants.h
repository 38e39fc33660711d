/* SPDX-License-Identifier: GPL-3.0-or-later
 * Chessgi and Time Travel Chessgi in the registry (games.h; read more
 * than once, so no include guard).  The base game first: the title
 * "Chessgi" names it, not the variant called chessgi, and a title finds
 * the first variant that has it. */
VARIANT(VARIANT_CHESSGI_CLASSIC)
VARIANT(VARIANT_CHESSGI)
