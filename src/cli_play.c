/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli.h"
const char HELP_PLAY[] = "usage: ttchess play [--variant V]\n";
int cmd_play(int argc, char **argv) { (void)argc; (void)argv; return 0; }
