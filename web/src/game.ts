// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page: the main board and what the player does on it. The page's class is built in layers,
// each in its own file: game-sync.ts keeps the page's copy of the game in step with the server,
// game-play.ts plays the player's own actions, game-info.ts draws the status, invitation and buttons,
// board-input.ts the board and its input, and this file builds the page. The parts beside the board
// are modules of their own: the time-travel menu of a selected piece (travel-menu.ts), the palette of
// pieces put on the board from outside it (palette.ts), the clocks (clocks.ts), the sounds
// (sounds.ts), the end-of-game banner and rematch (banner.ts), the move list grouped by timeline
// (movelist.ts), the timelines view (timelines.ts, where a travel to an earlier position is chosen),
// the board options (board-options.ts), the record links (record-links.ts) and the kibitz (kibitz.ts).
//
// A drag or a tap-tap on the board always makes an ordinary move, and its dots are the ordinary moves
// only; time travel starts from the selected piece's menu, drops and arrivals from the palette, and an
// action can always be typed in any notation. Only a promotion or a real ambiguity asks a question.
// During the opponent's turn one move may be queued (a premove).

import type { Color } from './api';
import { Banner, tabTitle } from './banner';
import { makeBoard } from './board';
import { GameBoard } from './board-input';
import { boardOptions } from './board-options';
import { Clocks } from './clocks';
import { fill, h } from './dom';
import { KibitzBox } from './kibitz';
import type { Page } from './main';
import { MoveList } from './movelist';
import { applyOptionClasses, COLOR_SCHEMES, PIECE_SETS } from './options';
import { panelLines } from './palette';
import { playerLink } from './player';
import { gameSpeed, playerRating } from './ratings';
import { RecordLinks } from './record-links';
import { Sounds } from './sounds';
import { Timelines } from './timelines';

export class GamePage extends GameBoard implements Page {
  private timelines: Timelines | null = null;
  private moveList: MoveList | null = null;
  private resizeObserver: ResizeObserver | null = null;
  private readonly sounds = new Sounds();
  private readonly clocks = new Clocks(() => this.sounds.play('low-time'));
  private readonly banner: Banner;
  private readonly links = new RecordLinks();
  private readonly kibitzBox: KibitzBox;
  /** The players' ratings beside their names ("1500?"), asked once for each pair of players seated. */
  private readonly ratings = new Map<string, string>();
  private ratingsAsked = '';

  constructor(private readonly root: HTMLElement, id: string, invite: string | null, me: string | null) {
    super(id, invite, me);
    this.kibitzBox = new KibitzBox(id, me, () => void this.refresh());
    this.banner = new Banner(id);
    this.build();
    // The event stream opens once the first state has come, after the last event that state includes.
    void this.refresh();
    void this.kibitzBox.load();
  }

  destroy(): void {
    this.destroyed = true;
    this.settleWaiting(false);
    this.events?.close();
    this.resizeObserver?.disconnect();
    this.clocks.destroy();
    this.sounds.destroy();
    this.board?.destroy();
    this.timelines?.destroy();
    this.moveList?.destroy();
    this.kibitzBox.destroy();
    this.pending?.before.free();
    this.game?.free();
    document.body.classList.remove(...PIECE_SETS.map(p => `pieces-${p}`), ...COLOR_SCHEMES.map(c => `colors-${c}`));
  }

  /** "Back in time…" from a king's menu: the moves it may go back to are marked in the timelines
   *  view, where the player picks one. */
  protected showKingBack(): void {
    // After the menu has closed and the page is drawn again, so that the focus stays.
    requestAnimationFrame(() => {
      const pick = this.el.timelines.querySelector<HTMLElement>('.target-pick');
      pick?.scrollIntoView({ block: 'nearest' });
      pick?.focus();
    });
  }

  protected rematchEvent(type: string, data: string): void {
    this.banner.onEvent(type, data);
  }

  protected kibitzChanged(): void {
    void this.kibitzBox.load();
  }

  // ---- building the page ------------------------------------------------------------------------

