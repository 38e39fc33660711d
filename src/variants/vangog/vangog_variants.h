/* SPDX-License-Identifier: GPL-3.0-or-later
 * van Gog's Time Travel Chess in the registry (games.h; read more than
 * once, so no include guard): its three modes, one Variant each. */
VARIANT(VARIANT_VANGOG)
VARIANT(VARIANT_VANGOG_PAST)
VARIANT(VARIANT_VANGOG_FUTURE)
