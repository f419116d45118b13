// Player-facing words that several screens share. Game-specific words live next to each table.

export const STATUS_LABELS: Record<string, string> = {
  lobby: '모집 중',
  playing: '게임 중',
  finished: '끝남',
};

/** A bot seat's level as the table shows it (the catalogue's `levels` are what a host picks). */
export const BOT_LABELS: Record<string, string> = {
  easy: '쉬움', normal: '보통', hard: '어려움',
  random: '엉뚱한 봇',
  heuristic: '보통', // the old name of normal, in rooms stored before the levels
};

export const LINK_LABELS: Record<string, string> = {
  connecting: '연결하는 중…',
  open: '연결됨',
  reconnecting: '연결이 끊겨서 다시 연결하는 중…',
  closed: '연결이 끊겼어요',
};

/** Seat colours with a shape each, so a seat is never told apart by colour alone. */
export const SEAT_STYLES = [
  { color: '#e5484d', mark: '●', name: '빨강' },
  { color: '#2b6fd6', mark: '▲', name: '파랑' },
  { color: '#2f9e44', mark: '■', name: '초록' },
  { color: '#c77d00', mark: '◆', name: '노랑' },
  { color: '#8e4ec6', mark: '★', name: '보라' },
  { color: '#0b9ba8', mark: '♥', name: '청록' },
  { color: '#d6409f', mark: '♣', name: '분홍' },
  { color: '#6b6b6b', mark: '♠', name: '회색' },
] as const;

export function seatStyle(playerId: string | null | undefined) {
  const index = playerId ? Number.parseInt(playerId.replace(/\D/g, ''), 10) - 1 : 0;
  return SEAT_STYLES[(Number.isFinite(index) && index >= 0 ? index : 0) % SEAT_STYLES.length];
}

export function optionValueLabel(value: unknown): string {
  if (value === null) return '제한 없음';
  if (value === true) return '켜기';
  if (value === false) return '끄기';
  if (value === 'rank-points') return '순위 점수 합';
  if (value === 'last-round') return '마지막 라운드 순위';
  if (value === 'draw') return '카드 뽑기';
  if (value === 'random') return '무작위';
  return String(value);
}

export function manwon(amount: number): string {
  return `${amount.toLocaleString('ko-KR')}만`;
}

export function signedManwon(amount: number): string {
  return `${amount > 0 ? '+' : amount < 0 ? '−' : ''}${Math.abs(amount)}`;
}
