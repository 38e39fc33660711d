// SPDX-License-Identifier: GPL-3.0-or-later
//
// The travel frame: the main board showing an earlier position chosen on the timelines (a Gifford
// king's way back, a Chessgi general travel), where the player makes the action that travels there
// and confirms it (BoardHost.offerTravel). A move on that board is dragged or tapped as on the
// present board; a piece put on it (the king arriving from the future, a drop from the pocket) is
// put with a tap on one of the squares dotted for it, after choosing the piece when there are
// several. Nothing is sent before the player confirms: the board shows the action made meanwhile.

import type { Action, Color, GameNode, KindInfo } from './api';
import { colored, dotShapes, frameShapes, isKey, markShapes, pieceAt, pieceIcon, PIECE_NAMES, placeOn, type Key } from './board';
import type { DrawShape } from 'chessgroundx/draw';
import { fill, h } from './dom';

/** What the frame asks of the page. */
export interface TravelFrameHost {
  /** Plays the chosen action (the page sends it). */
  send(coord: string): void;
  /** Draws the page again (the board's configuration comes from `boardConfig`). */
  redraw(): void;
  kinds(): Record<string, KindInfo>;
}

interface Offer {
  node: GameNode;
  title: string;
  /** Actions made by moving a piece of the earlier position from one square to another. */
  moves: Action[];
  /** Actions that put a piece on a square: a king arriving from the future, a drop. */
  placements: Action[];
}

/** The piece an action puts on the board, upper case: the drop's piece, or the piece that travels. */
/** placeOn's way of emptying a square: its grid holds null for an empty one. */
const EMPTY = null as unknown as string;

function placedPiece(a: Action): string {
  if (a.piece) return a.piece.toUpperCase();
  const letter = /^[KQRBN]/.exec(a.human);
  return letter ? letter[0] : 'P';
}

export class TravelFrame {
  private offer: Offer | null = null;
  /** The actions the player's gesture matched: one to confirm, or several to choose from. */
  private picked: Action[] = [];
  /** The piece chosen to put on the board, when several can be. */
  private piece: string | null = null;

  constructor(private readonly box: HTMLElement, private readonly wrap: HTMLElement, private readonly host: TravelFrameHost) {
    box.hidden = true;
  }

  active(): boolean {
    return this.offer !== null;
  }

  /** Shows `node` in the frame with the actions made there. */
  start(node: GameNode | undefined, actions: Action[], title: string): void {
    if (!node || !actions.length) return;
    const kinds = this.host.kinds();
    const isMove = (a: Action): boolean => !!kinds[a.kind]?.board && kinds[a.kind]?.travel !== 'back' && isKey(a.from) &&
      isKey(a.to) && pieceAt(node.board, a.from) !== null;
    this.offer = { node, title, moves: actions.filter(isMove), placements: actions.filter(a => !isMove(a) && isKey(a.to)) };
    this.picked = [];
    const pieces = new Set(this.offer.placements.map(placedPiece));
    this.piece = pieces.size === 1 ? [...pieces][0] : null;
    this.host.redraw();
    // The position was chosen on the timelines, below the board on a phone: the board comes into view.
    this.wrap.scrollIntoView({ block: 'nearest' });
  }

  cancel(): void {
    if (!this.offer) return;
    this.offer = null;
    this.picked = [];
    this.piece = null;
    this.render();
  }

  /** A piece dragged on the frame's board: the actions of that move, if any. */
  onMove(orig: string, dest: string): boolean {
    if (!this.offer) return false;
    this.pick(this.offer.moves.filter(a => a.from === orig && a.to === dest));
    return true;
  }

  /** A tap on the frame's board: a square where the chosen piece may be put picks that action. */
  onSelect(key: string): boolean {
    if (!this.offer) return false;
    if (this.piece && !this.picked.length) {
      const here = this.offer.placements.filter(a => a.to === key && placedPiece(a) === this.piece);
      if (here.length) this.pick(here);
    }
    return true;
  }

  private pick(actions: Action[]): void {
    this.picked = actions;
    this.host.redraw();
  }

