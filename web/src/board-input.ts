// SPDX-License-Identifier: GPL-3.0-or-later
//
// The main board and its input (a layer of the game page's class: game-info.ts below it, game.ts
// above). A drag or a tap-tap always makes an ordinary move, and the dots of a selected piece are its
// ordinary moves only; only a promotion or a real ambiguity asks which. A selected piece with time
// travel gets its menu beside it (travel-menu.ts); drops and arrivals come from the palette
// (palette.ts). The board may also offer other actions instead of the ordinary moves, in a frame:
// the departures of the selected piece, chosen from its menu, or a travel that starts from an earlier
// position (BoardHost.offerTravel), shown there and confirmed.

import type { Action, Color, KindInfo } from './api';
import { dotShapes, frameShapes, isKey, markShapes, pieceAt, placeOn, PIECE_NAMES, textDiagram, type BoardApi, type Key } from './board';
import { fill, h } from './dom';
import { GameInfo } from './game-info';
import type { BoardHost } from './game-parts';
import { bottomColor, loadOptions, type RenderOptions } from './options';
import { Palette } from './palette';
import { transitShapes } from './timelines';
import { TravelMenu } from './travel-menu';

/** Actions the board offers instead of the ordinary moves: a travel from an earlier position (shown
 *  in the "travel" frame, then confirmed), or the departures of the selected piece (played at once). */
interface TravelFrame {
  /** The node shown, or null for the present. */
  ply: number | null;
  actions: Action[];
  title: string;
  /** Whether the action chosen waits for a confirmation. */
  confirm: boolean;
  picked: Action | null;
}

export abstract class GameBoard extends GameInfo implements BoardHost {
  protected opts: RenderOptions = loadOptions();
  protected board: BoardApi | null = null;
  /** The board has shown a position: later positions are animated, the first is not. */
  private boardDrawn = false;
  /** The square of the selected piece, whose time-travel menu shows. */
  protected selected: string | null = null;
  /** Several ordinary moves matched one gesture (a promotion): the chooser lists them. */
  protected choice: Action[] | null = null;
  protected frame: TravelFrame | null = null;
  protected readonly menu = new TravelMenu({
    send: coord => void this.send(coord),
    pick: (actions, title) => this.setFrame({ ply: null, actions, title, confirm: false, picked: null }),
    kingBack: () => this.showKingBack(),
    close: () => this.unselect(),
  });
  protected readonly palette = new Palette({ legal: () => this.legal(), offer: m => this.offer(m), changed: () => this.render() });

  /** A king's "back in time…": the timelines view, where the moves it may go back to are marked. */
  protected abstract showKingBack(): void;

  protected dropChoices(): void {
    this.selected = null;
    this.choice = null;
    this.frame = null;
    this.palette.cancel();
  }

  protected show(ply: number | null): void {
    this.viewPly = ply === this.state?.ply ? null : ply;
    if (this.viewPly !== null) this.board?.cancelPremove();
    this.dropChoices();
    this.render();
  }

  showNode(ply: number | null): void {
    this.show(ply);
  }

  offerTravel(ply: number, actions: Action[], title: string): void {
    this.viewPly = null;
    this.setFrame({ ply, actions, title, confirm: true, picked: null });
    // On a phone the board may be above the view (the list that called it stands below it).
    this.el.boardWrap.scrollIntoView?.({ block: 'nearest' });
  }

  orientation(): Color {
    return bottomColor(this.opts, this.state?.you ?? null);
  }

  private setFrame(frame: TravelFrame | null): void {
    this.choice = null;
    this.selected = null;
    this.palette.cancel();
    this.frame = frame;
    this.board?.unselect();
    this.render();
  }

  private unselect(): void {
    this.selected = null;
    this.board?.unselect();
    this.render();
  }

  private kind(a: Action): KindInfo | undefined {
    return this.state?.kinds[a.kind];
  }

  /** An ordinary move: made on the board, no time travel, in the present. */
  private ordinary(a: Action): boolean {
    const k = this.kind(a);
    return !a.at_node && !!k?.board && !k.travel;
  }

  // ---- board gestures --------------------------------------------------------------------------

  protected onMove(orig: string, dest: string, premove = false): void {
    if (this.frame) {
      this.framePick(this.frame.actions.filter(a => a.from === orig && a.to === dest));
      return;
    }
    let matches = this.legal().filter(a => this.ordinary(a) && a.from === orig && a.to === dest);
    // A premove promotes to a queen, without a question (as on lichess).
    const queen = matches.filter(a => a.promo?.toLowerCase() === 'q');
    if (premove && queen.length === 1) matches = queen;
    this.offer(matches);
  }

