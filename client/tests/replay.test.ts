// The replay screen shows the frames the server built (GET /api/rooms/{ref}/replay); the
// client re-computes nothing. These check the client's use of that route.
import { describe, expect, it } from 'vitest';
import { ReplayHands } from '../src/games/dalmuti/ReplayHands';
import type { DalmutiView } from '../src/games/dalmuti/view';
import { gameEntry } from '../src/games/registry';
import { parseReplay, replayPath } from '../src/net/api';
import type { RoomInfo } from '../src/net/protocol.gen';
import { replayState } from '../src/screens/Replay';

const served = `{"game": "dalmuti", "roomId": "r1", "match": 2, "players": ["p1", "p2"],
 "nicknames": {"p1": "수진", "p2": "봇 1"}, "options": {"rounds": 1}, "seed": 9007199254740993,
 "seedHash": "ab", "result": null, "viewer": "all",
 "frames": [{"actor": null, "auto": false, "events": [{"type": "dealt", "counts": {"p1": 1, "p2": 1}}], "view": {"round": 1}},
            {"actor": "p2", "auto": true, "events": [{"type": "passed", "player": "p2"}], "view": {"round": 2}}]}`;

const room = {
  roomId: 'r1', code: 'K7QH2M', game: 'dalmuti', title: '신분 카드 게임', options: {}, status: 'playing', match: 3,
  hostId: 'p1', spectators: 4, minPlayers: 4, maxPlayers: 8, seedHash: 'cd',
  seats: [{ playerId: 'p2', nickname: '다른 이름', bot: true, connected: true, host: false }],
} satisfies RoomInfo;

describe('the replay route as the client uses it', () => {
  it('asks for the match through the eyes the game wants', () => {
    expect(replayPath('r1', 2, 'all')).toBe('/api/rooms/r1/replay?viewer=all&match=2');
    expect(replayPath('r 1', undefined, 'spectator')).toBe('/api/rooms/r%201/replay?viewer=spectator');
    expect(gameEntry('dalmuti')!.replayViewer).toBe('all'); // a finished card game shows every hand
    expect(gameEntry('marble')!.replayViewer).toBe('spectator');
  });

  it('keeps the 64-bit seed as its text', () => {
    expect(parseReplay(served).seedText).toBe('9007199254740993');
  });

  it('shows frame i as a session holding that frame: its view, events and actor, nobody to act', () => {
    const replay = parseReplay(served);
    const state = replayState(replay, room, 1);
    expect(state.view).toEqual({ round: 2 });
    expect(state.events).toEqual([{ type: 'passed', player: 'p2' }]);
    expect([state.actor, state.replaying, state.you?.role, state.eventSerial]).toEqual(['p2', true, 'spectator', 1]);
    // the match's players and names, not the room's current ones
    expect(state.room!.seats.map((s) => [s.playerId, s.nickname, s.bot])).toEqual([['p1', '수진', false], ['p2', '봇 1', true]]);
    expect([state.room!.status, state.room!.match, state.room!.title]).toEqual(['finished', 2, '신분 카드 게임']);
    expect(replayState(replay, room, 0).actor).toBeNull();
  });

  it('lists every seat\'s hand of the frame in seat order', () => {
    const view = { order: ['p2', 'p1'], titles: { p2: '대왕', p1: '대농노' } } as unknown as DalmutiView;
    const seatViews = { p1: { hand: [{ id: '05-01', n: 5 }] }, p2: { hand: [] } };
    const text = JSON.stringify(ReplayHands({ view, seatViews, names: (id) => ({ p1: '수진', p2: '민호' })[id] ?? id }));
    expect(text.indexOf('replay-hand-p2')).toBeLessThan(text.indexOf('replay-hand-p1'));
    expect(text).toContain('"n":5');
    expect(text).toContain('다 냈어요');
  });
});
