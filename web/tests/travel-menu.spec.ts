// SPDX-License-Identifier: GPL-3.0-or-later
//
// Time travel is a deliberate act (issue 27, item 2), at phone and desktop
// size: a drag always plays the ordinary move (ten of them in a van Gog
// game, and never a chooser), then a departure to the future from the
// piece's own menu; a Gifford piece sent forward with the menu's slider, and
// the king's dots being its ordinary moves only; a Chessgi piece into the
// pocket until a move (its return said in words), a drop from the palette,
// and a general travel made in the board's travel frame; a van Gog arrival
// from the palette.
import { test, expect, type Page } from '@playwright/test';
import {
  clickSquare, closeContexts, createGame, dragMove, gameState, newPlayer, showsPly, type Player,
} from './helpers';

/* A screenshot into the test's output folder, to look at (the layout's own checks are elsewhere). */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test.afterEach(closeContexts);

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
];

/* An action through the API, as the opponent's own client would send it. */
async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply, reply: 'brief' } });
  expect(reply.status(), await reply.text()).toBe(200);
}

/* Two players of a game without a clock (Alice White), both pages open on it at this size; on a phone
 * the board is drawn at 70 % so that it fits the screen. */
async function twoPlayers(browser: import('@playwright/test').Browser, variant: string, size: typeof SIZES[0], errors: string[],
  options = '') {
  const alice = await newPlayer(browser, 'tma', errors);
  const bob = await newPlayer(browser, 'tmb', errors);
  const id = await createGame(alice, { variant, options, color: 'white', opponent: bob.name });
  for (const p of [alice, bob]) {
    await p.page.setViewportSize({ width: size.width, height: size.height });
    if (size.width < 500) {
      await p.page.goto('/');
      await p.page.evaluate(() => localStorage.setItem('ttchess.render',
        JSON.stringify({ orientation: 'auto', scale: 70, pieces: 'cburnett', colors: 'brown', text: false })));
    }
    await p.page.goto(`/games/${id}`);
    await expect(p.page.locator('#game')).toHaveAttribute('data-status', 'active');
    await showsPly(p.page, 0);
  }
  return { alice, bob, id };
}

/* The last action of the server's record once it has `ply` actions (the page shows its own at once). */
async function lastAction(p: Player, id: string, ply: number) {
  await expect.poll(async () => (await gameState(p, id)).actions.length).toBe(ply);
  const st = await gameState(p, id);
  return st.actions[ply - 1];
}

/* Opens the time-travel menu of the piece on `square`. */
async function openMenu(page: Page, square: string, orientation: 'white' | 'black' = 'white') {
  await clickSquare(page, square, orientation);
  await expect(page.locator('#travel-menu')).toBeVisible();
  await expect(page.locator('#travel-menu')).toHaveAttribute('data-square', square);
  await page.locator('#menu-open').click();
}

