/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Evaluation: how good a position is for the side to move, in centipawns,
 * for the engine's search (src/engine/).  Each game has its own
 * evaluation in its folder, beside its rules (chess/chess_eval.c,
 * gifford/gifford_eval.c, ...), named by its Variant table, built on one
 * shared chess evaluation of the board (board_eval.c) (material, tapered piece-square tables,
 * mobility, pawn structure, king safety counting every king).  Weights are
 * named constants, one table per game, so that tuning changes data, not
 * code (docs/engine.md says how they were tuned).
 *
 * An Evaluator also says what the search may assume in its game: whether
 * a null move is sound in a position (no arrival due, a king on the board,
 * ...), and any end of the game the rules reach before the side to move
 * has no action (Time Traveler's grammar).  Evaluation never fails, never
 * allocates and never writes anything but its result, so any number of
 * search threads may call it at once.
 */
#ifndef TTCHESS_EVAL_H
#define TTCHESS_EVAL_H

#include "game.h"

/* Scores: a win is EVAL_MATE minus the plies to it; evaluation stays well
 * inside +-EVAL_KNOWN_WIN. */
enum { EVAL_INFINITE = 32000, EVAL_MATE = 31000, EVAL_MATE_BOUND = 30000, EVAL_KNOWN_WIN = 20000 };

/* The game phase of tapered evaluation: 24 with every piece of a chess
 * set on the board (knight and bishop 1, rook 2, queen 4), 0 with none;
 * capped at 24 (Chessgi drops can raise it). */
enum { PHASE_MAX = 24 };

/* A middle-game and an end-game value. */
typedef struct Taper {
    int mg, eg;
} Taper;

static inline int taper_blend(Taper t, int phase)
{
    if (phase > PHASE_MAX) phase = PHASE_MAX;
    return (t.mg * phase + t.eg * (PHASE_MAX - phase)) / PHASE_MAX;
}

/* The weights of the shared chess evaluation. */
typedef struct ChessWeights {
    Taper material[KING + 1];       /* by piece type; [KING] is 0: kings are not traded */
    Taper mobility[KING + 1];       /* per square a piece attacks beyond the first few  */
    Taper doubled_pawn, isolated_pawn, backward_pawn;
    Taper passed_pawn[8];           /* by the passed pawn's rank, from its side          */
    Taper bishop_pair, rook_open_file, rook_half_open_file;
    Taper king_shield;              /* per own pawn in front of a king                   */
    Taper king_attack;              /* per enemy attack on the squares around a king     */
    Taper tempo;                    /* for the side to move                              */
    /* King safety beyond the shield and the attacked squares; 0 in
     * CHESS_WEIGHTS, tuned in chess (docs/engine.md, "Tuning"). */
    Taper king_open_file;           /* per file at or beside a king with no own pawn     */
    Taper pawn_storm[8];            /* per enemy pawn ahead of a king, by ranks between  */
    Taper king_attackers[8];        /* by how many pieces of a side attack the squares
                                       around the other side's kings (7: 7 or more)      */
    Taper pawn_threat;              /* per piece (not pawn) an enemy pawn attacks        */
    /* The terms added on 2026-11-28, all 0 in CHESS_WEIGHTS and fitted in
     * chess.  A piece's mobility by its count of squares (as the linear
     * `mobility`), one value for each count: the first few squares matter
     * more than the tenth.  Counted for the side whose pieces they are. */
    Taper knight_mobility[9], bishop_mobility[14], rook_mobility[15], queen_mobility[28];
    Taper threat_by_minor[KING + 1]; /* per enemy piece, by type, a knight or bishop attacks */
    Taper threat_by_rook[KING + 1];  /* per enemy piece, by type, a rook attacks             */
    Taper hanging;                  /* per enemy piece (not pawn) attacked and undefended */
    Taper zone_attack[KING + 1];    /* per square around an enemy king a piece of the type
                                       attacks (pieces of one type counted once a square) */
    Taper safe_check[KING + 1];     /* per square from which a piece of the type could
                                       give check next move, that no enemy piece guards  */
    Taper king_danger[16];          /* by the attack units on an enemy king (board_eval.c) */
    Taper passed_free[8];           /* a passed pawn whose next square is empty, by rank  */
    Taper passed_own_king[8];       /* per step from the own king to a passed pawn's next
                                       square (5 at most), by the pawn's rank             */
    Taper passed_enemy_king[8];     /* the same for the nearest enemy king               */
    Taper connected_pawn[8];        /* a pawn beside or defended by an own pawn, by rank  */
    Taper outpost[KING + 1];        /* a knight or bishop on the enemy's side, defended by
                                       a pawn, where no enemy pawn can ever attack it    */
    Taper bishop_pawns;             /* per own pawn on the colour of an own bishop        */
    /* Piece-square values of a white piece (Black's mirrored), used where
     * square_tables is set; otherwise the rules of board_eval.c's
     * square_value.  Last of the Tapers: the tuner (bench/tune-features.c)
     * reads every weight as one array of them, up to square_tables. */
    Taper square[KING + 1][64];
    bool square_tables;
    /* Whether the terms added on 2026-11-28 (knight_mobility to
     * bishop_pawns) are counted at all.  Where every one of them is 0
     * (CHESS_WEIGHTS, which the other games use) counting them would cost
     * time and change no score. */
    bool extended_terms;
} ChessWeights;

extern const ChessWeights CHESS_WEIGHTS;

/* The weights fitted to chess positions (chess/chess_weights.c, written
 * by bench/tune-chess.sh), used by chess alone; the other games keep
 * CHESS_WEIGHTS. */
extern const ChessWeights CHESS_TUNED_WEIGHTS;

/* The chess evaluation of the board alone, for the side to move, in
 * centipawns: material, piece-square tables (tapered), mobility, pawn
 * structure, king safety of every king of either side.  Kings count for
 * nothing as material (the games that can lose all their kings value
 * them themselves).  `w` NULL: CHESS_WEIGHTS. */
int chess_eval_board(const Board *b, const ChessWeights *w);

/* Chess's evaluation adds this to the board's, from White's side: where
 * one side has a bare king and the other enough to mate it, a bonus to the
 * stronger side for the bare king's distance from the centre and for its
 * own king's nearness (chess_eval.c); 0 in every other position. */
int chess_mop_up(const Board *b);

/* The same before the middle and end game are blended: White's terms
 * less Black's, with the board's phase in *phase.  Linear in the weights,
 * which is what lets bench/tune-features.c read each term's count. */
Taper chess_eval_terms(const Board *b, const ChessWeights *w, int *phase);

/* The material value of a piece type (middle game), for move ordering and
 * for games that value pieces off the board (pockets, travellers). */
int eval_piece_value(PieceType t);

/* A piece that is away and due back at a known move (Gifford's pieces in
 * transit, Chessgi's travellers): `now_percent` of its value when due now,
 * `per_move` less for each move still to go, never less than
 * `min_percent`, for the game may be decided before it lands. */
typedef struct DueValue {
    int now_percent, per_move, min_percent;
} DueValue;

int eval_due_value(PieceType t, const DueValue *d, int moves_away);

/* The game phase of a board (0..PHASE_MAX). */
int eval_phase(const Board *b);

typedef struct Evaluator {
    const char *variant;                   /* Variant.name it serves              */
    /* The score for the side to move at the line's present position. */
    int (*evaluate)(const Line *l);
    /* May the search pass the turn here (null-move pruning)?  NULL: never. */
    bool (*null_move_ok)(const Line *l);
    /* An end the game reaches whatever the side to move could do (Time
     * Traveler's grammar), checked at every node; NULL: none.  True and
     * *out set if the game is over. */
    bool (*early_end)(const Line *l, Outcome *out);
    /* Late move pruning drops quiet actions near the leaves unless they
     * give check; true where a quiet action that gives no check cannot end
     * the game at once.  Time Traveler's Chess says false: an explosion
     * can mate without what the search calls a check. */
    bool late_move_pruning;
    /* Up to this depth the search keeps, at a node off the principal
     * variation, only the first few quiet arrivals (MOVE_ARRIVAL), besides
     * every other action the other prunings keep; 0: they are pruned only
     * as quiet chess moves are.  For a game whose positions offer
     * thousands of them (van Gog's), almost all losing by the
     * evaluation's own account. */
    int travel_pruning_depth;
    /* The evaluation as the side the engine plays, `side`, must see it
     * where the game is not zero-sum (van Gog, where both sides may lose):
     * what the score for `side` loses beyond evaluate's (0: nothing), and
     * whether a result both sides lose is ahead (*shared_loss, for which
     * the search takes more: search.c, outcome_score).  NULL: the game is
     * zero-sum. */
    int (*side_view)(const Line *l, Color side, bool *shared_loss);
    /* Futility pruning, the history's say in late move reductions and
     * internal iterative reductions (search.c): what chess engines use to
     * search deeper in the same time, measured against Stockfish in chess
     * (docs/engine.md).  Left false where the game was measured without
     * them: their margins are chess's, and a time-travel action can change
     * more than a chess move's value in one ply. */
    bool chess_prunings;
} Evaluator;

/* The evaluator of a variant: the one its table names (Variant.evaluator);
 * every registered variant names one (tests/test_variants.c checks). */
const Evaluator *evaluator_for(const Variant *v);

#endif
