// Seats are identities by token (docs/protocol.md): keep one per room so a reload returns
// to the same seat.

export interface Seat {
  roomId: string;
  code: string;
  token: string;
  playerId: string | null;
}

const PREFIX = 'joke.seat.';
const NICK = 'joke.nickname';
const TIPS = 'joke.tips';

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function saveSeat(seat: Seat): void {
  const s = store();
  if (!s) return;
  s.setItem(PREFIX + seat.code.toUpperCase(), JSON.stringify(seat));
  s.setItem(PREFIX + seat.roomId, JSON.stringify(seat));
}

export function loadSeat(ref: string): Seat | null {
  const raw = store()?.getItem(PREFIX + (ref.length === 6 ? ref.toUpperCase() : ref));
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Seat;
  } catch {
    return null;
  }
}

export function forgetSeat(seat: Seat): void {
  const s = store();
  s?.removeItem(PREFIX + seat.code.toUpperCase());
  s?.removeItem(PREFIX + seat.roomId);
}

export function loadNickname(): string {
  return store()?.getItem(NICK) ?? '';
}

export function saveNickname(name: string): void {
  store()?.setItem(NICK, name);
}

export function tipsOn(): boolean {
  return store()?.getItem(TIPS) !== 'off';
}

export function setTips(on: boolean): void {
  store()?.setItem(TIPS, on ? 'on' : 'off');
}
