// SPDX-License-Identifier: GPL-3.0-or-later
//
// A game against the engine of each variant, to its end: the player picks
// one of the legal actions at random, seeded (ordinary moves first, so that the
// game is a game), the engine answers through the server, until the page
// says the game is over.  The first few actions are clicked in the page's
// list of legal actions; the rest go through the API from the same
// browser context, as fast as the engine answers, while the page follows
// them live (a game can run to hundreds of plies).
//
// van Gog's full and past modes start from an endgame: from the opening,
// the engine and a random player arrive pieces from the future turn after
// turn and the game runs to hundreds of plies (docs/engine.md, issue 10).
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, gameState, newPlayer, showsPly, typeAction, type Player } from './helpers';

test.afterEach(closeContexts);

const GAMES: { variant: string; fen?: string }[] = [
  { variant: 'chess' },
  { variant: 'gifford' },
  { variant: 'vangog', fen: 'kr6/q7/8/8/8/8/8/7K w - - 0 1 - - - -' },
  { variant: 'vangog-past', fen: 'kr6/q7/8/8/8/8/8/7K w - - 0 1 - - - -' },
  { variant: 'vangog-future' },
  { variant: 'travelers' },
  { variant: 'chessgi-classic' },
  { variant: 'chessgi' },
];

const CLICKED_TURNS = 6;

/* The player's picks come from a small seeded generator (mulberry32), one
 * seed a variant, so that every run plays the same choices (the engine's
 * answers can still differ with its timing). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}
const ORDINARY = new Set(['normal', 'double-push', 'castle', 'promotion', 'en-passant']);

async function playToTheEnd(p: Player, id: string, random: () => number) {
  for (let turn = 0; turn < 600; ) {
    const st = await gameState(p, id);
    if (st.status === 'over') return st;
    if (st.to_move !== st.you) {
      await p.page.waitForTimeout(50);
      continue;
    }
    turn++;
    const ordinary = st.legal.filter((a) => ORDINARY.has(a.kind));
    const pool = ordinary.length ? ordinary : st.legal;
    const pick = pool[Math.floor(random() * pool.length)];
    if (turn <= CLICKED_TURNS) {
      await showsPly(p.page, st.ply);
      await typeAction(p.page, pick.coord);
      await expect(p.page.locator('#game')).not.toHaveAttribute('data-ply', String(st.ply));
      // The page shows its own action at once, before the server has it: the next read of the game
      // must wait for the server, or it finds the same turn again and waits for a ply the page has
      // left (a failure of this test on a busy machine).
      await expect.poll(async () => (await gameState(p, id)).ply).toBeGreaterThan(st.ply);
    } else {
      const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action: pick.coord, ply: st.ply } });
      // 409: the engine was faster than this read of the game.
      expect([200, 409], await reply.text()).toContain(reply.status());
    }
  }
  throw new Error('the game did not end in 600 turns');
}

for (const g of GAMES) {
  test(`a ${g.variant} game against the engine runs to its end`, async ({ browser }) => {
    const errors: string[] = [];
    const p = await newPlayer(browser, 'gus', errors);
    const id = await createGame(p, { variant: g.variant, color: 'white', level: 1, fen: g.fen });
    await p.page.goto(`/games/${id}`);
    await expect(p.page.locator('#game')).toHaveAttribute('data-you', 'white');
    const end = await playToTheEnd(p, id, seededRandom(seedOf(g.variant)));
    await expect(p.page.locator('#game')).toHaveAttribute('data-status', 'over');
    await showsPly(p.page, end.ply);
    await expect(p.page.locator('#status')).toContainText(end.result!);
    await expect(p.page.locator('#status')).toContainText(end.reason!);
    expect(end.actions.length).toBe(end.ply);
    expect(errors).toEqual([]);
  });
}
