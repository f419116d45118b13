import { useEffect, useState } from 'preact/hooks';
import { gameEntry, UnknownGame } from '../games/registry';
import { api, ApiError, type GameResult, type Replay as ServedReplay } from '../net/api';
import type { RoomInfo } from '../net/protocol.gen';
import { initialState, type SessionState } from '../net/session';
import { navigate } from '../router';
import { RankingTable, withNames } from './Result';

const SPEEDS = [1, 2, 4];

function roomFrom(replay: ServedReplay, room: RoomInfo): RoomInfo {
  return {
    ...room, code: '', options: replay.options, status: 'finished', match: replay.match, hostId: null,
    spectators: 0, seedHash: replay.seedHash, afkOffers: [],
    seats: replay.players.map((p) => ({
      playerId: p, nickname: replay.nicknames[p] ?? p, connected: true, host: false, away: false,
      bot: room.seats.find((s) => s.playerId === p)?.bot ?? false,
    })),
  };
}

/** What the table shows at `index`: the served frame, as a session a spectator would hold. */
export function replayState(replay: ServedReplay, room: RoomInfo, index: number): SessionState {
  const frame = replay.frames[index];
  return {
    ...initialState(), link: 'open', room: roomFrom(replay, room), view: frame.view, seq: index,
    you: { playerId: null, role: 'spectator', nickname: '', host: false },
    events: frame.events as SessionState['events'], eventSerial: index, actor: frame.actor, replaying: true,
  };
}

/** A finished game stepped through on its own table: back, forward, play, and a slider. The
 * server sends every frame's view (GET /api/rooms/{ref}/replay); nothing is re-computed here. */
export function Replay({ roomId, match }: { roomId: string; match?: number }) {
  const [room, setRoom] = useState<RoomInfo | null>(null);
  const [replay, setReplay] = useState<ServedReplay | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const game = gameEntry(room?.game);

  useEffect(() => {
    api.room(roomId).then(setRoom).catch((e: ApiError) => setError(e.message));
  }, [roomId]);
  useEffect(() => {
    if (!game) return;
    api.replay(roomId, match, game.replayViewer).then(setReplay).catch((e: ApiError) => setError(e.message));
  }, [roomId, match, game]);
  const last = Math.max(0, (replay?.frames.length ?? 1) - 1);

  useEffect(() => {
    if (!playing) return undefined;
    if (index >= last) {
      setPlaying(false);
      return undefined;
    }
    const id = setTimeout(() => setIndex((i) => Math.min(last, i + 1)), 700 / speed);
    return () => clearTimeout(id);
  }, [playing, index, last, speed]);

  if (error) {
    return (
      <main class="page">
        <p class="error-line" role="alert">⚠️ {error}</p>
        <button class="btn primary big" onClick={() => navigate('/')}>처음으로</button>
      </main>
    );
  }
  if (room && !game) return <UnknownGame />;
  if (!room || !game || !replay) return <main class="page center">기록을 불러오는 중…</main>;

  const state = replayState(replay, room, index);
  const frame = replay.frames[index];
  const names = (id: string) => replay.nicknames[id] ?? id;
  const result = replay.result as GameResult | null;
  const Extra = game.ReplayExtra;

  return (
    <div class="replay" data-testid="replay">
      <game.Table state={state} act={() => undefined} />
      {Extra && <Extra frame={frame} names={names} />}
      {index === last && result && (
        <section class="card" data-testid="replay-result">
          <h2>🏆 결과</h2>
          <p class="summary">{withNames(result.summary ?? '', names)}</p>
          <RankingTable game={replay.game} result={result} names={names} />
        </section>
      )}
      <section class="replay-controls" aria-label="다시 보기 조작">
        <div class="row">
          <button class="btn" aria-label="처음으로" onClick={() => { setPlaying(false); setIndex(0); }}>⏮</button>
          <button class="btn" aria-label="한 걸음 뒤로" data-testid="replay-back" disabled={index === 0} onClick={() => { setPlaying(false); setIndex(index - 1); }}>◀</button>
          <button class="btn primary" data-testid="replay-play" onClick={() => setPlaying(!playing)}>{playing ? '⏸ 멈춤' : '▶ 재생'}</button>
          <button class="btn" aria-label="한 걸음 앞으로" data-testid="replay-forward" disabled={index === last} onClick={() => { setPlaying(false); setIndex(index + 1); }}>▶</button>
          <button class="btn" aria-label="끝으로" onClick={() => { setPlaying(false); setIndex(last); }}>⏭</button>
          <button class="btn small" aria-label="재생 속도" onClick={() => setSpeed(SPEEDS[(SPEEDS.indexOf(speed) + 1) % SPEEDS.length])}>×{speed}</button>
        </div>
        <input type="range" min={0} max={last} value={index} aria-label="진행" onInput={(e) => { setPlaying(false); setIndex(Number((e.target as HTMLInputElement).value)); }} />
        <p class="muted center" data-testid="replay-step">
          {index} / {last}
          {frame.actor ? ` · ${names(frame.actor)}${frame.auto ? ' (시간 초과 자동)' : ''}` : ' · 시작'}
        </p>
        <p class="muted center" data-testid="replay-seed">
          🔑 이 판을 섞은 번호 {replay.seedText}
          {replay.seedHash ? ` · 시작 전에 알려 준 확인값 ${replay.seedHash.slice(0, 12)}…` : ''}
        </p>
      </section>
    </div>
  );
}
