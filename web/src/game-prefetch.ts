// SPDX-License-Identifier: GPL-3.0-or-later
//
// A game page's first state, asked for early. main.ts asks for a game's state and the rules as soon as
// it sees a game's address, before it knows who is logged in, so that the requests go out together
// instead of one after another (README, "The client's speed"); the page's first refresh takes it.

import { api, type GameState } from './api';
import { loadRules } from './rules';

/** The state asked for early, taken once, by the first refresh of that game's page. */
let prefetched: { id: string; at: number; state: Promise<GameState> } | null = null;

export function prefetchGame(id: string): void {
  const state = api.state(id);
  // A failure is the page's to report, when it asks again.
  state.catch(() => undefined);
  loadRules().catch(() => undefined);
  prefetched = { id, at: Date.now(), state };
}

/** The prefetched state of game `id`, if it was asked for in the last few seconds (a later visit
 *  asks afresh). */
export function takePrefetched(id: string): Promise<GameState> | null {
  const p = prefetched;
  prefetched = null;
  return p && p.id === id && Date.now() - p.at < 5000 ? p.state : null;
}

/** The first state's two costs, for the load test's log (web/tests/fixes.spec.ts): the rules and the
 *  replay of the record (from `started` to `replayed`), then the first drawing of the page. */
export function measureFirstState(started: number, replayed: number): void {
  performance.measure('ttchess-replay', { start: started, end: replayed });
  performance.measure('ttchess-first-render', { start: replayed, end: performance.now() });
}
