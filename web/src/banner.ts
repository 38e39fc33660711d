// SPDX-License-Identifier: GPL-3.0-or-later
//
// The end of a game, as lichess shows it: a banner with the result and its reason in words ("Black
// resigned — White wins"), and the rematch: offered by one player, accepted or declined by the other
// (docs/api.md, "Rematch"); once it is accepted both pages go to the new game, told by the finished
// game's events. In correspondence, "Next game" goes to the next game where it is the player's move.
// Also the tab's title, which says when it is the player's move.

import { api, errorText, type GameState } from './api';
import { fill, h, navigate } from './dom';

/** A finished game's rematch, as GET /api/games/{id}/rematch says. */
interface Rematch {
  id: string;
  by: 'white' | 'black';
  status: 'offered' | 'accepted' | 'declined';
}

/** The tab's title: "• Your move — ttchess" while the player is to move, else the game's title. */
export function tabTitle(s: GameState): string {
  return s.status === 'active' && s.you !== null && s.you === s.to_move ? '• Your move — ttchess' : `${s.title} – ttchess`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The result and its reason in words: "Black resigned — White wins", "Checkmate — Black wins". */
export function endWords(result: string | null, reason: string | null): string {
  const outcome = result === '1-0' ? 'White wins' : result === '0-1' ? 'Black wins'
    : result === '1/2-1/2' ? 'Draw' : result === '0-0' ? 'Both sides lose' : result ?? 'Game over';
  const why = (reason ?? '').replace(/\b(white|black) resigns\b/, '$1 resigned').replace(/^agreed draw$/, 'draw agreed');
  return why ? `${capital(why)} — ${outcome}` : outcome;
}

async function post(path: string): Promise<{ id: string; url: string }> {
  const reply = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'same-origin' });
  const data = await reply.json().catch(() => null) as { id?: string; url?: string; error?: string } | null;
  if (!reply.ok) throw new Error(data?.error ?? `The server answered ${reply.status}.`);
  return { id: data?.id ?? '', url: data?.url ?? '' };
}

export class Banner {
  /** The banner, shown once the game is over (and, in correspondence, the "Next game" bar). */
  readonly el = h('section', { id: 'end-banner', class: 'end-banner', hidden: true, 'aria-live': 'polite' });
  private state: GameState | null = null;
  private rematch: Rematch | null = null;
  /** The rematch was read for this game's end (it is read once, then followed by the events). */
  private read = false;
  private message = '';
  private busy = false;

  constructor(private readonly gameId: string) {}

  private base(): string {
    return `/api/games/${encodeURIComponent(this.gameId)}/rematch`;
  }

  update(s: GameState): void {
    this.state = s;
    if (s.status === 'over' && !this.read) {
      this.read = true;
      void this.readRematch();
    }
    this.render();
  }

  /** An event of the game's stream: the rematch offered, begun or declined. */
  onEvent(type: string, data: string): void {
    if (!type.startsWith('rematch')) return;
    let game = '';
    try {
      game = String((JSON.parse(data) as { game?: unknown }).game ?? '');
    } catch {
      // An event without data: the rematch is read again.
    }
    if (type === 'rematch' && game && this.state?.you) {
      navigate(`/games/${encodeURIComponent(game)}`);
      return;
    }
    void this.readRematch();
  }

  private async readRematch(): Promise<void> {
    try {
      const reply = await fetch(this.base(), { credentials: 'same-origin', cache: 'no-store' });
      if (reply.ok) this.rematch = ((await reply.json()) as { rematch: Rematch | null }).rematch;
    } catch {
      // The banner still shows the result; the rematch button offers one.
    }
    this.render();
  }

  private async send(path: string, go: boolean): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.message = '';
    try {
      const r = await post(path);
      if (go && r.url) {
        navigate(r.url);
        return;
      }
    } catch (e) {
      this.message = errorText(e);
    } finally {
      this.busy = false;
    }
    await this.readRematch();
  }

  /** The next game where it is the player's move, or a sentence saying there is none. */
  private async nextGame(): Promise<void> {
    try {
      const { games } = await api.games();
      const next = games.find(g => g.your_move && g.id !== this.gameId);
      if (next) {
        navigate(`/games/${encodeURIComponent(next.id)}`);
        return;
      }
      this.message = 'No other game waits for your move.';
    } catch (e) {
      this.message = errorText(e);
    }
    this.render();
  }

  private button(id: string, label: string, action: () => void): HTMLButtonElement {
    const b = h('button', { id, type: 'button' }, label);
    b.addEventListener('click', action);
    return b;
  }

  private render(): void {
    const s = this.state;
    if (!s) return;
    const correspondence = s.clock?.kind === 'correspondence' && s.you !== null;
    const over = s.status === 'over';
    const waiting = correspondence && s.status === 'active' && s.to_move !== s.you;
    this.el.hidden = !over && !waiting;
    this.el.classList.toggle('over', over);
    if (this.el.hidden) return;
    const next = correspondence ? this.button('next-game', 'Next game →', () => void this.nextGame()) : null;
    if (!over) {
      fill(this.el, h('span', { class: 'hint' }, 'Your opponent is to move. '), next, this.messageLine());
      return;
    }
    fill(this.el, h('div', { class: 'end-result', id: 'end-result' }, endWords(s.result, s.reason)),
      h('div', { class: 'end-actions' }, ...this.rematchParts(s), next), this.messageLine());
  }

  private messageLine(): HTMLElement | null {
    return this.message ? h('div', { class: 'end-message', role: 'alert' }, this.message) : null;
  }

  private rematchParts(s: GameState): (HTMLElement | string)[] {
    const m = this.rematch;
    const url = m ? `/games/${encodeURIComponent(m.id)}` : '';
    if (m?.status === 'accepted') {
      const go = h('a', { id: 'rematch-link', href: url }, s.you ? 'Go to the rematch' : 'Watch the rematch');
      go.addEventListener('click', ev => {
        ev.preventDefault();
        navigate(url);
      });
      return [go];
    }
    if (!s.you) return [];
    if (m?.status === 'declined') return [h('span', { id: 'rematch-state' }, 'Rematch declined.')];
    if (m?.status === 'offered' && m.by === s.you) {
      return [h('span', { id: 'rematch-state' }, 'Rematch offered: waiting for your opponent. '),
        this.button('rematch-cancel', 'Cancel', () => void this.send(`${this.base()}/decline`, false))];
    }
    if (m?.status === 'offered') {
      return [h('span', { id: 'rematch-state' }, 'Your opponent offers a rematch. '),
        this.button('rematch-accept', 'Accept', () => void this.send(`${this.base()}/accept`, true)),
        this.button('rematch-decline', 'Decline', () => void this.send(`${this.base()}/decline`, false))];
    }
    const engine = !!(s.white?.engine || s.black?.engine);
    return [this.button('rematch', 'Rematch', () => void this.send(this.base(), engine))];
  }
}
