// Display words of the card game: neutral names for the cards and titles (the engine's
// data.py: card 1 is 왕, the top titles 대왕/소왕), icons so a title is never colour alone.

export const CARD_NAMES: Record<number, string> = {
  1: '왕', 2: '대주교', 3: '시종장', 4: '남작부인', 5: '수녀원장', 6: '기사', 7: '재봉사',
  8: '석공', 9: '요리사', 10: '양치기', 11: '광부', 12: '농노', 13: '광대',
};

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
