// SPDX-License-Identifier: GPL-3.0-or-later
//
// A player's page (`/@/<name>`, docs/api.md "Players and the archive"): the name and member since,
// the games played, won, drawn and lost in each variant, the games being played now, and the list of
// finished games, newest first, with filters (variant, result, opponent, rated), read as NDJSON from
// GET /api/users/<name>/games a page at a time ("More"), and the whole archive as one PGN file; above
// them the player's ratings and their history (player-ratings.ts).
// Anyone may look, logged in or not. A deleted account, or a name nobody has, is "No such player".

import { api, ApiError, errorText, timeMs } from './api';
import { appLink, fill, h } from './dom';
import type { Page } from './main';
import { showRatings, type UserRatings } from './player-ratings';

/** A game as the players' listings give it, one JSON object a line (lichess's export's fields). */
export interface PlayerGame {
  id: string;
  variant: string;
  status: string;
  speed: 'live' | 'correspondence';
  rated: boolean;
  created: number;
  last_action_at: number;
  plies: number;
  players: { white: { name: string | null; engine_level?: number }; black: { name: string | null; engine_level?: number } };
  result: string | null;
  reason: string | null;
  winner: 'white' | 'black' | null;
}

interface Counts { played: number; won: number; drawn: number; lost: number }

/** Games asked for at a time; the server gives 100 by default and at most 500. */
const PAGE = 20;

/** The path of a player's page: names are letters, digits, '_' and '-', safe in a path. */
export function playerPath(name: string): string {
  return `/@/${encodeURIComponent(name)}`;
}

/** A link to a player's page, or the name alone for the engine, an open seat or a deleted account. */
export function playerLink(name: string | null | undefined, attrs: Record<string, string> = {}): HTMLElement | string {
  if (!name || name === 'deleted' || name === 'ttchess engine') return name ?? '';
  return appLink(playerPath(name), { ...attrs, class: `player-link ${attrs.class ?? ''}`.trim() }, name);
}

async function getJson<T>(path: string): Promise<T> {
  const reply = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
  const text = await reply.text();
  if (!reply.ok) {
    let sentence = `The server answered ${reply.status} to GET ${path}.`;
    try {
      sentence = (JSON.parse(text) as { error: string }).error ?? sentence;
    } catch { /* not JSON: the status says it */ }
    throw new ApiError(reply.status, sentence);
  }
  return path.includes('/games?') ? (text.split('\n').filter(l => l).map(l => JSON.parse(l)) as T) : (JSON.parse(text) as T);
}

