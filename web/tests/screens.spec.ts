// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every page at every screen from a small phone to a wide desktop (360, 390, 768, 1280 and 1920 px):
// none scrolls sideways (document.documentElement.scrollWidth <= innerWidth) — the home page of a
// visitor, the lobby and the account page of a player, a game of each variant a few actions in
// (Gifford's with a king gone back, so that the timelines view holds two boards), the analysis board
// and the board editor. On a phone the game's board takes the width; on a desktop the side panel
// stands beside it. The colour theme follows the system (Playwright's colorScheme) until the header's
// switch chooses one, which a reload remembers. The game page's screenshots, light and dark at 390
// and 1280 px, go to test-results/screens for people to look at.
import { test, expect, type Page } from '@playwright/test';
import { closeContexts, createGame, newPlayer, ORIGIN, sendChallenge, showsPly, type Player } from './helpers';

test.afterEach(closeContexts);

const WIDTHS = [360, 390, 768, 1280, 1920];
const SHOTS = process.env.TTCHESS_SHOTS ?? 'test-results/screens';

/* Lets the page lay itself out again after the window changed size (chessground redraws on a
 * ResizeObserver, which runs before the next frame). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));
}

/* Checks the page at every width: its document is no wider than the window. The message names the
 * elements that reach past the window's right edge, outermost first, to find the culprit. */
