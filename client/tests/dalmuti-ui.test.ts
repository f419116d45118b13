import { describe, expect, it } from 'vitest';
import {
  blockedReason, countRange, describeSelection, groupHand, selectedCardIds, selectionProblem, stepCount, tapGroup,
  toggleJesters, type DCard,
} from '../src/games/dalmuti/hand';
import { openingDraw, roundEnd, taxFlights } from '../src/games/dalmuti/moments';
import { FAN, FLYING_CARD, flightOf, glideStart } from '../src/games/dalmuti/paths';
import { arcSeats } from '../src/games/dalmuti/ring';
import { PRESENCE_LABELS, presenceOf } from '../src/ui/Presence';
import { confirmedCount, handCheckStatus, type DalmutiView } from '../src/games/dalmuti/view';
import { CARD_NAMES, titlesInOrder } from '../src/games/dalmuti/words';

const card = (n: number, copy: number): DCard => ({ id: `${String(n).padStart(2, '0')}-${String(copy).padStart(2, '0')}`, n });
const hand: DCard[] = [card(12, 1), card(12, 2), card(4, 1), card(4, 2), card(1, 1), card(13, 1), card(9, 1)];
const g = (n: number, h = hand) => groupHand(h).find((x) => x.n === n)!;
const UNRESOLVED = /\((?:을|를|이|가|은|는|와|과|으|으로|로)\)/;

describe('what a selection will play', () => {
  it('leading with the jester toggle says exactly what goes down', () => {
    const sel = toggleJesters(tapGroup(g(12), 1, null)!, g(12), 1, null);
    expect(selectedCardIds(sel, hand)).toEqual(['12-01', '12-02', '13-01']);
    expect(describeSelection(sel, hand)).toBe('12 세 장 · 광대 1장 포함');
    // the toggle with fewer cards still puts a jester in: one 12 and the jester
    const two = stepCount(sel, g(12), 1, -1, null);
    expect(describeSelection(two, hand)).toBe('12 두 장 · 광대 1장 포함');
    expect(stepCount(two, g(12), 1, -1, null).count).toBe(2); // 12 + jester is the least with the toggle on
    expect(describeSelection(toggleJesters(two, g(12), 1, null), hand)).toBe('12 두 장');
  });

  it('names the jesters alone and counts in Korean', () => {
    const jesterHand = [...hand, card(13, 2)];
    const sel = tapGroup(g(13, jesterHand), 2, null)!;
    expect(describeSelection(sel, jesterHand)).toBe('광대 두 장');
    expect(describeSelection({ n: 9, count: 1, mixJesters: false }, hand)).toBe('9 한 장');
  });

  it('following, +/- cannot leave the needed count, and a wrong set names its problem', () => {
    const top = { count: 2, rank: 9 };
    expect(countRange(g(4), 1, false, top)).toEqual([2, 2]);
    const sel = tapGroup(g(4), 1, top)!;
    expect(stepCount(sel, g(4), 1, +1, top).count).toBe(2);
    expect(stepCount(sel, g(4), 1, -1, top).count).toBe(2);
    expect(selectionProblem(sel, hand, top)).toBeNull();
    expect(selectionProblem({ n: 4, count: 1, mixJesters: false }, hand, top)).toBe('앞사람과 같은 장수(2장)로 내야 해요');
    expect(selectionProblem({ n: 12, count: 2, mixJesters: false }, hand, top)).toBe('더 낮은 숫자만 낼 수 있어요');
    expect(selectionProblem({ n: 4, count: 2, mixJesters: false }, hand, null)).toBeNull();
  });

  it('following with the toggle swaps a number card for the jester, same count', () => {
    const top = { count: 2, rank: 9 };
    const sel = toggleJesters(tapGroup(g(4), 1, top)!, g(4), 1, top);
    expect(selectedCardIds(sel, hand)).toEqual(['04-01', '13-01']);
    expect(describeSelection(sel, hand)).toBe('4 두 장 · 광대 1장 포함');
  });

  it('a dim group says why', () => {
    const top = { count: 2, rank: 9 };
    expect(blockedReason(g(12), 1, top)).toBe('더 낮은 숫자만 낼 수 있어요');
    expect(blockedReason(g(9), 1, top)).toBe('더 낮은 숫자만 낼 수 있어요');
    expect(blockedReason(g(13), 0, top)).toBe('광대만 내면 13이라 따라 낼 수 없어요');
    expect(blockedReason(g(1), 0, { count: 3, rank: 9 })).toBe('앞사람과 같은 세 장이 필요해요 · 1은 1장뿐이에요');
    expect(blockedReason(g(4), 0, { count: 3, rank: 9 })).toBe('앞사람과 같은 세 장이 필요해요 · 4는 2장뿐이에요');
    expect(blockedReason(g(1), 1, { count: 3, rank: 9 })).toBe('앞사람과 같은 세 장이 필요해요 · 광대를 섞어도 모자라요');
    expect(blockedReason(g(4), 1, top)).toBeNull();
    expect(blockedReason(g(12), 1, null)).toBeNull();
  });
});

