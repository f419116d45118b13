import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../net/api';
import type { RoomInfo } from '../net/protocol.gen';
import type { SessionState } from '../net/session';
import { navigate } from '../router';
import { manwon, seatStyle } from '../text/ko';
import { OptionList, type GameOptionInfo } from './Lobby';

interface RankRow {
  rank: number;
  player: string;
  totalAssets?: number;
  cash?: number;
  lands?: number;
  total?: number;
  roundRanks?: number[];
  bankruptAtRound?: number | null;
}

interface GameResult {
  ranking: RankRow[];
  summary?: string;
  reason?: string;
}

/** The result of the match: from the view, the gameOver event, or the record as a last resort. */
export function useResult(room: RoomInfo, state: SessionState): GameResult | null {
  const fromView = (state.view?.result ?? null) as GameResult | null;
  const fromEvent = state.events.find((e) => e.type === 'gameOver')?.result as GameResult | undefined;
  const [fetched, setFetched] = useState<GameResult | null>(null);
  useEffect(() => {
    if (fromView || fromEvent || room.status !== 'finished') return;
    api.record(room.roomId).then((r) => setFetched(r.result as unknown as GameResult)).catch(() => undefined);
  }, [room.status, room.match]);
  return fromView ?? fromEvent ?? fetched;
}

/** The engines' summaries name seats by id ("p2"); players know each other by nickname. */
export function withNames(text: string, names: (id: string) => string): string {
  return text.replace(/\bp[1-8]\b/g, (id) => names(id));
}

export function RankingTable({ result, names }: { result: GameResult; names: (id: string) => string }) {
  const marble = result.ranking.some((r) => r.totalAssets !== undefined);
  return (
    <table class="ranking" data-testid="ranking">
      <thead>
        <tr>
          <th>순위</th>
          <th>이름</th>
          {marble ? <th>총자산</th> : <th>점수</th>}
          {marble ? <th>땅</th> : <th>라운드별</th>}
        </tr>
      </thead>
      <tbody>
        {result.ranking.map((r) => (
          <tr key={r.player}>
            <td>{r.rank === 1 ? '🥇' : r.rank === 2 ? '🥈' : r.rank === 3 ? '🥉' : ''}{r.rank}위</td>
            <td>
              <span style={{ color: seatStyle(r.player).color }}>{seatStyle(r.player).mark}</span> {names(r.player)}
              {r.bankruptAtRound ? <small> (파산)</small> : null}
            </td>
            {marble ? <td>{manwon(r.totalAssets ?? 0)}</td> : <td>{r.total}점</td>}
            {marble ? <td>{r.lands}곳</td> : <td>{(r.roundRanks ?? []).map((x) => `${x}위`).join(' · ')}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ResultPanel({ room, state, token, isHost, gameOptions }: {
  room: RoomInfo;
  state: SessionState;
  token: string;
  isHost: boolean;
  gameOptions: GameOptionInfo[];
}) {
  const result = useResult(room, state);
  const [hidden, setHidden] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names = (id: string) => room.seats.find((s) => s.playerId === id)?.nickname ?? id;
  if (hidden) {
    return (
      <button class="btn primary floating" onClick={() => setHidden(false)}>
        🏆 결과 보기
      </button>
    );
  }
  return (
    <div class="sheet-backdrop">
      <section class="sheet result" data-testid="result" role="dialog" aria-label="게임 결과">
        <h2>🏆 게임 끝!</h2>
        {result ? (
          <>
            <p class="summary" data-testid="summary">{withNames(result.summary ?? '', names)}</p>
            <RankingTable result={result} names={names} />
          </>
        ) : (
          <p class="muted">결과를 불러오는 중…</p>
        )}
        {isHost && gameOptions.length > 0 && (
          <details class="result-options" data-testid="rematch-options">
            <summary>⚙️ 다음 판 옵션 바꾸기</summary>
            <OptionList room={room} token={token} isHost={isHost} gameOptions={gameOptions} onError={setError} />
          </details>
        )}
        {error && <p class="error-line" role="alert">⚠️ {error}</p>}
        <div class="row">
          {isHost && (
            <button
              class="btn primary big"
              data-testid="rematch"
              onClick={() => api.rematch(room.roomId, token).catch((e: ApiError) => setError(e.message))}
            >
              🔁 한 판 더
            </button>
          )}
          <button class="btn" data-testid="open-replay" onClick={() => navigate(`/replay/${room.roomId}?match=${room.match}`)}>
            🎬 다시 보기
          </button>
          <button class="btn" onClick={() => setHidden(true)}>
            판 보기
          </button>
        </div>
        {!isHost && <p class="muted">방장이 "한 판 더"를 누르면 같은 자리로 다시 시작해요.</p>}
      </section>
    </div>
  );
}
