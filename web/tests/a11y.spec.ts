// SPDX-License-Identifier: GPL-3.0-or-later
//
// The site is accessible (issue 27, item 8): axe-core finds no serious or
// critical violation on the home page, the lobby, a game page of each
// variant a few moves in, a rules page, the analysis board, the board
// editor and the account page, in the light and in the dark theme; and
// every control of the game page and the lobby's new-game form works from
// the keyboard alone.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { clickSquare, closeContexts, createGame, gameState, newPlayer, showsPly, type Player } from './helpers';

test.afterEach(closeContexts);

const THEMES = ['light', 'dark'] as const;

/* A few actions of each variant, so that the move list, the timelines and
 * the pockets have something in them. */
const GAMES: { variant: string; actions: string[] }[] = [
  { variant: 'chess', actions: ['e4', 'e5', 'Nf3', 'Nc6'] },
  { variant: 'gifford', actions: ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5', 'Ke1<3@e3'] },
  { variant: 'vangog', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'Be2-c4*', 'Nf6'] },
  { variant: 'travelers', actions: ['e4', 'e5', 'Nf3', 'Nc6', 'd4/d5', 'Nf6'] },
  { variant: 'chessgi-classic', actions: ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qa5'] },
  { variant: 'chessgi', actions: ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe6+', 'Be2', 'Qxe2+', 'Ngxe2', 'B@b4'] },
];

/* The serious or critical violations axe-core finds on the page as it is
 * now, each with its rule, impact and element, so that a failure says what
 * to fix. */
async function seriousViolations(page: Page, theme: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .flatMap(v => v.nodes.map(n => `${theme}: ${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`));
}

/* Checks the page in both themes, as the system's preference chooses them
 * (the header's switch left at "system theme"), at a phone's width and a
 * desktop's, and reports the violations of all four at once. */
async function inBothThemes(page: Page, name: string): Promise<void> {
  const found: string[] = [];
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
    for (const colorScheme of THEMES) {
      await page.emulateMedia({ colorScheme });
      found.push(...await seriousViolations(page, `${colorScheme} ${width} px`));
    }
  }
  if (size) await page.setViewportSize(size);
  expect(found, `${name}: axe-core's serious and critical violations`).toEqual([]);
}

/* An action through the API, as a player's client sends it. */
async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply, reply: 'brief' } });
  expect(reply.status(), await reply.text()).toBe(200);
}

test('the pages of a visitor: home, rules, analysis, editor', async ({ browser }) => {
  const errors: string[] = [];
  const { page } = await newPlayer(browser, 'a11yv', errors, false);
  await page.goto('/');
  await expect(page.locator('#app .loading')).toHaveCount(0);
  await expect(page.locator('#login-name')).toBeVisible();
  await inBothThemes(page, 'home');
  await page.goto('/rules/gifford');
  await expect(page.locator('#app .loading')).toHaveCount(0);
  await expect(page.locator('#app h1, #app h2').first()).toBeVisible();
  await inBothThemes(page, 'rules');
  await page.goto(`/analysis?variant=gifford&moves=${encodeURIComponent('e4 e5 Bf1>4 Nc6 Nf3 Nf6 B@c4 Bc5 Ke1<3@e3')}`);
  await expect(page.locator('#analysis-board cg-board piece').first()).toBeAttached();
  await inBothThemes(page, 'analysis');
  await page.goto('/editor?variant=chessgi');
  await expect(page.locator('#editor-board cg-board piece').first()).toBeAttached();
  await inBothThemes(page, 'editor');
  expect(errors).toEqual([]);
});

test('the pages of a player: lobby, account', async ({ browser }) => {
  const errors: string[] = [];
  const ada = await newPlayer(browser, 'a11ya', errors);
  const ben = await newPlayer(browser, 'a11yb', errors);
  await createGame(ada, { variant: 'gifford', color: 'white', days_per_move: 3, opponent: ben.name });
  await createGame(ada, { variant: 'chessgi', color: 'black', clock: { minutes: 5, increment: 3 }, opponent: ben.name });
  const page = ada.page;
  await page.goto('/');
  await expect(page.locator('#new-game')).toBeVisible();
  await expect(page.locator('#my-games .game-row')).not.toHaveCount(0);
  await inBothThemes(page, 'lobby');
  await page.goto('/account');
  await expect(page.locator('.account')).toBeVisible();
  await inBothThemes(page, 'account');
  expect(errors).toEqual([]);
});

