// SPDX-License-Identifier: GPL-3.0-or-later
//
// The move list as a tree: each timeline's own moves in a group of their own, headed by where the
// timeline left its parent ("Timeline 2 from 3. Ke1<3@e3"), the present timeline marked and the
// moves no longer on the way to the present greyed. A timeline's own nodes are the ones carrying
// its number: they follow one another from the first, whose parent lies on an older timeline
// (docs/design.md, "The record"). A click on a move, or the arrow keys, show that position on the
// main board (BoardHost.showNode); End goes back to the present.

import type { GameNode } from './api';
import { fill, h } from './dom';
import type { BoardHost, RecordView } from './game-parts';
import { chainTo, nodeByPly } from './timelines';

/** "3." before White's move 3, "3…" before Black's: the number of the position an action was played in. */
function moveNumber(before: GameNode | undefined): string {
  return before ? `${before.move}${before.side === 'white' ? '.' : '…'}` : '';
}

/** Whether a key press belongs to a field being typed in, which keeps its arrow keys. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The tree of the record, after each change of the record or of the position shown. */
export class MoveList {
  private view: RecordView | null = null;
  /** The node shown on the main board (the present when the board shows it). */
  private shown = 0;
  /** A scroll to the shown action is waiting for the next frame. */
  private scrollQueued = false;
  private readonly onKey = (ev: KeyboardEvent): void => this.key(ev);

  constructor(private readonly root: HTMLElement, private readonly host: BoardHost) {
    root.classList.add('move-tree');
    document.addEventListener('keydown', this.onKey);
  }

  destroy(): void {
    document.removeEventListener('keydown', this.onKey);
  }

  /** Draws the record; `shown` is the ply on the main board, null for the present. */
  update(view: RecordView, shown: number | null): void {
    this.view = view;
    this.shown = shown ?? view.ply;
    const byPly = nodeByPly(view);
    const present = byPly.get(view.ply);
    const live = new Set(present ? chainTo(byPly, present).map(n => n.ply) : []);
    const actionAt = new Map(view.actions.map((a, i) => [a.ply ?? i + 1, a]));
    const groups = [...new Set(view.nodes.map(n => n.timeline))].sort((a, b) => a - b).map(timeline => {
      const own = view.nodes.filter(n => n.timeline === timeline).sort((a, b) => a.ply - b.ply);
      const isPresent = present?.timeline === timeline;
      const items = own.map((node, i) => {
        if (node.parent < 0) return this.item(node.ply, live.has(node.ply), 'start', h('span', { class: 'human' }, 'start position'));
        const a = actionAt.get(node.ply);
        const note = a && view.kinds[a.kind]?.travel === 'forward' && view.kinds[a.kind]?.arg
          ? h('span', { class: 'note' }, ` (${view.kinds[a.kind]?.arg} ${a.arg})`) : null;
        // Black's reply right after White's move goes without its number, as in "1. e4 e5".
        const before = byPly.get(node.parent);
        const number = before?.side === 'black' && i > 0 && own[i - 1].ply === node.parent && own[i - 1].parent >= 0 ? '' : moveNumber(before);
        return this.item(node.ply, live.has(node.ply), number, h('span', { class: 'human' }, a?.human ?? '?'), note);
      });
      const first = own[0];
      const branch = first && first.parent >= 0 ? actionAt.get(first.ply) : undefined;
      const from = branch ? ` from ${moveNumber(byPly.get(first.parent))} ${branch.human}` : '';
      // A timeline is abandoned when the way to the present no longer passes its newest position.
      const abandoned = !isPresent && !live.has(own[own.length - 1].ply);
      const head = h('div', { class: 'tl-head' }, h('span', { class: 'tl-name' }, `Timeline ${timeline}${from}`),
        isPresent ? h('span', { class: 'badge present' }, 'present') : abandoned ? h('span', { class: 'badge' }, 'abandoned') : null);
      return h('section', { class: `tl-group${isPresent ? ' present' : ''}${abandoned ? ' abandoned' : ''}`, 'data-timeline': timeline },
        head, h('ol', { class: 'tl-moves' }, ...items));
    });
    const keys = h('div', { class: 'hint keys' }, '← → moves · ↑ ↓ timelines · Home / End');
    fill(this.root, ...groups, keys);
    // Measured before the next frame, when the rest of the page has been drawn too: measuring here
    // would make the browser lay out the whole page twice (about 80 ms of a first load on two cores).
    if (!this.scrollQueued) {
      this.scrollQueued = true;
      requestAnimationFrame(() => {
        this.scrollQueued = false;
        this.scrollToShown();
      });
    }
  }