const baseView = (over: Partial<DalmutiView>): DalmutiView => ({
  viewer: 'p1', game: 'dalmuti', discardCount: 0, result: null,
  options: {
    rounds: 3, scoring: 'rank-points', firstRanking: 'draw', revolution: true, jesterTaxable: false,
    passLocksOut: false, removeHighCards: false, turnSeconds: 30,
  },
  players: ['p1', 'p2', 'p3', 'p4'], order: ['p2', 'p1', 'p3', 'p4'],
  titles: {}, round: 1, phase: { kind: 'revolutionCheck', confirmed: { p1: false, p2: false, p3: true, p4: false } },
  revolution: 'none', revolutionBy: null, handCounts: {}, hand: [], trick: { leader: 'p2', top: null, passesSinceTop: [], lockedOut: [], pile: [] },
  current: null, finishOrder: [], roundResults: [], totals: {}, tax: [], ...over,
});

describe('the hand check reads the view', () => {
  it('decide, then wait for the others, or wait after declaring', () => {
    expect(handCheckStatus(baseView({}))).toBe('decide');
    const waiting = baseView({ phase: { kind: 'revolutionCheck', confirmed: { p1: true, p2: false, p3: true, p4: false } } });
    expect(handCheckStatus(waiting)).toBe('waiting');
    expect(confirmedCount(waiting)).toEqual([2, 4]);
    expect(handCheckStatus({ ...waiting, revolutionBy: 'p1' })).toBe('declared');
    expect(handCheckStatus({ ...waiting, revolutionBy: 'p2' })).toBe('waiting');
    expect(handCheckStatus(baseView({ viewer: null }))).toBe('watching');
    expect(handCheckStatus(baseView({ phase: { kind: 'playing' } }))).toBe('watching');
  });
});

