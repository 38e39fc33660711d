// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every timeline of the record side by side. A timeline is the chain of parents from its tip (the
// newest node carrying its number) back to the start (docs/design.md, "The record"), so a timeline
// born of a king going back shares its first positions with the one it left. Each gets a small board
// with ◀ ▶ to step through its positions, and notes for the pieces sent forward in time on it: where
// they will arrive, and at the step where they do.
//
// The earlier positions the player may travel to are chosen here: a Gifford king's way back (to
// move N of the present timeline) and a Chessgi general travel (to any earlier position where the
// player was to move) mark those positions, and choosing one hands its actions to the main board
// (BoardHost.offerTravel), which shows that position in a travel frame.

import type { Action, Color, GameNode } from './api';
import { isKey, makeViewBoard, markShapes, type BoardApi } from './board';
import type { DrawShape } from 'chessgroundx/draw';
import { fill, h } from './dom';
import type { BoardHost, RecordView } from './game-parts';

export type { RecordView } from './game-parts';

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

/** A position's place in play order: White's move 3 before Black's move 3 before White's move 4. */
function order(move: number, side: Color): number {
  return move * 2 + (side === 'black' ? 1 : 0);
}

/** A small badge in a square's lower corner, for a piece's due move ("4" for a piece due at move 4). */
function badge(key: string, text: string, fill: string): DrawShape {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return {
    orig: key as DrawShape['orig'],
    customSvg: `<circle cx="50" cy="50" r="40" fill="none" stroke="${fill}" stroke-width="6" stroke-dasharray="12 8"/>` +
      `<rect x="2" y="62" width="50" height="36" rx="8" fill="${fill}"/>` +
      `<text x="27" y="91" font-size="32" font-weight="bold" text-anchor="middle" fill="#fff" font-family="sans-serif">${escaped}</text>`,
  };
}

/**
 * What is still under way at `node`, drawn on its position: each piece in transit (sent forward on
 * the way to `node`, not yet due) circled on the square it left, with the move it is due at; each
 * open van Gog obligation (an arrival from the future not yet repaid by its departure) as an arrow
 * from the square the piece must leave to the square where it will vanish; and each van Gog piece
 * gone to the future circled, marked †, where it will reappear.
 */
export function transitShapes(view: RecordView, node: GameNode): DrawShape[] {
  const byPly = nodeByPly(view);
  const chain = chainTo(byPly, node);
  const onChain = new Set(chain.map(n => n.ply));
  const shapes: DrawShape[] = [];
  for (const t of transits(view, chain)) {
    const send = view.actions.find(a => a.ply === t.ply);
    if (order(node.move, node.side) > order(t.move, t.color) || !isKey(send?.from)) continue;
    shapes.push(badge(send.from, String(t.move), t.color === 'white' ? '#2a5db0' : '#b0306a'));
  }
  const played = view.actions.filter(a => a.ply !== undefined && onChain.has(a.ply));
  played.forEach((a, i) => {
    if (a.kind !== 'arrival' || !isKey(a.from) || !isKey(a.to)) return;
    const repaid = played.slice(i + 1).some(d => d.kind === 'depart-past' && d.from === a.from && d.to === a.to);
    if (!repaid) shapes.push({ orig: a.from, dest: a.to, brush: 'paleRed' });
  });
  // A van Gog piece that left for the future reappears on the square it left from.
  played.forEach((a, i) => {
    if (a.kind !== 'depart-future' || !isKey(a.to)) return;
    const back = played.slice(i + 1).some(r => r.kind === 'reappear' && r.to === a.to && r.piece?.toUpperCase() === a.piece?.toUpperCase());
    if (!back) shapes.push(badge(a.to, '†', '#6a4a00'));
  });
  return shapes;
}

/** An earlier position the player may travel to now, with the actions made there. */
export interface TravelTarget {
  node: GameNode;
  actions: Action[];
  title: string;
}

/**
 * The earlier positions the present's legal actions travel to: a Gifford king going back lands at
 * move `arg` of the present timeline, its side to move; a Chessgi general travel names its node.
 */
export function travelTargets(view: RecordView, legal: Action[]): Map<number, TravelTarget> {
  const byPly = nodeByPly(view);
  const present = byPly.get(view.ply);
  const targets = new Map<number, TravelTarget>();
  if (!present) return targets;
  const chain = chainTo(byPly, present);
  for (const a of legal) {
    let node: GameNode | undefined;
    let title = '';
    if (a.at_node) {
      node = byPly.get(a.arg);
      if (node) title = `Travel to move ${node.move}, ${node.side} to play, on timeline ${node.timeline}`;
    } else if (view.kinds[a.kind]?.travel === 'back') {
      node = chain.find(n => n.move === a.arg && n.side === present.side && n.ply !== present.ply);
      if (node) title = `${a.human.startsWith('K') ? 'King' : 'Piece'} back to move ${a.arg}, timeline ${node.timeline}`;
    }
    if (!node) continue;
    const t = targets.get(node.ply) ?? { node, actions: [], title };
    t.actions.push(a);
    targets.set(node.ply, t);
  }
  return targets;
}

