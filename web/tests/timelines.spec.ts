// SPDX-License-Identifier: GPL-3.0-or-later
//
// The timelines as a tree (issue 27, item 3), at phone and desktop size: the move list groups each
// timeline's moves, greys the abandoned ones and says where a branch left its parent; the arrow
// keys walk the tree; a Gifford king's way back is chosen on the timelines view and made on the
// main board's travel frame; so is a Chessgi general travel.
import { test, expect, type Page } from '@playwright/test';
import { clickSquare, closeContexts, createGame, dragMove, expectBoard, gameState, newPlayer, showsPly, type Player } from './helpers';

test.afterEach(closeContexts);

/** Plays `actions` through the API, the players taking turns from ply `from`. */
async function play(id: string, white: Player, black: Player, actions: string[], from = 0): Promise<void> {
  for (const [i, action] of actions.entries()) {
    const ply = from + i;
    const p = ply % 2 === 0 ? white : black;
    const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply } });
    expect(reply.status(), await reply.text()).toBe(200);
  }
}

/**
 * A screenshot of the page (test-results/screens), after checking that nothing in this spec's parts
 * (the move list, the timelines view, the travel frame) sticks out of its part: they wrap or scroll
 * inside. Where the parts sit on the page, and the page's sideways scroll on a phone, are the
 * screens' spec's to check (helpers.screenshot).
 */
async function shot(page: Page, name: string): Promise<void> {
  const wide = await page.evaluate(() => {
    const out: string[] = [];
    for (const root of Array.from(document.querySelectorAll<HTMLElement>('#move-list, #timelines, #viewing'))) {
      const edge = root.getBoundingClientRect().right;
      for (const el of Array.from(root.querySelectorAll<HTMLElement>('*'))) {
        const r = el.getBoundingClientRect();
        // The timelines' columns scroll sideways inside their row, by design.
        if (r.width > 0 && r.right > edge + 0.5 && !el.closest('.timeline-columns')) out.push(`${el.tagName.toLowerCase()}.${el.className}`);
      }
    }
    return out;
  });
  expect(wide, `${name}: wider than its part`).toEqual([]);
  await page.screenshot({ path: `${process.env.TTCHESS_SHOTS ?? 'test-results/screens'}/${name}.png`, fullPage: true });
}

/** The ply of the move marked as shown in the move list. */
async function shownPly(page: Page): Promise<string | null> {
  return page.locator('#move-list li.shown').getAttribute('data-ply');
}

// Gifford: the bishop is sent forward and arrives, then the king goes back to move 3 (ply 4), which
// starts timeline 2 at ply 9.
const GIFFORD = ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5'];