  /** The position the board shows: the earlier one, with the picked action made on it. */
  private shownBoard(): string {
    const o = this.offer!;
    const a = this.picked.length === 1 ? this.picked[0] : null;
    if (!a || !isKey(a.to)) return o.node.board;
    const placing = o.placements.includes(a);
    const letter = placing ? colored(placedPiece(a), o.node.side) : pieceAt(o.node.board, a.from ?? '');
    let board = o.node.board;
    if (!placing && isKey(a.from)) board = placeOn(board, a.from, EMPTY);
    return letter ? placeOn(board, a.to, a.promo ? colored(a.promo, o.node.side) : letter) : board;
  }

  /** The main board's configuration while the frame is open (chessground's `set`), and the frame drawn. */
  boardConfig(): Record<string, unknown> {
    const o = this.offer!;
    this.render();
    const dests = new Map<Key, Key[]>();
    if (!this.picked.length) {
      for (const a of o.moves) {
        const list = dests.get(a.from as Key) ?? [];
        if (!list.includes(a.to as Key)) list.push(a.to as Key);
        dests.set(a.from as Key, list);
      }
    }
    const shapes: DrawShape[] = [...markShapes(o.node.marks)];
    if (this.picked.length) shapes.push(...frameShapes(this.picked.flatMap(a => [a.from ?? '', a.to ?? ''])));
    else if (this.piece) shapes.push(...dotShapes(o.placements.filter(a => placedPiece(a) === this.piece).map(a => a.to ?? '')));
    return {
      fen: this.shownBoard(),
      turnColor: o.node.side,
      check: false,
      lastMove: [],
      movable: { free: false, color: this.picked.length ? undefined : o.node.side, dests, showDests: true },
      premovable: { enabled: false },
      selectable: { enabled: true },
      drawable: { enabled: false, visible: true, autoShapes: shapes },
    };
  }

  /** The frame's words and buttons beside the board. */
  private render(): void {
    const o = this.offer;
    this.wrap.classList.toggle('travel', !!o);
    if (!o) {
      this.box.hidden = true;
      fill(this.box);
      return;
    }
    const cancel = h('button', { type: 'button', id: 'travel-cancel' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.cancel();
      this.host.redraw();
    });
    const parts: (HTMLElement | string)[] = [h('div', { class: 'travel-title' }, o.title)];
    const color: Color = o.node.side;
    if (this.picked.length === 1) {
      const a = this.picked[0];
      const confirm = h('button', { type: 'button', id: 'travel-confirm', class: 'primary', 'data-coord': a.coord }, `Confirm ${a.human}`);
      confirm.addEventListener('click', () => {
        this.cancel();
        this.host.send(a.coord);
      });
      const again = h('button', { type: 'button', id: 'travel-again' }, 'Another move');
      again.addEventListener('click', () => this.pick([]));
      parts.push(h('div', { class: 'travel-buttons' }, confirm, again, cancel));
    } else if (this.picked.length > 1) {
      // A promotion, or several pieces that may go there: the one real question.
      const choices = this.picked.map(a => {
        const b = h('button', { type: 'button', 'data-coord': a.coord }, a.human);
        b.addEventListener('click', () => this.pick([a]));
        return b;
      });
      parts.push(h('div', { class: 'travel-buttons' }, ...choices, cancel));
    } else {
      const pieces = [...new Set(o.placements.map(placedPiece))];
      const says: string[] = [];
      if (o.moves.length) says.push('drag or tap a move on the board');
      if (o.placements.length) says.push(pieces.length > 1 ? 'or choose a piece to put on the board' : `or tap a dotted square for the ${PIECE_NAMES[pieces[0].toLowerCase()] ?? pieces[0]}`);
      const row = pieces.length > 1 ? pieces.map(p => {
        const b = h('button', { type: 'button', class: p === this.piece ? 'piece-pick active' : 'piece-pick', 'data-piece': p,
          title: PIECE_NAMES[p.toLowerCase()] ?? p, 'aria-label': PIECE_NAMES[p.toLowerCase()] ?? p }, pieceIcon(p, color));
        b.addEventListener('click', () => {
          this.piece = p;
          this.host.redraw();
        });
        return b;
      }) : [];
      parts.push(h('div', { class: 'hint' }, `${says.join(' ').replace(/^or /, '')}, then confirm.`),
        h('div', { class: 'travel-buttons' }, ...row, cancel));
    }
    fill(this.box, ...parts);
    this.box.hidden = false;
  }
}
