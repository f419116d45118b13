import { describe, expect, it } from 'vitest';
import { josa, particle } from '../src/text/josa';

describe('josa', () => {
  it('follows the last syllable of Hangul words', () => {
    expect(josa('상파울루', '을/를')).toBe('상파울루를');
    expect(josa('별장', '을/를')).toBe('별장을');
    expect(josa('랜드마크', '을/를')).toBe('랜드마크를');
    expect(josa('서울', '으로/로')).toBe('서울로');
    expect(josa('무인도', '으로/로')).toBe('무인도로');
    expect(josa('출발', '으로/로')).toBe('출발로');
    expect(josa('베이징', '으로/로')).toBe('베이징으로');
    expect(josa('수진', '이/가')).toBe('수진이');
    expect(josa('민수', '은/는')).toBe('민수는');
    expect(josa('호텔', '와/과')).toBe('호텔과');
  });
  it('reads trailing numbers in Korean', () => {
    expect(josa('7', '을/를')).toBe('7을');
    expect(josa('7', '으로/로')).toBe('7로');
    expect(josa('12', '이/가')).toBe('12가');
    expect(josa('봇 3', '이/가')).toBe('봇 3이');
    expect(josa('10', '은/는')).toBe('10은');
  });
  it('guesses Latin names by sound and never leaves both forms', () => {
    expect(josa('Tom', '이/가')).toBe('Tom이');
    expect(josa('Mike', '이/가')).toBe('Mike가');
    expect(josa('Paul', '으로/로')).toBe('Paul로');
    expect(josa('Jack', '을/를')).toBe('Jack을');
    expect(particle('🐻', '이/가')).toBe('가');
  });
});
