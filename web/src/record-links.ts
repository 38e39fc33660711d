// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's record links: the PGN, the score sheets, the Game Courier log, a diagram of the position shown, a new
// game from that position, and the analysis board there (any ply of any timeline).

import { analysisOfGame } from './analysis';
import type { Color, GameNode, GameState } from './api';
import { h, navigate } from './dom';
import type { RenderOptions } from './options';

export class RecordLinks {
  readonly element: HTMLElement;
  private readonly pgn = h('a', { id: 'pgn-link', target: '_blank', rel: 'noopener' }, 'PGN');
  private readonly sheets = h('a', { id: 'sheets-link', target: '_blank', rel: 'noopener' }, 'Score sheets');
  private readonly gc = h('a', { id: 'gc-link', target: '_blank', rel: 'noopener' }, 'Game Courier log');
  private readonly diagram = h('a', { id: 'diagram-link', target: '_blank', rel: 'noopener' }, 'Diagram (SVG)');
  private state: GameState | null = null;
  private node: GameNode | null = null;

  constructor() {
    const newFromHere = h('button', { id: 'new-from-here', type: 'button' }, 'New game from this position');
    newFromHere.addEventListener('click', () => {
      const s = this.state;
      const node = this.node;
      if (!s || !node) return;
      navigate(`/?${new URLSearchParams({ variant: s.variant, options: s.options, fen: node.fen }).toString()}`);
    });
    const analyse = h('button', { id: 'analyse-here', type: 'button', title: 'the analysis board at the position shown' }, 'Analyse');
    analyse.addEventListener('click', () => {
      if (this.state && this.node) navigate(analysisOfGame(this.state, this.node.ply));
    });
    this.element = h('section', { class: 'card' }, h('h3', {}, 'Record'),
      h('div', { class: 'links' }, this.pgn, ' · ', this.sheets, ' · ', this.gc, ' · ', this.diagram, ' ', newFromHere, ' ', analyse));
  }

  /** The links for the game and the node shown, seen from `orientation` with the page's pieces and colours. */
  update(s: GameState, node: GameNode, orientation: Color, opts: RenderOptions): void {
    this.state = s;
    this.node = node;
    const base = `/api/games/${encodeURIComponent(s.id)}`;
    this.pgn.setAttribute('href', `${base}/pgn`);
    this.sheets.setAttribute('href', `${base}/sheets`);
    this.gc.setAttribute('href', `${base}/gc`);
    const q = new URLSearchParams({ ply: String(node.ply), orientation, set: opts.pieces, colors: opts.colors });
    this.diagram.setAttribute('href', `${base}/diagram.svg?${q.toString()}`);
  }
}