  /** The move queued during the opponent's turn, played as the turn comes if it is legal then
   *  (chessground drops it otherwise). */
  protected playPremove(): void {
    const b = this.board;
    if (b?.state.premovable.current && this.canPlay()) b.playPremove();
  }

  /** Sends the one action matched, or lets the player choose among several (a promotion). */
  private offer(matches: Action[]): void {
    if (matches.length === 1) {
      this.choice = null;
      void this.send(matches[0].coord);
    } else {
      this.choice = matches.length > 1 ? matches : null;
      this.render();
    }
  }

  protected onSelect(key: string): void {
    if (this.frame) {
      this.frameTap(key);
      return;
    }
    if (!this.canPlay()) return;
    if (this.palette.active()) {
      this.palette.placeOn(key);
      return;
    }
    const s = this.state;
    if (!s) return;
    const piece = pieceAt(s.board, key);
    const own = piece !== null && (piece === piece.toUpperCase()) === (s.to_move === 'white');
    const next = own ? key : null;
    if (next !== this.selected) {
      this.selected = next;
      this.renderMenu();
    }
  }

  /** Whether a frame's action is made by dragging a piece of the frame's board (else by a tap on its square). */
  private draggable(a: Action, board: string): boolean {
    if (this.kind(a)?.travel === 'back' || !isKey(a.from) || !isKey(a.to)) return false;
    const p = pieceAt(board, a.from);
    return p !== null && (p === p.toUpperCase()) === (this.state?.to_move === 'white');
  }

  private frameBoard(): string {
    const f = this.frame;
    const node = f?.ply != null ? this.state?.nodes.find(n => n.ply === f.ply) : this.presentNode();
    return node?.board ?? '';
  }

  /** A square tapped in a frame: the actions put on it from outside the board (a drop, a king from the future). */
  private frameTap(key: string): void {
    const f = this.frame;
    const held = this.board?.state.selectable.selected;
    if (!f || (held && f.actions.some(a => a.from === held && a.to === key))) return;
    const board = this.frameBoard();
    const matches = f.actions.filter(a => a.to === key && !this.draggable(a, board));
    if (matches.length) this.framePick(matches);
  }

  private framePick(matches: Action[]): void {
    const f = this.frame;
    if (!f) return;
    if (matches.length !== 1) {
      this.choice = matches.length ? matches : null;
      this.render();
    } else if (f.confirm) {
      this.choice = null;
      f.picked = matches[0];
      this.render();
      this.el.viewing.querySelector<HTMLElement>('#travel-confirm')?.focus();
    } else {
      void this.send(matches[0].coord);
    }
  }

  // ---- drawing the board ------------------------------------------------------------------------

  protected renderBoard(): void {
    const s = this.state;
    const f = this.frame;
    const node = f?.ply != null ? s?.nodes.find(n => n.ply === f.ply) : this.shownNode();
    if (!s || !node || !this.board) return;
    const present = this.viewPly === null;
    // The player's pieces move on their turn and are premoved on the opponent's.
    const mine = present && !f && s.status === 'active' && s.you !== null;
    const dests = new Map<Key, Key[]>();
    const add = (a: Action): void => {
      if (!isKey(a.from) || !isKey(a.to)) return;
      const list = dests.get(a.from) ?? [];
      if (!list.includes(a.to)) list.push(a.to);
      dests.set(a.from, list);
    };
    if (f) f.actions.filter(a => this.draggable(a, node.board)).forEach(add);
    else if (this.canPlay()) s.legal.filter(a => this.ordinary(a)).forEach(add);
    // Pieces in transit and open obligations, where they will land (timelines.ts).
    const shapes = [...markShapes(node.marks), ...transitShapes(s, node)];
    let board = node.board;
    if (f) {
      const p = f.picked;
      shapes.push(...dotShapes(f.actions.filter(a => !this.draggable(a, node.board)).map(a => a.to ?? '')));
      if (p && this.draggable(p, node.board) && isKey(p.from) && isKey(p.to)) {
        // The move chosen stands on the board, framed, until it is confirmed.
        board = placeOn(placeOn(board, p.to, pieceAt(board, p.from) ?? ''), p.from, '');
        shapes.push(...frameShapes([p.from, p.to]));
      } else if (p && isKey(p.to)) {
        const letter = this.kind(p)?.travel === 'back' && isKey(p.from) ? pieceAt(s.board, p.from) : (p.piece ?? '').replace(/\W/g, '');
        if (letter) board = placeOn(board, p.to, s.to_move === 'white' ? letter.toUpperCase() : letter.toLowerCase());
        shapes.push(...frameShapes([p.to]));
      }
    } else if (present) {
      shapes.push(...this.palette.shapes());
      if (this.choice) shapes.push(...frameShapes(this.choice.flatMap(a => [a.from ?? '', a.to ?? ''])));
    }
    const last = s.actions.find(a => a.ply === node.ply);
    // The first position is drawn in place, not moved there from chessground's start position: an
    // opening page shows the game at once, as lichess does (and spends no frames on the animation).
    const animate = this.boardDrawn;
    this.boardDrawn = true;
    this.board.set({
      animation: { enabled: animate },
      fen: board,
      orientation: this.orientation(),
      turnColor: f ? s.to_move : node.side,
      check: present && !f && s.check && s.status === 'active',
      lastMove: last ? [last.from, last.to].filter(isKey) : [],
      movable: { free: false, color: mine || f ? s.you ?? undefined : undefined, dests, showDests: true },
      premovable: { enabled: mine },
      selectable: { enabled: true },
      drawable: { enabled: false, visible: true, autoShapes: shapes },
    });
    this.el.boardWrap.classList.toggle('past', !present);
    this.el.boardWrap.classList.toggle('travel', !!f);
    this.renderViewing(node.ply, node.move, node.side, node.timeline);
    this.el.textDiagram.textContent = textDiagram(node.board, node.marks, this.orientation());
  }

