// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every timeline of the record side by side. A timeline is the chain of parents from its tip (the
// newest node carrying its number) back to the start (docs/design.md, "The record"), so a timeline
// born of a king going back shares its first positions with the one it left. Each gets a small board
// with ◀ ▶ to step through its positions, and notes for the pieces sent forward in time on it: where
// they will arrive, and at the step where they do.

import type { Action, Color, GameNode, KindInfo } from './api';
import { makeViewBoard, markShapes, type BoardApi } from './board';
import { fill, h } from './dom';

export interface Transit {
  /** The node (ply) of the send-forward action. */
  ply: number;
  /** The piece as the action names it: `Bf1` of `Bf1>9`. */
  piece: string;
  /** The move number it arrives at. */
  move: number;
  /** The colour that sent it, which is also the side to move when it arrives. */
  color: Color;
}

/** What the timelines are drawn from: the record and the present ply, as the page's rules give them. */
export interface RecordView {
  ply: number;
  nodes: GameNode[];
  actions: Action[];
  kinds: Record<string, KindInfo>;
}

export function nodeByPly(state: RecordView): Map<number, GameNode> {
  return new Map(state.nodes.map(n => [n.ply, n]));
}

/** The chain of nodes from the start to `tip`. */
export function chainTo(byPly: Map<number, GameNode>, tip: GameNode): GameNode[] {
  const chain: GameNode[] = [];
  const seen = new Set<number>();
  for (let n: GameNode | undefined = tip; n && !seen.has(n.ply); n = byPly.get(n.parent)) {
    seen.add(n.ply);
    chain.push(n);
    if (n.parent < 0) break;
  }
  return chain.reverse();
}

/** The pieces sent forward by the actions of a chain. */
export function transits(state: RecordView, chain: GameNode[]): Transit[] {
  const onChain = new Set(chain.map(n => n.ply));
  const byPly = nodeByPly(state);
  const out: Transit[] = [];
  for (const a of state.actions) {
    if (state.kinds[a.kind]?.travel !== 'forward' || a.ply === undefined || !onChain.has(a.ply)) continue;
    const before = byPly.get(byPly.get(a.ply)?.parent ?? -1);
    out.push({ ply: a.ply, piece: pieceOfSend(a), move: a.arg, color: before?.side ?? 'white' });
  }
  return out;
}

/** `Bf1` of `Bf1>9`, `d2` of `d2>5`. */
export function pieceOfSend(a: Action): string {
  const i = a.human.indexOf('>');
  return i > 0 ? a.human.slice(0, i) : a.from ?? a.human;
}

function colorName(c: Color): string {
  return c === 'white' ? 'White' : 'Black';
}

/** Draws the timelines into `root`, keeping each one's step across redraws while its tip stays the same. */
export class Timelines {
  private boards: BoardApi[] = [];
  /** Per timeline: the step shown and the tip it was chosen on (a new tip follows the present). */
  private steps = new Map<number, { index: number; tip: number }>();

  constructor(private readonly root: HTMLElement, private readonly onShow: (ply: number) => void) {}

  render(state: RecordView, orientation: Color): void {
    this.destroyBoards();
    const byPly = nodeByPly(state);
    const tips = new Map<number, GameNode>();
    for (const n of state.nodes) {
      const t = tips.get(n.timeline);
      if (!t || n.ply > t.ply) tips.set(n.timeline, n);
    }
    const columns: HTMLElement[] = [];
    for (const [timeline, tip] of [...tips.entries()].sort((a, b) => a[0] - b[0])) {
      const chain = chainTo(byPly, tip);
      const kept = this.steps.get(timeline);
      let index = kept && kept.tip === tip.ply ? Math.min(kept.index, chain.length - 1) : chain.length - 1;
      this.steps.set(timeline, { index, tip: tip.ply });
      const column = h('div', { class: 'timeline', 'data-timeline': timeline });
      const draw = (): void => {
        this.steps.set(timeline, { index, tip: tip.ply });
        this.drawColumn(column, state, timeline, chain, index, orientation, i => {
          index = i;
          draw();
        });
      };
      draw();
      columns.push(column);
    }
    fill(this.root, ...columns);
  }

  private drawColumn(column: HTMLElement, state: RecordView, timeline: number, chain: GameNode[], index: number,
    orientation: Color, step: (i: number) => void): void {
    const node = chain[index];
    const present = chain.some(n => n.ply === state.ply);
    const prev = h('button', { type: 'button', class: 'step prev', title: 'previous position', disabled: index === 0 }, '◀');
    const next = h('button', { type: 'button', class: 'step next', title: 'next position', disabled: index === chain.length - 1 }, '▶');
    prev.addEventListener('click', () => step(index - 1));
    next.addEventListener('click', () => step(index + 1));
    const boardEl = h('div', { class: 'mini-board' });
    const show = h('button', { type: 'button', class: 'link-button show', title: 'show this position on the main board' }, 'show');
    show.addEventListener('click', () => this.onShow(node.ply));

    const notes = h('ul', { class: 'transit' });
    for (const t of transits(state, chain)) {
      const arrivesHere = node.move === t.move && node.side === t.color;
      notes.append(h('li', { class: arrivesHere ? 'arrives-now' : '' },
        arrivesHere ? `${t.piece} arrives now (move ${t.move})` : `${t.piece} arrives at move ${t.move}`,
        h('span', { class: 'hint' }, ` (sent at ply ${t.ply}, ${colorName(t.color)})`)));
    }

    fill(column,
      h('div', { class: 'timeline-head' }, `Timeline ${timeline}`, present ? h('span', { class: 'badge' }, 'present') : null),
      boardEl,
      h('div', { class: 'timeline-nav' }, prev,
        h('span', { class: 'where' }, `move ${node.move}, ${node.side} to play · ply ${node.ply}`), next),
      h('div', { class: 'timeline-foot' }, `${index + 1} of ${chain.length} positions `, show),
      notes.childElementCount ? notes : null);
    // The board is drawn once the column is in the document, so that chessground can measure it.
    requestAnimationFrame(() => {
      if (!boardEl.isConnected) return;
      this.boards.push(makeViewBoard(boardEl, node.board, orientation, markShapes(node.marks)));
    });
  }

  private destroyBoards(): void {
    for (const b of this.boards) b.destroy();
    this.boards = [];
  }

  destroy(): void {
    this.destroyBoards();
  }
}
