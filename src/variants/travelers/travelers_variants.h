/* SPDX-License-Identifier: GPL-3.0-or-later
 * Time Traveler's Chess in the registry (games.h; read more than once, so
 * no include guard). */
VARIANT(VARIANT_TRAVELERS)