async function noSidewaysScroll(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    const seen = await page.evaluate(() => {
      const inner = window.innerWidth;
      const wide: string[] = [];
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > inner + 0.5 && wide.length < 6)
          wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : ''} to ${Math.round(r.right)}`);
      }
      return { scroll: document.documentElement.scrollWidth, inner, wide };
    });
    expect(seen.scroll, `${name} at ${width} px scrolls sideways: ${seen.wide.join(', ')}`).toBeLessThanOrEqual(seen.inner);
  }
}

/* A game between two new players with these actions made through the API, opened on White's page. */
async function gameWith(white: Player, black: Player, variant: string, actions: string[]): Promise<string> {
  const id = await createGame(white, { variant, color: 'white', opponent: black.name, days_per_move: 3 });
  for (let ply = 0; ply < actions.length; ply++) {
    const p = ply % 2 === 0 ? white : black;
    const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action: actions[ply], ply, reply: 'brief' } });
    expect(reply.status(), `${variant} ${actions[ply]}: ${await reply.text()}`).toBe(200);
  }
  await white.page.goto(`/games/${id}`);
  await showsPly(white.page, actions.length);
  await expect(white.page.locator('#board cg-board piece').first()).toBeAttached();
  return id;
}

const GAMES: { variant: string; actions: string[] }[] = [
  { variant: 'chess', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6'] },
  { variant: 'gifford', actions: ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5', 'Ke1<3@e3'] },
  { variant: 'vangog', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Be2-c4*', 'Nf6'] },
  { variant: 'travelers', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'd4/d5', 'Nf6'] },
  { variant: 'chessgi', actions: ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe6+', 'Be2', 'Qxe2+', 'Ngxe2', 'B@b4'] },
];

test('home, analysis board and board editor of a visitor at every width', async ({ browser }) => {
  const errors: string[] = [];
  const visitor = await newPlayer(browser, 'visitor', errors, false);
  const page = visitor.page;
  await page.goto('/');
  await expect(page.locator('#app .loading')).toHaveCount(0);
  await noSidewaysScroll(page, 'home');
  await page.goto(`/analysis?variant=gifford&moves=${encodeURIComponent('e4 e5 Bf1>4 Nc6 Nf3 Nf6 B@c4 Bc5 Ke1<3@e3')}`);
  await expect(page.locator('#analysis-board cg-board piece').first()).toBeAttached();
  await noSidewaysScroll(page, 'analysis');
  await page.goto('/editor?variant=chessgi');
  await expect(page.locator('#editor-board cg-board piece').first()).toBeAttached();
  await noSidewaysScroll(page, 'editor');
  expect(errors).toEqual([]);
});

test('the lobby and the account page of a player with games at every width', async ({ browser }) => {
  const errors: string[] = [];
  const dora = await newPlayer(browser, 'dora-with-a-long-name', errors);
  const emil = await newPlayer(browser, 'emil', errors);
  await createGame(dora, { variant: 'vangog', color: 'white', days_per_move: 3, opponent: emil.name });
  await createGame(dora, { variant: 'travelers', color: 'black', days_per_move: 3, opponent: emil.name });
  await createGame(dora, { variant: 'chessgi', color: 'white', clock: { minutes: 5, increment: 3 }, opponent: emil.name });
  await sendChallenge(dora, { variant: 'gifford', color: 'black', days_per_move: 3, opponent: emil.name });
  await sendChallenge(emil, { variant: 'chess', color: 'white', days_per_move: 3, opponent: dora.name });
  const page = dora.page;
  await page.goto('/');
  await expect(page.locator('#new-game')).toBeVisible();
  await expect(page.locator('#my-games .game-row')).not.toHaveCount(0);
  await noSidewaysScroll(page, 'lobby');

  // At a phone's width the game rows do not overlap: each row's box starts below the last one's.
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  const rows = await page.locator('#my-games .game-row').evaluateAll(els => els.map(el => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, inside: Array.from(el.children).every(c => c.getBoundingClientRect().bottom <= r.bottom + 0.5) };
  }));
  for (let i = 0; i < rows.length; i++) {
    expect(rows[i].inside, `game row ${i} holds its text`).toBe(true);
    if (i > 0) expect(rows[i].top, `game row ${i} starts below row ${i - 1}`).toBeGreaterThanOrEqual(rows[i - 1].bottom - 0.5);
  }

  await page.goto('/account');
  await expect(page.locator('.account')).toBeVisible();
  await noSidewaysScroll(page, 'account');
  expect(errors).toEqual([]);
});

for (const g of GAMES) {
  test(`a ${g.variant} game at every width`, async ({ browser }) => {
    const errors: string[] = [];
    const white = await newPlayer(browser, 'white', errors);
    const black = await newPlayer(browser, 'black', errors);
    await gameWith(white, black, g.variant, g.actions);
    const page = white.page;
    if (g.variant === 'gifford') await expect(page.locator('#game')).toHaveAttribute('data-timelines', '2');
    await noSidewaysScroll(page, `${g.variant} game`);

    // A phone: the board takes the width, less the page's margins, and the panels come below it.
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    const board = (await page.locator('#board').boundingBox())!;
    expect(board.width).toBeGreaterThanOrEqual(390 - 24);
    expect(Math.abs(board.height - board.width)).toBeLessThanOrEqual(1);
    const clocks = (await page.locator('.play-col').boundingBox())!;
    expect(clocks.y).toBeGreaterThanOrEqual(board.y + board.height);

    // A desktop: the side panel beside the board, the board at its chosen size.
    await page.setViewportSize({ width: 1280, height: 900 });
    await settle(page);
    const wide = (await page.locator('#board').boundingBox())!;
    const side = (await page.locator('.play-col').boundingBox())!;
    expect(wide.width).toBeGreaterThanOrEqual(400);
    expect(side.x).toBeGreaterThanOrEqual(wide.x + wide.width);
    expect(side.y).toBeLessThan(wide.y + wide.height);
    expect(errors).toEqual([]);
  });
}

/* The page's background colour, as the theme makes it. */
async function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

const LIGHT = 'rgb(246, 245, 242)';
const DARK = 'rgb(22, 21, 18)';

for (const scheme of ['light', 'dark'] as const) {
  test(`the theme follows a ${scheme} system until the switch chooses, and is remembered`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.goto('/');
    const sw = page.locator('#theme-switch');
    await expect(sw).toHaveValue('system');
    expect(await background(page)).toBe(scheme === 'dark' ? DARK : LIGHT);
    const other = scheme === 'dark' ? 'light' : 'dark';
    await sw.selectOption(other);
    expect(await background(page)).toBe(other === 'dark' ? DARK : LIGHT);
    await page.reload();
    await expect(page.locator('#theme-switch')).toHaveValue(other);
    expect(await background(page)).toBe(other === 'dark' ? DARK : LIGHT);
    await page.locator('#theme-switch').selectOption('system');
    expect(await background(page)).toBe(scheme === 'dark' ? DARK : LIGHT);
    expect(await page.evaluate(() => localStorage.getItem('ttchess.theme'))).toBeNull();
    await context.close();
  });
}

// Pictures of a Gifford game page (a king gone back: two timelines), light and dark, at a phone's and
// a desktop's width, for people to look at.
test('screenshots of a game page, light and dark, at 390 and 1280 px', async ({ browser }) => {
  const errors: string[] = [];
  const white = await newPlayer(browser, 'white', errors);
  const black = await newPlayer(browser, 'black', errors);
  const id = await gameWith(white, black, 'gifford', GAMES[1].actions);
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width < 600 ? 844 : 900 },
        extraHTTPHeaders: { Origin: ORIGIN } });
      const page = await context.newPage();
      const login = await context.request.post('/api/login', { data: { name: white.name, password: 'password-' + white.name } });
      expect(login.status(), await login.text()).toBe(200);
      await page.goto(`/games/${id}`);
      await showsPly(page, GAMES[1].actions.length);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SHOTS}/screen-${scheme}-${width}.png` });
      await context.close();
    }
  }
  expect(errors).toEqual([]);
});
