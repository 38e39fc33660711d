// SPDX-License-Identifier: GPL-3.0-or-later
//
// The small menu beside a selected piece that starts its time travel. A drag or a tap on the board
// always makes an ordinary move; travelling in time is a deliberate act chosen here: Gifford's "send
// forward" (a move-number slider, then confirm) and "back in time…" for a king (chosen on the
// timelines), van Gog's "leave for the future †" (then the square, on the board) and the departure
// that repays an obligation, Chessgi's "into the pocket until move N". The menu opens from a small
// "time travel" button beside the piece (reached with Tab from the board) and closes with Escape.

import type { Action, Color, KindInfo } from './api';
import { PIECE_NAMES } from './board';
import { h } from './dom';
import { pieceOfSend } from './timelines';

export interface TravelMenuHost {
  /** Plays the action at once. */
  send(coord: string): void;
  /** The board offers these actions of the piece (van Gog's departures to the future): a drag or a tap plays one. */
  pick(actions: Action[], title: string): void;
  /** "Back in time…" for a king: the page leads to the timelines view, where the move is chosen. */
  kingBack(): void;
  /** The menu was closed (Escape, or its cancel). */
  close(): void;
}

export class TravelMenu {
  readonly element = h('div', { id: 'travel-menu', class: 'travel-menu', role: 'menu', hidden: true });
  private square: string | null = null;
  /** Draws the menu's buttons again (the slider's "Back"). */
  private redraw: () => void = () => undefined;

  constructor(private readonly host: TravelMenuHost) {
    this.element.addEventListener('keydown', ev => {
      if (ev.key === 'Escape') {
        this.hide();
        this.host.close();
      }
    });
  }

  hide(): void {
    this.square = null;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  /**
   * Shows the menu of the piece `letter` on `square` with its time travels `acts`, beside the square
   * on a board of `size` px seen from `orientation`. The menu stays as it is when it already shows
   * this piece's (so that a redraw does not close the slider under the player's hand).
   */
  show(square: string, letter: string, acts: Action[], kinds: Record<string, KindInfo>, variant: string, orientation: Color,
    size: number): void {
    const key = `${square} ${acts.map(a => a.coord).join(' ')}`;
    if (this.square === square && this.element.dataset.key === key) return;
    this.square = square;
    this.element.dataset.key = key;
    this.element.dataset.square = square;
    this.place(square, orientation, size);
    this.redraw = () => this.draw(letter, acts, kinds, variant);
    // Folded to one small button first, so that the menu hides no square the piece may move to.
    const open = h('button', { id: 'menu-open', type: 'button', 'aria-expanded': 'false', title: 'time travel of this piece' }, '⌛ Time travel…');
    open.addEventListener('click', () => {
      this.redraw();
      this.element.querySelector<HTMLElement>('.menu-item')?.focus();
    });
    this.element.replaceChildren(open);
    this.element.classList.add('collapsed');
    this.element.hidden = false;
  }

  /** Beside the square: to its right on the left half of the board, to its left on the right half. */
  private place(square: string, orientation: Color, size: number): void {
    const sq = size / 8;
    const file = square.charCodeAt(0) - 97;
    const rank = Number(square[1]) - 1;
    const col = orientation === 'white' ? file : 7 - file;
    const row = orientation === 'white' ? 7 - rank : rank;
    const st = this.element.style;
    st.left = col < 4 ? `${(col + 1) * sq}px` : '';
    st.right = col < 4 ? '' : `${(8 - col) * sq}px`;
    st.top = row < 5 ? `${row * sq}px` : '';
    st.bottom = row < 5 ? '' : `${(7 - row) * sq}px`;
  }

  private draw(letter: string, acts: Action[], kinds: Record<string, KindInfo>, variant: string): void {
    this.element.classList.remove('collapsed');
    const travel = (a: Action) => kinds[a.kind]?.travel;
    const name = PIECE_NAMES[letter.toLowerCase()] ?? letter;
    const items: HTMLElement[] = [h('div', { class: 'menu-title' }, `${name.charAt(0).toUpperCase()}${name.slice(1)} on ${this.square}: time travel`)];
    const forward = acts.filter(a => travel(a) === 'forward');
    const pocket = variant.startsWith('chessgi');
    if (forward.length) {
      items.push(this.item('menu-forward', pocket ? 'Into the pocket until move…' : 'Send forward…', () => {
        this.element.replaceChildren(items[0], this.slider(forward, pocket));
        this.element.querySelector<HTMLInputElement>('#forward-move')?.focus();
      }));
    }
    const back = acts.filter(a => travel(a) === 'back');
    if (back.length) items.push(this.item('menu-back', 'Back in time…', () => this.host.kingBack()));
    const future = acts.filter(a => a.kind === 'depart-future');
    if (future.length) {
      items.push(this.item('menu-depart-future', 'Leave for the future †', () =>
        this.host.pick(future, `The ${name} leaves for the future: drag it or tap a dotted square.`)));
    }
    // A departure to the past repays an arrival that came before (van Gog): there are few, each named.
    for (const a of acts.filter(x => travel(x) === 'depart' && x.kind !== 'depart-future')) {
      const b = this.item('', `Repay: ${a.human}`, () => this.host.send(a.coord));
      b.dataset.coord = a.coord;
      b.title = `${kinds[a.kind]?.words ?? a.kind}: ${a.human}`;
      items.push(b);
    }
    const cancel = this.item('menu-cancel', '×', () => {
      this.hide();
      this.host.close();
    });
    cancel.title = 'close (Esc)';
    cancel.setAttribute('aria-label', 'close the time-travel menu');
    items.push(cancel);
    this.element.replaceChildren(...items);
  }

  private item(id: string, label: string, onClick: () => void): HTMLButtonElement {
    const b = h('button', { type: 'button', role: 'menuitem', class: 'menu-item' }, label);
    if (id) b.id = id;
    b.addEventListener('click', onClick);
    return b;
  }

  /** The move-number slider of a forward travel, with the move it lands at and a confirm button. */
  private slider(forward: Action[], pocket: boolean): HTMLElement {
    const args = forward.map(a => a.arg).sort((x, y) => x - y);
    const input = h('input', {
      id: 'forward-move', type: 'range', min: args[0], max: args[args.length - 1], step: 1, value: args[0],
      'aria-label': 'the move it arrives at',
    });
    const out = h('output', { id: 'forward-value', for: 'forward-move' });
    const confirm = h('button', { id: 'forward-confirm', type: 'button', class: 'menu-item primary' });
    const sync = (): void => {
      const n = Number(input.value);
      const ok = args.includes(n);
      const what = pieceOfSend(forward[0]);
      out.textContent = ok
        ? pocket ? `${what} returns at move ${n}` : `${what} arrives at move ${n}, placed then`
        : `not move ${n}: ${pocket ? 'another traveller returns then' : 'an arrival is due then'}`;
      confirm.textContent = `${pocket ? 'Into the pocket' : 'Send'} to move ${n}`;
      confirm.disabled = !ok;
    };
    input.addEventListener('input', sync);
    input.addEventListener('keydown', ev => {
      if (ev.key === 'Enter') confirm.click();
    });
    confirm.addEventListener('click', () => {
      const a = forward.find(x => x.arg === Number(input.value));
      if (a) this.host.send(a.coord);
    });
    sync();
    const cancel = this.item('', 'Back', () => this.redraw());
    return h('div', { class: 'forward-entry' }, input, out, h('div', { class: 'menu-buttons' }, confirm, cancel));
  }
}
