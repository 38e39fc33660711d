// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the parts of the game page ask of one another. The page (game.ts) owns the main board and
// the game's rules; the timelines view and the move list (timelines.ts, movelist.ts) show the record
// and let the player look back or travel from an earlier position; the clocks, sounds and banner
// follow the live game. Each part is built with its container and the host it may call, and
// redrawn with `update`, so that no part reaches into another's elements.

import type { Action, Color, GameNode, KindInfo } from './api';

/** The record as every part sees it: the page's own rules computed it (rules.ts). */
export interface RecordView {
  /** The present node's ply. */
  ply: number;
  nodes: GameNode[];
  /** Every action played, in order; actions[i] made node i + 1. */
  actions: Action[];
  kinds: Record<string, KindInfo>;
}

/** What the main board does for the other parts. */
export interface BoardHost {
  /** Shows node `ply`'s position on the main board in a "not the present" frame; null: the present again. */
  showNode(ply: number | null): void;
  /**
   * Offers time-travel actions that start from an earlier position (a Gifford king going back, a
   * Chessgi general travel): the main board shows node `ply`'s position in a "travel" frame, where
   * the player drags or taps one of `actions` and confirms it; the page then plays it. `title` says
   * what is being done ("King back to move 3, timeline 1").
   */
  offerTravel(ply: number, actions: Action[], title: string): void;
  /** The legal actions of the present position (computed in the page). */
  legal(): Action[];
  /** The side the board is seen from. */
  orientation(): Color;
}
