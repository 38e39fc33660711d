// SPDX-License-Identifier: GPL-3.0-or-later
//
// The lobby: logging in, a correspondence game listed as "your move" for
// the player to move and not for the other, a live game for anyone with
// the link, joined by a second player through it.
import { test, expect } from '@playwright/test';
import { closeContexts, createGame, createInLobby, newPlayer, showsPly, typeAction } from './helpers';

test.afterEach(closeContexts);

test('log in, correspondence games listed "your move" first, an invitation link', async ({ browser }) => {
  const errors: string[] = [];
  const dora = await newPlayer(browser, 'dora', errors);
  const emil = await newPlayer(browser, 'emil', errors);

  // Logging out and in again through the page.
  await dora.page.goto('/');
  await dora.page.locator('#logout').click();
  await dora.page.locator('#login-name').fill(dora.name);
  await dora.page.locator('#login-password').fill('wrong password');
  await dora.page.locator('#login-button').click();
  await expect(dora.page.locator('#login-error')).not.toBeEmpty();
  await dora.page.locator('#login-password').fill('password-' + dora.name);
  await dora.page.locator('#login-button').click();
  await expect(dora.page.locator('#new-game')).toBeVisible();

  // Dora creates a correspondence game in the lobby, Black against Emil,
  // and one where she is White (so it is her move).
  const theirs = await createInLobby(dora.page, {
    variant: 'vangog', color: 'black', time: { days: 5 }, opponent: { player: emil.name },
  });
  const mine = await createGame(dora, { variant: 'chessgi', color: 'white', days_per_move: 3, opponent: emil.name });

  await emil.page.goto('/');
  const emilRow = emil.page.locator(`#my-games .game-row[data-id="${theirs}"]`);
  await expect(emilRow).toHaveClass(/your-move/);
  await expect(emilRow).toContainText('your move');
  await expect(emil.page.locator(`#my-games .game-row[data-id="${mine}"]`)).not.toHaveClass(/your-move/);
  // "Your move" games come first.
  await expect(emil.page.locator('#my-games .game-row').first()).toHaveAttribute('data-id', theirs);

  await dora.page.goto('/');
  await expect(dora.page.locator(`#my-games .game-row[data-id="${mine}"]`)).toHaveClass(/your-move/);
  await expect(dora.page.locator(`#my-games .game-row[data-id="${theirs}"]`)).not.toHaveClass(/your-move/);

  // Emil moves in the correspondence game: it is then Dora's move.
  await emil.page.goto(`/games/${theirs}`);
  await typeAction(emil.page, 'd4');
  await showsPly(emil.page, 1);
  await dora.page.goto('/');
  await expect(dora.page.locator(`#my-games .game-row[data-id="${theirs}"]`)).toHaveClass(/your-move/);

  // A live game for anyone with the link.
  await createInLobby(dora.page, {
    variant: 'travelers', color: 'white', time: { minutes: 10, increment: 5 }, opponent: 'link',
  });
  const link = dora.page.locator('#invite-link');
  await expect(link).toBeVisible();
  const url = (await link.getAttribute('href')) ?? (await link.inputValue());
  expect(url).toContain('invite=');
  const fred = await newPlayer(browser, 'fred', errors);
  await fred.page.goto(url);
  await fred.page.locator('#join').click();
  await expect(fred.page.locator('#game')).toHaveAttribute('data-you', 'black');
  await expect(fred.page.locator('#game')).toHaveAttribute('data-status', 'active');
  await expect(fred.page.locator('#clock-white')).toContainText('10:00');

  expect(errors).toEqual([]);
});
