// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page of every variant, a few actions into a game, as
// docs/images/ keeps it for the README (make screenshots).  Skipped in
// make test: a picture is for people to look at, not a test.
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, newPlayer, showsPly, typeAction } from './helpers';

test.afterEach(closeContexts);

const SHOTS = process.env.TTCHESS_SCREENSHOTS;

const GAMES: { variant: string; actions: string[] }[] = [
  { variant: 'gifford', actions: ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5', 'Ke1<3@e3'] },
  { variant: 'vangog', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Be2-c4*', 'Nf6'] },
  { variant: 'travelers', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'd4/d5', 'Nf6'] },
  { variant: 'chessgi', actions: ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe6+', 'Be2', 'Qxe2+', 'Ngxe2', 'B@b4'] },
];

for (const g of GAMES) {
  test(`screenshot: ${g.variant}`, async ({ browser }) => {
    test.skip(!SHOTS, 'screenshots are taken by make screenshots');
    const errors: string[] = [];
    const white = await newPlayer(browser, 'white', errors);
    const black = await newPlayer(browser, 'black', errors);
    const id = await createGame(white, { variant: g.variant, color: 'white', opponent: black.name });
    await white.page.goto(`/games/${id}`);
    await black.page.goto(`/games/${id}`);
    for (let i = 0; i < g.actions.length; i++) {
      const p = i % 2 === 0 ? white : black;
      await typeAction(p.page, g.actions[i]);
      await showsPly(white.page, i + 1);
    }
    await white.page.locator('#kibitz-text').fill('A fine game!');
    await white.page.locator('#kibitz-send').click();
    await white.page.waitForTimeout(500);
    await white.page.screenshot({ path: `${SHOTS}/${g.variant}.png`, fullPage: true });
  });
}

// The analysis board after a Gifford opening with a king gone back, the engine's lines beside it,
// and the board editor with a Time Traveler's position (pieces marked traveling and traveled), at a
// desktop's width: the README shows both.
test('screenshot: analysis board', async ({ browser }) => {
  test.skip(!SHOTS, 'screenshots are taken by make screenshots');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const moves = 'e4 e5 Bf1>4 Nc6 Nf3 Nf6 B@c4 Bc5 Ke1<3@e3';
  await page.goto(`/analysis?variant=gifford&moves=${encodeURIComponent(moves)}`);
  await expect.poll(async () => Number(await page.locator('#analysis').getAttribute('data-depth')), {
    timeout: 120_000,
  }).toBeGreaterThanOrEqual(7);
  await page.screenshot({ path: `${SHOTS}/analysis.png` });
  await page.close();
});

test('screenshot: board editor', async ({ browser }) => {
  test.skip(!SHOTS, 'screenshots are taken by make screenshots');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const fen = 'r1bqkb1r/pppp1ppp/2n2n2/3P"p3/2BP\'P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 2 4 d2:1 Pd4:1 -';
  await page.goto(`/editor?variant=travelers&fen=${encodeURIComponent(fen)}`);
  await expect(page.locator('#editor-board cg-board piece').first()).toBeAttached();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/editor.png` });
  await page.close();
});
