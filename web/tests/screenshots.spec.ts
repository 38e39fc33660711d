// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page of every variant, a few actions into a game, as
// docs/images/ keeps it for the README (make screenshots).  Skipped in
// make test: a picture is for people to look at, not a test.
import { test } from '@playwright/test';
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
