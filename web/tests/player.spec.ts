// SPDX-License-Identifier: GPL-3.0-or-later
//
// Players' pages and the archive (issue 29): a visitor opens a player's page (/@/name) and sees the
// name, member since, the counts per variant, the game in play and the finished games, filtered and
// paged; at a phone's width and a desktop's, in the light and the dark theme, nothing scrolls sideways
// and axe-core finds no serious violation. A finished game's page, for a visitor, has its record, its
// timelines, the analysis board and the PGN, score sheets and Game Courier downloads; the players'
// names lead to their pages. Deleting an account takes two steps and the password; then the player's
// page is gone and their games show "deleted".
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeContexts, createGame, newPlayer, openContext, watchConsole, type Player } from './helpers';

test.afterEach(closeContexts);

async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply, reply: 'brief' } });
  expect(reply.status(), await reply.text()).toBe(200);
}

async function checkLayout(page: Page, what: string): Promise<void> {
  const found: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
    if (!fits) found.push(`${width} px: the page scrolls sideways`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await new AxeBuilder({ page }).analyze();
      for (const v of results.violations.filter(x => x.impact === 'serious' || x.impact === 'critical'))
        found.push(`${colorScheme} ${width} px: ${v.id} ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
    }
  }
  expect(found, what).toEqual([]);
}

test('a player\'s page, seen by a visitor: counts, games in play, finished games filtered', async ({ browser }) => {
  const errors: string[] = [];
  const ann = await newPlayer(browser, 'ann', errors);
  const bob = await newPlayer(browser, 'bob', errors);
  // Ann wins one chess game and loses one Gifford game; a third is being played.
  const won = await createGame(ann, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });
  await act(ann, won, 'e4', 0);
  await act(bob, won, 'resign', 1);
  const lost = await createGame(ann, { variant: 'gifford', color: 'white', opponent: bob.name, days_per_move: 3 });
  await act(ann, lost, 'resign', 0);
  const playing = await createGame(ann, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });

  const visitor = await (await openContext(browser)).newPage();
  watchConsole(visitor, errors);
  await visitor.goto(`/@/${ann.name}`);
  await expect(visitor.locator('#player-name')).toHaveText(ann.name);
  await expect(visitor.locator('#player-since')).toContainText('Member since');
  await expect(visitor.locator('#player-ratings')).toHaveCount(1);
  const chess = visitor.locator('#player-stats-table tr[data-variant="chess"] td');
  await expect(chess).toHaveText(['1', '1', '0', '0']);
  await expect(visitor.locator('#player-stats-table tr[data-variant="gifford"] td')).toHaveText(['1', '0', '0', '1']);
  await expect(visitor.locator(`#player-current-list [data-id="${playing}"]`)).toBeVisible();
  const rows = visitor.locator('#player-game-list .player-game');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-id', lost);
  await expect(rows.nth(0)).toContainText('Lost');
  await expect(rows.nth(1)).toContainText('Won');
  await expect(visitor.locator('#player-pgn')).toHaveAttribute('href', `/api/users/${ann.name}/games.pgn`);
  await checkLayout(visitor, 'the player\'s page');

  await visitor.locator('#filter-result').selectOption('won');
  await visitor.locator('#filter-apply').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toHaveAttribute('data-id', won);
  await visitor.locator('#filter-result').selectOption('');
  await visitor.locator('#filter-opponent').fill('nobody-at-all');
  await visitor.locator('#filter-apply').click();
  await expect(visitor.locator('#player-games-error')).toContainText('opponent');

  // The opponent's name leads to their page.
  await visitor.locator('#filter-opponent').fill('');
  await visitor.locator('#filter-apply').click();
  await rows.nth(0).locator('.player-link').click();
  await expect(visitor).toHaveURL(new RegExp(`/@/${bob.name}$`));
  await expect(visitor.locator('#player-name')).toHaveText(bob.name);
  await visitor.goto('/@/no-such-player-here');
  await expect(visitor.locator('#player-missing')).toContainText('No such player');
  expect(errors).toEqual([]);
});

test('the finished games come 20 at a time, "More games" loads the next', async ({ browser }) => {
  const errors: string[] = [];
  const ann = await newPlayer(browser, 'many', errors);
  const bob = await newPlayer(browser, 'more', errors);
  for (let i = 0; i < 21; i++) {
    const id = await createGame(ann, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });
    await act(bob, id, 'resign', 0);
  }
  const page = (await (await openContext(browser)).newPage());
  watchConsole(page, errors);
  await page.goto(`/@/${ann.name}`);
  const rows = page.locator('#player-game-list .player-game');
  await expect(rows).toHaveCount(20);
  await page.locator('#player-more').click();
  await expect(rows).toHaveCount(21);
  await expect(page.locator('#player-more')).toBeHidden();
  const ids = await rows.evaluateAll(els => els.map(e => e.getAttribute('data-id')));
  expect(new Set(ids).size).toBe(21);
  expect(errors).toEqual([]);
});