for (const size of SIZES) {
  test(`van Gog: ten drags play ten moves without a question, then a departure from the menu (${size.name})`, async ({ browser }) => {
    const errors: string[] = [];
    const { alice, bob, id } = await twoPlayers(browser, 'vangog', size, errors);
    const moves: [Player, string, string, 'white' | 'black'][] = [
      [alice, 'e2', 'e4', 'white'], [bob, 'e7', 'e5', 'black'], [alice, 'g1', 'f3', 'white'], [bob, 'b8', 'c6', 'black'],
      [alice, 'd2', 'd3', 'white'], [bob, 'd7', 'd6', 'black'], [alice, 'b1', 'c3', 'white'], [bob, 'g8', 'f6', 'black'],
      [alice, 'f1', 'e2', 'white'], [bob, 'f8', 'e7', 'black'],
    ];
    let ply = 0;
    for (const [p, from, to, o] of moves) {
      await dragMove(p.page, from, to, o);
      ply++;
      await showsPly(p.page, ply);
      await expect(p.page.locator('#choice')).toBeHidden();
      // The ordinary move, not a departure (e4†) nor anything else.
      expect((await lastAction(p, id, ply)).coord).toBe(`${from}${to}`);
    }
    // No list of every legal action on the page.
    await expect(alice.page.locator('#legal-list')).toHaveCount(0);

    // The knight leaves for the future from its menu: the board then offers its departures.
    await showsPly(alice.page, ply);
    await openMenu(alice.page, 'c3');
    await alice.page.locator('#menu-depart-future').click();
    await expect(alice.page.locator('#viewing')).toContainText('leaves for the future');
    await screenshot(alice.page, `travel-menu-vangog-${size.name}`);
    await dragMove(alice.page, 'c3', 'b5');
    await showsPly(alice.page, ply + 1);
    expect((await lastAction(alice, id, ply + 1)).human).toContain('†');
    expect(errors).toEqual([]);
  });

  test(`van Gog: an arrival from the future from the palette (${size.name})`, async ({ browser }) => {
    const errors: string[] = [];
    const { alice, id } = await twoPlayers(browser, 'vangog', size, errors);
    const arrivals = (await gameState(alice, id)).legal.filter((a) => a.kind === 'arrival' && a.to === 'e3');
    const queen = arrivals.filter((a) => a.coord.toUpperCase().startsWith('Q') || a.human.startsWith('Q'));
    expect(queen.length).toBeGreaterThan(0);
    await alice.page.locator('.placement-row[data-group="arriving"] button[data-piece="Q"]').click();
    await expect(alice.page.locator('.placement-help')).toContainText('queen chosen');
    await screenshot(alice.page, `palette-vangog-${size.name}`);
    await clickSquare(alice.page, 'e3');
    // The queen may come to e3 from several squares: the board dots them, and one is clicked.
    if (queen.length > 1) await clickSquare(alice.page, queen[0].from!);
    await showsPly(alice.page, 1);
    expect((await lastAction(alice, id, 1)).human).toMatch(/^Q.*\*$/);
    expect(errors).toEqual([]);
  });

  test(`van Gog: the departure that repays an arrival, from the piece's menu (${size.name})`, async ({ browser }) => {
    const errors: string[] = [];
    const { alice, bob, id } = await twoPlayers(browser, 'vangog', size, errors);
    // A queen arrives on a4 from d1's future and moves on; the way from d1 to a4 is opened.
    const actions = ['Qd1a4*', 'h7h6', 'Qa4a3', 'h6h5', 'c2c3', 'g7g6'];
    for (const [ply, a] of actions.entries()) await act(ply % 2 ? bob : alice, id, a, ply);
    await showsPly(alice.page, actions.length);
    await openMenu(alice.page, 'd1');
    await alice.page.locator('#travel-menu button[data-coord="d1a4**"]').click();
    await showsPly(alice.page, actions.length + 1);
    expect((await lastAction(alice, id, actions.length + 1)).human).toMatch(/\*\*$/);
    expect(errors).toEqual([]);
  });

  test(`Gifford: a piece sent forward with the menu's slider; a king's dots are its moves only (${size.name})`, async ({ browser }) => {
    const errors: string[] = [];
    const { alice, bob, id } = await twoPlayers(browser, 'gifford', size, errors);
    await act(alice, id, 'e2e4', 0);
    await act(bob, id, 'e7e5', 1);
    await showsPly(alice.page, 2);
    // A drag of the bishop plays its move; no question about sending it.
    await openMenu(alice.page, 'f1');
    await alice.page.locator('#menu-forward').click();
    await alice.page.locator('#forward-move').fill('4');
    await expect(alice.page.locator('#forward-value')).toContainText('move 4');
    await screenshot(alice.page, `travel-menu-gifford-${size.name}`);
    await alice.page.locator('#forward-confirm').click();
    await showsPly(alice.page, 3);
    expect((await lastAction(alice, id, 3)).human).toBe('Bf1>4');

    // Black's king: its dots are the squares of its ordinary moves, never its travels.
    await showsPly(bob.page, 3);
    await clickSquare(bob.page, 'e8', 'black');
    const legal = (await gameState(bob, id)).legal;
    const ordinary = new Set(legal.filter((a) => a.from === 'e8' && ['normal', 'castle'].includes(a.kind)).map((a) => a.to));
    await expect(bob.page.locator('#board square.move-dest')).toHaveCount(ordinary.size);

    // Castling by a drag castles: no question whether the king travels instead.
    let ply = 3;
    for (const [p, a] of [[bob, 'g8f6'], [alice, 'g1f3'], [bob, 'f8e7'], [alice, 'B@c4']] as [Player, string][]) await act(p, id, a, ply++);
    await showsPly(bob.page, ply);
    await dragMove(bob.page, 'e8', 'g8', 'black');
    await showsPly(bob.page, ply + 1);
    await expect(bob.page.locator('#choice')).toBeHidden();
    expect((await lastAction(bob, id, ply + 1)).human).toBe('O-O');
    expect(errors).toEqual([]);
  });

  test(`Chessgi: into the pocket from the menu, a drop from the palette, a general travel in the travel frame (${size.name})`, async ({ browser }) => {
    const errors: string[] = [];
    const { alice, bob, id } = await twoPlayers(browser, 'chessgi', size, errors, 'cooldown=1');
    await act(alice, id, 'e2e4', 0);
    await act(bob, id, 'd7d5', 1);
    await act(alice, id, 'e4d5', 2);
    await act(bob, id, 'd8d5', 3);
    await showsPly(alice.page, 4);
    // The knight into the pocket until move 6; both pockets say when it returns, in words.
    await openMenu(alice.page, 'g1');
    await expect(alice.page.locator('#menu-forward')).toHaveText('Into the pocket until move…');
    await alice.page.locator('#menu-forward').click();
    await alice.page.locator('#forward-move').fill('6');
    await alice.page.locator('#forward-confirm').click();
    await showsPly(alice.page, 5);
    for (const p of [alice, bob]) await expect(p.page.locator('#game')).toContainText('Knight returns at move 6');
    await expect(alice.page.locator('#panels')).not.toContainText("'travel'");

    // Bob answers; Alice drops her pawn from her pocket, beside the board.
    await act(bob, id, 'b8c6', 5);
    await showsPly(alice.page, 6);
    await alice.page.locator('#pocket-bottom button.place[data-piece="P"]').click();
    await clickSquare(alice.page, 'e3');
    await showsPly(alice.page, 7);
    expect((await lastAction(alice, id, 7)).coord).toBe('P@e3');

    // A general travel: the earlier position is shown on the main board in its travel frame, where
    // the move is dragged and confirmed.
    await act(bob, id, 'e7e5', 7);
    await showsPly(alice.page, 8);
    const general = (await gameState(alice, id)).legal.filter((a) => (a as { at_node?: boolean }).at_node);
    expect(general.length).toBeGreaterThan(0);
    const pick = general.find((a) => a.from === 'b1' && a.to === 'c3') ?? general.find((a) => a.from && a.to)!;
    await alice.page.locator(`#timelines .target-pick[data-node="${pick.arg}"]`).click();
    await expect(alice.page.locator('.board-wrap')).toHaveClass(/travel/);
    await dragMove(alice.page, pick.from!, pick.to!);
    await expect(alice.page.locator('#travel-confirm')).toBeVisible();
    await screenshot(alice.page, `travel-frame-chessgi-${size.name}`);
    await alice.page.locator('#travel-confirm').click();
    await showsPly(alice.page, 9);
    expect((await lastAction(alice, id, 9)).coord).toBe(pick.coord);
    await expect(alice.page.locator('#game')).toHaveAttribute('data-timelines', '2');
    expect(errors).toEqual([]);
  });
}
