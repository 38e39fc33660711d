// SPDX-License-Identifier: GPL-3.0-or-later
//
// The account page (/account): a personal API token is created with a
// label and shown once, with a Copy button; a script uses it
// (Authorization: Bearer, no cookie) to create a game; revoked, it is
// refused with 401. The block list, and every refusal of the API shown
// with its sentence. Screenshots at phone and desktop widths go to
// web/test-results/screens for people to look at.
import { test, expect } from '@playwright/test';
import { closeContexts, newPlayer, screenshot, smallButtons, watchConsole } from './helpers';

test.afterEach(closeContexts);

test('an API token: created, shown once, used by a script, revoked and then refused', async ({ browser, request }) => {
  const errors: string[] = [];
  const ann = await newPlayer(browser, 'ann', errors);
  await ann.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = ann.page;

  // The account page is linked from the header.
  await page.goto('/');
  await page.locator('#account-link').click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.locator('#token-list')).toContainText('No tokens yet');

  // A token needs a label.
  await page.locator('#token-create').click();
  await expect(page.locator('#token-error')).toContainText('label');

  await page.locator('#token-label').fill('my bot');
  await page.locator('#token-create').click();
  await expect(page.locator('#token-error')).toBeEmpty();
  const box = page.locator('#new-token');
  await expect(box).toBeVisible();
  await expect(box).toContainText('my bot');
  await expect(page.locator('#new-token-warning')).toContainText('will not be shown again');
  const token = (await page.locator('#new-token-value').textContent())!.trim();
  expect(token).toMatch(/^[0-9A-Za-z_-]{16,}$/);
  await page.locator('#token-copy').click();
  await expect(page.locator('#token-copied')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  const row = page.locator('#token-list .token-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('my bot');
  await expect(row).toContainText('never used');
  await screenshot(page, 'account-new-token-1280');

  // A script uses it, with no cookie: it creates a game in Ann's name.
  const created = await request.post('/api/games', {
    headers: { Authorization: `Bearer ${token}` },
    data: { variant: 'gifford', color: 'white', level: 1 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  const game = await request.get(`/api/games/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect((await game.json()).white.name).toBe(ann.name);
  // A token cannot make another token.
  const minted = await request.post('/api/tokens', { headers: { Authorization: `Bearer ${token}` }, data: { label: 'more' } });
  expect(minted.status()).toBe(403);

  // Coming back to the page, the token is listed, used, and never shown again.
  await page.reload();
  await expect(row).toContainText('last used');
  await expect(page.locator('#new-token')).toBeHidden();
  expect(await page.content()).not.toContain(token);

  // Revoking asks once more; "Keep" keeps it.
  await row.locator('button.revoke').click();
  await expect(row).toContainText('Scripts using it will be refused');
  await row.locator('button.revoke-cancel').click();
  await expect(row.locator('button.revoke')).toBeVisible();
  await row.locator('button.revoke').click();
  await row.locator('button.revoke-confirm').click();
  await expect(page.locator('#token-list .token-row')).toHaveCount(0);
  await expect(page.locator('#token-list')).toContainText('No tokens yet');

  const refused = await request.post('/api/games', {
    headers: { Authorization: `Bearer ${token}` },
    data: { variant: 'gifford', color: 'white', level: 1 },
  });
  expect(refused.status()).toBe(401);
  expect(errors).toEqual([]);
});

test('the API\'s refusals on the account page are shown with their sentences', async ({ browser }) => {
  const errors: string[] = [];
  const ben = await newPlayer(browser, 'ben', errors);
  const page = ben.page;
  await page.goto('/account');

  // Blocking: nobody of that name, oneself, then a real player, listed and removed.
  await page.locator('#block-add').click();
  await expect(page.locator('#block-error')).toContainText('Name the player');
  const nobody = await ben.context.request.post('/api/blocks', { data: { name: 'nobody-of-that-name' } });
  expect(nobody.status()).toBe(404);
  await page.locator('#block-name').fill('nobody-of-that-name');
  await page.locator('#block-add').click();
  await expect(page.locator('#block-error')).toHaveText((await nobody.json()).error as string);
  const self = await ben.context.request.post('/api/blocks', { data: { name: ben.name } });
  expect(self.status()).toBe(400);
  await page.locator('#block-name').fill(ben.name);
  await page.locator('#block-add').click();
  await expect(page.locator('#block-error')).toHaveText((await self.json()).error as string);
  const cleo = await newPlayer(browser, 'cleo', errors);
  await page.locator('#block-name').fill(cleo.name);
  await page.locator('#block-add').click();
  await expect(page.locator('#block-error')).toBeEmpty();
  await expect(page.locator(`.block-row[data-name="${cleo.name}"]`)).toBeVisible();
  await expect(page.locator('#block-name')).toHaveValue('');

  // Unblocking someone already unblocked elsewhere: the server's sentence, and the list follows.
  const gone = await ben.context.request.delete(`/api/blocks/${cleo.name}`);
  expect(gone.status()).toBe(200);
  const again = await ben.context.request.delete(`/api/blocks/${cleo.name}`);
  expect(again.status()).toBe(404);
  await page.locator(`.block-row[data-name="${cleo.name}"] button.unblock`).click();
  await expect(page.locator('#block-error')).toHaveText((await again.json()).error as string);
  await expect(page.locator('#block-list')).toContainText('You block nobody');

  // Tokens: at most 20; the 21st is refused with the server's sentence.
  for (let i = 1; i <= 20; i++) {
    const r = await ben.context.request.post('/api/tokens', { data: { label: `script ${i}` } });
    expect(r.status(), await r.text()).toBe(201);
  }
  const over = await ben.context.request.post('/api/tokens', { data: { label: 'one more' } });
  expect(over.status()).toBe(429);
  await page.reload();
  await expect(page.locator('#token-list .token-row')).toHaveCount(20);
  await page.locator('#token-label').fill('one more');
  await page.locator('#token-create').click();
  await expect(page.locator('#token-error')).toHaveText((await over.json()).error as string);
  await expect(page.locator('#new-token')).toBeHidden();

  // A token revoked from another tab: the server's sentence, and the list follows.
  const first = page.locator('#token-list .token-row').first();
  const firstId = await first.getAttribute('data-id');
  expect((await ben.context.request.delete(`/api/tokens/${firstId}`)).status()).toBe(200);
  const missing = await ben.context.request.delete(`/api/tokens/${firstId}`);
  expect(missing.status()).toBe(404);
  await first.locator('button.revoke').click();
  await page.locator(`.token-row[data-id="${firstId}"] button.revoke-confirm`).click();
  await expect(page.locator('#token-error')).toHaveText((await missing.json()).error as string);
  await expect(page.locator('#token-list .token-row')).toHaveCount(19);
  expect(errors).toEqual([]);
});

test('a visitor asking for /account logs in and comes back to it; the page\'s own requests carry their Origin', async ({ browser }) => {
  const errors: string[] = [];
  const dina = await newPlayer(browser, 'dina', errors);
  const eve = await newPlayer(browser, 'eve', errors);
  // A context of its own without the Origin header that openContext adds to every request, so that
  // the server sees only what the browser sends: its POST and DELETE requests are accepted.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    watchConsole(page, errors);
    await page.goto('/account');
    await expect(page.locator('#login-form')).toBeVisible();
    await page.locator('#login-name').fill(dina.name);
    await page.locator('#login-password').fill('password-' + dina.name);
    await page.locator('#login-button').click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator('#tokens')).toBeVisible();
    await expect(page.locator('#blocks')).toBeVisible();

    await page.locator('#token-label').fill('origin check');
    await page.locator('#token-create').click();
    await expect(page.locator('#new-token')).toBeVisible();
    await page.locator('#token-list .token-row button.revoke').click();
    await page.locator('#token-list .token-row button.revoke-confirm').click();
    await expect(page.locator('#token-list')).toContainText('No tokens yet');
    await page.locator('#block-name').fill(eve.name);
    await page.locator('#block-add').click();
    await expect(page.locator(`.block-row[data-name="${eve.name}"]`)).toBeVisible();
    await page.locator(`.block-row[data-name="${eve.name}"] button.unblock`).click();
    await expect(page.locator('#block-list')).toContainText('You block nobody');
    await expect(page.locator('#token-error')).toBeEmpty();
    await expect(page.locator('#block-error')).toBeEmpty();
  } finally {
    await context.close();
  }
  expect(errors).toEqual([]);
});

test('screenshots: the account page at 360, 390 and 1280 px', async ({ browser }) => {
  const errors: string[] = [];
  const me = await newPlayer(browser, 'Konstantin_Schachbr', errors);
  const blocked = await newPlayer(browser, 'Maximilian_vonSchach', errors);
  const other = await newPlayer(browser, 'quinn', errors);
  for (const label of ['my lichess-style bot', 'a label of 32 characters, full!']) {
    const r = await me.context.request.post('/api/tokens', { data: { label } });
    expect(r.status(), await r.text()).toBe(201);
  }
  for (const p of [blocked, other]) {
    const r = await me.context.request.post('/api/blocks', { data: { name: p.name } });
    expect(r.status(), await r.text()).toBe(201);
  }
  for (const width of [360, 390, 1280]) {
    await me.page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
    await me.page.goto('/account');
    await expect(me.page.locator('#token-list .token-row')).toHaveCount(2);
    await expect(me.page.locator('#block-list .block-row')).toHaveCount(2);
    // The new token's box, and one row asking to confirm a revocation.
    await me.page.locator('#token-label').fill(`phone ${width}`);
    await me.page.locator('#token-create').click();
    await expect(me.page.locator('#new-token')).toBeVisible();
    await me.page.locator('#token-list .token-row').first().locator('button.revoke').click();
    await expect(me.page.locator('button.revoke-confirm')).toBeVisible();
    await screenshot(me.page, `account-${width}`);
    expect(await smallButtons(me.page, '.account', width < 600 ? 44 : 40)).toEqual([]);
    // Revoke the one made for this width, so that the next width starts with two again.
    await me.page.locator('button.revoke-cancel').click();
    const made = me.page.locator('#token-list .token-row', { hasText: `phone ${width}` });
    await made.locator('button.revoke').click();
    await made.locator('button.revoke-confirm').click();
    await expect(me.page.locator('#token-list .token-row')).toHaveCount(2);
  }
  expect(errors).toEqual([]);
});

// A Revoke pressed as soon as a new token's box shows keeps its confirmation: the token list, drawn
// again after the creation, came in after the box and wiped the row's Revoke it / Keep (a flake of
// the screenshots test above on a slow machine). The list's reply is held back here to show it.
test('a Revoke pressed as soon as a new token shows keeps its confirmation', async ({ browser }) => {
  const errors: string[] = [];
  const me = await newPlayer(browser, 'rowan', errors);
  const page = me.page;
  const made = await me.context.request.post('/api/tokens', { data: { label: 'older one' } });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto('/account');
  await expect(page.locator('#token-list .token-row')).toHaveCount(1);
  await page.route('**/api/tokens', async (route) => {
    if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await page.locator('#token-label').fill('slow list');
  await page.locator('#token-create').click();
  await expect(page.locator('#new-token')).toBeVisible();
  await page.locator('#token-list .token-row button.revoke').first().click();
  await expect(page.locator('button.revoke-confirm')).toBeVisible();
  // Longer than the list's delay: the confirmation is still there to be answered.
  await page.waitForTimeout(1000);
  await page.locator('button.revoke-cancel').click({ timeout: 5000 });
  await expect(page.locator('#token-list .token-row button.revoke')).toHaveCount(2);
  expect(errors).toEqual([]);
});
