// The board of marble.md 3.1–3.4 and its layout on an 11 × 11 grid around the edge.

export type TileKind = 'start' | 'city' | 'tour' | 'card' | 'island' | 'fundReceive' | 'space' | 'fundPay';

export interface Tile {
  pos: number;
  name: string;
  kind: TileKind;
  group?: string;
  price?: number;
}

export const BOARD_SIZE = 40;
export const SPACE_POS = 30;
export const ISLAND_POS = 10;
export const SPACEPORT_POS = 25;
export const SPACE_FEE = 20;

const CITIES: Record<number, [string, string, number]> = {
  1: ['타이베이', 'A', 6], 3: ['마닐라', 'A', 6], 4: ['하노이', 'A', 8],
  6: ['방콕', 'B', 10], 8: ['싱가포르', 'B', 10], 9: ['카이로', 'B', 12],
  11: ['이스탄불', 'C', 14], 13: ['아테네', 'C', 14], 14: ['로마', 'C', 16],
  16: ['코펜하겐', 'D', 18], 18: ['스톡홀름', 'D', 18], 19: ['베를린', 'D', 20],
  21: ['부에노스아이레스', 'E', 22], 23: ['상파울루', 'E', 22], 24: ['시드니', 'E', 24],
  26: ['리스본', 'F', 26], 27: ['마드리드', 'F', 26], 29: ['파리', 'F', 28],
  31: ['런던', 'G', 30], 32: ['밴쿠버', 'G', 30], 34: ['샌프란시스코', 'G', 32],
  36: ['뉴욕', 'H', 35], 37: ['도쿄', 'H', 35], 39: ['서울', 'H', 40],
};
const TOURS: Record<number, [string, number, number]> = {
  5: ['제주도', 20, 10], 15: ['경주', 20, 10], 25: ['우주센터', 30, 15], 35: ['부산', 25, 12],
};
const SPECIAL: Record<number, [string, TileKind]> = {
  0: ['출발', 'start'], 10: ['무인도', 'island'], 20: ['기금 받는 곳', 'fundReceive'],
  30: ['우주여행', 'space'], 38: ['기금 내는 곳', 'fundPay'],
};

function tileAt(pos: number): Tile {
  const city = CITIES[pos];
  if (city) return { pos, name: city[0], kind: 'city', group: city[1], price: city[2] };
  const tour = TOURS[pos];
  if (tour) return { pos, name: tour[0], kind: 'tour', price: tour[1] };
  const special = SPECIAL[pos];
  if (special) return { pos, name: special[0], kind: special[1] };
  return { pos, name: '행운카드', kind: 'card' };
}

export const BOARD: readonly Tile[] = Array.from({ length: BOARD_SIZE }, (_, pos) => tileAt(pos));

export const LEVEL_NAMES = ['땅', '별장', '빌딩', '호텔', '랜드마크'] as const;
export const LEVEL_ICONS = ['', '🏠', '🏢', '🏨', '🗼'] as const;

// Factors of 3.2 as fractions [numerator, denominator], rounded half up like the engine.
const BUILD_FACTORS: [number, number][] = [[1, 2], [1, 1], [3, 2], [2, 1]];
const TOLL_FACTORS: [number, number][] = [[1, 5], [3, 5], [3, 2], [5, 2], [4, 1]];

function halfUp(price: number, [num, den]: [number, number]): number {
  return Math.floor((2 * price * num + den) / (2 * den));
}

/** Building cost of each level 1..4 (index 0 = villa). */
export function buildCosts(price: number): number[] {
  return BUILD_FACTORS.map((f) => halfUp(price, f));
}

/** Toll of a city at each level 0..4 (land only, villa, building, hotel, landmark). */
export function cityTolls(price: number): number[] {
  return TOLL_FACTORS.map((f, level) => Math.max(level === 0 ? 1 : 0, halfUp(price, f)));
}

/** The toll a visitor pays on `pos` at `level`; tours double when their owner holds 2 or more. */
export function tollAt(pos: number, level: number, ownerTourCount = 1): number {
  const tour = TOURS[pos];
  if (tour) return tour[2] * (ownerTourCount >= 2 ? 2 : 1);
  const tile = BOARD[pos];
  return tile.price === undefined ? 0 : cityTolls(tile.price)[level];
}

/** Land price plus every building cost paid up to `level` (the spec's "investment"). */
export function invested(pos: number, level: number): number {
  const price = BOARD[pos].price ?? 0;
  return price + buildCosts(price).slice(0, level).reduce((a, b) => a + b, 0);
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
