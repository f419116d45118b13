import { describe, expect, it } from 'vitest';
import { formatRemaining, fractionLeft, isUrgent, remainingMs } from '../src/logic/countdown';
import { backoffDelay, classifyUpdate } from '../src/net/seq';
import { RoomSession, type SocketLike } from '../src/net/session';

describe('update numbers', () => {
  it('applies the next, ignores old, flags a gap', () => {
    expect(classifyUpdate(41, 42)).toBe('apply');
    expect(classifyUpdate(41, 41)).toBe('ignore');
    expect(classifyUpdate(41, 30)).toBe('ignore');
    expect(classifyUpdate(41, 43)).toBe('gap');
  });

  it('backs off doubling up to 8 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 0)).toBe(4000);
    expect(backoffDelay(10, () => 0)).toBe(8000);
    expect(backoffDelay(10, () => 1)).toBe(10000);
  });
});

class FakeSocket implements SocketLike {
  readyState = 1;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(data: string) { this.sent.push(JSON.parse(data)); }
  close() {}
  push(msg: unknown) { this.onmessage?.({ data: JSON.stringify(msg) }); }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: (() => void)[] = [];
  const urls: string[] = [];
  const session = new RoomSession('ws://x/ws/r', 'secret-token', {
    open: (url) => { urls.push(url); const s = new FakeSocket(); sockets.push(s); return s; },
    now: () => 1000,
    setTimer: (fn) => { timers.push(fn); return timers.length; },
    clearTimer: () => undefined,
  });
  session.connect();
  return { session, sockets, timers, urls };
}

const room = { roomId: 'r', code: 'ABCDEF', game: 'dalmuti', title: 't', options: {}, status: 'playing', match: 1, hostId: 'p1', seats: [], spectators: 0, minPlayers: 4, maxPlayers: 8, seedHash: null };
const snapshot = (seq: number, lastClientSeq = 0) => ({ type: 'snapshot', seq, room, you: { playerId: 'p1', role: 'player', nickname: 'a', host: true }, view: { round: seq }, pending: [], seedHash: null, lastClientSeq });
const update = (seq: number) => ({ type: 'update', seq, events: [{ type: 'passed', player: 'p2' }], view: { round: seq }, pending: [] });

describe('room session', () => {
  it('sends the token in its first message on every socket, never in the URL', () => {
    const { sockets, timers, urls } = setup();
    sockets[0].onopen?.({});
    expect(sockets[0].sent[0]).toEqual({ type: 'auth', token: 'secret-token' });
    sockets[0].onclose?.({ code: 1006 });
    timers.at(-1)!();
    sockets[1].onopen?.({});
    expect(sockets[1].sent[0]).toEqual({ type: 'auth', token: 'secret-token' });
    expect(urls).toEqual(['ws://x/ws/r', 'ws://x/ws/r']);
  });

  it('asks for a snapshot on a gap and ignores updates until it comes', () => {
    const { session, sockets } = setup();
    const ws = sockets[0];
    ws.push(snapshot(10));
    ws.push(update(11));
    expect(session.state.seq).toBe(11);
    ws.push(update(13));
    expect(ws.sent.at(-1)).toEqual({ type: 'resync' });
    ws.push(update(14));
    expect(session.state.seq).toBe(11);
    ws.push(snapshot(14));
    ws.push(update(15));
    expect(session.state.seq).toBe(15);
    expect(session.state.view).toEqual({ round: 15 });
  });

  it('keeps every event batch so a screen that renders late misses none', async () => {
    const { eventsSince } = await import('../src/ui/batches');
    const { session, sockets } = setup();
    sockets[0].push(snapshot(10));
    const seen = session.state.eventSerial;
    sockets[0].push(update(11));
    sockets[0].push(update(12));
    sockets[0].push({ ...update(13), events: [] });
    expect(session.state.events).toEqual([]);
    expect(eventsSince(session.state, seen)).toHaveLength(2);
    expect(eventsSince(session.state, session.state.eventSerial)).toHaveLength(0);
  });

  it('keeps counting clientSeq from the snapshot after a reconnect', () => {
    const { session, sockets, timers } = setup();
    sockets[0].push(snapshot(1, 7));
    expect(session.act({ type: 'pass' })).toBe(8);
    sockets[0].onclose?.({ code: 1006 });
    expect(session.state.link).toBe('reconnecting');
    timers.at(-1)!();
    sockets[1].push(snapshot(3, 8));
    expect(session.act({ type: 'pass' })).toBe(9);
  });

  it('reuses the number of a refused action and takes the expected one after a gap', () => {
    const { session, sockets } = setup();
    sockets[0].push(snapshot(1, 4));
    expect(session.act({ type: 'pass' })).toBe(5);
    sockets[0].push({ type: 'error', code: 'not_your_turn', message: '지금은 내 차례가 아니에요.', clientSeq: 5 });
    expect(session.act({ type: 'pass' })).toBe(5);
    sockets[0].push({ type: 'error', code: 'duplicate', message: '이미 처리된 요청이에요.', clientSeq: 5 });
    expect(session.act({ type: 'pass' })).toBe(6);
    sockets[0].push({
      type: 'error', code: 'client_seq_gap', message: '요청 순서가 어긋났어요. 다시 해 주세요.',
      clientSeq: 6, detail: { expected: 3 },
    });
    expect(session.act({ type: 'pass' })).toBe(3);
  });

  it('takes lastClientSeq as it is on a new socket, even below what it counted', () => {
    const { session, sockets, timers } = setup();
    sockets[0].push(snapshot(1, 7));
    expect(session.act({ type: 'pass' })).toBe(8); // lost with the socket
    sockets[0].onclose?.({ code: 1006 });
    timers.at(-1)!();
    sockets[1].push(snapshot(3, 7));
    expect(session.act({ type: 'pass' })).toBe(8);
  });

  it('shows a rejected action message and does not reconnect after a kick', () => {
    const { session, sockets } = setup();
    sockets[0].push(snapshot(1));
    sockets[0].push({ type: 'error', code: 'no_money', message: '돈이 부족해요.', clientSeq: 1 });
    expect(session.state.rejection?.message).toBe('돈이 부족해요.');
    sockets[0].push({ type: 'error', code: 'kicked', message: '방장이 방에서 내보냈어요.' });
    sockets[0].onclose?.({ code: 4403 });
    expect(session.state.link).toBe('closed');
    expect(sockets).toHaveLength(1);
  });
});

describe('countdown formatting', () => {
  it('formats seconds and minutes, rounding up, never negative', () => {
    expect(formatRemaining(12000)).toBe('12초');
    expect(formatRemaining(11001)).toBe('12초');
    expect(formatRemaining(65000)).toBe('1:05');
    expect(formatRemaining(-300)).toBe('0초');
  });

  it('corrects by the server clock offset and marks the last five seconds', () => {
    expect(remainingMs(20000, 10000, 2000)).toBe(8000);
    expect(isUrgent(5000)).toBe(true);
    expect(isUrgent(5001)).toBe(false);
    expect(fractionLeft(15000, 30000)).toBe(0.5);
  });
});

describe('game record', () => {
  it('keeps a 64-bit seed exactly as text', async () => {
    const { parseRecord } = await import('../src/net/api');
    const record = parseRecord('{"game":"marble","options":{},"players":["p1"],"seed":7774487769330673983,"setupEvents":[],"steps":[],"result":null}');
    expect(record.seedText).toBe('7774487769330673983');
    expect(String(record.seed)).not.toBe('7774487769330673983');
  });
});
