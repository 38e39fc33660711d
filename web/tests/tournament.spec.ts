// SPDX-License-Identifier: GPL-3.0-or-later
//
// The tournaments' pages (issue 29): a player creates an arena with the form of /tournaments and
// lands on its page; another joins; the arena starts and pairs them, the game is linked from the
// page; the game ends and the standings change live, from the stream, without a reload; the time
// left counts down. Both pages fit a phone's width (390 px) and a desktop's (1280) without
// scrolling sideways, and axe-core finds no serious or critical violation in either theme.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeContexts, newPlayer, screenshot } from './helpers';

test.afterEach(closeContexts);

async function fitsAndAccessible(page: Page, what: string): Promise<void> {
  const found: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
    if (!fits) found.push(`${what} at ${width} px scrolls sideways`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // Also checks that no element is wider than the window.
      await screenshot(page, `${what.replace(/\W+/g, '-')}-${width}-${colorScheme}`);
      const results = await new AxeBuilder({ page }).analyze();
      found.push(...results.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .flatMap(v => v.nodes.map(n => `${what} ${colorScheme} ${width}: ${v.id} ${n.target.join(' ')}`)));
    }
  }
  expect(found).toEqual([]);
}

test('an arena created, joined, paired and scored live', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'talice', errors);
  const bob = await newPlayer(browser, 'tbob', errors);
  const page = alice.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.locator('#tournaments-link').click();
  await expect(page.locator('#tournament-form')).toBeVisible();
  await expect(page.locator('#t-variant option').first()).toBeAttached();
  await page.locator('#t-name').fill('Playwright arena');
  await page.locator('#t-starts').fill('0');
  await page.locator('#t-minutes').fill('5');
  await fitsAndAccessible(page, 'the tournaments page');
  await page.locator('#t-create').click();
  await expect(page).toHaveURL(/\/tournaments\/\d+$/);
  const id = /\/tournaments\/(\d+)$/.exec(page.url())![1];
  await expect(page.locator('#tournament-title')).toHaveText('Playwright arena');
  await expect(page.locator('#tournament-action')).toHaveText('Withdraw');

  const joined = await bob.context.request.post(`/api/tournaments/${id}/join`, { data: {} });
  expect(joined.status(), await joined.text()).toBe(200);
  // The stream brings bob to the standings, and the pairing gives a game, linked.
  await expect(page.locator('#standings')).toContainText(bob.name);
  const link = page.locator('.tournament-game').first();
  await expect(link).toBeVisible();
  await expect(page.locator('#tournament-clock')).toContainText('left');
  const game = (await link.getAttribute('href'))!.split('/').pop()!;
  const resign = await bob.context.request.post(`/api/games/${game}/actions`, { data: { action: 'resign', ply: 0 } });
  expect(resign.status(), await resign.text()).toBe(200);
  // The game's end reaches the standings without a reload: alice 2 points, her sheet "W".
  const first = page.locator('#standings tbody tr').first();
  await expect(first).toContainText(alice.name);
  await expect(first.locator('.score')).toHaveText('2');
  await expect(first.locator('.sheet')).toHaveText('W');
  await fitsAndAccessible(page, 'the arena page');

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/games/${game}$`));
  await page.goto('/tournaments');
  await expect(page.locator('#running')).toContainText('Playwright arena');
  expect(errors).toEqual([]);
});