  /** Brings the shown action into the list's view; only the list scrolls, the page stays where the
   *  player is. */
  private scrollToShown(): void {
    const current = this.root.querySelector<HTMLElement>('li.shown');
    if (!current || !this.root.isConnected || this.root.scrollHeight <= this.root.clientHeight) return;
    const top = current.offsetTop - this.root.offsetTop;
    if (top < this.root.scrollTop || top > this.root.scrollTop + this.root.clientHeight - current.offsetHeight)
      this.root.scrollTop = top - this.root.clientHeight / 2;
  }

  private item(ply: number, live: boolean, number: string, ...rest: (HTMLElement | null)[]): HTMLElement {
    const classes = [ply === this.shown ? 'shown' : '', live ? '' : 'abandoned', ply === this.view?.ply ? 'present' : '',
      ply === 0 ? 'start' : ''].filter(Boolean).join(' ');
    const li = h('li', { 'data-ply': ply, class: classes, title: `ply ${ply}` }, number ? h('span', { class: 'num' }, number) : null, ...rest);
    if (ply === 0) li.setAttribute('data-start', '');
    li.addEventListener('click', () => this.show(ply));
    return li;
  }

  private show(ply: number): void {
    this.host.showNode(ply === this.view?.ply ? null : ply);
  }

  private key(ev: KeyboardEvent): void {
    if (!this.view || !this.root.isConnected || typing(ev.target) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = this.step(ev.key);
    if (target === undefined) return;
    ev.preventDefault();
    if (target !== this.shown) this.show(target);
  }

  /** The ply an arrow key (or Home, End) leads to from the node shown, or undefined for another key. */
  step(key: string): number | undefined {
    const view = this.view;
    if (!view) return undefined;
    const byPly = nodeByPly(view);
    const node = byPly.get(this.shown);
    if (!node) return undefined;
    switch (key) {
      case 'Home':
        return 0;
      case 'End':
        return view.ply;
      case 'ArrowLeft':
        return node.parent >= 0 ? node.parent : node.ply;
      case 'ArrowRight':
        return this.child(node, byPly);
      case 'ArrowUp':
      case 'ArrowDown':
        return this.otherTimeline(node, byPly, key === 'ArrowUp' ? -1 : 1);
      default:
        return undefined;
    }
  }

  /** The next position: on the same timeline, else on the way to the present, else the oldest child. */
  private child(node: GameNode, byPly: Map<number, GameNode>): number {
    const view = this.view!;
    const children = view.nodes.filter(n => n.parent === node.ply).sort((a, b) => a.ply - b.ply);
    if (!children.length) return node.ply;
    const present = byPly.get(view.ply);
    const live = new Set(present ? chainTo(byPly, present).map(n => n.ply) : []);
    return (children.find(n => n.timeline === node.timeline) ?? children.find(n => live.has(n.ply)) ?? children[0]).ply;
  }

  /** The position as deep in the neighbouring timeline (its own moves at least): ↑ the one before, ↓ after. */
  private otherTimeline(node: GameNode, byPly: Map<number, GameNode>, dir: number): number {
    const view = this.view!;
    const timelines = [...new Set(view.nodes.map(n => n.timeline))].sort((a, b) => a - b);
    const other = timelines[timelines.indexOf(node.timeline) + dir];
    if (other === undefined) return node.ply;
    const own = view.nodes.filter(n => n.timeline === other);
    const tip = own.reduce((a, b) => (b.ply > a.ply ? b : a));
    const chain = chainTo(byPly, tip);
    const depth = chainTo(byPly, node).length - 1;
    const firstOwn = chain.findIndex(n => n.timeline === other);
    return chain[Math.max(firstOwn, Math.min(depth, chain.length - 1))].ply;
  }
}