for (const width of [390, 1280]) {
  const size = { width, height: width < 500 ? 844 : 900 };

  test(`arrow keys walk the moves and timelines (${width} px)`, async ({ browser }) => {
    const errors: string[] = [];
    const alice = await newPlayer(browser, 'tla', errors);
    const bob = await newPlayer(browser, 'tlb', errors);
    const id = await createGame(alice, { variant: 'gifford', color: 'white', opponent: bob.name });
    await play(id, alice, bob, [...GIFFORD, 'Ke1<3@e3', 'Nf6']);
    const page = alice.page;
    await page.setViewportSize(size);
    await page.goto(`/games/${id}`);
    await showsPly(page, 10);
    await expect(page.locator('#game')).toHaveAttribute('data-timelines', '2');

    // Two groups; the second says where it left the first; the first's later moves are abandoned.
    const groups = page.locator('#move-list .tl-group');
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(1).locator('.tl-name')).toHaveText('Timeline 2 from 3. Ke1<3@e3');
    await expect(groups.nth(1)).toHaveClass(/present/);
    await expect(groups.nth(0)).toHaveClass(/abandoned/);
    await expect(page.locator('#move-list li[data-ply="7"]')).toHaveClass(/abandoned/);
    await expect(page.locator('#move-list li[data-ply="3"]')).not.toHaveClass(/abandoned/);
    await expect(page.locator('#move-list li[data-ply="10"]')).toHaveClass(/present/);

    await page.locator('.game-title').click();
    await page.keyboard.press('Home');
    await expect(page.locator('#viewing')).toContainText('ply 0');
    await expect(page.locator('.board-wrap')).toHaveClass(/past/);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    // Ply 4 has two children: → stays on timeline 1.
    await expect.poll(() => shownPly(page)).toBe('5');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => shownPly(page)).toBe('9');
    await expectBoard(page, { e3: 'K', e1: 'K', c4: '.' });
    await expect(page.locator('#viewing')).toContainText('timeline 2');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => shownPly(page)).toBe('5');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => shownPly(page)).toBe('4');
    // The bishop sent forward is in transit at ply 4: circled where it left, with its move.
    await expect(page.locator('#board svg text', { hasText: /^4$/ })).toHaveCount(1);
    await shot(page, `timelines-keys-${width}`);
    await page.keyboard.press('End');
    await expect(page.locator('#viewing')).toBeHidden();
    await expect(page.locator('.board-wrap')).not.toHaveClass(/past/);
    // A click on a move shows it too; the keys leave a text field alone.
    await page.locator('#move-list li[data-ply="2"]').click();
    await expect(page.locator('#viewing')).toContainText('ply 2');
    await page.locator('#move-input').focus();
    await page.keyboard.press('Home');
    await expect(page.locator('#viewing')).toContainText('ply 2');
    expect(errors).toEqual([]);
  });

  test(`a Gifford king goes back, chosen on the timelines (${width} px)`, async ({ browser }) => {
    const errors: string[] = [];
    const alice = await newPlayer(browser, 'gka', errors);
    const bob = await newPlayer(browser, 'gkb', errors);
    const id = await createGame(alice, { variant: 'gifford', color: 'white', opponent: bob.name });
    await play(id, alice, bob, GIFFORD);
    const page = alice.page;
    await page.setViewportSize(size);
    await page.goto(`/games/${id}`);
    await showsPly(page, 8);
    // The position the king may go back to is marked on the timeline.
    await expect(page.locator('#timelines .travel-hint')).toBeVisible();
    const target = page.locator('#timelines .target-pick[data-node="4"]');
    await expect(target).toHaveAttribute('title', 'King back to move 3, timeline 1');
    await target.click();
    await expect(page.locator('#viewing.travel-frame')).toContainText('King back to move 3');
    await expect(page.locator('.board-wrap')).toHaveClass(/travel/);
    // The earlier position: the bishop not yet arrived, the knight on g1.
    await expectBoard(page, { c4: '.', g1: 'N', e1: 'K', e3: '.' });
    await clickSquare(page, 'e3');
    await expect(page.locator('#travel-confirm')).toHaveText('Play Ke1<3@e3');
    await expectBoard(page, { e3: 'K', e1: 'K' });
    await shot(page, `timelines-king-back-${width}`);
    await page.locator('#travel-confirm').click();
    await showsPly(page, 9);
    await expect(page.locator('#game')).toHaveAttribute('data-timelines', '2');
    await expect(page.locator('#viewing')).toBeHidden();
    await expect(page.locator('#move-list .tl-group[data-timeline="2"] .tl-name')).toHaveText('Timeline 2 from 3. Ke1<3@e3');
    expect(errors).toEqual([]);
  });

  test(`a Chessgi general travel made from the timelines view (${width} px)`, async ({ browser }) => {
    const errors: string[] = [];
    const alice = await newPlayer(browser, 'cga', errors);
    const bob = await newPlayer(browser, 'cgb', errors);
    const id = await createGame(alice, { variant: 'chessgi', color: 'white', opponent: bob.name });
    // Each side captures a pawn: both pockets hold one, so White may travel.
    await play(id, alice, bob, ['e4', 'd5', 'exd5', 'Qxd5']);
    const page = alice.page;
    await page.setViewportSize(size);
    await page.goto(`/games/${id}`);
    await showsPly(page, 4);
    // White was to move at plies 0 and 2: both are marked; ply 2 is chosen.
    await expect(page.locator('#timelines .target-pick')).toHaveCount(2);
    await page.locator('#timelines .target-pick[data-node="2"]').click();
    await expect(page.locator('#viewing.travel-frame')).toContainText('Travel to move 2, white to play, on timeline 1');
    await expectBoard(page, { e4: 'P', d5: 'p', d1: 'Q', d8: 'q' });
    // A knight's move of the queen's side: on a phone the board is still wider than the window.
    await dragMove(page, 'b1', 'c3');
    await expect(page.locator('#travel-confirm')).toContainText('Nc3');
    await expectBoard(page, { c3: 'N', b1: '.' });
    await shot(page, `timelines-chessgi-travel-${width}`);
    await page.locator('#travel-confirm').click();
    await showsPly(page, 5);
    await expect(page.locator('#game')).toHaveAttribute('data-timelines', '2');
    await expectBoard(page, { c3: 'N', b1: '.', e4: 'P', d5: 'p' });
    await expect(page.locator('#move-list .tl-group[data-timeline="2"] .tl-name')).toContainText('Timeline 2 from 2.');
    expect(errors).toEqual([]);
  });
}

test('an open van Gog obligation shows on the board as an arrow', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'vga', errors);
  const bob = await newPlayer(browser, 'vgb', errors);
  const id = await createGame(alice, { variant: 'vangog', color: 'white', opponent: bob.name });
  const arrival = (await gameState(alice, id)).legal.find(a => a.kind === 'arrival');
  expect(arrival, 'an arrival from the future at the start').toBeTruthy();
  await play(id, alice, bob, [arrival!.coord]);
  const page = alice.page;
  await page.goto(`/games/${id}`);
  await showsPly(page, 1);
  // The piece arrived owes its departure from its square of origin to the one it arrived on.
  await expect(page.locator('#board svg line')).toHaveCount(1);
  await page.locator('#move-list li[data-ply="0"]').click();
  await expect(page.locator('#board svg line')).toHaveCount(0);
  expect(errors).toEqual([]);
});