describe('seats on an arc', () => {
  it('the others in turn order after me, left end to right end; a spectator sees all', () => {
    expect(arcSeats(['p2', 'p1', 'p3', 'p4'], 'p1')).toEqual([
      { id: 'p3', angle: 180 }, { id: 'p4', angle: 270 }, { id: 'p2', angle: 360 },
    ]);
    expect(arcSeats(['p1', 'p2', 'p3', 'p4'], null).map((p) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(arcSeats(['p1', 'p2', 'p3', 'p4', 'p5'], 'p5').map((p) => p.angle)).toEqual([180, 240, 300, 360]);
  });

  it('badges say a lost connection or an away seat in words', () => {
    const seat = { playerId: 'p2', nickname: '민호', bot: false, connected: true, host: false, botPolicy: null };
    expect(presenceOf(seat)).toBe('here');
    expect(PRESENCE_LABELS[presenceOf({ ...seat, connected: false })]).toBe('연결 끊김');
    expect(PRESENCE_LABELS[presenceOf({ ...seat, away: true })]).toBe('자리 비움 · 자동 진행');
    expect(presenceOf({ ...seat, bot: true, connected: false })).toBe('here');
  });
});

describe('moments', () => {
  it('the round-end screen: places, points, totals, next titles', () => {
    const e = { type: 'roundOver', round: 1, order: ['p3', 'p1', 'p4', 'p2'], points: { p3: 3, p1: 2, p4: 1, p2: 0 } };
    const info = roundEnd(e, { p1: 2, p2: 0, p3: 3, p4: 1 }, 3);
    expect(info.last).toBe(false);
    expect(info.rows.map((r) => [r.player, r.place, r.points, r.total, r.title])).toEqual([
      ['p3', 1, 3, 3, '대왕'], ['p1', 2, 2, 2, '소왕'], ['p4', 3, 1, 1, '소농노'], ['p2', 4, 0, 0, '대농노'],
    ]);
    expect(roundEnd({ ...e, round: 3 }, {}, 3).last).toBe(true);
  });

  it('the opening draw in its settled order, redraws kept', () => {
    const rows = openingDraw({ type: 'firstRankDraw', draws: { p1: [5], p2: [3, 9], p3: [3, 2], p4: [11] }, order: ['p3', 'p2', 'p1', 'p4'] });
    expect(rows.map((r) => [r.player, r.draws, r.title])).toEqual([
      ['p3', [3, 2], '대왕'], ['p2', [3, 9], '소왕'], ['p1', [5], '소농노'], ['p4', [11], '대농노'],
    ]);
  });

  it('tax flights carry faces only when the event does', () => {
    const flights = taxFlights([
      { type: 'taxPaid', from: 'p4', to: 'p1', count: 2, cardIds: ['02-01', '03-01'] },
      { type: 'taxPaid', from: 'p3', to: 'p2', count: 1 },
      { type: 'played', player: 'p1' },
    ]);
    expect(flights).toEqual([
      { from: 'p4', to: 'p1', count: 2, cardIds: ['02-01', '03-01'] },
      { from: 'p3', to: 'p2', count: 1, cardIds: undefined },
    ]);
  });

  it('no sentence of the table leaves a particle open', () => {
    const lines = [
      describeSelection({ n: 12, count: 3, mixJesters: true }, hand),
      blockedReason(g(1), 0, { count: 3, rank: 9 }),
      blockedReason(g(1), 1, { count: 3, rank: 9 }),
      blockedReason(g(12), 1, { count: 1, rank: 9 }),
    ];
    for (const line of lines) expect(String(line)).not.toMatch(UNRESOLVED);
  });
});

describe('the card table words come from the engine', () => {
  it('titles for each player count, first to last', () => {
    expect(Object.values(titlesInOrder(['a', 'b', 'c', 'd']))).toEqual(['대왕', '소왕', '소농노', '대농노']);
    expect(Object.values(titlesInOrder(['a', 'b', 'c', 'd', 'e', 'f']))).toEqual(['대왕', '소왕', '평민', '평민', '소농노', '대농노']);
    expect(CARD_NAMES[1]).toBe('왕');
    expect(CARD_NAMES[13]).toBe('광대');
  });
});

describe('where the moving parts of the card table go (360 px: the arc is 12..348)', () => {
  const box = (left: number, top: number, width = 80, height = 70) => ({ left, top, width, height });
  const leftEnd = box(12, 100);
  const rightEnd = box(268, 100);
  const mine = box(101, 420, 158, 40); // my own seat, under the trick, wider than the arc's

  it('a seat glides from where it rested to where it rests now', () => {
    expect(glideStart(leftEnd, rightEnd, rightEnd)).toEqual({ dx: -256, dy: 0 });
    expect(glideStart(undefined, rightEnd, rightEnd)).toEqual({ dx: 0, dy: 0 });
  });

  it('a glide under way is counted once: a turn right after a reorder starts where the seat is seen', () => {
    // the reorder moved the seat from the left end to the right end and its glide has just begun
    // (drawn at the left end); then the great revolution turns it over
    const start = glideStart(rightEnd, leftEnd, rightEnd);
    expect(start).toEqual({ dx: -256, dy: 0 });
    expect(rightEnd.left + start.dx + rightEnd.width).toBeLessThanOrEqual(348);
    // half way through the glide, half-turned (narrower, drawn around the same centre)
    expect(glideStart(rightEnd, box(172, 100, 16, 70), rightEnd).dx).toBe(-128);
  });

  it('a glide cut short by a new order starts where the seat is seen, not where it was going', () => {
    // resting at the right end, drawn 100 px short of it; the new order puts it in the middle
    expect(glideStart(rightEnd, box(40, 100), box(140, 100))).toEqual({ dx: 28, dy: 0 });
  });

  it('a tax card flies from the giver\'s centre to the receiver\'s, whatever their widths', () => {
    const root = box(12, 60, 336, 500);
    for (const [from, to] of [[mine, rightEnd], [rightEnd, mine], [mine, leftEnd], [leftEnd, rightEnd]]) {
      for (const k of [0, 1]) {
        const f = flightOf(from, to, root, k);
        const lands = { x: root.left + f.left + f.dx + FLYING_CARD.width / 2, y: root.top + f.top + f.dy + FLYING_CARD.height / 2 };
        expect(lands).toEqual({ x: to.left + to.width / 2 + k * FAN, y: to.top + to.height / 2 });
        expect(root.left + f.left + f.dx + FLYING_CARD.width).toBeLessThanOrEqual(348);
      }
    }
  });
});
