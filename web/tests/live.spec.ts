// SPDX-License-Identifier: GPL-3.0-or-later
//
// Live play as on lichess (issue 27, item 5), at phone and desktop size: the clocks beside the board
// on each player's side, swapped when the board is turned; the sounds of a move, a capture, a check
// and a time travel (their names, which the page writes down, not their audio), and the mute switch
// remembered; the king in check highlighted; the tab's title on the player's move; a game ended by
// resignation showing the banner with its reason in words, and a rematch offered and accepted, both
// pages going to the new game with the colours swapped. Then the low-time warning of a short clock,
// and "Next game" in correspondence.
import { test, expect, type Page } from '@playwright/test';
import { closeContexts, createGame, newPlayer, showsPly, type Player } from './helpers';

test.afterEach(closeContexts);

async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply } });
  expect(reply.status(), await reply.text()).toBe(200);
}

/* A screenshot for people to look at (web/test-results/screens). The page's width on a phone is the
 * board's and the layout's (issue 27, item 1): here only the clocks and the banner are checked, to
 * stay within the board's column. */
async function shot(page: Page, name: string): Promise<void> {
  // On a phone the board's column is `display: contents` (its parts stack in the page): the page's column then.
  const column = await page.locator('.board-col').boundingBox() ?? await page.locator('.game-main').boundingBox();
  for (const sel of ['.clock-top', '.clock-bottom', '#end-banner:visible']) {
    for (const box of await page.locator(sel).evaluateAll(els => els.map(e => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left, `${name}: ${sel}`).toBeGreaterThanOrEqual(column!.x - 0.5);
      expect(box.right, `${name}: ${sel}`).toBeLessThanOrEqual(column!.x + column!.width + 0.5);
    }
  }
  await page.screenshot({ path: `${process.env.TTCHESS_SHOTS ?? 'test-results/screens'}/${name}.png`, fullPage: true });
}

async function lastSound(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.body.dataset.lastSound);
}

