/* SPDX-License-Identifier: GPL-3.0-or-later
 * variants: every game ttchess knows, with its options. */
#include <string.h>

#include "cli.h"

const char HELP_VARIANTS[] =
    "usage: ttchess variants\n"
    "\n"
    "Lists every variant: its name (for --variant), its title (PGN's [Variant]\n"
    "tag), and its options with their defaults and ranges.  Any command that\n"
    "takes --variant also takes --option NAME=VALUE (repeatable) to change one.\n";

int cmd_variants(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) cli_fail("unexpected argument '%s' (see 'ttchess variants --help')", argv[i]);
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        printf("%s%s  %s\n", i ? "\n" : "", v->name, v->title);
        if (!v->option_count) printf("  no options\n");
        for (int k = 0; k < v->option_count; k++) {
            const OptionSpec *o = &v->options[k];
            printf("  --option %s=%d  (%d to %d) %s\n", o->name, o->value, o->min, o->max, o->help);
        }
    }
    return 0;
}
