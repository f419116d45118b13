// The board of marble.md 3.1–3.4, read from the engine's own tables (src/gen/tables.gen.ts,
// written by `npm run gen` from `joke tables`), and its layout on an 11 × 11 grid around the edge.

import { TABLES } from '../../gen/tables.gen';

const T = TABLES.marble;

export type TileKind = (typeof T.board)[number]['kind'];

export interface Tile {
  pos: number;
  name: string;
  kind: TileKind;
  group?: string;
  price?: number;
}

// The names players read on a phone: the engine's full names, the fund squares shortened.
const SHORT_NAMES: Record<string, string> = {
  '사회복지기금 받는 곳': '기금 받는 곳',
  '사회복지기금 내는 곳': '기금 내는 곳',
};

export const BOARD: readonly Tile[] = T.board.map((tile) => ({ ...tile, name: SHORT_NAMES[tile.name] ?? tile.name }));
export const BOARD_SIZE = BOARD.length;
export const SPACE_POS = T.positions.space;
export const ISLAND_POS = T.positions.island;
export const SPACEPORT_POS = T.positions.spaceport;
export const SPACE_FEE = T.spaceFee;
export const FUND_PAYMENT = T.fundPayment;

export const LEVEL_NAMES: readonly string[] = T.levelNames;
export const LEVEL_ICONS = ['', '🏠', '🏢', '🏨', '🗼'] as const;

type ByPos = Readonly<Record<string, readonly number[]>>;
const row = (table: ByPos, pos: number): readonly number[] => table[String(pos)] ?? [];

/** Building cost of each level 1..4 of the city on `pos` (index 0 = villa). */
export function buildCosts(pos: number): readonly number[] {
  return row(T.buildCosts, pos);
}

/** Toll of the city on `pos` at each level 0..4 (land only, villa, building, hotel, landmark). */
export function cityTolls(pos: number): readonly number[] {
  return row(T.cityTolls, pos);
}

/** The toll a visitor pays on `pos` at `level`; a tour's depends on how many its owner holds. */
export function tollAt(pos: number, level: number, ownerTourCount = 1): number {
  const tour = row(T.tourTolls, pos);
  if (tour.length) return tour[Math.min(Math.max(ownerTourCount, 1), tour.length) - 1];
  return cityTolls(pos)[level] ?? 0;
}

/** Land price plus every building cost paid up to `level` (the spec's "investment"). */
export function invested(pos: number, level: number): number {
  const paid = row(T.invested, pos);
  return paid[Math.min(level, paid.length - 1)] ?? 0;
}

export function isLand(pos: number): boolean {
  const kind = BOARD[pos].kind;
  return kind === 'city' || kind === 'tour';
}

export function isTour(pos: number): boolean {
  return BOARD[pos].kind === 'tour';
}

/** Grid cell (row, col) of a square on the 11 × 11 board: 0 bottom right, clockwise. */
export function cellOf(pos: number): { row: number; col: number } {
  const p = ((pos % BOARD_SIZE) + BOARD_SIZE) % BOARD_SIZE;
  if (p <= 10) return { row: 10, col: 10 - p };
  if (p <= 20) return { row: 20 - p, col: 0 };
  if (p <= 30) return { row: 0, col: p - 20 };
  return { row: p - 30, col: 10 };
}

/** Which side of the board a square sits on (for text orientation). */
export function sideOf(pos: number): 'bottom' | 'left' | 'top' | 'right' | 'corner' {
  if (pos % 10 === 0) return 'corner';
  if (pos < 10) return 'bottom';
  if (pos < 20) return 'left';
  if (pos < 30) return 'top';
  return 'right';
}

/** The squares a token steps on going clockwise from `from` to `to` (excluding `from`). */
export function pathBetween(from: number, to: number): number[] {
  const steps = (to - from + BOARD_SIZE) % BOARD_SIZE;
  return Array.from({ length: steps }, (_, i) => (from + i + 1) % BOARD_SIZE);
}

/** Going clockwise from `from` to `to`, does the token pass or land on the start square? */
export function passesStart(from: number, to: number): boolean {
  return to === 0 || to < from;
}
