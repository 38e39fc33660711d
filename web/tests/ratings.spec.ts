// SPDX-License-Identifier: GPL-3.0-or-later
//
// The leaderboards page (/leaderboard, issue 29): three players play 24
// rated correspondence games through the API until their ratings are no
// longer provisional; the page lists them best first, each name a link to
// the player's page, with the header's link to it; the chooser changes
// the board (live: nobody yet); at 390 and 1280 px, in the light and the
// dark theme, nothing scrolls sideways and axe-core finds no serious or
// critical violation.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeContexts, createGame, newPlayer, screenshot, type Player } from './helpers';

test.afterEach(closeContexts);

async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply } });
  expect(reply.status(), await reply.text()).toBe(200);
}

/* A rated chess game by correspondence: two moves, then a resignation by
 * Black (score 1) or a draw agreed (0.5). */
async function play(white: Player, black: Player, score: number): Promise<void> {
  const id = await createGame(white, { variant: 'chess', opponent: black.name, color: 'white' });
  await act(white, id, 'e4', 0);
  await act(black, id, 'e5', 1);
  if (score === 1) {
    await act(black, id, 'resign', 2);
  } else {
    await act(white, id, 'offer-draw', 2);
    await act(black, id, 'accept-draw', 2);
  }
}

async function serious(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .flatMap(v => v.nodes.map(n => `${label}: ${v.id} ${n.target.join(' ')}`));
}

test('the leaderboard lists the players no longer provisional, best first, and fits a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const [a, b, c] = [await newPlayer(browser, 'lba', errors), await newPlayer(browser, 'lbb', errors),
    await newPlayer(browser, 'lbc', errors)];
  // a: 2.5 of 4 a round, b: 2, c: 1.5 (tests/ratings-test.sh's plan).
  for (let round = 0; round < 4; round++) {
    await play(a, b, 1);
    await play(a, b, 0.5);
    await play(b, c, 1);
    await play(b, c, 0.5);
    await play(a, c, 0.5);
    await play(c, a, 0.5);
  }
  const page = a.page;
  await page.goto('/');
  await page.locator('#leaderboard-link').click();
  await expect(page).toHaveURL(/\/leaderboard/);
  await page.locator('#leaderboard-variant').selectOption('chess');
  await page.locator('#leaderboard-speed').selectOption('correspondence');
  const names = page.locator('#leaderboard-table .leaderboard-name');
  await expect(names.filter({ hasText: a.name })).toHaveCount(1);
  const listed = await names.allTextContents();
  const ours = listed.filter(n => [a.name, b.name, c.name].includes(n));
  expect(ours).toEqual([a.name, b.name, c.name]);
  await expect(names.filter({ hasText: a.name })).toHaveAttribute('href', `/@/${a.name}`);
  const found: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    await screenshot(page, `leaderboard-${width}`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      found.push(...await serious(page, `${colorScheme} ${width} px`));
    }
  }
  expect(found).toEqual([]);
  // The player's page, reached from the board: the rating (no longer provisional), its history
  // drawn as a chart of the 16 games, and the rated filter of the games.
  await page.locator('#leaderboard-speed').selectOption('correspondence');
  await names.filter({ hasText: a.name }).click();
  await expect(page).toHaveURL(new RegExp(`/@/${a.name}$`));
  const row = page.locator('#player-ratings-table tr[data-variant="chess"][data-speed="correspondence"]');
  await expect(row.locator('.rating-value')).toHaveText(/^\d{4}$/);
  await expect(row.locator('.rating-games')).toHaveText('16');
  await expect(page.locator('#rating-chart-box svg.rating-chart')).toHaveAttribute('aria-label', /16 games, from \d+ to \d+/);
  await expect(page.locator('#rating-chart-box path.rating-line')).toHaveCount(1);
  await page.locator('#filter-rated').selectOption('false');
  await page.locator('#filter-apply').click();
  await expect(page.locator('#player-game-list')).toHaveText('No games.');
  await page.locator('#filter-rated').selectOption('true');
  await page.locator('#filter-apply').click();
  await expect(page.locator('#player-game-list .player-game')).toHaveCount(16);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, `player-ratings-${width}`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      found.push(...await serious(page, `player page ${colorScheme} ${width} px`));
    }
  }
  expect(found).toEqual([]);
  await page.goto('/leaderboard');
  await page.locator('#leaderboard-speed').selectOption('live');
  await expect(page).toHaveURL(/speed=live/);
  await expect(page.locator('#leaderboard-table, #leaderboard-empty')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a game page shows the players’ ratings beside their names, provisional with a ?', async ({ browser }) => {
  const errors: string[] = [];
  const [p, q] = [await newPlayer(browser, 'rtp', errors), await newPlayer(browser, 'rtq', errors)];
  const id = await createGame(p, { variant: 'chess', opponent: q.name, color: 'white' });
  await p.page.goto(`/games/${id}`);
  await expect(p.page.locator('.white-name')).toHaveText(`White: ${p.name} (1500?)`);
  await expect(p.page.locator('.black-name')).toHaveText(`Black: ${q.name} (1500?)`);
  await expect(p.page.locator('.rated')).toHaveText(' · rated');
  const casual = await createGame(q, { variant: 'chess', opponent: p.name, rated: false });
  await q.page.goto(`/games/${casual}`);
  await expect(q.page.locator('.rated')).toHaveText(' · casual');
  // The lobby's form: rated by default, and no such choice against the engine.
  await p.page.goto('/');
  await expect(p.page.locator('#rated')).toBeChecked();
  await p.page.locator('#opponent-kind').selectOption('engine');
  await expect(p.page.locator('#rated')).toBeHidden();
  expect(errors).toEqual([]);
});
