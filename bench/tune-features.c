/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The terms of the chess evaluation for each of a file of positions, for
 * fitting its weights (bench/tune-chess.sh, docs/engine.md "Tuning").
 *
 * Reads lines `FEN;score` (the score in centipawns from White's side, the
 * label) and writes for each `score phase i:n i:n ...`: the board's phase
 * and, for each weight i of ChessWeights read as an array of Tapers, how
 * many times White's terms hold it less how many times Black's do.  The
 * evaluation is linear in its weights, so a weight's count is the
 * evaluation with that weight 1 and every other 0: the counts come from
 * the evaluation itself, and a new term is fitted without a second copy
 * of it here.  A line that is not a position is reported on stderr, with
 * its number, and skipped; the count of both is printed at the end.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "eval.h"
#include "text.h"

enum { WEIGHTS = offsetof(ChessWeights, square_tables) / sizeof(Taper) };

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: tune-features < positions > terms  (lines FEN;score)\n");
        return 2;
    }
    static ChessWeights one;
    one.square_tables = true;
    one.extended_terms = true;
    Taper *w = (Taper *)&one;
    char line[512];
    long read = 0, skipped = 0;
    while (fgets(line, sizeof line, stdin)) {
        read++;
        char *semi = strchr(line, ';');
        Board b;
        Text err;
        text_init(&err);
        int score;
        if (!semi || sscanf(semi + 1, "%d", &score) != 1 || (*semi = 0, !board_from_fen(&b, line, NULL, &err))) {
            fprintf(stderr, "tune-features: line %ld is not FEN;score: %s\n", read, text_str(&err));
            text_free(&err);
            skipped++;
            continue;
        }
        text_free(&err);
        int phase = eval_phase(&b);
        printf("%d %d", score, phase);
        for (int i = 0; i < WEIGHTS; i++) {
            w[i].mg = 1;
            int n = chess_eval_terms(&b, &one, &phase).mg;
            w[i].mg = 0;
            if (n) printf(" %d:%d", i, n);
        }
        putchar('\n');
    }
    fprintf(stderr, "tune-features: %ld positions, %ld skipped\n", read - skipped, skipped);
    return skipped == read && read > 0 ? 1 : 0;
}
