/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess in the registry (games.h; read more than once, so no
 * include guard). */
VARIANT(VARIANT_CHESS)
