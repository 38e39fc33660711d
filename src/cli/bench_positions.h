/* SPDX-License-Identifier: GPL-3.0-or-later
 * The positions of 'ttchess bench' (analyze.c): each variant's start, and
 * a game of twelve random actions (tests/random_game.c --by-kind, seed 7),
 * time travel included, given as its actions so the history comes too.
 * Each is searched to its own depth, chosen so that every variant takes
 * a second or two: a van Gog position offers thousands of actions, a
 * chess position thirty. */
{ "chess", 12, NULL, NULL },
{ "chess", 10, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL },
{ "gifford", 9, NULL, NULL },
{ "gifford", 9, NULL, "c2c4 e8>3 f2>7 e7e6 f1>10 K@e7 e1>13 f7>11 b2b3 e7<4@a5 h2h3 a5>15" },
{ "vangog", 3, NULL, NULL },
{ "vangog", 2, NULL, "Bc6b7* Qb3c4* Re4e2* Rh8h6* Qf7h7* Qd6g6* Rc7f7* Qh5h8* Rb2f2* Qf7g8* Nb3a5* Qd5d8*" },
{ "vangog-past", 3, NULL, NULL },
{ "vangog-past", 2, NULL, "Be8a4* Bg3h4* Bh8f6* Rg3g8* Bb2e5* Nf4h3* Rb6f6* Qb8h2* Qe6e3* Rg7f7* Ba8b7* Qa7g1*" },
{ "vangog-future", 9, NULL, NULL },
{ "vangog-future", 9, NULL, "b1a3 d7d6^ a3c4^ b8a6 d1e2^ c7c6^ f2f4^ Pd6^^ h2h3^ e8d7^ d2d3^ g8e7^" },
{ "travelers", 4, NULL, NULL },
{ "travelers", 6, NULL, "Qc5/e7 Qc4/e4 Bg4/e6 Nb3/c1 b1a3 Nd4/e6 Rh3/f3 Bd6/f4 Nd5/f6 b6/b5 Ke3/f4 g5/f4" },
{ "chessgi-classic", 10, NULL, NULL },
{ "chessgi-classic", 10, NULL, "b1c3 c7c5 e2e4 g7g5 g2g3 d8b6 d2d4 h7h6 g3g4 a7a6 f1b5 e7e6" },
{ "chessgi", 9, NULL, NULL },
{ "chessgi", 9, NULL, "a2>2 c7c5 [P]@e5 e7e6 a1a7 h8>5 g1h3 f8d6 P@e7 f7f6 c2>9 d6e7" },
