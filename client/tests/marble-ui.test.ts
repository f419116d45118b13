import { describe, expect, it } from 'vitest';
import { continues, lostSquares } from '../src/games/marble/animation';
import { BOARD } from '../src/games/marble/board';
import { NAME_LINES, nameLines, tileLabel } from '../src/games/marble/Board';
import { phaseLabel } from '../src/games/marble/MarbleTable';
import { previewText, question } from '../src/games/marble/Sheets';
import type { Choice, MarbleView } from '../src/games/marble/view';
import { describeEvent } from '../src/games/marble/words';
import { presenceOf } from '../src/ui/Presence';

const UNRESOLVED = /\((을|를|이|가|은|는|와|과|으)\)|을\(를\)|이\(가\)|\(으\)로/;

function view(patch: Partial<MarbleView> = {}): MarbleView {
  const player = { pos: 0, cash: 100, alive: true, bankruptAtRound: null, islandLeft: 0, spacePending: false, heldCards: [] };
  return {
    options: {
      startMoney: 300, salary: 20, maxRounds: 20, buildOnPurchase: false, islandTurns: 3, islandFee: 10,
      takeover: false, landmark: false, monopolyWin: true, trade: false, turnSeconds: 30,
    },
    order: ['p1', 'p2'], currentPlayer: 'p1', round: 3, phase: 'turnStart',
    players: { p1: { ...player }, p2: { ...player } }, owners: {}, fund: 0, deckCount: 20, doublesThisTurn: 0,
    decision: null, debt: null, pendingTrade: null, tradesThisTurn: 0, extraRoll: false, lastRoll: null,
    viewer: 'p1', result: null, cardsThisTurn: 0, deadlineAt: null, eliminated: [], ...patch,
  };
}

describe('decision questions', () => {
  it('pick the particle from the name', () => {
    const buy: Choice = { type: 'BUY', cost: 22, cashAfter: 10, affordable: true };
    expect(question(buy, 23)).toBe('상파울루를 22만에 살까요?');
    expect(question({ ...buy, type: 'BUILD', level: 1, cost: 11 }, 23)).toBe('상파울루에 별장을 11만에 지을까요?');
    expect(question({ ...buy, type: 'BUILD', level: 4, cost: 80 }, 39)).toBe('서울에 랜드마크를 80만에 지을까요?');
    expect(question({ ...buy, type: 'TAKEOVER', cost: 88 }, 39)).toBe('서울을 88만에 인수할까요?');
    for (const tile of BOARD) {
      for (const type of ['BUY', 'BUILD', 'TAKEOVER'] as const) {
        expect(question({ ...buy, type, level: 2 }, tile.pos)).not.toMatch(UNRESOLVED);
      }
    }
  });
  it('event lines never leave both particles', () => {
    const names = (id: string) => ({ p1: '수진', p2: 'Tom' })[id] ?? id;
    for (const tile of BOARD) {
      const lines = [
        describeEvent({ type: 'moved', player: 'p1', from: 0, to: tile.pos, by: 'card' }, names),
        describeEvent({ type: 'spaceTravel', player: 'p2', dest: tile.pos, fee: 0 }, names),
      ];
      for (const line of lines) expect(line).not.toMatch(UNRESOLVED);
    }
    expect(describeEvent({ type: 'moved', player: 'p1', from: 0, to: 39, by: 'card' }, names)).toBe('➡️ 수진: 서울로 이동');
    expect(describeEvent({ type: 'moved', player: 'p1', from: 0, to: 10, by: 'card' }, names)).toBe('➡️ 수진: 무인도로 이동');
  });
});

describe('cash preview', () => {
  it('names the action and marks cash under 50', () => {
    expect(previewText({ type: 'BUY', cost: 22, cashAfter: 78, affordable: true })).toMatchObject({ text: '사면 남는 돈 78만', low: false });
    expect(previewText({ type: 'BUILD', level: 1, cost: 11, cashAfter: 40, affordable: true })).toMatchObject({ text: '지으면 남는 돈 40만 (50만 미만이에요)', low: true });
    expect(previewText({ type: 'TAKEOVER', cost: 60, cashAfter: 70, affordable: true }).text).toBe('인수하면 남는 돈 70만');
  });
  it('shows the shortfall of an unaffordable choice', () => {
    expect(previewText({ type: 'BUY', cost: 40, cashAfter: -12, affordable: false })).toMatchObject({ short: 12, text: '돈이 부족해요 · 12만 부족해요' });
  });
});

describe('status line', () => {
  it('says space travel, not rolling, while a destination is due', () => {
    const v = view();
    expect(phaseLabel(v)).toBe('굴릴 차례');
    v.players.p1.spacePending = true;
    expect(phaseLabel(v)).toBe('우주여행: 갈 칸을 고르세요');
  });
});

describe('board squares', () => {
  it('write every name in at most two lines of at most three letters, short forms only for long names', () => {
    for (const tile of BOARD) {
      const lines = nameLines(tile.name);
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(3);
      if (tile.kind === 'card') expect(lines).toEqual([]);
    }
    expect(NAME_LINES['부에노스아이레스']).toEqual(['부에', '노스']);
  });
  it('start their accessible name with the square name', () => {
    expect(tileLabel(BOARD[1], '수진', 2, false, ['수진의 말'])).toBe('타이베이, A그룹, 주인 수진, 빌딩, 수진의 말 있음');
    expect(tileLabel(BOARD[5], null, 0, true, [])).toBe('제주도, 관광지, 파산해서 은행으로 돌아감');
  });
});

describe('seat presence', () => {
  it('tells a dropped connection from a seat the clock plays for', () => {
    expect(presenceOf({ connected: true, bot: false })).toBe('here');
    expect(presenceOf({ connected: false, bot: false })).toBe('off');
    expect(presenceOf({ connected: false, bot: false, away: true })).toBe('away');
    expect(presenceOf({ connected: false, bot: true })).toBe('here');
    expect(presenceOf(undefined)).toBe('here');
  });
});

describe('animation bookkeeping', () => {
  it('keeps a bankrupt player\'s lost squares grey until someone owns them again', () => {
    const before = view({ owners: { '1': { owner: 'p2', level: 1 }, '3': { owner: 'p2', level: 0 }, '6': { owner: 'p1', level: 0 } } });
    const after = view({ owners: { '6': { owner: 'p1', level: 0 } } });
    const lost = lostSquares(before, [{ type: 'bankrupt', player: 'p2' }], after, []);
    expect(lost).toEqual([1, 3]);
    const bought = view({ owners: { '1': { owner: 'p1', level: 0 }, '6': { owner: 'p1', level: 0 } } });
    expect(lostSquares(after, [], bought, lost)).toEqual([3]);
  });
  it('does not treat a rematch or a jump back as a continuation (no money popups)', () => {
    const late = view({ round: 15 });
    expect(continues(late, view({ round: 15 }), true)).toBe(true);
    expect(continues(late, view({ round: 1 }), true)).toBe(false);
    expect(continues(view({ round: 1 }), view({ round: 1 }), false)).toBe(false);
    expect(continues(null, late, true)).toBe(false);
  });
});

describe('walk timing', () => {
  it('never takes longer than the allowance the server adds after a move', async () => {
    const { stepMs, WALK_MAX_MS, STEP_MS } = await import('../src/games/marble/animation');
    expect(stepMs(7)).toBe(STEP_MS);
    for (const n of [1, 12, 13, 20, 39]) expect(n * stepMs(n)).toBeLessThanOrEqual(WALK_MAX_MS);
  });
});