  private build(): void {
    const e = this.el;
    e.game = h('div', { id: 'game', 'data-ply': '', 'data-status': '', 'data-you': '', 'data-timelines': '' });
    e.title = h('h2', { class: 'game-title' }, 'Loading the game…');
    e.players = h('div', { class: 'players' });
    e.status = h('div', { id: 'status', role: 'status' });
    e.message = h('div', { id: 'message', role: 'alert' });
    e.notice = h('div', { id: 'notice', class: 'error' });
    e.invite = h('div', { id: 'invite-box', class: 'invite', hidden: true });
    e.boardEl = h('div', { id: 'board' });
    e.boardWrap = h('div', { class: 'board-wrap' }, e.boardEl, this.menu.element);
    e.viewing = h('div', { id: 'viewing', hidden: true });
    e.premove = h('div', { id: 'premove', hidden: true });
    e.choice = h('div', { id: 'choice', hidden: true });
    e.moveEntry = this.moveForm();
    e.controls = this.controlButtons();
    e.controls.append(this.sounds.toggle);
    e.offers = h('div', { id: 'offers' });
    e.panels = h('div', { id: 'panels' });
    e.moveList = h('div', { id: 'move-list' });
    const options = boardOptions(this.opts, next => {
      this.opts = next;
      this.sizeBoard();
      this.render();
    });
    e.textDiagram = options.textDiagram;
    e.timelines = h('div', { id: 'timelines' });
    this.timelines = new Timelines(e.timelines, this);
    this.moveList = new MoveList(e.moveList, this);
    e.boardCol = h('div', { class: 'board-col' }, this.clocks.top, this.palette.top, e.boardWrap, this.palette.bottom,
      this.clocks.bottom, this.banner.el, e.viewing, e.premove, e.message, this.palette.element, e.choice, e.moveEntry,
      options.box, e.textDiagram);
    fill(e.game,
      h('div', { class: 'game-head' }, e.title, e.players, e.status, e.notice, e.invite),
      h('div', { class: 'game-main' },
        e.boardCol,
        h('div', { class: 'play-col' }, e.controls, e.offers,
          h('section', { class: 'card' }, h('h3', {}, 'Variant'), e.panels),
          h('section', { class: 'card' }, h('h3', {}, 'Moves'), e.moveList)),
        h('div', { class: 'info-col' }, this.links.element, this.kibitzBox.element)),
      h('section', { class: 'timelines-box' }, h('h3', {}, 'Timelines'), e.timelines));
    fill(this.root, e.game);
    applyOptionClasses(document.body, this.opts);

    this.board = makeBoard(e.boardEl, {
      viewOnly: false,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d, m) => this.onMove(o, d, m.premove) } },
      premovable: { enabled: false, castle: true, events: { set: () => this.renderPremove(), unset: () => this.renderPremove() } },
      events: { select: key => this.onSelect(key) },
    });
    // A right click cancels the premove, as on lichess (chessground takes only the left button).
    e.boardEl.addEventListener('mousedown', ev => {
      if (ev.button === 2) this.board?.cancelPremove();
    });
    this.sizeBoard();
    this.resizeObserver = new ResizeObserver(() => this.board?.state.dom.bounds.clear());
    this.resizeObserver.observe(e.game);
  }

  /** The field where an action is typed in any notation. */
  private moveForm(): HTMLElement {
    const input = h('input', { id: 'move-input', type: 'text', placeholder: 'an action: e4, Bf1>9, e2e4, P e2-e4', spellcheck: 'false', autocomplete: 'off', 'aria-label': 'type an action' });
    const form = h('form', { class: 'move-entry' }, input, h('button', { id: 'move-send', type: 'submit' }, 'Send'));
    form.addEventListener('submit', ev => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) this.setMessage('Type an action first, e.g. e4 or Bf1>9.');
      else void this.send(text).then(ok => { if (ok) input.value = ''; });
    });
    return form;
  }

  private controlButtons(): HTMLElement {
    const button = (id: string, label: string, action: () => void): HTMLButtonElement => {
      const b = h('button', { id, type: 'button', hidden: true }, label);
      b.addEventListener('click', action);
      this.el[id] = b;
      return b;
    };
    return h('div', { class: 'controls' },
      button('join', 'Join this game', () => void this.join()),
      button('resign', 'Resign', () => {
        if (window.confirm('Resign this game?')) void this.send('resign');
      }),
      button('offer-draw', 'Offer draw', () => void this.send('offer-draw')),
      button('accept-draw', 'Accept draw', () => void this.send('accept-draw')),
      button('offer-takeback', 'Offer take-back', () => void this.send('offer-takeback')),
      button('accept-takeback', 'Accept take-back', () => void this.send('accept-takeback')),
      button('decline', 'Decline', () => void this.send('decline')));
  }

  private sizeBoard(): void {
    const px = this.boardSize();
    this.el.boardEl.style.width = `${px}px`;
    this.el.boardEl.style.height = `${px}px`;
    // The column under the board takes the board's width, so the panels beside it keep their place.
    this.el.boardCol.style.width = `${Math.max(px, 320)}px`;
    this.board?.redrawAll();
  }

  // ---- what the page shows ----------------------------------------------------------------------

  /** Shows the state after any change of the game or of the server's state. */
  protected update(): void {
    const before = this.state;
    const s = this.compose();
    if (!s || this.destroyed) return;
    this.state = s;
    if (!before) this.settleWaiting(true);
    if (!before || before.ply !== s.ply || before.status !== s.status || before.fen !== s.fen) {
      // A new position makes the choices made on the old one meaningless.
      this.dropChoices();
      if (this.viewPly !== null && !s.nodes.some(x => x.ply === this.viewPly)) this.viewPly = null;
      if (s.status !== 'active') this.board?.cancelPremove();
    }
    this.sounds.follow(before, s);
    this.render();
    this.playPremove();
  }

  /** The players' ratings of this game and speed, fetched once; the names are drawn again with them. */
  private askRatings(): void {
    const s = this.state;
    const names = [s?.white, s?.black].filter(p => p && !p.engine).map(p => p!.name);
    if (!s || this.ratingsAsked === names.join(' ')) return;
    this.ratingsAsked = names.join(' ');
    void Promise.all(names.map(async name => {
      const rating = await playerRating(name, s.variant, gameSpeed(s));
      if (rating) this.ratings.set(name, rating);
    })).then(() => { if (this.ratings.size && !this.destroyed) this.render(); });
  }

  protected render(): void {
    const s = this.state;
    if (!s || this.destroyed) return;
    const e = this.el;
    e.game.setAttribute('data-ply', String(s.ply));
    e.game.setAttribute('data-status', s.status);
    e.game.setAttribute('data-you', s.you ?? '');
    e.game.setAttribute('data-timelines', String(s.timelines));
    // Several variants share a title (van Gog's three modes), so the variant's name follows it.
    fill(e.title, s.title, h('span', { class: 'variant-name' }, ` ${s.variant}${s.options ? `, ${s.options}` : ''}`));
    document.title = tabTitle(s);
    // A player's name leads to their page (player.ts).
    const seat = (c: Color): Node | string => {
      const p = c === 'white' ? s.white : s.black;
      if (!p) return 'open seat';
      if (p.engine) return `${p.name} (engine)`;
      const rating = this.ratings.get(p.name);
      const link = playerLink(p.name);
      return rating ? h('span', {}, link, ` (${rating})`) : link;
    };
    this.askRatings();
    fill(e.players, h('span', { class: 'white-name' }, 'White: ', seat('white')), ' · ',
      h('span', { class: 'black-name' }, 'Black: ', seat('black')),
      s.you ? h('span', { class: 'you' }, ` · you play ${s.you}`) : h('span', { class: 'you' }, ' · you are watching'),
      h('span', { class: 'rated' }, s.rated ? ' · rated' : ' · casual'));
    this.renderStatus();
    this.renderInvite();
    this.renderBoard();
    this.palette.update(s.kinds, s.to_move, this.shownNode(), this.orientation());
    this.renderChoice();
    this.renderMenu();
    this.renderControls();
    this.clocks.update(s, this.orientation(), this.clockAt);
    this.banner.update(s);
    const lines = panelLines(s.panels, !this.palette.top.hidden);
    fill(e.panels, ...(lines.length ? lines.map(line => h('div', { class: 'panel-line' }, line)) : [h('div', { class: 'hint' }, 'Nothing to show.')]));
    this.moveList?.update(s, this.viewPly);
    const node = this.shownNode();
    if (node) this.links.update(s, node, this.orientation(), this.opts);
    this.kibitzBox.update(s);
    this.timelines?.update(s);
    e.moveEntry.hidden = !s.you;
    // Rows above the board may have appeared or gone: chessground must measure the board again, or
    // it would map clicks to the squares where the board used to be.
    this.board?.state.dom.bounds.clear();
  }
}
