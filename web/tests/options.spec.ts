// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rendering options of the game page (seed 001's: orientation, scale,
// piece sets, board colours, a text diagram), remembered across a reload;
// the record and diagram links; "new game from this position".
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, expectBoard, expectTextDiagram, newPlayer, showsPly, typeAction } from './helpers';

test.afterEach(closeContexts);

test('rendering options, records, and a new game from a position', async ({ browser }) => {
  const errors: string[] = [];
  const hana = await newPlayer(browser, 'hana', errors);
  const ivan = await newPlayer(browser, 'ivan', errors);
  const id = await createGame(hana, { variant: 'chessgi', color: 'white', opponent: ivan.name });
  await hana.page.goto(`/games/${id}`);
  await typeAction(hana.page, 'e4');
  await showsPly(hana.page, 1);
  await ivan.page.goto(`/games/${id}`);
  await typeAction(ivan.page, 'd5');
  await showsPly(ivan.page, 2);
  await typeAction(hana.page, 'exd5');
  await showsPly(hana.page, 3);

  // After 1. e4 d5 2. exd5 the board shows the white pawn on d5, and
  // e2, e4 and d7 empty.
  const afterExd5 = { d5: 'P', e4: '.', e2: '.', d7: '.', e7: 'p', d2: 'P', e1: 'K', d8: 'q' };
  await expectBoard(hana.page, afterExd5);

  const page = hana.page;
  const board = page.locator('#board');
  const before = await board.boundingBox();

  await page.locator('#opt-orientation').selectOption('black');
  await expect(page.locator('#board .cg-wrap, #board.cg-wrap').first()).toHaveClass(/orientation-black/);
  // Black's side at the bottom: the same position read the other way up.
  await expectBoard(page, afterExd5, 'black');
  await page.locator('#opt-pieces').selectOption('glyphs');
  await page.locator('#opt-colors').selectOption('green');
  await page.locator('#opt-scale').fill('80');
  await page.locator('#opt-scale').dispatchEvent('change');
  const after = await board.boundingBox();
  expect(after!.width).toBeLessThan(before!.width);

  // The text diagram shows the board as text, the pocket with it.
  await page.locator('#opt-text').check();
  await expect(page.locator('#text-diagram')).toBeVisible();
  await expect(page.locator('#text-diagram')).toContainText('P');
  await expectTextDiagram(page, afterExd5);
  // Seen from Black, rank 1 comes first and the files run h to a.
  await expect(page.locator('#text-diagram')).toHaveText(/^1 /);

  // The options are remembered.
  await page.reload();
  await showsPly(page, 3);
  await expect(page.locator('#opt-pieces')).toHaveValue('glyphs');
  await expect(page.locator('#opt-colors')).toHaveValue('green');
  await expect(page.locator('#opt-orientation')).toHaveValue('black');
  await expectBoard(page, afterExd5, 'black');
  await expectTextDiagram(page, afterExd5);

  // The records and the diagram of the position.
  for (const [link, type] of [
    ['#pgn-link', 'pgn'],
    ['#sheets-link', 'text/plain'],
    ['#diagram-link', 'image/svg+xml'],
  ]) {
    const href = await page.locator(link).getAttribute('href');
    expect(href).toBeTruthy();
    const reply = await hana.context.request.get(href!);
    expect(reply.status()).toBe(200);
    expect(reply.headers()['content-type']).toContain(type);
  }

  // New game from this position: the lobby form is filled with it.
  await page.locator('#move-list li[data-ply="2"]').click();
  // The board and the text diagram show the position after 1... d5.
  const afterD5 = { e4: 'P', d5: 'p', e2: '.', d7: '.' };
  await expectBoard(page, afterD5, 'black');
  await expectTextDiagram(page, afterD5);
  await page.locator('#new-from-here').click();
  await expect(page.locator('#new-game')).toBeVisible();
  await expect(page.locator('#variant')).toHaveValue('chessgi');
  await expect(page.locator('#game-fen')).toHaveValue(/^rnbqkbnr\/ppp1pppp\/8\/3p4\/4P3/);
  await page.locator('#opponent-kind').selectOption('engine');
  await page.locator('#create-game').click();
  await expect(page).toHaveURL(/\/games\/[0-9a-f]+/);
  await expect(page.locator('#game')).toHaveAttribute('data-you', /white|black/);

  expect(errors).toEqual([]);
});