/** Draws the timelines into `root`, keeping each one's step across redraws while its tip stays the same. */
export class Timelines {
  private boards: BoardApi[] = [];
  /** Per timeline: the step shown and the tip it was chosen on (a new tip follows the present). */
  private steps = new Map<number, { index: number; tip: number }>();

  private readonly host: BoardHost;
  private side: Color = 'white';

  /** `host` the main board; a function alone (the analysis board) only shows the position chosen. */
  constructor(private readonly root: HTMLElement, host: BoardHost | ((ply: number) => void)) {
    this.host = typeof host === 'function'
      ? { showNode: ply => host(ply ?? 0), offerTravel: () => undefined, legal: () => [], orientation: () => this.side }
      : host;
  }

  /** The timelines seen from `orientation`, without travel (the analysis board). */
  render(state: RecordView, orientation: Color): void {
    this.side = orientation;
    this.update(state);
  }

  /** Draws the record's timelines, with the earlier positions the present's legal actions travel to. */
  update(state: RecordView): void {
    this.destroyBoards();
    const orientation = this.host.orientation();
    const targets = travelTargets(state, this.host.legal());
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
        this.drawColumn(column, state, timeline, chain, index, orientation, targets, i => {
          index = i;
          draw();
        });
      };
      draw();
      columns.push(column);
    }
    const hint = targets.size
      ? h('p', { class: 'travel-hint', id: 'travel-hint' }, [...targets.values()].some(t => t.actions[0].at_node)
        ? 'Time travel: choose an earlier position (marked ⟲) on a timeline, then make your move there on the main board.'
        : 'The king may go back in time: choose the position (marked ⟲) on the timeline, then its square on the main board.')
      : null;
    fill(this.root, ...(hint ? [hint] : []), h('div', { class: 'timeline-columns' }, ...columns));
  }

  private drawColumn(column: HTMLElement, state: RecordView, timeline: number, chain: GameNode[], index: number,
    orientation: Color, targets: Map<number, TravelTarget>, step: (i: number) => void): void {
    const node = chain[index];
    const present = chain.some(n => n.ply === state.ply);
    const prev = h('button', { type: 'button', class: 'step prev', title: 'previous position', 'aria-label': 'previous position', disabled: index === 0 }, '◀');
    const next = h('button', { type: 'button', class: 'step next', title: 'next position', 'aria-label': 'next position', disabled: index === chain.length - 1 }, '▶');
    prev.addEventListener('click', () => step(index - 1));
    next.addEventListener('click', () => step(index + 1));
    const target = targets.get(node.ply);
    const boardEl = h('div', { class: target ? 'mini-board travel-target' : 'mini-board' });
    const show = h('button', { type: 'button', class: 'link-button show', title: 'show this position on the main board' }, 'show');
    show.addEventListener('click', () => this.host.showNode(node.ply));
    const offer = (t: TravelTarget): void => this.host.offerTravel(t.node.ply, t.actions, t.title);
    if (target) boardEl.addEventListener('click', () => offer(target));

    // The positions of this timeline the player may travel to, each a button that steps there and
    // offers the travel on the main board.
    const picks = chain.flatMap((n, i) => {
      const t = targets.get(n.ply);
      if (!t || n.timeline !== timeline) return [];
      const b = h('button', { type: 'button', class: n.ply === node.ply ? 'target-pick active' : 'target-pick', 'data-node': n.ply, title: t.title },
        `⟲ ${n.move}${n.side === 'white' ? '.' : '…'}`);
      b.addEventListener('click', () => {
        step(i);
        offer(t);
      });
      return [b];
    });

    const notes = h('ul', { class: 'transit' });
    for (const t of transits(state, chain)) {
      const arrivesHere = node.move === t.move && node.side === t.color;
      notes.append(h('li', { class: arrivesHere ? 'arrives-now' : '' },
        arrivesHere ? `${t.piece} arrives now (move ${t.move})` : `${t.piece} arrives at move ${t.move}`,
        h('span', { class: 'hint' }, ` (sent at ply ${t.ply}, ${colorName(t.color)})`)));
    }

    let travelHere: HTMLElement | null = null;
    if (target) {
      travelHere = h('button', { type: 'button', class: 'travel-here', 'data-node': node.ply, title: target.title },
        target.actions[0].at_node ? 'Travel here' : 'Go back here');
      travelHere.addEventListener('click', () => offer(target));
    }

    column.classList.toggle('present', present);
    fill(column,
      h('div', { class: 'timeline-head' }, `Timeline ${timeline}`, present ? h('span', { class: 'badge' }, 'present') : null),
      boardEl,
      h('div', { class: 'timeline-nav' }, prev,
        h('span', { class: 'where' }, `move ${node.move}, ${node.side} to play · ply ${node.ply}`), next),
      h('div', { class: 'timeline-foot' }, `${index + 1} of ${chain.length} positions `, show, travelHere ? ' ' : null, travelHere),
      picks.length ? h('div', { class: 'target-picks' }, ...picks) : null,
      notes.childElementCount ? notes : null);
    // The board is drawn once the column is in the document, so that chessground can measure it.
    requestAnimationFrame(() => {
      if (!boardEl.isConnected) return;
      this.boards.push(makeViewBoard(boardEl, node.board, orientation, [...markShapes(node.marks), ...transitShapes(state, node)]));
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
