// Whether a seat's person is here: "연결 끊김" while their socket is gone, "자리 비움 · 자동
// 진행" once the timeout rules play for them (room info `seat.away`, absent on older servers).
import type { SeatInfo } from '../net/protocol.gen';

export type Presence = 'here' | 'off' | 'away';

export function presenceOf(seat: Pick<SeatInfo, 'connected' | 'bot'> & { away?: boolean } | undefined): Presence {
  if (!seat || seat.bot) return 'here';
  if (seat.away) return 'away';
  return seat.connected === false ? 'off' : 'here';
}

export const PRESENCE_LABELS: Record<Presence, string> = {
  here: '접속',
  off: '연결 끊김',
  away: '자리 비움 · 자동 진행',
};

/** The badge next to a seat's name; nothing while they are here. */
export function PresenceBadge({ seat, testId }: { seat: Parameters<typeof presenceOf>[0]; testId?: string }) {
  const p = presenceOf(seat);
  if (p === 'here') return null;
  return (
    <span class={`presence ${p}`} data-testid={testId} role="status">
      {p === 'away' ? '⏸ ' : '📵 '}
      {PRESENCE_LABELS[p]}
    </span>
  );
}
