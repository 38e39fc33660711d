// SPDX-License-Identifier: GPL-3.0-or-later
//
// The lobby's live lists, shown on the visitor's home page and in a player's lobby alike: the open
// challenges (seeks: anyone may accept one, the game starts at once) and the games being played now,
// to watch. They arrive on the server's lobby stream (GET /api/lobby/events, docs/api.md "Open
// challenges"), which sends both lists whenever they change; a page that cannot keep a stream open
// (the address's streams are all taken) asks GET /api/lobby every few seconds instead.
//
// A player's own seek is listed with Withdraw. When it leaves the list, the page asks the game: if
// someone accepted it, the seeker's page goes to the game, so that both players arrive together.

import { api, errorText, request, type Challenge, type GameState } from './api';
import { appLink, fill, h, navigate } from './dom';

/** An open challenge (GET /api/lobby): a challenge to anyone, live or by correspondence. */
export interface Seek extends Challenge {
  kind: 'live' | 'correspondence';
  created: number;
}

export interface PlayingGame {
  id: string;
  variant: string;
  title: string;
  white: string | null;
  black: string | null;
  ply: number;
  time: string;
  kind: 'live' | 'correspondence';
}

export interface LobbyReply {
  seeks: Seek[];
  playing: PlayingGame[];
}

export interface SeekRequest {
  variant: string;
  options?: string;
  fen?: string;
  color: 'white' | 'black' | 'random';
  clock?: { minutes: number; increment: number };
  days_per_move?: number;
  rated?: boolean;
}


export const seekApi = {
  lobby: () => request<LobbyReply>('GET', '/api/lobby'),
  post: (req: SeekRequest) => request<{ id: string; url: string }>('POST', '/api/seeks', req),
  accept: (id: string) => request<{ id: string }>('POST', `/api/seeks/${encodeURIComponent(id)}/accept`, {}),
  withdraw: (id: string) => request<{ id: string }>('DELETE', `/api/seeks/${encodeURIComponent(id)}`),
};

/** How often a page without the stream asks for the lists. */
const POLL_MS = 5000;

export interface LobbyListsOptions {
  /** The logged-in player, or null for a visitor (whose Accept asks them to log in). */
  me: string | null;
  /** A visitor pressed Accept: the page shows its login form. */
  needLogin?: (seek: Seek) => void;
}

/** The two lists, kept live while the page lives; `element` is their section. */
export class LobbyLists {
  readonly element: HTMLElement;
  private readonly seekList = h('div', { id: 'seek-list', class: 'seek-list' });
  private readonly playingList = h('div', { id: 'playing-list', class: 'playing-list' });
  private readonly error = h('p', { id: 'seek-error', class: 'error', role: 'alert' });
  private source: EventSource | null = null;
  private timer: number | undefined;
  private alive = true;
  private shown = '';
  /** The player's own seeks seen open: when one leaves the list, was it accepted? */
  private readonly mine = new Set<string>();

  constructor(private readonly options: LobbyListsOptions) {
    this.element = h('div', { class: 'lobby-lists' },
      h('section', { class: 'card seeks-box', id: 'seeks', 'aria-live': 'polite' },
        h('h2', {}, 'Open challenges'), this.error, this.seekList),
      h('section', { class: 'card playing-box', id: 'playing' },
        h('h2', {}, 'Being played now'), this.playingList));
    fill(this.seekList, h('p', { class: 'hint' }, 'Loading…'));
    this.listen();
  }

  /** A seek the player has just posted, so that its acceptance is followed even before the stream lists it. */
  follow(id: string): void {
    this.mine.add(id);
  }

  /** Asks for the lists now (after posting or accepting), not waiting for the stream. */
  refresh(): void {
    seekApi.lobby().then(l => this.show(l)).catch(e => {
      if (this.alive) this.error.textContent = `The open challenges could not be loaded: ${errorText(e)}`;
    });
  }

  destroy(): void {
    this.alive = false;
    this.source?.close();
    window.clearTimeout(this.timer);
  }

