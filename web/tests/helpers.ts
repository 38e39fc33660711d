// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the browser tests share: players registered through the API of
// their own browser context (so the page and the API calls share the
// session cookie), games created and read through the API, challenges
// sent and answered, and waiting for a page to show a given ply.
//
// A game that names an opponent is a challenge until they accept it:
// createGame and createInLobby accept it at once for an opponent made by
// newPlayer, so that a test about playing starts with an active game;
// sendChallenge leaves it open.
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

/* The server's origin. Every context sends it as Origin, which the server
 * asks of every state-changing request carrying a session cookie: a
 * browser's own fetch sends it anyway, Playwright's API requests do not. */
export const ORIGIN = new URL(process.env.TTCHESS_URL ?? 'http://127.0.0.1:8080').origin;

/* The players newPlayer made, by name in lower case, so that a challenge
 * to one of them can be accepted in their name. */
const players = new Map<string, Player>();

export async function openContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ extraHTTPHeaders: { Origin: ORIGIN } });
  opened.push(context);
  return context;
}

export async function closeContexts(): Promise<void> {
  players.clear();
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
  const player = { name, context, page };
  players.set(name.toLowerCase(), player);
  return player;
}

/* Creates a game through the API; one naming an opponent that newPlayer
 * made is accepted by them, so that it is active. */
export async function createGame(p: Player, body: Record<string, unknown>): Promise<string> {
  const reply = await p.context.request.post('/api/games', { data: body });
  expect(reply.status(), await reply.text()).toBe(201);
  const created = (await reply.json()) as { id: string; challenge?: boolean };
  const opponent = typeof body.opponent === 'string' ? players.get(body.opponent.toLowerCase()) : undefined;
  if (created.challenge && opponent) await answerChallenge(opponent, created.id, 'accept');
  return created.id;
}

/* Sends a challenge through the API and leaves it open; returns its id. */
export async function sendChallenge(p: Player, body: Record<string, unknown>): Promise<string> {
  const reply = await p.context.request.post('/api/games', { data: body });
  expect(reply.status(), await reply.text()).toBe(201);
  const created = (await reply.json()) as { id: string; challenge?: boolean };
  expect(created.challenge).toBe(true);
  return created.id;
}

/* Accepts or declines (withdraws, for its challenger) a challenge through
 * the API, expecting it to be done. */