function dateText(ms: number): string {
  const t = timeMs(ms);
  return t === null ? '' : new Date(t).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The player's result in a finished game, in words. */
function outcome(g: PlayerGame, me: string): { word: string; cls: string } {
  if (g.status !== 'over') return { word: 'playing', cls: 'playing' };
  if (!g.winner) return { word: 'Drawn', cls: 'drawn' };
  const mine = g.players[g.winner].name?.toLowerCase() === me.toLowerCase();
  return mine ? { word: 'Won', cls: 'won' } : { word: 'Lost', cls: 'lost' };
}

function gameRow(g: PlayerGame, me: string, titles: Map<string, string>): HTMLElement {
  const white = g.players.white.name?.toLowerCase() === me.toLowerCase();
  const other = white ? g.players.black : g.players.white;
  const { word, cls } = outcome(g, me);
  return h('li', { class: `player-game ${cls}`, 'data-id': g.id },
    h('span', { class: 'pg-result' }, word),
    h('span', { class: 'pg-opponent' }, 'vs ', playerLink(other.name ?? '?'), white ? ' · as White' : ' · as Black'),
    h('span', { class: 'pg-variant' }, titles.get(g.variant) ?? g.variant, ' · ', g.speed, g.rated ? ' · rated' : ' · casual'),
    h('span', { class: 'pg-detail' }, [g.result, g.reason].filter(Boolean).join(' '), g.plies ? ` · ${g.plies} plies` : ''),
    h('span', { class: 'pg-date' }, dateText(g.created)),
    appLink(`/games/${encodeURIComponent(g.id)}`, { class: 'pg-open', 'aria-label': `Open the game ${g.id}` }, 'Open'));
}

function statsTable(stats: Record<string, Counts>, titles: Map<string, string>): HTMLElement {
  const variants = Object.keys(stats);
  if (variants.length === 0) return h('p', { class: 'hint', id: 'player-stats-none' }, 'No finished games yet.');
  const cell = (n: number): HTMLElement => h('td', {}, String(n));
  return h('table', { id: 'player-stats-table', class: 'player-stats-table' },
    h('caption', { class: 'visually-hidden' }, 'Games per variant'),
    h('thead', {}, h('tr', {}, ...['Variant', 'Played', 'Won', 'Drawn', 'Lost'].map(t => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...variants.map(v => h('tr', { 'data-variant': v },
      h('th', { scope: 'row' }, titles.get(v) ?? v), cell(stats[v].played), cell(stats[v].won), cell(stats[v].drawn),
      cell(stats[v].lost)))));
}

export function showPlayer(root: HTMLElement, name: string): Page {
  let alive = true;
  const base = `/api/users/${encodeURIComponent(name)}`;
  const titles = new Map<string, string>();

  const heading = h('h2', { id: 'player-name' }, name);
  const since = h('p', { class: 'hint', id: 'player-since' });
  // The ratings and their chart (player-ratings.ts), hidden while the player has none.
  const ratings = h('section', { id: 'player-ratings', class: 'card', hidden: true });
  const statsBox = h('section', { id: 'player-stats', class: 'card' }, h('h3', {}, 'Games per variant'));
  const currentList = h('ul', { id: 'player-current-list', class: 'player-game-list' });
  const currentBox = h('section', { id: 'player-current', class: 'card' }, h('h3', {}, 'Playing now'), currentList);

  const variantSel = h('select', { id: 'filter-variant', name: 'variant' }, h('option', { value: '' }, 'Any'));
  const resultSel = h('select', { id: 'filter-result', name: 'result' },
    ...[['', 'Any'], ['won', 'Won'], ['drawn', 'Drawn'], ['lost', 'Lost']].map(([v, t]) => h('option', { value: v }, t)));
  const opponentIn = h('input', { id: 'filter-opponent', name: 'opponent', type: 'text', maxlength: 32, autocomplete: 'off' });
  const ratedSel = h('select', { id: 'filter-rated', name: 'rated' },
    ...[['', 'Any'], ['true', 'Rated'], ['false', 'Casual']].map(([v, t]) => h('option', { value: v }, t)));
  const apply = h('button', { id: 'filter-apply', type: 'submit', class: 'primary' }, 'Show');
  const filters = h('form', { id: 'player-filters', class: 'player-filters' },
    h('label', { for: 'filter-variant' }, 'Variant'), variantSel,
    h('label', { for: 'filter-result' }, 'Result'), resultSel,
    h('label', { for: 'filter-opponent' }, 'Opponent'), opponentIn,
    h('label', { for: 'filter-rated' }, 'Rated'), ratedSel, apply);
  const listError = h('p', { id: 'player-games-error', class: 'error', role: 'alert' });
  const list = h('ul', { id: 'player-game-list', class: 'player-game-list' });
  const more = h('button', { id: 'player-more', type: 'button', hidden: true }, 'More games');
  const pgn = h('a', { id: 'player-pgn', href: `${base}/games.pgn`, download: `ttchess-${name}.pgn` }, 'Download all finished games (PGN)');
  const gamesBox = h('section', { id: 'player-games', class: 'card' },
    h('h3', {}, 'Games'), filters, h('p', { class: 'hint' }, pgn), listError, list, more);

  let until = 0;
  async function loadGames(reset: boolean): Promise<void> {
    const q = new URLSearchParams({ max: String(PAGE) });
    if (variantSel.value) q.set('variant', variantSel.value);
    if (resultSel.value) q.set('result', resultSel.value);
    if (opponentIn.value.trim()) q.set('opponent', opponentIn.value.trim());
    if (ratedSel.value) q.set('rated', ratedSel.value);
    if (!reset && until) q.set('until', String(until));
    listError.textContent = '';
    more.disabled = true;
    try {
      const games = await getJson<PlayerGame[]>(`${base}/games?${q.toString()}`);
      if (!alive) return;
      if (reset) fill(list);
      list.append(...games.map(g => gameRow(g, name, titles)));
      if (reset && games.length === 0) list.append(h('li', { class: 'hint' }, 'No games.'));
      until = games.length ? games[games.length - 1].created : until;
      more.hidden = games.length < PAGE;
    } catch (e) {
      if (alive) listError.textContent = errorText(e);
    } finally {
      more.disabled = false;
    }
  }
  filters.addEventListener('submit', e => {
    e.preventDefault();
    void loadGames(true);
  });
  more.addEventListener('click', () => void loadGames(false));

  async function load(): Promise<void> {
    try {
      const [current, stats, user, variants] = await Promise.all([
        getJson<{ name: string; created: number; games: PlayerGame[] }>(`${base}/current`),
        getJson<Record<string, Counts>>(`${base}/stats`),
        getJson<{ ratings: UserRatings }>(base),
        api.variants().catch(() => ({ variants: [] })),
      ]);
      if (!alive) return;
      for (const v of variants.variants) {
        titles.set(v.name, v.title);
        variantSel.append(h('option', { value: v.name }, v.title));
      }
      heading.textContent = current.name;
      document.title = `${current.name} · ttchess`;
      since.textContent = `Member since ${dateText(current.created)}`;
      showRatings(ratings, current.name, user.ratings, titles);
      statsBox.append(statsTable(stats, titles));
      fill(currentList, ...current.games.map(g => gameRow(g, current.name, titles)));
      if (current.games.length === 0) currentList.append(h('li', { class: 'hint' }, 'No game in play.'));
      await loadGames(true);
    } catch (e) {
      if (!alive) return;
      const gone = e instanceof ApiError && e.status === 404;
      fill(root, h('div', { class: 'player' }, h('h2', { id: 'player-name' }, name),
        h('p', { class: gone ? 'hint' : 'error', id: 'player-missing', role: 'alert' },
          gone ? 'No such player (or the account was deleted).' : errorText(e))));
    }
  }

  fill(root, h('div', { class: 'player' }, h('div', { class: 'player-head' }, heading, since), ratings, statsBox,
    currentBox, gamesBox));
  void load();
  return {
    destroy() {
      alive = false;
    },
  };
}
