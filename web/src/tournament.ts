// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tournament's page (`/tournaments/<id>`): its standings, live from the server's stream
// (GET /api/tournaments/<id>/events, sent whenever a game is paired or ends), its games linked to
// their pages, the time left (to the start, or to an arena's end), and for a player Join or
// Withdraw. An arena's player on fire (two wins in a row: games count double) is marked 🔥.

import { errorText } from './api';
import { appLink, fill, h } from './dom';
import type { Page } from './main';
import { tournamentApi, timeControl, type Standing, type Tournament, type TournamentGame } from './tournaments-api';

/** "12:05" or "1:02:03" for a span of ms. */
function span(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor(s / 60) % 60, ss = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

function score(t: Tournament, s: Standing): string {
  return t.kind === 'arena' ? String(s.score) : `${s.score} (SB ${s.sb ?? 0})`;
}

function standingsTable(t: Tournament): HTMLElement {
  if (!t.standings.length) return h('p', { class: 'hint' }, 'No player yet.');
  return h('table', { class: 'standings', id: 'standings' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col' }, 'Games'), h('th', { scope: 'col' }, 'Score'))),
    h('tbody', {}, ...t.standings.map(s => h('tr', { class: s.status === 'withdrawn' ? 'withdrawn' : '' },
      h('td', {}, String(s.rank)),
      h('td', {}, s.name, s.fire ? h('span', { class: 'fire', title: 'On fire: games count double' }, ' 🔥') : '',
        s.status === 'withdrawn' ? h('span', { class: 'hint' }, ' (left)') : ''),
      h('td', { class: 'sheet' }, s.sheet || '–'),
      h('td', { class: 'score' }, score(t, s))))));
}

function gameRow(g: TournamentGame): HTMLElement {
  return h('li', {},
    appLink(`/games/${encodeURIComponent(g.id)}`, { class: 'tournament-game' }, `${g.white} – ${g.black}`),
    h('span', { class: 'hint' }, g.status === 'over' ? ` ${g.result ?? ''}` : ' playing'));
}

export function showTournament(root: HTMLElement, id: string, me: string | null): Page {
  let alive = true;
  let t: Tournament | null = null;
  let offset = 0;       // the server's clock less ours, from the GET's "now"
  const title = h('h1', { id: 'tournament-title' }, 'Tournament');
  const about = h('p', { class: 'hint', id: 'tournament-about' });
  const clock = h('p', { class: 'tournament-clock', id: 'tournament-clock', role: 'timer' });
  const action = h('button', { id: 'tournament-action', type: 'button', class: 'primary', hidden: true });
  const error = h('p', { class: 'error', id: 'tournament-error', role: 'alert' });
  const standings = h('section', { class: 'card', id: 'tournament-standings', 'aria-live': 'polite' });
  const games = h('section', { class: 'card', id: 'tournament-games' });
  fill(root, h('div', { class: 'tournament-page' },
    h('p', {}, appLink('/tournaments', {}, '← Tournaments')), title, about, clock, h('div', {}, action), error,
    h('div', { class: 'tournament-columns' }, standings, games)));

  function tick(): void {
    if (!t) return;
    const now = Date.now() + offset;
    if (t.status === 'upcoming') clock.textContent = `Starts in ${span(t.starts_at - now)}`;
    else if (t.status === 'running' && t.kind === 'arena') clock.textContent = `${span(t.ends_at - now)} left`;
    else clock.textContent = t.status === 'running' ? 'Being played' : 'Finished';
  }

  function show(next: Tournament): void {
    t = { ...next, me: next.me !== undefined ? next.me : t?.me };
    title.textContent = t.name;
    about.textContent = `${t.kind === 'arena' ? `Arena of ${t.minutes} minutes` : 'Round-robin'} · ${t.variant} · ` +
      `${timeControl(t)} · created by ${t.creator}`;
    fill(standings, h('h2', {}, 'Standings'), standingsTable(t));
    fill(games, h('h2', {}, 'Games'),
      t.games.length ? h('ul', { class: 'tournament-games' }, ...t.games.map(gameRow)) : h('p', { class: 'hint' }, 'No game yet.'));
    const canJoin = me && t.status !== 'finished' && t.me !== 'joined' &&
      (t.kind === 'arena' || (t.me === 'invited' && t.status === 'upcoming'));
    const canLeave = me && t.status !== 'finished' && t.me === 'joined' && (t.kind === 'arena' || t.status === 'upcoming');
    action.hidden = !canJoin && !canLeave;
    action.textContent = canJoin ? 'Join' : 'Withdraw';
    tick();
  }

  async function load(): Promise<void> {
    try {
      const got = await tournamentApi.get(id);
      if (!alive) return;
      offset = (got.now ?? Date.now()) - Date.now();
      show(got);
    } catch (e) {
      if (alive) error.textContent = errorText(e);
    }
  }

  action.addEventListener('click', async () => {
    if (!t) return;
    action.disabled = true;
    try {
      if (action.textContent === 'Join') await tournamentApi.join(id);
      else await tournamentApi.withdraw(id);
      error.textContent = '';
      await load();
    } catch (e) {
      error.textContent = errorText(e);
    }
    action.disabled = false;
  });

  const source = new EventSource(`/api/tournaments/${encodeURIComponent(id)}/events`);
  source.addEventListener('tournament', e => {
    if (alive) show(JSON.parse((e as MessageEvent<string>).data) as Tournament);
  });
  const timer = window.setInterval(tick, 1000);
  void load();
  return {
    destroy() {
      alive = false;
      source.close();
      window.clearInterval(timer);
    },
  };
}
