// SPDX-License-Identifier: GPL-3.0-or-later
//
// The leaderboards, /leaderboard?variant=&speed=: the best players of a variant at a speed (live or
// correspondence), by their Glicko-2 rating (GET /api/leaderboard/{variant}/{speed}); players whose
// rating is still provisional are not listed (docs/api.md, "Ratings"). Each name leads to the
// player's page, /@/name.

import { api, errorText } from './api';
import { appLink, fill, h } from './dom';
import type { Page } from './main';
import { ratingText, type Speed } from './ratings';

export interface LeaderboardLine {
  name: string;
  rating: number;
  rd: number;
  games: number;
}

async function fetchBoard(variant: string, speed: Speed): Promise<LeaderboardLine[]> {
  const reply = await fetch(`/api/leaderboard/${encodeURIComponent(variant)}/${speed}`, { cache: 'no-store' });
  const data = await reply.json() as { players?: LeaderboardLine[]; error?: string };
  if (!reply.ok) throw new Error(data.error ?? `The server answered ${reply.status}.`);
  return data.players ?? [];
}

function boardTable(lines: LeaderboardLine[]): HTMLElement {
  if (lines.length === 0)
    return h('p', { id: 'leaderboard-empty', class: 'hint' },
      'Nobody here yet: a player is listed once their rating is no longer provisional (RD 110 or less).');
  return h('table', { id: 'leaderboard-table', class: 'leaderboard-table' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col' }, 'Rating'), h('th', { scope: 'col' }, 'Games'))),
    h('tbody', {}, ...lines.map((line, i) => h('tr', {},
      h('td', {}, String(i + 1)),
      h('td', {}, appLink(`/@/${encodeURIComponent(line.name)}`, { class: 'leaderboard-name' }, line.name)),
      h('td', { title: `RD ${line.rd}` }, ratingText(line.rating, false)),
      h('td', {}, String(line.games))))));
}

export function showLeaderboard(root: HTMLElement, params: URLSearchParams): Page {
  let alive = true;
  const variant = h('select', { id: 'leaderboard-variant' });
  const speed = h('select', { id: 'leaderboard-speed' },
    h('option', { value: 'live' }, 'Live'), h('option', { value: 'correspondence' }, 'Correspondence'));
  speed.value = params.get('speed') === 'correspondence' ? 'correspondence' : 'live';
  const list = h('div', { id: 'leaderboard-list', 'aria-live': 'polite' });
  fill(root, h('section', { class: 'card leaderboard' },
    h('h1', {}, 'Leaderboards'),
    h('form', { class: 'leaderboard-choice', id: 'leaderboard-choice' },
      h('label', {}, 'Game ', variant), h('label', {}, 'Speed ', speed)),
    list));

  async function load(): Promise<void> {
    const query = `?variant=${encodeURIComponent(variant.value)}&speed=${speed.value}`;
    if (location.search !== query) history.replaceState(null, '', `/leaderboard${query}`);
    fill(list, h('p', { class: 'hint' }, 'Loading…'));
    try {
      const lines = await fetchBoard(variant.value, speed.value as Speed);
      if (alive) fill(list, boardTable(lines));
    } catch (e) {
      if (alive) fill(list, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  }

  void (async () => {
    try {
      const { variants } = await api.variants();
      if (!alive) return;
      fill(variant, ...variants.map(v => h('option', { value: v.name }, v.title)));
      const asked = params.get('variant');
      variant.value = asked && variants.some(v => v.name === asked) ? asked : variants[0]?.name ?? '';
      variant.addEventListener('change', () => void load());
      speed.addEventListener('change', () => void load());
      await load();
    } catch (e) {
      if (alive) fill(list, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  })();
  return { destroy() { alive = false; } };
}