test('a finished game\'s page is its archive: record, timelines, analysis, downloads, names linked', async ({ browser }) => {
  const errors: string[] = [];
  const ann = await newPlayer(browser, 'arch', errors);
  const bob = await newPlayer(browser, 'ive', errors);
  const id = await createGame(ann, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });
  await act(ann, id, 'e4', 0);
  await act(bob, id, 'e5', 1);
  await act(ann, id, 'resign', 2);

  const visitor = await (await openContext(browser)).newPage();
  watchConsole(visitor, errors);
  await visitor.goto(`/games/${id}`);
  await expect(visitor.locator('#game')).toHaveAttribute('data-status', 'over');
  await expect(visitor.locator('#move-list')).toContainText('e5');
  await expect(visitor.locator('#timelines')).toBeVisible();
  await expect(visitor.locator('#analyse-here')).toBeVisible();
  for (const [link, path] of [['#pgn-link', 'pgn'], ['#sheets-link', 'sheets'], ['#gc-link', 'gc']]) {
    await expect(visitor.locator(link)).toHaveAttribute('href', `/api/games/${id}/${path}`);
    const reply = await visitor.request.get(`/api/games/${id}/${path}`);
    expect(reply.status(), `${path}: ${await reply.text()}`).toBe(200);
  }
  await visitor.locator('.white-name .player-link').click();
  await expect(visitor).toHaveURL(new RegExp(`/@/${ann.name}$`));
  expect(errors).toEqual([]);
});

test('deleting an account: two steps and the password; the page gone, the games kept with "deleted"', async ({ browser }) => {
  const errors: string[] = [];
  const ann = await newPlayer(browser, 'del', errors);
  const bob = await newPlayer(browser, 'keep', errors);
  const id = await createGame(ann, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });
  await act(ann, id, 'resign', 0);
  const page = ann.page;
  await page.goto('/account');
  await expect(page.locator('#delete-form')).toBeHidden();
  await page.locator('#delete-open').click();
  await expect(page.locator('#delete-warning')).toContainText('cannot be undone');
  await page.locator('#delete-password').fill('wrong password');
  await page.locator('#delete-confirm').click();
  await expect(page.locator('#delete-error')).toContainText('wrong password');
  await page.locator('#delete-password').fill('password-' + ann.name);
  await page.locator('#delete-confirm').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('#logout')).toHaveCount(0);
  const login = await page.request.post('/api/login', { data: { name: ann.name, password: 'password-' + ann.name } });
  expect(login.status()).toBe(401);
  await page.goto(`/@/${bob.name}`);
  const row = page.locator(`#player-game-list [data-id="${id}"]`);
  await expect(row).toContainText('vs deleted');
  await expect(row.locator('.player-link')).toHaveCount(0);
  await page.goto(`/@/${ann.name}`);
  await expect(page.locator('#player-missing')).toContainText('No such player');
  expect(errors).toEqual([]);
});