for (const [label, width, height] of [['phone', 390, 844], ['desktop', 1280, 900]] as const) {
  test(`live comforts, a resignation and a rematch (${label})`, async ({ browser }) => {
    const errors: string[] = [];
    const white = await newPlayer(browser, 'livew', errors);
    const black = await newPlayer(browser, 'liveb', errors);
    for (const p of [white, black]) await p.page.setViewportSize({ width, height });
    const id = await createGame(white, {
      variant: 'gifford', color: 'white', opponent: black.name, clock: { minutes: 10, increment: 5 },
    });
    await white.page.goto(`/games/${id}`);
    await black.page.goto(`/games/${id}`);
    for (const p of [white, black]) await showsPly(p.page, 0);

    // Each player's clock on their own side: White's page has White's clock below the board.
    const wp = white.page;
    await expect(wp.locator('.clock-bottom #clock-white')).toBeVisible();
    await expect(wp.locator('.clock-top #clock-black')).toBeVisible();
    await expect(black.page.locator('.clock-bottom #clock-black')).toBeVisible();
    const boardBox = await wp.locator('#board').boundingBox();
    const bottomBox = await wp.locator('#clock-white').boundingBox();
    expect(bottomBox!.y).toBeGreaterThan(boardBox!.y + boardBox!.height - 1);
    await expect(wp).toHaveTitle('• Your move — ttchess');
    await expect(black.page).not.toHaveTitle(/Your move/);

    // The moves and their sounds, as Black's page hears them.
    const bp = black.page;
    await act(white, id, 'e4', 0);
    await showsPly(bp, 1);
    expect(await lastSound(bp)).toBe('move');
    await expect(bp).toHaveTitle('• Your move — ttchess');
    await expect(wp).not.toHaveTitle(/Your move/);
    await expect(bp.locator('#clock-white')).not.toHaveClass(/running/);
    await expect(bp.locator('#clock-black')).toHaveClass(/running/);
    await act(black, id, 'd5', 1);
    await act(white, id, 'exd5', 2);
    await showsPly(bp, 3);
    expect(await lastSound(bp)).toBe('capture');
    await act(black, id, 'e6', 3);
    await act(white, id, 'Bb5+', 4);
    await showsPly(bp, 5);
    expect(await lastSound(bp)).toBe('check');
    // The king in check is highlighted on the board.
    await expect(bp.locator('#board square.check')).toHaveCount(1);
    await shot(bp, `live-${label}-check`);
    await act(black, id, 'c6', 5);
    await showsPly(wp, 6);
    await expect(wp.locator('#board square.check')).toHaveCount(0);
    await act(white, id, 'd1>6', 6);
    await showsPly(bp, 7);
    expect(await lastSound(bp)).toBe('travel');

    // The mute switch, remembered across a reload; the sounds' names are still written down.
    await expect(wp.locator('#sound-toggle')).toHaveText(/Sound on/);
    await wp.locator('#sound-toggle').click();
    await expect(wp.locator('#sound-toggle')).toHaveText(/Sound off/);
    await wp.reload();
    await showsPly(wp, 7);
    await expect(wp.locator('#sound-toggle')).toHaveText(/Sound off/);
    await expect(wp.locator('#sound-toggle')).toHaveAttribute('aria-pressed', 'false');

    // Turning the board swaps the clocks.
    await wp.locator('#opt-orientation').selectOption('flip');
    await expect(wp.locator('.clock-top #clock-white')).toBeVisible();
    await expect(wp.locator('.clock-bottom #clock-black')).toBeVisible();
    await wp.locator('#opt-orientation').selectOption('auto');
    await expect(wp.locator('.clock-bottom #clock-white')).toBeVisible();
    await shot(bp, `live-${label}-playing`);

    // Black resigns on the page: both pages show the banner with the reason in words.
    bp.once('dialog', d => void d.accept());
    await bp.locator('#resign').click();
    for (const p of [wp, bp]) {
      await expect(p.locator('#end-banner')).toBeVisible();
      await expect(p.locator('#end-result')).toHaveText('Black resigned — White wins');
      await expect(p.locator('#clock-white')).not.toHaveClass(/running/);
    }
    await expect(bp).not.toHaveTitle(/Your move/);

    // White offers a rematch; Black is told at once and accepts; both pages go to the new game.
    await wp.locator('#rematch').click();
    await expect(wp.locator('#rematch-state')).toHaveText(/waiting for your opponent/);
    await expect(bp.locator('#rematch-state')).toHaveText(/offers a rematch/);
    await shot(bp, `live-${label}-rematch-offered`);
    await bp.locator('#rematch-accept').click();
    for (const p of [wp, bp]) await expect(p).not.toHaveURL(new RegExp(`/games/${id}$`));
    await expect(bp).toHaveURL(new RegExp(`/games/[0-9a-f]{16}$`));
    const next = new URL(bp.url()).pathname;
    await expect(wp).toHaveURL(new RegExp(`${next}$`));
    await expect(wp.locator('#game')).toHaveAttribute('data-you', 'black');
    await expect(bp.locator('#game')).toHaveAttribute('data-you', 'white');
    await expect(bp.locator('#game')).toHaveAttribute('data-status', 'active');
    await expect(bp.locator('.variant-name')).toContainText('gifford');
    await expect(bp.locator('.clock-bottom #clock-white .clock-time')).toHaveText('10:00');
    await expect(bp).toHaveTitle('• Your move — ttchess');
    expect(errors).toEqual([]);
  });
}

test('a low clock turns red and sounds once; correspondence offers the next game', async ({ browser }) => {
  const errors: string[] = [];
  const white = await newPlayer(browser, 'loww', errors);
  const black = await newPlayer(browser, 'lowb', errors);
  // Three seconds: the warning comes at a tenth of it, 0.3 s before White's flag.
  const id = await createGame(white, { variant: 'chess', color: 'white', opponent: black.name, clock: { minutes: 3 / 60, increment: 0 } });
  const page = white.page;
  await page.goto(`/games/${id}`);
  await showsPly(page, 0);
  await act(white, id, 'e4', 0);
  await act(black, id, 'e5', 1);
  await showsPly(page, 2);
  await expect(page.locator('#end-result')).toHaveText('White lost on time — Black wins', { timeout: 8000 });
  const sounds = await page.evaluate(() => window.ttchessSounds ?? []);
  expect(sounds.filter(s => s === 'low-time')).toEqual(['low-time']);

  // Two correspondence games: in the first White has moved, in the second it is White's move.
  const waiting = await createGame(white, { variant: 'chess', color: 'white', opponent: black.name, days_per_move: 3 });
  const mine = await createGame(white, { variant: 'gifford', color: 'white', opponent: black.name, days_per_move: 3 });
  await act(white, waiting, 'e4', 0);
  await page.goto(`/games/${waiting}`);
  await showsPly(page, 1);
  await expect(page.locator('#clock-black')).toContainText('moves by');
  await page.locator('#next-game').click();
  await expect(page).toHaveURL(new RegExp(`/games/${mine}$`));
  await showsPly(page, 0);
  await expect(page).toHaveTitle('• Your move — ttchess');
  expect(errors).toEqual([]);
});
