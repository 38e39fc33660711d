// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page's own actions (the middle of the page's class: game-sync.ts below it, game.ts above):
// the player's action is played on the page's copy and shown at once, then sent; the server's answer
// confirms it or puts it back. Also what the board may do now: the position shown, the legal actions.

import { api, ApiError, errorText, otherColor, type Action, type Color, type GameNode } from './api';
import { GameSync } from './game-sync';

/** The actions of the POST .../actions request that are not moves of the game. */
const CONTROLS = new Set(['resign', 'offer-draw', 'accept-draw', 'offer-takeback', 'accept-takeback', 'decline']);

export abstract class GamePlay extends GameSync {
  /** The node shown on the main board instead of the present one, chosen in the move list. */
  protected viewPly: number | null = null;
  protected sending = false;
  /** Those waiting for the page's first state (an action typed before it came): told true once it
   *  has come, false if the page closes or the game does not exist. */
  private waitingForState: Array<(loaded: boolean) => void> = [];

  constructor(id: string, protected readonly invite: string | null) {
    super(id);
  }

  /** The choices made on the board (a chooser, a placement) are dropped: the position changed under them. */
  protected abstract dropChoices(): void;
  /** Draws the page again (game.ts). */
  protected abstract render(): void;

  /**
   * What the server does with the clocks and offers when an action is played, done at once so that the
   * page does not wait for the state: the mover's live clock stops with its increment and the other
   * starts, a correspondence deadline is set from now, and the offers lapse. The action's event then
   * gives the exact times.
   */
  protected afterAction(mover: Color): void {
    const m = this.meta;
    if (!m) return;
    let clock = m.clock;
    if (clock?.kind === 'live') {
      const field = mover === 'white' ? 'white_ms' : 'black_ms';
      const spent = clock.running === mover ? performance.now() - this.clockAt : 0;
      clock = { ...clock, [field]: clock[field] - spent + clock.inc_ms, running: otherColor(mover) };
    } else if (clock?.kind === 'correspondence') {
      clock = { ...clock, deadline: Date.now() + clock.days_per_move * 86400000 };
    }
    this.meta = { ...m, clock, draw_offer: null, takeback_offer: null };
    this.clockAt = performance.now();
  }

  /** Resolves true once the page has its first state (at once if it has), false if it never will. */
  protected whenLoaded(): Promise<boolean> {
    return new Promise(resolve => {
      if (this.state) resolve(true);
      else if (this.destroyed) resolve(false);
      else this.waitingForState.push(resolve);
    });
  }

  /** Tells those waiting for the first state whether it came. */
  protected settleWaiting(loaded: boolean): void {
    for (const resolve of this.waitingForState.splice(0)) resolve(loaded);
  }

  protected noSuchGame(): void {
    this.el.title.textContent = 'No such game';
    this.settleWaiting(false);
  }

  /** Sends an action (or resign, offer-draw, ...); a refusal's sentence stays in #message until the next one. */
  protected async send(action: string): Promise<boolean> {
    if (!this.state) {
      // One action waits at a time: a second press of Send would be the same action sent twice.
      if (this.waitingForState.length > 0) return false;
      // Typed before the game has come from the server (a slow network, a page just opened): the
      // action is kept and played as soon as it has, as the player meant it, not dropped in silence.
      this.setMessage('The game is still loading: your action is sent as soon as it has.', true);
      const loaded = await this.whenLoaded();
      this.setMessage('');
      if (!loaded) return false;
    }
    const s = this.state;
    if (!s) return false;
    if (!CONTROLS.has(action) && this.game && s.status === 'active' && s.you === s.to_move && !this.pending)
      return this.play(action);
    // Anything else is the server's to judge (an offer, a resignation, an action out of turn).
    if (this.sending) return false;
    this.setMessage('');
    this.sending = true;
    try {
      await api.actBrief(this.id, action, this.record.length);
      void this.refresh();
      return true;
    } catch (e) {
      this.setMessage(errorText(e));
      if (e instanceof ApiError && e.status === 409) void this.refresh();
      return false;
    } finally {
      this.sending = false;
    }
  }

  /**
   * The player's action: played on the page's game and shown at once, then sent; the server's answer
   * confirms it, or refuses it (its rule in #message) and the game goes back to what it was. An action
   * the page's rules refuse is not sent: their sentence is the server's.
   */
  protected async play(action: string): Promise<boolean> {
    const g = this.game;
    const s = this.state;
    if (!g || !s) return false;
    this.setMessage('');
    const before = g.clone();
    let played: Action;
    try {
      played = g.play(action);
    } catch (e) {
      before.free();
      this.setMessage(errorText(e));
      // The board may show the piece where the player dropped it: the position goes back.
      this.dropChoices();
      this.render();
      return false;
    }
    const ply = this.record.length;
    const token = { before, ply };
    this.pending = token;
    this.record.push(played.coord);
    this.local = null;
    const metaBefore = this.meta;
    this.afterAction(s.to_move);
    const metaAfter = this.meta;
    this.viewPly = null;
    this.update();
    try {
      const reply = await api.actBrief(this.id, played.coord, ply);
      if (this.pending === token) {
        this.pending = null;
        before.free();
      }
      // An end is the server's to say; a live clock's times come with the action's event.
      if (reply.status !== 'active') void this.refresh();
      return true;
    } catch (e) {
      if (this.pending === token) {
        this.pending = null;
        if (this.record.length === ply + 1) {
          this.game?.free();
          this.game = before;
          this.record.length = ply;
          this.local = null;
        } else {
          before.free();
          this.replayRecord(this.record.slice(0, ply));
        }
        if (this.meta === metaAfter) this.meta = metaBefore;
      }
      this.setMessage(errorText(e));
      this.dropChoices();
      this.update();
      // A refusal by the rules changes nothing on the server; anything else may have (a take-back
      // accepted meanwhile, a flag): the state says what is.
      if (!(e instanceof ApiError && e.status === 422)) void this.refresh();
      return false;
    }
  }

  protected async join(): Promise<void> {
    if (!this.invite) return;
    this.setMessage('');
    try {
      await api.join(this.id, this.invite);
      // The invitation is used up: drop it from the address so a reload shows the plain game.
      history.replaceState(null, '', `/games/${encodeURIComponent(this.id)}`);
    } catch (e) {
      this.setMessage(errorText(e));
    }
    await this.refresh();
  }

  /** A sentence in #message: a refusal, or (info) word of something under way, drawn as news, not as an error. */
  protected setMessage(text: string, info = false): void {
    this.el.message.textContent = text;
    this.el.message.classList.toggle('shown', text !== '');
    this.el.message.classList.toggle('info', info);
  }

  // ---- the position shown ----------------------------------------------------------------------

  protected presentNode(): GameNode | undefined {
    return this.state?.nodes.find(n => n.ply === this.state?.ply);
  }

  protected shownNode(): GameNode | undefined {
    const s = this.state;
    if (!s) return undefined;
    if (this.viewPly !== null) return s.nodes.find(n => n.ply === this.viewPly) ?? this.presentNode();
    return this.presentNode();
  }

  /** Whether the viewer may act on the board now. */
  protected canPlay(): boolean {
    const s = this.state;
    return !!s && s.status === 'active' && s.you === s.to_move && this.viewPly === null;
  }

  /** The legal actions of the present position, when the viewer may play them now. */
  legal(): Action[] {
    return this.canPlay() ? this.state?.legal ?? [] : [];
  }
}
