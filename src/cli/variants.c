/* SPDX-License-Identifier: GPL-3.0-or-later
 * variants: every game ttchess knows, with its options. */
#include <string.h>

#include "cli.h"

const char HELP_VARIANTS[] =
    "usage: ttchess variants\n"
    "\n"
    "Lists every variant: its name (for --variant), its title (PGN's [Variant]\n"
    "tag; with its mode, [VariantMode], where several share one title), and\n"
    "its options with their defaults and ranges.  Any command that\n"
    "takes --variant also takes --option NAME=VALUE (repeatable) to change one.\n";

int cmd_variants(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) cli_fail("unexpected argument '%s' (see 'ttchess variants --help')", argv[i]);
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        printf("%s%s  %s", i ? "\n" : "", v->name, v->title);
        /* A title several variants share: the mode tells them apart. */
        if (v->mode) printf(", mode %s ([VariantMode \"%s\"])", v->mode, v->mode);
        printf("\n");
        if (!v->option_count) printf("  no options\n");
        for (int k = 0; k < v->option_count; k++) {
            const OptionSpec *o = &v->options[k];
            printf("  --option %s=%d  (%d to %d) %s\n", o->name, o->value, o->min, o->max, o->help);
        }
    }
    return 0;
}
