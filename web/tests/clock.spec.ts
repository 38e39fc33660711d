// SPDX-License-Identifier: GPL-3.0-or-later
//
// Time runs out (docs/api.md, "Actions": time): a game with a 2-second clock, open
// in a player's page before anyone moves; two moves are made through the
// API, then nothing.  White's clock runs out two seconds later and the
// server's timer ends the game: the page shows the result as the time
// event arrives, without a reload, and its clocks stop (White's at 0:00.0).
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, newPlayer, showsPly } from './helpers';

test.afterEach(closeContexts);

test('a flag ends the game on the page at once', async ({ browser }) => {
  const errors: string[] = [];
  const white = await newPlayer(browser, 'flagw', errors);
  const black = await newPlayer(browser, 'flagb', errors);
  const id = await createGame(white, {
    variant: 'chess', color: 'white', opponent: black.name, clock: { minutes: 2 / 60, increment: 0 },
  });
  const page = black.page;
  await page.goto(`/games/${id}`);
  await expect(page.locator('#game')).toHaveAttribute('data-status', 'active');
  await showsPly(page, 0);

  for (const [p, move, ply] of [[white, 'e4', 0], [black, 'e5', 1]] as const) {
    const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action: move, ply } });
    expect(reply.status(), await reply.text()).toBe(200);
  }
  // The page follows the moves live; White's clock runs from Black's move on.
  await showsPly(page, 2);
  await expect(page.locator('#clock-white')).toHaveClass(/running/);

  await expect(page.locator('#status')).toHaveText('0-1 white lost on time', { timeout: 6000 });
  await expect(page.locator('#game')).toHaveAttribute('data-status', 'over');
  await expect(page.locator('#clock-white')).not.toHaveClass(/running/);
  await expect(page.locator('#clock-black')).not.toHaveClass(/running/);
  await expect(page.locator('#clock-white .clock-time')).toHaveText('0:00.0');
  // Stopped: the clocks read the same a moment later.
  const shown = [await page.locator('#clock-white').textContent(), await page.locator('#clock-black').textContent()];
  await page.waitForTimeout(500);
  await expect(page.locator('#clock-white')).toHaveText(shown[0] ?? '');
  await expect(page.locator('#clock-black')).toHaveText(shown[1] ?? '');
  expect(errors).toEqual([]);
});
