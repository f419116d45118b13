import { useEffect, useMemo, useState } from 'preact/hooks';
import { DalmutiTable } from '../games/dalmuti/DalmutiTable';
import { dalmutiFrames } from '../games/dalmuti/replay';
import { MarbleTable } from '../games/marble/MarbleTable';
import { marbleFrames } from '../games/marble/replay';
import { api, ApiError, type GameRecord } from '../net/api';
import type { RoomInfo } from '../net/protocol.gen';
import { initialState, type SessionState } from '../net/session';
import { navigate } from '../router';
import { GAME_TITLES } from '../text/ko';
import { RankingTable, withNames } from './Result';

const SPEEDS = [1, 2, 4];

function roomFrom(record: GameRecord, roomId: string): RoomInfo {
  const names = record.nicknames ?? {};
  return {
    roomId, code: '', game: record.game, title: GAME_TITLES[record.game] ?? record.game, options: record.options,
    status: 'finished', match: record.match ?? 1, hostId: null, spectators: 0, minPlayers: 0, maxPlayers: 0,
    seedHash: record.seedHash ?? null,
    seats: record.players.map((p) => ({ playerId: p, nickname: names[p] ?? p, bot: false, connected: true, host: false })),
  };
}

/** A finished game stepped through on its own table: back, forward, play, and a slider. */
export function Replay({ roomId, match }: { roomId: string; match?: number }) {
  const [record, setRecord] = useState<GameRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    api.record(roomId, match).then(setRecord).catch((e: ApiError) => setError(e.message));
  }, [roomId, match]);

  const frames = useMemo(() => {
    if (!record) return [];
    return (record.game === 'dalmuti' ? dalmutiFrames(record) : marbleFrames(record)) as unknown as Record<string, unknown>[];
  }, [record]);
  const last = Math.max(0, frames.length - 1);

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
  if (!record || !frames.length) return <main class="page center">기록을 불러오는 중…</main>;

  const room = roomFrom(record, roomId);
  const step = index > 0 ? record.steps[index - 1] : null;
  const state: SessionState = {
    ...initialState(), link: 'open', room, view: frames[index], seq: index,
    you: { playerId: null, role: 'spectator', nickname: '', host: false },
    events: step ? step.events : [], eventSerial: index, actor: step?.actor ?? null,
  };
  const names = (id: string) => room.seats.find((s) => s.playerId === id)?.nickname ?? id;
  const result = record.result as { ranking: never[]; summary?: string } | null;

  return (
    <div class="replay" data-testid="replay">
      {record.game === 'dalmuti' ? <DalmutiTable state={state} act={() => undefined} /> : <MarbleTable state={state} act={() => undefined} />}
      {index === last && result && (
        <section class="card" data-testid="replay-result">
          <h2>🏆 결과</h2>
          <p class="summary">{withNames(result.summary ?? '', names)}</p>
          <RankingTable result={result} names={names} />
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
          {step ? ` · ${names(step.actor)}${step.auto ? ' (시간 초과 자동)' : ''}` : ' · 시작'}
        </p>
        <p class="muted center" data-testid="replay-seed">
          🔑 이 판을 섞은 번호 {record.seedText ?? record.seed}
          {record.seedHash ? ` · 시작 전에 알려 준 확인값 ${record.seedHash.slice(0, 12)}…` : ''}
        </p>
      </section>
    </div>
  );
}
