import { describe, expect, it } from 'vitest';
import {
  BOARD, buildCosts, cellOf, cityTolls, invested, passesStart, pathBetween, tollAt,
} from '../src/games/marble/board';

describe('marble board data', () => {
  it('has 40 squares: 24 cities, 4 tours, 7 cards, 5 special', () => {
    const count = (k: string) => BOARD.filter((t) => t.kind === k).length;
    expect(BOARD).toHaveLength(40);
    expect(count('city')).toBe(24);
    expect(count('tour')).toBe(4);
    expect(count('card')).toBe(7);
    expect(40 - 24 - 4 - 7).toBe(5);
  });

  it('matches the price table rows (3.2), rounding half up, from the engine\'s tables', () => {
    expect(buildCosts(1)).toEqual([3, 6, 9, 12]); // 타이베이 6
    expect(cityTolls(1)).toEqual([1, 4, 9, 15, 24]);
    expect(buildCosts(36)).toEqual([18, 35, 53, 70]); // 뉴욕 35
    expect(cityTolls(36)).toEqual([7, 21, 53, 88, 140]);
    expect(cityTolls(39)).toEqual([8, 24, 60, 100, 160]); // 서울 40
    expect(cityTolls(34)).toEqual([6, 19, 48, 80, 128]); // 샌프란시스코 32
    expect(BOARD[39]).toMatchObject({ name: '서울', kind: 'city', group: 'H', price: 40 });
  });

  it('doubles tour tolls when the owner has two or more tours', () => {
    expect(tollAt(5, 0, 1)).toBe(10);
    expect(tollAt(35, 0, 2)).toBe(24);
    expect(tollAt(35, 0, 3)).toBe(24);
    expect(tollAt(39, 3)).toBe(100);
  });

  it('counts the investment for the total assets example (seoul villa + building)', () => {
    expect(invested(39, 2)).toBe(100);
    expect(invested(5, 0)).toBe(20);
  });

  it('shows the fund squares by their short names', () => {
    expect(BOARD[20].name).toBe('기금 받는 곳');
    expect(BOARD[38].name).toBe('기금 내는 곳');
  });
});

describe('board geometry', () => {
  it('places every square on the edge of an 11 x 11 grid, each cell once', () => {
    const seen = new Set<string>();
    for (let p = 0; p < 40; p++) {
      const { row, col } = cellOf(p);
      expect(row === 0 || row === 10 || col === 0 || col === 10).toBe(true);
      seen.add(`${row},${col}`);
    }
    expect(seen.size).toBe(40);
  });

  it('puts the corners at start bottom-right, island bottom-left, fund top-left, space top-right', () => {
    expect(cellOf(0)).toEqual({ row: 10, col: 10 });
    expect(cellOf(10)).toEqual({ row: 10, col: 0 });
    expect(cellOf(20)).toEqual({ row: 0, col: 0 });
    expect(cellOf(30)).toEqual({ row: 0, col: 10 });
  });

  it('neighbouring squares are neighbouring cells (clockwise path)', () => {
    for (let p = 0; p < 40; p++) {
      const a = cellOf(p);
      const b = cellOf((p + 1) % 40);
      expect(Math.abs(a.row - b.row) + Math.abs(a.col - b.col)).toBe(1);
    }
  });

  it('walks the path square by square across the start', () => {
    expect(pathBetween(37, 2)).toEqual([38, 39, 0, 1, 2]);
    expect(pathBetween(4, 4)).toEqual([]);
  });

  it('knows when space travel passes the start (30 -> 5 yes, 30 -> 39 no)', () => {
    expect(passesStart(30, 5)).toBe(true);
    expect(passesStart(30, 39)).toBe(false);
    expect(passesStart(30, 0)).toBe(true);
  });
});
