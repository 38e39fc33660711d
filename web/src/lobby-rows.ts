// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rows of the lobby's list of the player's games: a game (a link to it) and a challenge sent and
// not yet answered (with Withdraw); and the words for when something happened.

import { timeMs, type Color, type GameSummary } from './api';
import { appLink, h } from './dom';

function seatName(name: string | null): string {
  return name ?? '(open seat)';
}

/** How long ago a time of the API was, in words ("just now", "5 min ago", "3 Mar 2026"). */
export function whenText(t: number | string | null | undefined, never = ''): string {
  const ms = timeMs(t);
  if (ms === null) return never;
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86400) return `${Math.round(s / 86400)} d ago`;
  return new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The players named by challenges sent from this page, for a server that lists a challenge with an empty seat. */
export const challenged = new Map<string, string>();

/**
 * A game the player named an opponent for, who has not answered yet: listed with a Withdraw button,
 * and not a link, since there is nothing to play until the opponent accepts.
 */
export function challengeRow(g: GameSummary, me: string, titles: Map<string, string>, withdraw: (id: string, b: HTMLButtonElement) => void): HTMLElement {
  // Until they accept, the challenged player's seat is empty.
  const other = [g.white, g.black].find(n => n !== null && n.toLowerCase() !== me.toLowerCase());
  const opponent = g.opponent ?? other ?? challenged.get(g.id) ?? null;
  const seat = (n: string | null): string => n ?? opponent ?? '(challenged)';
  const button = h('button', { type: 'button', class: 'withdraw', 'data-id': g.id }, 'Withdraw');
  button.addEventListener('click', () => withdraw(g.id, button));
  return h('div', { class: 'game-row challenge-sent', 'data-id': g.id, 'data-status': g.status },
    h('span', { class: 'marker' }, 'challenge'),
    h('span', { class: 'variant' }, titles.get(g.variant) ?? g.variant),
    h('span', { class: 'players' }, `${seat(g.white)} – ${seat(g.black)}`),
    h('span', { class: 'state' }, opponent ? `waiting for ${opponent} to accept` : 'waiting for an answer'),
    h('span', { class: 'kind' }, button));
}

export function gameRow(g: GameSummary, titles: Map<string, string>): HTMLElement {
  let status: string;
  if (g.status === 'over') status = [g.result, g.reason].filter(Boolean).join(' ');
  else if (g.status === 'declined') status = g.reason ?? 'challenge declined';
  else if (g.status === 'waiting') status = 'waiting for an opponent';
  else if (g.status === 'seek') status = 'open challenge: waiting for someone to accept';
  else status = `active, ply ${g.ply}`;
  // A declined challenge's empty seat was its challenged player's: named when the server says who.
  const seat = (n: string | null): string =>
    n ?? (g.status === 'declined' ? g.opponent ?? challenged.get(g.id) ?? '—' : seatName(n));
  const classes = ['game-row'];
  if (g.your_move) classes.push('your-move');
  if (g.status === 'declined') classes.push('declined');
  const attrs = { class: classes.join(' '), 'data-id': g.id, 'data-status': g.status };
  const cells = [
    h('span', { class: 'marker' }, g.your_move ? 'your move' : g.status === 'declined' ? 'declined' : ''),
    h('span', { class: 'variant' }, titles.get(g.variant) ?? g.variant),
    h('span', { class: 'players' }, `${seat(g.white)} – ${seat(g.black)}`),
    h('span', { class: 'state' }, status),
    h('span', { class: 'kind' }, g.kind),
  ];
  // A declined challenge was never played: nothing to open.
  return g.status === 'declined' ? h('div', attrs, ...cells) : appLink(`/games/${encodeURIComponent(g.id)}`, attrs, ...cells);
}

/** A disc of the colour a challenge offers, as lichess shows it. */
export function colorMark(color: Color): HTMLElement {
  return h('span', { class: `color-mark ${color}`, 'aria-hidden': 'true' });
}
