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

  it('says so in Korean for an unknown game', () => {
    expect(JSON.stringify(UnknownGame())).toContain(UNKNOWN_GAME);
    expect(UNKNOWN_GAME).toMatch(/[가-힣]/);
  });
});
