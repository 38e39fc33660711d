// SPDX-License-Identifier: GPL-3.0-or-later
//
// The board editor (/editor): for every variant a round trip (a FEN typed in and shown on the board,
// a piece dragged from the palette onto it and one taken off, one of the game's own parts changed,
// and the FEN read back as the library writes it), and a position the library refuses, with its
// sentence under the board and the buttons that need a usable position disabled.
import { test, expect, type Page } from '@playwright/test';
import { watchConsole } from './helpers';

/* The centre of a square on the editor's board, White at the bottom. */
async function squareAt(page: Page, key: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator('#editor-board cg-board').boundingBox())!;
  const file = key.charCodeAt(0) - 97, rank = Number(key[1]);
  return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (8 - rank + 0.5) * box.height / 8 };
}

async function dragTo(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

/* A piece of the palette dragged onto a square. */
async function dropFromPalette(page: Page, piece: string, key: string): Promise<void> {
  const box = (await page.locator(`.palette button[data-piece="${piece}"]`).boundingBox())!;
  await dragTo(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, await squareAt(page, key));
}

/* A piece taken off: dragged off the board with the move tool, or clicked with the delete tool. */
async function removePiece(page: Page, key: string, how: 'drag' | 'delete'): Promise<void> {
  if (how === 'delete') {
    await page.click('#tool-delete');
    const at = await squareAt(page, key);
    await page.mouse.click(at.x, at.y);
    return;
  }
  await page.click('#tool-move');
  const box = (await page.locator('#editor-board cg-board').boundingBox())!;
  await dragTo(page, await squareAt(page, key), { x: box.x + box.width + 60, y: box.y + box.height / 2 });
}

/* The placement of a FEN as the board shows it (data-fen): no marks, no pockets. */
function placementOf(fen: string): string {
  return fen.split(' ')[0].replace(/\[.*\]/, '').replace(/['"~]/g, '');
}

type Case = {
  variant: string;
  fen: string;
  add: [string, string];
  remove: [string, 'drag' | 'delete'];
  part: (page: Page) => Promise<void>;
  expected: string;
};

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
const EDITED = 'rnbqkbnr/pppppppp/8/8/3N4/8/PPPPPPP1/RNBQKBNR';

const CASES: Case[] = [
  {
    variant: 'chess', fen: '4k3/8/8/8/8/8/4P3/4K2R w K - 0 1', add: ['N', 'd4'], remove: ['e2', 'delete'],
    part: page => page.uncheck('#castle-wk'), expected: '4k3/8/8/8/3N4/8/8/4K2R w - - 0 1',
  },
  {
    variant: 'gifford', fen: `${START} w KQkq - 0 3 -/- 0/0`, add: ['N', 'd4'], remove: ['h2', 'drag'],
    part: page => page.fill('#part-arrivals-white', 'P5'), expected: `${EDITED} w KQkq - 0 3 P5/- 0/0`,
  },
  {
    variant: 'vangog', fen: `${START} w KQkq - 0 1`, add: ['N', 'd4'], remove: ['h2', 'delete'],
    part: page => page.fill('#part-travellers', 'Nc3'), expected: `${EDITED} w KQkq - 0 1 - - - Nc3`,
  },
  {
    variant: 'vangog-past', fen: `${START} w KQkq - 0 1`, add: ['N', 'c3'], remove: ['h2', 'drag'],
    part: async page => {
      await page.fill('#part-origins', 'c3:1');
      await page.fill('#part-obligations', '1:Nb1c3');
    },
    expected: 'rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPP1/RNBQKBNR w KQkq - 0 1 c3:1 1:Nb1c3 - -',
  },
  {
    variant: 'vangog-future', fen: `${START} w KQkq - 0 1 - - - -`, add: ['N', 'd4'], remove: ['h2', 'delete'],
    part: page => page.fill('#part-travellers', 'Nc3'), expected: `${EDITED} w KQkq - 0 1 - - - Nc3`,
  },
  {
    variant: 'travelers',
    fen: 'rnbqN"bnr/pppppppp/5N\'2/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1 b1:1 Nf6:1 -',
    add: ['n', 'd5'], remove: ['h7', 'drag'],
    part: async page => {
      await page.click('#tool-mark');
      const at = await squareAt(page, 'f6');
      await page.mouse.click(at.x, at.y);
    },
    expected: 'rnbqN"bnr/ppppppp1/5N"2/3n4/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1 b1:1 Nf6:1 -',
  },
  {
    variant: 'chessgi-classic', fen: `${START}[] w KQkq - 0 1`, add: ['N', 'd4'], remove: ['h2', 'delete'],
    part: page => page.click('#pocket-white [data-piece="N"] .pocket-plus'), expected: `${EDITED}[N] w KQkq - 0 1`,
  },
  {
    variant: 'chessgi', fen: `${START}[] w KQkq - 0 1 -/- 0`, add: ['N', 'd4'], remove: ['h2', 'drag'],
    part: page => page.fill('#part-travellers-white', 'N5'), expected: `${EDITED}[] w KQkq - 0 1 N5/- 0`,
  },
];

test.describe('board editor', () => {
  for (const c of CASES) {
    test(`round trip: ${c.variant}`, async ({ page }) => {
      const errors: string[] = [];
      watchConsole(page, errors);
      await page.goto(`/editor?variant=${c.variant}`);
      await expect(page.locator('#editor')).toHaveAttribute('data-usable', 'true');
      await page.fill('#editor-fen', c.fen);
      await expect(page.locator('#editor-board')).toHaveAttribute('data-fen', placementOf(c.fen));
      await expect(page.locator('#editor')).toHaveAttribute('data-usable', 'true');

      await dropFromPalette(page, c.add[0], c.add[1]);
      await removePiece(page, c.remove[0], c.remove[1]);
      await c.part(page);

      await expect(page.locator('#editor-fen')).toHaveValue(c.expected);
      await expect(page.locator('#editor-board')).toHaveAttribute('data-fen', placementOf(c.expected));
      await expect(page.locator('#editor-error')).toHaveText('');
      await expect(page.locator('#editor-analyse')).toBeEnabled();
      await expect(page.locator('#editor-play')).toBeEnabled();
      // The address opens the same position again.
      expect(new URL(page.url()).searchParams.get('fen')).toBe(c.expected);
      expect(errors).toEqual([]);
    });
  }

  test('a refused position shows the library\'s sentence', async ({ page }) => {
    const errors: string[] = [];
    watchConsole(page, errors);
    await page.goto('/editor?variant=chess');
    await page.click('#editor-clear');
    await expect(page.locator('#editor-error')).toHaveText('bad FEN: white has 0 kings, and chess needs exactly one king a side');
    await expect(page.locator('#editor')).toHaveAttribute('data-usable', 'false');
    await expect(page.locator('#editor-analyse')).toBeDisabled();
    await expect(page.locator('#editor-play')).toBeDisabled();
    // A FEN typed in that cannot even be read as a board: the board stays, the library says why.
    await page.fill('#editor-fen', '8/8/8 w - - 0 1');
    await expect(page.locator('#editor-error')).not.toHaveText('');
    await page.click('#editor-start');
    await expect(page.locator('#editor-error')).toHaveText('');
    await expect(page.locator('#editor-fen')).toHaveValue(`${START} w KQkq - 0 1`);
    expect(errors).toEqual([]);
  });
});
