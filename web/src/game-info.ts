// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the game page says around the board (a layer of the page's class: game-play.ts below it,
// game.ts above): the status line, the invitation or challenge, the players' buttons and offers.
// The clocks (clocks.ts) and the move list (movelist.ts) are parts of their own.

import { api, errorText, type GameState } from './api';
import { appLink, fill, h } from './dom';
import { GamePlay } from './game-play';
import { storedInvite } from './lobby';

export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export abstract class GameInfo extends GamePlay {
  constructor(id: string, invite: string | null, protected readonly me: string | null) {
    super(id, invite);
  }

  /** Shows node `ply` on the main board (null: the present). */
  protected abstract show(ply: number | null): void;

  protected renderStatus(): void {
    const s = this.state;
    if (!s) return;
    let text: string;
    if (s.status === 'over') text = [s.result, s.reason].filter(Boolean).join(' ');
    else if (s.status === 'waiting') text = 'Waiting for an opponent to join';
    else if (s.status === 'seek') text = 'Open challenge: waiting for someone to accept it in the lobby';
    else if (s.status === 'challenge') text = this.challengeText(s);
    else if (s.status === 'declined') text = `Challenge ${s.reason ?? 'declined'}`;
    else {
      text = s.you === s.to_move ? `Your move (${s.to_move})` : `${capital(s.to_move)} to move`;
      if (s.check) text += ' — check';
    }
    this.el.status.textContent = text;
    this.el.status.className = s.status === 'over' ? 'over' : s.you === s.to_move && s.status === 'active' ? 'your-move' : '';
  }

  /** Who waits for whom, for a challenge not yet answered. */
  protected challengeText(s: GameState): string {
    const from = (s.white ?? s.black)?.name ?? 'someone';
    if (s.you) return `Waiting for ${s.challenged ?? 'your opponent'} to accept your challenge`;
    if (this.isChallenged(s)) return `${from} challenges you`;
    return `${from} has challenged ${s.challenged ?? 'a player'}; the game starts when they accept`;
  }

  protected isChallenged(s: GameState): boolean {
    return !!this.me && !!s.challenged && this.me.toLowerCase() === s.challenged.toLowerCase();
  }

  /** The challenged player answers on the game page as in the lobby; the challenger may withdraw. */
  protected renderChallenge(s: GameState, box: HTMLElement): void {
    const answer = (accept: boolean) => async () => {
      this.setMessage('');
      try {
        await (accept ? api.accept(this.id) : api.decline(this.id));
      } catch (e) {
        this.setMessage(errorText(e));
      }
      await this.refresh();
    };
    const button = (id: string, label: string, accept: boolean) => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', answer(accept));
      return b;
    };
    if (this.isChallenged(s)) {
      fill(box, h('span', {}, 'Play this game? '), button('challenge-accept', 'Accept', true), ' ',
        button('challenge-decline', 'Decline', false));
    } else {
      fill(box, h('span', {}, 'Changed your mind? '), button('challenge-withdraw', 'Withdraw the challenge', false));
    }
    box.hidden = false;
  }

  protected renderInvite(): void {
    const s = this.state;
    if (!s) return;
    const box = this.el.invite;
    if (s.status === 'challenge' && (s.you || this.isChallenged(s))) {
      this.renderChallenge(s, box);
    } else if (s.status === 'waiting' && s.you) {
      const link = storedInvite(s.id);
      if (link) {
        const input = h('input', { id: 'invite-link', type: 'text', readonly: true, value: link, size: 60 });
        input.addEventListener('focus', () => input.select());
        const copy = h('button', { type: 'button' }, 'Copy');
        copy.addEventListener('click', () => {
          navigator.clipboard?.writeText(link).then(() => { copy.textContent = 'Copied'; },
            () => { input.select(); copy.textContent = 'Press Ctrl+C'; });
        });
        fill(box, h('span', {}, 'Invite your opponent with this link: '), input, copy);
      } else {
        fill(box, 'The game waits for an opponent; the invitation link was shown when the game was created, in the browser that created it.');
      }
      box.hidden = false;
    } else if (this.invite && !s.you && s.status === 'waiting') {
      if (this.me) {
        fill(box, 'You are invited to play this game: press “Join this game”.');
      } else {
        const next = `/games/${encodeURIComponent(this.id)}?invite=${encodeURIComponent(this.invite)}`;
        fill(box, 'You are invited to play this game. ',
          appLink(`/?next=${encodeURIComponent(next)}`, { id: 'invite-login' }, 'Log in or register'),
          ' first, then you come back here to join.');
      }
      box.hidden = false;
    } else if (this.invite && !s.you) {
      fill(box, 'This invitation has been used: the game has its players.');
      box.hidden = false;
    } else {
      box.hidden = true;
      fill(box);
    }
  }

  protected renderControls(): void {
    const s = this.state;
    if (!s) return;
    const e = this.el;
    const active = s.status === 'active';
    const player = s.you !== null;
    const theirDraw = !!s.draw_offer && s.draw_offer !== s.you;
    const theirTakeback = !!s.takeback_offer && s.takeback_offer !== s.you;
    e.join.hidden = !(this.invite && this.me && !player && s.status === 'waiting');
    e.resign.hidden = !(player && active);
    e['offer-draw'].hidden = !(player && active && !s.draw_offer);
    e['accept-draw'].hidden = !(player && active && theirDraw);
    e['offer-takeback'].hidden = !(player && active && !s.takeback_offer && s.ply > 0);
    e['accept-takeback'].hidden = !(player && active && theirTakeback);
    e.decline.hidden = !(player && active && (theirDraw || theirTakeback));
    const offers: string[] = [];
    if (s.draw_offer) offers.push(s.draw_offer === s.you ? 'You offer a draw.' : `${capital(s.draw_offer)} offers a draw.`);
    if (s.takeback_offer) offers.push(s.takeback_offer === s.you ? 'You offer a take-back.' : `${capital(s.takeback_offer)} offers a take-back.`);
    e.offers.textContent = offers.join(' ');
  }
}