  private listen(): void {
    if (typeof EventSource === 'undefined') {
      this.poll();
      return;
    }
    const source = new EventSource('/api/lobby/events');
    this.source = source;
    source.addEventListener('lobby', e => this.show(JSON.parse((e as MessageEvent<string>).data) as LobbyReply));
    source.onerror = () => {
      // A stream refused (429) or cut for good is closed by the browser: the page asks instead.
      if (source.readyState === EventSource.CLOSED && this.alive) this.poll();
    };
  }

  private poll(): void {
    this.source = null;
    const tick = (): void => {
      if (!this.alive) return;
      this.refresh();
      this.timer = window.setTimeout(tick, POLL_MS);
    };
    tick();
  }

  private show(l: LobbyReply): void {
    if (!this.alive) return;
    const key = JSON.stringify(l);
    if (key === this.shown) return;
    this.shown = key;
    this.error.textContent = '';
    const me = this.options.me?.toLowerCase() ?? null;
    const open = new Set(l.seeks.map(s => s.id));
    for (const s of l.seeks) if (me && s.from.toLowerCase() === me) this.mine.add(s.id);
    for (const id of [...this.mine]) {
      if (open.has(id)) continue;
      this.mine.delete(id);
      void this.wasAccepted(id);
    }
    fill(this.seekList, ...(l.seeks.length ? l.seeks.map(s => this.seekRow(s, me))
      : [h('p', { class: 'hint' }, 'No open challenge right now. Post one: anyone may accept it.')]));
    fill(this.playingList, ...(l.playing.length ? l.playing.map(g => this.playingRow(g))
      : [h('p', { class: 'hint' }, 'No game is being played right now.')]));
  }

  /** The player's seek left the list: accepted (go to the game) or withdrawn (stay). */
  private async wasAccepted(id: string): Promise<void> {
    try {
      const g: GameState = await api.state(id);
      if (this.alive && g.status === 'active' && g.you) navigate(`/games/${encodeURIComponent(id)}`);
    } catch {
      // The list still shows what is open; nothing to follow.
    }
  }

  private seekRow(s: Seek, me: string | null): HTMLElement {
    const own = me !== null && s.from.toLowerCase() === me;
    const button = h('button', {
      type: 'button', class: own ? 'withdraw-seek' : 'accept-seek', 'data-id': s.id,
      'aria-label': own ? `Withdraw your open challenge (${s.title})` : `Accept ${s.from}’s open challenge (${s.title})`,
    }, own ? 'Withdraw' : 'Accept');
    button.addEventListener('click', () => void this.answer(s, own, button));
    return h('div', { class: `seek-row${own ? ' own' : ''}`, 'data-id': s.id },
      h('span', { class: `color-mark ${s.color}`, 'aria-hidden': 'true' }),
      h('span', { class: 'seek-what' },
        h('strong', { class: 'seek-from' }, s.from), ' · ', h('span', { class: 'seek-variant' }, s.title),
        h('span', { class: 'seek-detail' },
          `${s.kind === 'live' ? s.time : s.time + ' a move'} · ${own ? 'you play ' + (s.color === 'white' ? 'black' : 'white') : 'you play ' + s.color}` +
          (s.options ? ` · ${s.options}` : ''))),
      button);
  }

  private async answer(s: Seek, own: boolean, button: HTMLButtonElement): Promise<void> {
    this.error.textContent = '';
    if (!this.options.me) {
      this.options.needLogin?.(s);
      return;
    }
    button.disabled = true;
    try {
      if (own) {
        this.mine.delete(s.id);
        await seekApi.withdraw(s.id);
        this.refresh();
      } else {
        await seekApi.accept(s.id);
        if (this.alive) navigate(`/games/${encodeURIComponent(s.id)}`);
      }
    } catch (e) {
      if (!this.alive) return;
      this.error.textContent = errorText(e);
      button.disabled = false;
      this.refresh();
    }
  }

  private playingRow(g: PlayingGame): HTMLElement {
    return appLink(`/games/${encodeURIComponent(g.id)}`, { class: 'playing-row', 'data-id': g.id },
      h('span', { class: 'playing-players' }, `${g.white ?? '?'} – ${g.black ?? '?'}`),
      h('span', { class: 'playing-variant' }, g.title),
      h('span', { class: 'playing-detail' }, `${g.kind === 'live' ? g.time : g.time + ' a move'} · move ${Math.floor(g.ply / 2) + 1}`));
  }
}
