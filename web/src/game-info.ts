// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the game page says around the board (a layer of the page's class: game-play.ts below it,
// game.ts above): the status line, the invitation or challenge, the players' buttons and offers, the
// clocks and the move list.

import { api, errorText, type Color, type GameState } from './api';
import { appLink, fill, h } from './dom';
import { GamePlay } from './game-play';
import { storedInvite } from './lobby';
import { nodeByPly } from './timelines';

export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function formatMs(ms: number): string {
  const t = Math.max(0, ms);
  const total = Math.floor(t / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours ? 2 : 1, '0')}:${String(seconds).padStart(2, '0')}`;
  if (hours) return `${hours}:${mmss}`;
  if (t < 10000) return `${mmss}.${Math.floor((t % 1000) / 100)}`;
  return mmss;
}

function formatLeft(ms: number): string {
  if (ms <= 0) return 'passed';
  const hours = Math.floor(ms / 3600000);
  const days = Math.floor(hours / 24);
  if (days) return `${days} d ${hours % 24} h left`;
  const minutes = Math.floor((ms % 3600000) / 60000);
  return `${hours} h ${minutes} min left`;
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

  protected renderClocks(): void {
    const s = this.state;
    if (!s) return;
    const e = this.el;
    const clock = s.clock;
    for (const c of ['white', 'black'] as Color[]) {
      const el = c === 'white' ? e.clockWhite : e.clockBlack;
      let text = '';
      let running = false;
      if (clock?.kind === 'live') {
        let ms = c === 'white' ? clock.white_ms : clock.black_ms;
        running = clock.running === c && s.status === 'active';
        if (running) ms -= performance.now() - this.clockAt;
        text = formatMs(ms);
      } else if (clock?.kind === 'correspondence') {
        // The deadline is 0 (or null) until the first action starts the clock.
        running = s.status === 'active' && s.to_move === c && !!clock.deadline;
        const per = `${clock.days_per_move} day${clock.days_per_move === 1 ? '' : 's'} a move`;
        text = running && clock.deadline
          ? `moves by ${new Date(clock.deadline).toLocaleString()} (${formatLeft(clock.deadline - Date.now())})`
          : s.status === 'active' && s.to_move === c ? `${per}; the clock starts with the first action` : per;
      }
      const label = `${capital(c)}: `;
      if (el.textContent !== label + text) fill(el, h('span', { class: 'clock-side' }, label), h('span', { class: 'clock-time' }, text));
      el.classList.toggle('running', running);
    }
  }

  protected renderMoveList(): void {
    const s = this.state;
    if (!s) return;
    const byPly = nodeByPly(s);
    const shown = this.shownNode();
    const items = s.actions.map((a, i) => {
      const ply = a.ply ?? i + 1;
      const node = byPly.get(ply);
      const before = node ? byPly.get(node.parent) : undefined;
      const number = before ? `${before.move}${before.side === 'white' ? '.' : '…'}` : '';
      const li = h('li', { 'data-ply': ply, class: shown?.ply === ply ? 'shown' : '', title: `ply ${ply}: ${a.coord}` },
        h('span', { class: 'num' }, number), ' ', h('span', { class: 'human' }, a.human),
        s.kinds[a.kind]?.travel === 'forward' ? h('span', { class: 'note' }, ` (${s.kinds[a.kind]?.arg ?? ''} ${a.arg})`) : null,
        node && node.timeline !== 1 ? h('span', { class: 'tl' }, ` T${node.timeline}`) : null,
        h('span', { class: 'ply' }, `ply ${ply}`));
      li.addEventListener('click', () => this.show(ply));
      return li;
    });
    const start = h('li', { class: shown?.ply === 0 ? 'start shown' : 'start', 'data-start': '' }, 'start position');
    start.addEventListener('click', () => this.show(0));
    const ol = this.el.moveList;
    const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
    fill(ol, start, ...items);
    if (atEnd && this.viewPly === null) ol.scrollTop = ol.scrollHeight;
  }

}
