// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page of every variant, a few actions into a game, as
// docs/images/ keeps it for the README (make screenshots).  Skipped in
// make test: a picture is for people to look at, not a test.
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, newPlayer, showsPly } from './helpers';

test.afterEach(closeContexts);

const SHOTS = process.env.TTCHESS_SCREENSHOTS;

// Each variant a few actions in, with its own kind of time travel made: Gifford's bishop sent
// forward and arrived and a king gone back (timeline 2), van Gog's bishop arrived from the future,
// Time Traveler's pawn exploded, Chessgi's queen taken into the pocket and a bishop dropped.
const GAMES: { variant: string; actions: string[] }[] = [
  { variant: 'chess', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6'] },
  { variant: 'gifford', actions: ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5', 'Ke1<3@e3'] },
  { variant: 'vangog', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Be2-c4*', 'Nf6'] },
  { variant: 'travelers', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'd4/d5', 'Nf6'] },
  { variant: 'chessgi', actions: ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe6+', 'Be2', 'Qxe2+', 'Ngxe2', 'B@b4'] },
];

/* A desktop's window and a phone's: the README shows both of every variant. */
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const g of GAMES) {
  test(`screenshot: ${g.variant}`, async ({ browser }) => {
    test.skip(!SHOTS, 'screenshots are taken by make screenshots');
    const errors: string[] = [];
    const white = await newPlayer(browser, 'white', errors);
    const black = await newPlayer(browser, 'black', errors);
    const id = await createGame(white, { variant: g.variant, color: 'white', opponent: black.name, clock: { minutes: 10, increment: 5 } });
    // The actions through the API, as the players' pages would send them.
    for (let i = 0; i < g.actions.length; i++) {
      const p = i % 2 === 0 ? white : black;
      const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action: g.actions[i], ply: i } });
      expect(reply.status(), `${g.actions[i]}: ${await reply.text()}`).toBe(200);
    }
    await black.context.request.post(`/api/games/${id}/kibitz`, { data: { text: 'A fine game!' } });
    for (const size of SIZES) {
      await white.page.setViewportSize(size);
      await white.page.goto(`/games/${id}`);
      await showsPly(white.page, g.actions.length);
      await white.page.waitForTimeout(500);
      await white.page.screenshot({ path: `${SHOTS}/game-${g.variant}-${size.width}.png` });
    }
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