for (const g of GAMES) {
  test(`a ${g.variant} game page`, async ({ browser }) => {
    const errors: string[] = [];
    const white = await newPlayer(browser, 'a11yw', errors);
    const black = await newPlayer(browser, 'a11yk', errors);
    const id = await createGame(white, { variant: g.variant, color: 'white', days_per_move: 3, opponent: black.name });
    for (let i = 0; i < g.actions.length; i++) await act(i % 2 === 0 ? white : black, id, g.actions[i], i);
    const player = g.actions.length % 2 === 0 ? white : black;
    const page = player.page;
    await page.goto(`/games/${id}`);
    await showsPly(page, g.actions.length);
    await expect(page.locator('#board cg-board piece').first()).toBeAttached();
    await inBothThemes(page, `${g.variant} game`);
    if (g.variant === 'chess') {
      // The end of a game: its banner and the rematch offer.
      await act(player, id, 'resign', g.actions.length);
      await expect(page.locator('#end-result')).toBeVisible();
      await inBothThemes(page, 'chess game over');
    }
    expect(errors).toEqual([]);
  });
}

/* Presses Tab until the element matching `selector` has the focus, as a
 * keyboard user would, and fails when it is never reached. */
async function tabTo(page: Page, selector: string, most = 80): Promise<void> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(s => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} is not reached with Tab`);
}

/* Chooses the option `value` of a focused <select> with the arrow keys. */
async function chooseWithArrows(page: Page, selector: string, value: string): Promise<void> {
  const select = page.locator(selector);
  await expect(select).toBeFocused();
  for (const key of ['Home', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown']) {
    if (await select.inputValue() === value) return;
    await page.keyboard.press(key);
  }
  await expect(select).toHaveValue(value);
}

test('a game page from the keyboard: typed actions in any notation, the time-travel menu, the move list', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'a11yka', errors);
  const bob = await newPlayer(browser, 'a11ykb', errors);
  const id = await createGame(alice, { variant: 'gifford', color: 'white', days_per_move: 3, opponent: bob.name });
  const page = alice.page;
  await page.goto(`/games/${id}`);
  await showsPly(page, 0);

  // Tab reaches the move field; an action typed there and Enter play it, whichever notation it is in.
  await tabTo(page, '#move-input');
  const typed = ['e4', 'g1f3', 'N b1-c3', 'Bf1>6'];
  const replies = ['e5', 'Nc6', 'Nf6', 'd6'];
  for (let i = 0; i < typed.length; i++) {
    await page.locator('#move-input').focus();
    await page.keyboard.type(typed[i]);
    await page.keyboard.press('Enter');
    await showsPly(page, 2 * i + 1);
    // The page shows its own action before the server has it; Bob answers
    // only once it has (else his ply is not yet the game's: 409).
    await expect.poll(async () => (await gameState(alice, id)).ply).toBe(2 * i + 1);
    await act(bob, id, replies[i], 2 * i + 1);
    await showsPly(page, 2 * i + 2);
  }
  const state = await gameState(alice, id);
  expect(state.actions.filter((_, i) => i % 2 === 0).map(a => a.human)).toEqual(['e4', 'Nf3', 'Nc3', 'Bf1>6']);

  // The selected piece's time-travel menu is reached with Tab and opens with Enter; Escape closes it.
  await clickSquare(page, 'd1');
  await expect(page.locator('#menu-open')).toBeVisible();
  await tabTo(page, '#menu-open');
  await page.keyboard.press('Enter');
  await expect(page.locator('#menu-forward')).toBeFocused();
  expect(await seriousViolations(page, 'the time-travel menu open'), 'axe-core on the open menu').toEqual([]);
  await page.keyboard.press('Enter');
  await expect(page.locator('#forward-move')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('#travel-menu')).toBeHidden();

  // The arrow keys step through the move list, Home and End go to its ends.
  await page.locator('#move-list').click({ position: { x: 2, y: 2 } });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const shown = page.locator('#move-list li.shown');
  await expect(shown).toHaveAttribute('data-ply', '8');
  await page.keyboard.press('ArrowLeft');
  await expect(shown).toHaveAttribute('data-ply', '7');
  await page.keyboard.press('Home');
  await expect(shown).toHaveAttribute('data-ply', '0');
  await page.keyboard.press('ArrowRight');
  await expect(shown).toHaveAttribute('data-ply', '1');
  await page.keyboard.press('End');
  await expect(shown).toHaveAttribute('data-ply', '8');
  expect(errors).toEqual([]);
});

test('the lobby\'s new-game form filled and sent from the keyboard', async ({ browser }) => {
  const errors: string[] = [];
  const player = await newPlayer(browser, 'a11ykl', errors);
  const page = player.page;
  await page.goto('/');
  await expect(page.locator('#variant')).toBeEnabled();
  await tabTo(page, '#variant');
  await chooseWithArrows(page, '#variant', 'chess');
  await tabTo(page, '#time-kind');
  await chooseWithArrows(page, '#time-kind', 'correspondence');
  await tabTo(page, '#opponent-kind');
  await chooseWithArrows(page, '#opponent-kind', 'engine');
  await tabTo(page, '#level');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await tabTo(page, '#create-game');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/games\/[0-9a-f]+/);
  const reply = await player.context.request.get(`/api/games/${new URL(page.url()).pathname.split('/').pop()}`);
  expect(((await reply.json()) as { variant: string }).variant).toBe('chess');
  expect(errors).toEqual([]);
});
