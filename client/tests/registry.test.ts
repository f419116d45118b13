import { describe, expect, it } from 'vitest';
import { gameEntry, UNKNOWN_GAME, UnknownGame } from '../src/games/registry';

describe('the game registry', () => {
  it('has a table, rules and a blurb for each game the client shows', () => {
    for (const id of ['marble', 'dalmuti']) {
      const entry = gameEntry(id);
      expect(entry, id).not.toBeNull();
      expect(typeof entry!.Table).toBe('function');
      expect(typeof entry!.Rules).toBe('function');
      expect(entry!.blurb).toMatch(/요[.!]?$/);
    }
  });

  it('knows no other game, and never falls back to one it knows', () => {
    for (const id of ['race', '', null, undefined, 'constructor', 'toString', '__proto__']) expect(gameEntry(id)).toBeNull();
  });

  it('names each game\'s ranking columns from its own result rows', () => {
    const marble = gameEntry('marble')!.ranking;
    const row = { rank: 1, player: 'p1', totalAssets: 1250, cash: 50, lands: 3, bankruptAtRound: null };
    expect([marble.heads, marble.cells(row), marble.note?.(row)]).toEqual([['총자산', '땅'], ['1,250만', '3곳'], null]);
    const bankrupt = { ...row, bankruptAtRound: 4 };
    expect(marble.note?.(bankrupt)).toBe('파산');
    const cards = gameEntry('dalmuti')!.ranking;
    expect([cards.heads, cards.cells({ rank: 2, player: 'p3', total: 7, roundRanks: [1, 3] } as never)]).toEqual([
      ['점수', '라운드별'], ['7점', '1위 · 3위'],
    ]);
  });

  it('says so in Korean for an unknown game', () => {
    expect(JSON.stringify(UnknownGame())).toContain(UNKNOWN_GAME);
    expect(UNKNOWN_GAME).toMatch(/[가-힣]/);
  });
});
