// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's travel section: the earlier positions a travel may start from, until the timelines
// view offers them on its boards. A king going back (chosen from its menu, "back in time…") lists the
// moves it may go back to; Chessgi's general travel lists the earlier positions. Choosing one asks the
// main board to show that position in its "travel" frame (BoardHost.offerTravel), where the player
// drags or taps the action and confirms it.

import type { Action, GameNode } from './api';
import { fill, h } from './dom';
import type { BoardHost, RecordView } from './game-parts';
import { chainTo, nodeByPly } from './timelines';

export class TravelSection {
  readonly element = h('div', { id: 'travel-panel', class: 'card', hidden: true });
  /** What the section shows now: the same is not drawn again, so that a redraw never replaces the
   *  button under the player's pointer between the press and the release. */
  private key = '';

  constructor(private readonly host: Pick<BoardHost, 'offerTravel'>) {}

  /**
   * Draws the section for the record `s` whose present node is `present`: the moves the king on
   * `king.square` may go back to, and the positions of `general` (the whole-board travels).
   */
  update(s: RecordView, present: GameNode | undefined, king: { square: string; actions: Action[] } | null, general: Action[]): void {
    const key = `${present?.ply} ${s.nodes.length} ${king?.square} ${king?.actions.length} ${general.length}`;
    if (key === this.key) return;
    this.key = key;
    const parts: HTMLElement[] = [];
    const byPly = nodeByPly(s);
    if (king && present) {
      const chain = chainTo(byPly, present);
      const moves = [...new Set(king.actions.map(a => a.arg))].sort((x, y) => y - x);
      const buttons = moves.map(move => {
        const node = chain.find(n => n.move === move && n.side === present.side);
        const acts = king.actions.filter(a => a.arg === move);
        const b = h('button', { type: 'button', class: 'node-pick', 'data-move': move }, `move ${move}`);
        b.addEventListener('click', () => {
          if (node) this.host.offerTravel(node.ply, acts, `King ${king.square} back to move ${move}, timeline ${node.timeline}`);
        });
        return b;
      });
      parts.push(h('div', { class: 'travel-group' }, h('div', { class: 'group-label' }, `King on ${king.square} back in time, to move:`),
        h('div', { class: 'node-picks' }, ...buttons)));
    }
    if (general.length) {
      const plies = [...new Set(general.map(a => a.arg))].sort((x, y) => x - y);
      const picks = plies.map(ply => {
        const n = byPly.get(ply);
        const label = n ? `move ${n.move}, timeline ${n.timeline}` : `ply ${ply}`;
        const b = h('button', { type: 'button', class: 'node-pick', 'data-node': ply, title: `ply ${ply}` }, label);
        b.addEventListener('click', () => this.host.offerTravel(ply, general.filter(a => a.arg === ply), `Travel to ${label}`));
        return b;
      });
      parts.push(h('div', { class: 'travel-group' },
        h('div', { class: 'group-label' }, 'Travel to an earlier position and play there (your pocket comes along):'),
        h('div', { class: 'node-picks' }, ...picks)));
    }
    fill(this.element, ...(parts.length ? [h('h3', {}, 'Time travel'), ...parts] : []));
    this.element.hidden = parts.length === 0;
  }
}
