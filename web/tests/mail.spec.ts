// SPDX-License-Identifier: GPL-3.0-or-later
//
// The correspondence mails in the page (issue 29): the header's "your move" count, updated live when
// the opponent moves in another browser context; the account page's e-mail settings, hidden on a
// server without --smtp and shown on one with it (a second server this spec starts, whose SMTP
// server nobody answers: the page is what is tested here, tests/mail-test.sh tests the mails), and
// accessible (axe-core) at a phone's width and a desktop's, light and dark.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { closeContexts, createGame, newPlayer, uniqueName } from './helpers';

test.afterEach(closeContexts);

async function move(p: { context: import('@playwright/test').BrowserContext }, id: string, action: string, ply: number) {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply } });
  expect(reply.status(), await reply.text()).toBe(200);
}

test('the your-move count follows the opponent\'s moves live', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'ym', errors);
  const bob = await newPlayer(browser, 'ymb', errors);
  const id = await createGame(alice, { variant: 'chess', color: 'white', opponent: bob.name, days_per_move: 3 });
  await alice.page.goto('/rules/chess');
  const badge = alice.page.locator('#yourmove-count');
  await expect(badge).toHaveText('1');
  await expect(badge).toHaveAttribute('aria-label', '1 game waits for your move');
  await move(alice, id, 'e4', 0);
  await expect(badge).toHaveCount(0);
  await move(bob, id, 'e5', 1);
  await expect(badge).toHaveText('1');
  // The count survives a navigation: the header is drawn again, the stream goes on.
  await alice.page.locator('#analysis-link').click();
  await expect(alice.page.locator('#yourmove-count')).toHaveText('1');
  await expect(alice.page.locator('#email')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('without --smtp the account page has no e-mail settings', async ({ browser }) => {
  const errors: string[] = [];
  const carol = await newPlayer(browser, 'nomail', errors);
  await carol.page.goto('/account');
  await expect(carol.page.locator('#tokens')).toBeVisible();
  await expect(carol.page.locator('#email')).toBeHidden();
  expect(errors).toEqual([]);
});

/* A second server, with mail on. */
let mailServer: ChildProcess | null = null;
let mailUrl = '';
let mailDir = '';

async function startMailServer(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const program = process.env.TTCHESS ?? 'build/ttchess';
  const bin = isAbsolute(program) ? program : join(root, program);
  mailDir = mkdtempSync(join(tmpdir(), 'ttchess-mail-spec-'));
  for (let attempt = 0; attempt < 8 && !mailUrl; attempt++) {
    const port = 40000 + Math.floor(Math.random() * 20000);
    const proc = spawn(bin, ['serve', '--port', String(port), '--db', join(mailDir, `db${attempt}`), '--static',
      join(root, 'web', 'dist'), '--smtp', 'smtp://127.0.0.1:9', '--mail-from', 'ttchess@example.org'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
    const up = await new Promise<boolean>(done => {
      proc.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('ttchess serve: http')) done(true); });
      proc.on('exit', () => done(false));
      setTimeout(() => done(false), 5000);
    });
    if (up) {
      mailServer = proc;
      mailUrl = `http://127.0.0.1:${port}`;
    } else {
      proc.kill();
    }
  }
  expect(mailUrl, 'the server with --smtp started').not.toBe('');
}

test.afterAll(() => {
  mailServer?.kill();
  if (mailDir) rmSync(mailDir, { recursive: true, force: true });
});

async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await new AxeBuilder({ page }).include('#email').analyze();
      found.push(...results.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .flatMap(v => v.nodes.map(n => `${colorScheme} ${width} px: ${v.id} ${n.target.join(' ')}`)));
    }
    // Nothing of the section runs off a phone's screen.
    const box = await page.locator('#email').boundingBox();
    expect(box && box.x + box.width <= width + 1, `the e-mail section fits at ${width} px`).toBe(true);
  }
  return found;
}

test('with --smtp the account page sets the address and the mails, accessibly', async ({ browser }) => {
  await startMailServer();
  const context = await browser.newContext({ baseURL: mailUrl, extraHTTPHeaders: { Origin: mailUrl } });
  try {
    const name = uniqueName('mail');
    const reply = await context.request.post('/api/register', { data: { name, password: 'password-' + name } });
    expect(reply.status()).toBe(201);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', err => errors.push(err.message));
    await page.goto('/account');
    await expect(page.locator('#email')).toBeVisible();
    await expect(page.locator('#email-status')).toHaveText('No address yet.');
    await page.locator('#email-address').fill('not an address');
    await page.locator('#email-save').click();
    await expect(page.locator('#email-error')).toContainText('name@example.org');
    await page.locator('#email-address').fill(`${name}@example.org`);
    await page.locator('#email-save').click();
    await expect(page.locator('#email-status')).toContainText('Not confirmed yet');
    await expect(page.locator('#mail-moved')).toBeChecked();
    await page.locator('#mail-moved').uncheck();
    await expect.poll(async () => (await (await context.request.get('/api/account/email')).json()).moved).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
