/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UCI command reader (src/cli/uci.c): the input is a session, one
 * command a line, fed to uci_run as its standard input.
 *
 * Whatever comes in, the engine neither crashes nor hangs (the session
 * ends with "quit", which stops a search still running), and every line it writes
 * is one a GUI can read: "id", "option", "uciok", "readyok", "info" or
 * "bestmove".  Lines that set Hash are left out: a table of 64 GB is a
 * legal request that a fuzzer's memory limit would report as a crash; so
 * are lines asking for "go perft", which counts to the end without
 * "stop" (as Stockfish's does), and "go perft 20" takes days.
 */
#include <ctype.h>

#include "fuzz.h"
#include "uci.h"

static bool mentions(const char *line, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++) {
        size_t k = 0;
        while (k < w && tolower((unsigned char)line[i + k]) == word[k]) k++;
        if (k == w) return true;
    }
    return false;
}

static const char *const ANSWERS[] = { "id ", "option ", "uciok", "readyok", "info ", "bestmove ", NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The session without its Hash and perft lines, ended by "quit" (at the end of
     * its input the engine lets a search with a limit finish, and "go
     * depth 60" would take hours). */
    static const char QUIT[] = "\nquit\n";
    char *session = malloc(size + sizeof QUIT);
    if (!session) return 0;
    size_t kept = 0;
    for (size_t i = 0; i < size;) {
        size_t end = i;
        while (end < size && data[end] != '\n') end++;
        size_t n = end - i + (end < size);
        if (!mentions((const char *)data + i, n, "hash") && !mentions((const char *)data + i, n, "perft")) {
            memcpy(session + kept, data + i, n);
            kept += n;
        }
        i += n;
    }
    memcpy(session + kept, QUIT, sizeof QUIT - 1);
    kept += sizeof QUIT - 1;
    FILE *in = fmemopen(session, kept, "r");
    char *answer = NULL;
    size_t answer_size = 0;
    FILE *out = open_memstream(&answer, &answer_size);
    if (!in || !out) {
        if (in) fclose(in);
        if (out) fclose(out);
        free(answer);
        free(session);
        return 0;
    }
    int rc = uci_run(in, out);
    fclose(in);
    fclose(out);
    if (rc == 0) {
        for (char *line = answer, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next) *next++ = '\0';
            bool known = false;
            for (int i = 0; ANSWERS[i] && !known; i++) known = !strncmp(line, ANSWERS[i], strlen(ANSWERS[i]));
            FUZZ_CHECK(known, "the engine wrote a line no GUI can read: '%s'", line);
        }
    }
    free(answer);
    free(session);
    return 0;
}