  /** The line under the board: a travel frame's title and buttons, or that the position shown is not the present. */
  private renderViewing(ply: number, move: number, side: Color, timeline: number): void {
    const box = this.el.viewing;
    const f = this.frame;
    const button = (id: string, label: string, click: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', click);
      return b;
    };
    if (f) {
      const cancel = button('travel-cancel', 'Cancel', () => this.setFrame(null));
      const confirm = f.picked ? button('travel-confirm', `Play ${f.picked.human}`, () => {
        if (f.picked) void this.send(f.picked.coord);
      }) : null;
      if (confirm) confirm.dataset.coord = f.picked?.coord ?? '';
      const hint = f.picked ? `${f.picked.human}: confirm it, or choose another.`
        : f.ply !== null ? `Move ${move}, ${side} to play, timeline ${timeline}: drag a piece or tap a dotted square.` : '';
      fill(box, h('strong', {}, `${f.title} `), hint, ' ', confirm, ' ', cancel);
      box.className = 'travel-frame';
    } else if (this.viewPly !== null) {
      fill(box, h('strong', {}, 'Not the present: '),
        `the position after ply ${ply} (move ${move}, ${side} to play, timeline ${timeline}). `,
        button('view-present', 'Back to the present', () => this.show(null)));
      box.className = 'not-present';
    } else {
      fill(box);
      box.className = '';
    }
    box.hidden = !f && this.viewPly === null;
  }

  /** The chooser, for a gesture that several actions match (a promotion, a real ambiguity). */
  protected renderChoice(): void {
    const box = this.el.choice;
    const c = this.choice;
    if (!c || !this.canPlay()) {
      box.hidden = true;
      fill(box);
      return;
    }
    const cancel = h('button', { type: 'button', class: 'cancel' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.choice = null;
      this.render();
    });
    fill(box, h('div', { class: 'choice-head' }, c.every(a => a.promo) ? 'Promote to:' : 'Several actions match: choose one.'),
      ...c.map(a => {
        const promo = a.promo ? ` (${PIECE_NAMES[a.promo.toLowerCase()] ?? a.promo})` : '';
        const b = h('button', { type: 'button', 'data-coord': a.coord, title: a.coord }, `${a.human}${promo}`);
        b.addEventListener('click', () => {
          this.choice = null;
          if (this.frame) this.framePick([a]);
          else void this.send(a.coord);
        });
        return b;
      }), cancel);
    box.hidden = false;
  }

  /** The queued premove in words, with a button that cancels it (a click on the board does too). */
  protected renderPremove(): void {
    const box = this.el.premove;
    const current = this.board?.state.premovable.current;
    if (!current || this.destroyed) {
      box.hidden = true;
      fill(box);
      return;
    }
    const cancel = h('button', { type: 'button', id: 'premove-cancel' }, 'Cancel premove');
    cancel.addEventListener('click', () => this.board?.cancelPremove());
    fill(box, h('span', {}, `Premove ${current[0]}–${current[1]}: played when your turn comes, if it is legal then. `), cancel);
    box.hidden = false;
  }

  /** The selected piece's time-travel menu, when it has any travel now. */
  protected renderMenu(): void {
    const s = this.state;
    const key = this.selected;
    const acts = s && key && !this.frame ? this.legal().filter(a => !a.at_node && this.kind(a)?.travel && a.from === key) : [];
    const letter = s && key ? pieceAt(s.board, key) : null;
    if (!s || !key || !letter || !acts.length) this.menu.hide();
    else this.menu.show(key, letter, acts, s.kinds, s.variant, this.orientation(), this.boardSize());
  }

  protected boardSize(): number {
    return Math.round(480 * this.opts.scale / 100 / 8) * 8;
  }
}
