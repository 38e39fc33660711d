// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the browser tests share: players registered through the API of
// their own browser context (so the page and the API calls share the
// session cookie), games created and read through the API, and waiting
// for a page to show a given ply.
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

export type Player = { name: string; context: BrowserContext; page: Page };

/* A name unique to this run, so that spec files never collide in the one
 * database tests/web-test.sh starts. */
export function uniqueName(base: string): string {
  return `${base}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/* Collects the page's console errors and CSP violations: every test ends
 * by checking there were none. */
export function watchConsole(page: Page, errors: string[]): void {
  page.on('console', (msg) => {
    // A refused request (a 422 for an illegal move, a 401 before logging
    // in) is logged by the browser itself; the page shows it, as tests check.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
      errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
}

/* Every context a test opened, closed after it (test.afterEach(closeContexts)):
 * each open game page holds one of the server's live streams, of which one
 * address may hold 32. */
const opened: BrowserContext[] = [];

export async function openContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  opened.push(context);
  return context;
}

export async function closeContexts(): Promise<void> {
  for (const c of opened.splice(0)) await c.close();
}

export async function newPlayer(browser: Browser, base: string, errors: string[], register = true): Promise<Player> {
  const context = await openContext(browser);
  const page = await context.newPage();
  watchConsole(page, errors);
  const name = uniqueName(base);
  if (register) {
    const reply = await context.request.post('/api/register', { data: { name, password: 'password-' + name } });
    expect(reply.status(), await reply.text()).toBe(201);
  }
  return { name, context, page };
}

export async function createGame(p: Player, body: Record<string, unknown>): Promise<string> {
  const reply = await p.context.request.post('/api/games', { data: body });
  expect(reply.status(), await reply.text()).toBe(201);
  return (await reply.json()).id as string;
}

export type GameState = {
  ply: number;
  to_move: string;
  you: string | null;
  status: string;
  result: string | null;
  reason: string | null;
  timelines: number;
  legal: { coord: string; human: string; kind: string; from: string | null; to: string | null; arg: number }[];
  actions: { ply: number; coord: string; human: string; kind: string }[];
};

export async function gameState(p: Player, id: string): Promise<GameState> {
  const reply = await p.context.request.get(`/api/games/${id}`);
  expect(reply.status()).toBe(200);
  return (await reply.json()) as GameState;
}

/* Waits until the page shows the game at this ply (the client sets
 * #game[data-ply] after every render). */
export async function showsPly(page: Page, ply: number): Promise<void> {
  await expect(page.locator('#game')).toHaveAttribute('data-ply', String(ply));
}

/* The centre of a square of the board, for drags and clicks, as the board
 * is oriented. */
export async function squarePoint(page: Page, square: string, orientation: 'white' | 'black' = 'white') {
  const box = await page.locator('#board cg-board').boundingBox();
  if (!box) throw new Error('the board is not shown');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + size * (col + 0.5), y: box.y + size * (row + 0.5) };
}

export async function dragMove(page: Page, from: string, to: string, orientation: 'white' | 'black' = 'white') {
  const a = await squarePoint(page, from, orientation);
  const b = await squarePoint(page, to, orientation);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

export async function clickSquare(page: Page, square: string, orientation: 'white' | 'black' = 'white') {
  const a = await squarePoint(page, square, orientation);
  await page.mouse.click(a.x, a.y);
}

/* Types an action in the page's move field and sends it. */
export async function typeAction(page: Page, text: string) {
  await page.locator('#move-input').fill(text);
  await page.locator('#move-send').click();
}

export type NewGame = {
  variant: string;
  color: 'white' | 'black' | 'random';
  time: { days: number } | { minutes: number; increment: number };
  opponent: { player: string } | 'link' | { level: number };
};

/* Fills the lobby's "New game" form and creates the game; the page then
 * shows the game, whose id is returned. */
export async function createInLobby(page: Page, g: NewGame): Promise<string> {
  await page.locator('#variant').selectOption(g.variant);
  await page.locator('#color').selectOption(g.color);
  if ('days' in g.time) {
    await page.locator('#time-kind').selectOption('correspondence');
    await page.locator('#days').fill(String(g.time.days));
  } else {
    await page.locator('#time-kind').selectOption('live');
    await page.locator('#minutes').fill(String(g.time.minutes));
    await page.locator('#increment').fill(String(g.time.increment));
  }
  if (g.opponent === 'link') {
    await page.locator('#opponent-kind').selectOption('link');
  } else if ('player' in g.opponent) {
    await page.locator('#opponent-kind').selectOption('player');
    await page.locator('#opponent-name').fill(g.opponent.player);
  } else {
    await page.locator('#opponent-kind').selectOption('engine');
    await page.locator('#level').fill(String(g.opponent.level));
  }
  await page.locator('#create-game').click();
  await expect(page).toHaveURL(/\/games\/[0-9a-f]+/);
  return new URL(page.url()).pathname.split('/').pop()!;
}
