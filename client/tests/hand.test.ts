import { describe, expect, it } from 'vitest';
import {
  groupHand, playability, selectedCardIds, selectionLegal, stepCount, suggestReturn, tapGroup,
  toggleJesters, type DCard,
} from '../src/games/dalmuti/hand';

const card = (n: number, copy: number): DCard => ({ id: `${String(n).padStart(2, '0')}-${String(copy).padStart(2, '0')}`, n });
const hand: DCard[] = [card(9, 1), card(4, 2), card(4, 1), card(1, 1), card(13, 1), card(9, 2), card(9, 3), card(13, 2), card(12, 4)];

describe('hand grouping', () => {
  it('groups by number, best first, jesters last, with counts', () => {
    const groups = groupHand(hand);
    expect(groups.map((g) => [g.n, g.cards.length])).toEqual([[1, 1], [4, 2], [9, 3], [12, 1], [13, 2]]);
    expect(groups[1].cards.map((c) => c.id)).toEqual(['04-01', '04-02']);
  });
});

describe('playable groups', () => {
  const groups = groupHand(hand);
  const g = (n: number) => groups.find((x) => x.n === n)!;

  it('leading: everything is playable, jesters alone too', () => {
    for (const group of groups) expect(playability(group, 2, null)).toBe('playable');
  });

  it('on 9 x 3: 8 x 2 is the wrong count, 9 x 3 the same number, 4+4+jester needs a jester', () => {
    const top = { count: 3, rank: 9 };
    expect(playability(g(9), 2, top)).toBe('blocked');
    expect(playability(g(4), 2, top)).toBe('needsJester');
    expect(playability(g(1), 2, top)).toBe('needsJester');
    expect(playability(g(12), 2, top)).toBe('blocked');
  });

  it('a lone jester cannot follow 12 x 1 but any number can follow a lone jester', () => {
    expect(playability(g(13), 2, { count: 1, rank: 12 })).toBe('blocked');
    expect(playability(g(12), 2, { count: 1, rank: 13 })).toBe('playable');
  });

  it('without enough jesters a short group is blocked', () => {
    expect(playability(g(1), 1, { count: 3, rank: 9 })).toBe('blocked');
  });
});

describe('selection', () => {
  const groups = groupHand(hand);
  const g = (n: number) => groups.find((x) => x.n === n)!;

  it('tapping while following selects the needed count and mixes jesters when needed', () => {
    const sel = tapGroup(g(4), 2, { count: 3, rank: 9 })!;
    expect(sel).toEqual({ n: 4, count: 3, mixJesters: true });
    expect(selectedCardIds(sel, hand)).toEqual(['04-01', '04-02', '13-01']);
    expect(selectionLegal(sel, hand, { count: 3, rank: 9 })).toBe(true);
  });

  it('jesters x2 + 1 is a legal 1 x 3', () => {
    const sel = tapGroup(g(1), 2, { count: 3, rank: 9 })!;
    expect(selectedCardIds(sel, hand)).toEqual(['01-01', '13-01', '13-02']);
  });

  it('tapping while leading selects the whole group; +/- stay within the group', () => {
    const sel = tapGroup(g(9), 2, null)!;
    expect(sel.count).toBe(3);
    expect(stepCount(sel, g(9), 2, +1).count).toBe(3);
    expect(stepCount(sel, g(9), 2, -5).count).toBe(1);
    const mixed = toggleJesters(sel, g(9), 2);
    expect(stepCount(mixed, g(9), 2, +2).count).toBe(5);
    expect(toggleJesters(stepCount(mixed, g(9), 2, +2), g(9), 2).count).toBe(3);
  });

  it('a blocked group gives no selection and a wrong count is not legal', () => {
    expect(tapGroup(g(12), 2, { count: 1, rank: 9 })).toBeNull();
    const sel = { n: 4, count: 2, mixJesters: false };
    expect(selectionLegal(sel, hand, { count: 3, rank: 9 })).toBe(false);
  });

  it('suggests the highest numbers for the tax return, never jesters first', () => {
    expect(suggestReturn(hand, 2)).toEqual(['12-04', '09-01']);
  });
});
