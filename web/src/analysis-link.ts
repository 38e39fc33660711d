// SPDX-License-Identifier: GPL-3.0-or-later
//
// The address of an analysis (/analysis?variant=&options=&fen=&moves=), and the one of a game's record
// up to a node: what the game page and the lobby link to.

import type { GameState } from './api';

/** What the address of an analysis says. */
export interface AnalysisLink {
  variant: string;
  options: string;
  fen: string;
  moves: string[];
}

/** The address of an analysis: empty parts are left out, the actions separated by spaces. */
export function analysisUrl(link: AnalysisLink): string {
  const q = new URLSearchParams({ variant: link.variant });
  if (link.options) q.set('options', link.options);
  if (link.fen) q.set('fen', link.fen);
  if (link.moves.length) q.set('moves', link.moves.join(' '));
  return `/analysis?${q.toString()}`;
}

/** The analysis of a game's record up to a node: the game's start and its first `ply` actions (the
 *  record as it was when that node was the present, whichever timeline it is on). */
export function analysisOfGame(s: GameState, ply: number): string {
  const start = s.nodes.find(n => n.ply === 0);
  const moves = s.actions.map((a, i) => ({ ply: a.ply ?? i + 1, coord: a.coord }))
    .filter(a => a.ply <= ply).sort((x, y) => x.ply - y.ply).map(a => a.coord);
  return analysisUrl({ variant: s.variant, options: s.options, fen: start?.fen ?? '', moves });
}

