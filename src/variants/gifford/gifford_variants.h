/* SPDX-License-Identifier: GPL-3.0-or-later
 * Gifford's Time Travel Chess in the registry (games.h; read more than
 * once, so no include guard). */
VARIANT(VARIANT_GIFFORD)