export async function answerChallenge(p: Player, id: string, how: 'accept' | 'decline'): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/${how}`, { data: {} });
  expect(reply.status(), await reply.text()).toBe(200);
}

/* Registers a player through the page's login form (rather than the
 * API), so that a test sees that path too. */
export async function registerInPage(page: Page, name: string, password: string): Promise<void> {
  await page.goto('/');
  await page.locator('#login-name').fill(name);
  await page.locator('#login-password').fill(password);
  await page.locator('#register-button').click();
  await expect(page.locator('#new-game')).toBeVisible();
}

/* A screenshot of the whole page for people to look at, into
 * web/test-results/screens (or TTCHESS_SHOTS), after checking that
 * nothing is wider than the window: a page that scrolls sideways on a
 * phone is broken. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5))
        wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
  });
  expect(overflow.wide, `${name}: elements wider than the ${overflow.width} px window`).toEqual([]);
  expect(overflow.scroll, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(overflow.width);
  const dir = process.env.TTCHESS_SHOTS ?? 'test-results/screens';
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/* Every visible button of the page at least this many pixels high, so a
 * finger finds it; returns the ones that are not, for expect(...).toEqual([]). */
export async function smallButtons(page: Page, scope: string, min = 40): Promise<string[]> {
  return page.locator(`${scope} button:visible`).evaluateAll((buttons, least) =>
    buttons.filter(b => b.getBoundingClientRect().height < least)
      .map(b => `${b.textContent} ${Math.round(b.getBoundingClientRect().height)} px`), min);
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
  actions: { ply: number; coord: string; human: string }[];
};

export async function gameState(p: Player, id: string): Promise<GameState> {
  const reply = await p.context.request.get(`/api/games/${id}?legal=1`);
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
 * shows the game, whose id is returned. A game naming a player is a
 * challenge, which the lobby lists: one to a player that newPlayer made
 * is accepted in their name, then the page opens the game. */
export async function createInLobby(page: Page, g: NewGame): Promise<string> {
  await fillNewGame(page, g);
  await page.locator('#create-game').click();
  if (g.opponent !== 'link' && 'player' in g.opponent) {
    const notice = page.locator('#lobby-notice');
    await expect(notice).toContainText('Challenge sent');
    const id = (await notice.getAttribute('data-id'))!;
    const opponent = players.get(g.opponent.player.toLowerCase());
    if (opponent) await answerChallenge(opponent, id, 'accept');
    await page.goto(`/games/${id}`);
    return id;
  }
  await expect(page).toHaveURL(/\/games\/[0-9a-f]+/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/* Fills the lobby's "New game" form without sending it. */
export async function fillNewGame(page: Page, g: NewGame): Promise<void> {
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
}

/* What the player sees of a square: a piece letter (upper case White,
 * lower case Black) or '.' for an empty square. */
export type Squares = Record<string, string>;

/* The pieces on the chessgroundx board as the player sees them: each
 * piece element by the square under its centre on the screen, read with
 * the board turned as `orientation` says (a board drawn the other way
 * round reads as a different position). Pieces fading out after a capture
 * are not counted. */
export async function boardPieces(page: Page, orientation: 'white' | 'black' = 'white'): Promise<Squares> {
  return page.locator('#board cg-board').evaluate((board, o) => {
    const box = board.getBoundingClientRect();
    const size = box.width / 8;
    const seen: Record<string, string> = {};
    for (const piece of Array.from(board.querySelectorAll('piece'))) {
      if (piece.classList.contains('fading') || piece.classList.contains('ghost')) continue;
      const r = piece.getBoundingClientRect();
      const col = Math.floor((r.left + r.width / 2 - box.left) / size);
      const row = Math.floor((r.top + r.height / 2 - box.top) / size);
      if (col < 0 || col > 7 || row < 0 || row > 7) continue;
      const file = 'abcdefgh'[o === 'white' ? col : 7 - col];
      const rank = o === 'white' ? 8 - row : row + 1;
      const role = Array.from(piece.classList).find((c) => c.endsWith('-piece'));
      if (!role) continue;
      const letter = role[0];
      seen[`${file}${rank}`] = piece.classList.contains('white') ? letter.toUpperCase() : letter;
    }
    return seen;
  }, orientation);
}

/* The text diagram (#text-diagram) read back into squares: each rank's
 * line starts with its number, the last line names the files in the
 * order shown, and each square is its piece letter or '.' followed by
 * one mark character. */
export function readTextDiagram(text: string): Squares {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const files = lines[lines.length - 1].trim().split(/\s+/);
  const squares: Squares = {};
  for (const line of lines.slice(0, -1)) {
    const rank = line[0];
    for (let i = 0; i < files.length; i++) squares[`${files[i]}${rank}`] = line[3 + 3 * i] ?? '.';
  }
  return squares;
}

/* The squares named in `want` as the board shows them ('.' for empty). */
function pick(all: Squares, want: Squares): Squares {
  const got: Squares = {};
  for (const sq of Object.keys(want)) got[sq] = all[sq] ?? '.';
  return got;
}

/* Waits until the board shows these squares as given, e.g.
 * { e4: 'P', e2: '.' }: a white pawn on e4, nothing on e2. */
export async function expectBoard(page: Page, want: Squares, orientation: 'white' | 'black' = 'white'): Promise<void> {
  await expect.poll(async () => pick(await boardPieces(page, orientation), want), { message: 'the board shows' })
    .toEqual(want);
}

/* Waits until the visible text diagram shows these squares as given. */
export async function expectTextDiagram(page: Page, want: Squares): Promise<void> {
  const diagram = page.locator('#text-diagram');
  await expect(diagram).toBeVisible();
  await expect.poll(async () => pick(readTextDiagram((await diagram.textContent()) ?? ''), want),
    { message: 'the text diagram shows' }).toEqual(want);
}
