// SPDX-License-Identifier: GPL-3.0-or-later
//
// The tournaments' API (docs/api.md, "Tournaments") as the pages use it: the list, one tournament
// with its standings and games, creating, joining and leaving. Errors are the server's own sentences.

import { request } from './api';

export interface TournamentSummary {
  id: number;
  name: string;
  kind: 'arena' | 'round-robin';
  creator: string;
  variant: string;
  options: string | null;
  base_ms: number;
  inc_ms: number;
  days_per_move: number;
  starts_at: number;
  ends_at: number;
  players: number;
  status: 'upcoming' | 'running' | 'finished';
}

export interface Standing {
  rank: number;
  name: string;
  status: 'joined' | 'withdrawn';
  score: number;
  streak: number;
  fire: boolean;
  sheet: string;
  sb?: number;
}

export interface TournamentGame {
  id: string;
  white: string;
  black: string;
  status: string;
  result: string | null;
}

export interface Tournament extends Omit<TournamentSummary, 'players'> {
  minutes: number;
  now?: number;
  standings: Standing[];
  games: TournamentGame[];
  me?: 'joined' | 'withdrawn' | 'invited' | null;
}

export interface TournamentLists {
  upcoming: TournamentSummary[];
  running: TournamentSummary[];
  finished: TournamentSummary[];
}

export interface NewTournament {
  kind: 'arena' | 'round-robin';
  name: string;
  variant: string;
  clock?: { minutes: number; increment: number };
  days_per_move?: number;
  minutes?: number;
  players?: string[];
  starts_in: number;
}


export const tournamentApi = {
  list: () => request<TournamentLists>('GET', '/api/tournaments'),
  get: (id: string) => request<Tournament>('GET', `/api/tournaments/${encodeURIComponent(id)}`),
  create: (t: NewTournament) => request<{ id: number; url: string }>('POST', '/api/tournaments', t),
  join: (id: string) => request<{ status: string }>('POST', `/api/tournaments/${encodeURIComponent(id)}/join`, {}),
  withdraw: (id: string) => request<{ status: string }>('POST', `/api/tournaments/${encodeURIComponent(id)}/withdraw`, {}),
};

/** "3+2" for a live clock, "3 days" for correspondence. */
export function timeControl(t: { base_ms: number; inc_ms: number; days_per_move: number }): string {
  if (!t.base_ms) return `${t.days_per_move} day${t.days_per_move === 1 ? '' : 's'}`;
  return `${t.base_ms / 60000}+${t.inc_ms / 1000}`;
}
