/* SPDX-License-Identifier: GPL-3.0-or-later
 * The Universal Chess Interface for every variant (uci.c, docs/engine.md). */
#ifndef TTCHESS_UCI_H
#define TTCHESS_UCI_H

#include <stdio.h>

/* Reads UCI commands from `in` until "quit" or the end of input, answering
 * on `out`; a search still running at the end is stopped.  Returns 0, or
 * 1 when the engine cannot be made (out of memory).  Bad commands are
 * answered with "info string error: ...", never by stopping. */
int uci_run(FILE *in, FILE *out);

#endif
