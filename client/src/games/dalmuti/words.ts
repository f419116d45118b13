// Display words of the card game: the engine's card names and titles (its data.py, through
// src/gen/tables.gen.ts: card 1 is 왕, the top titles 대왕/소왕), icons so a title is never
// colour alone.
import { TABLES } from '../../gen/tables.gen';
import type { DalmutiRankingEntry } from '../../net/games.gen';
import type { RankingColumns } from '../registry';

export const CARD_NAMES: Readonly<Record<string, string>> = TABLES.dalmuti.cardNames;

const TITLES: Readonly<Record<string, readonly string[]>> = TABLES.dalmuti.titles;

/** Each player's title when they sit in `order` (first = 대왕), from the engine's table. */
export function titlesInOrder(order: readonly string[]): Record<string, string> {
  const titles = TITLES[String(order.length)] ?? [];
  return Object.fromEntries(order.map((p, place) => [p, titles[place] ?? '']));
}

export const TITLE_ICONS: Record<string, string> = {
  대왕: '👑', 소왕: '🎩', 평민: '🧢', 소농노: '🧺', 대농노: '🪣',
};

export function cardLabel(n: number): string {
  return n === 13 ? '광대' : String(n);
}

export const PHASE_HINTS: Record<string, string> = {
  firstRankDraw: '첫 신분을 뽑는 중이에요',
  revolutionCheck: '손패를 확인해 주세요',
  taxReturn: '세금을 주고받는 중이에요',
  playing: '',
  roundOver: '라운드가 끝났어요',
  finished: '게임이 끝났어요',
};

/** The result's columns: points and the place of each round. */
export const DALMUTI_RANKING: RankingColumns<DalmutiRankingEntry> = {
  heads: ['점수', '라운드별'],
  cells: (r) => [`${r.total}점`, r.roundRanks.map((x) => `${x}위`).join(' · ')],
};
