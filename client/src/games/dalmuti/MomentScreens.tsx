// The screens the table shows for a moment and that a tap closes: the round's end (places,
// points, totals and next titles) and the opening draw (spec 4.1); the great revolution banner.
import { useEffect, useState } from 'preact/hooks';
import { josa } from '../../text/josa';
import { seatStyle } from '../../text/ko';
import type { DrawRow, RoundEnd } from './moments';
import { TITLE_ICONS, cardLabel } from './words';

type Names = (id: string) => string;

function useSecondsLeft(until: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** Closes itself at `until` (local ms). */
function useAutoClose(until: number, onClose: () => void) {
  useEffect(() => {
    const id = setTimeout(onClose, Math.max(0, until - Date.now()));
    return () => clearTimeout(id);
  }, [until]);
}

export function RoundEndScreen({ info, names, me, until, onClose }: {
  info: RoundEnd; names: Names; me: string | null; until: number; onClose: () => void;
}) {
  useAutoClose(until, onClose);
  const left = useSecondsLeft(until);
  const winner = info.rows[0];
  return (
    <div class="moment-backdrop" onClick={onClose}>
      <section class="moment" role="dialog" aria-label={`${info.round}라운드 결과`} data-testid="round-end" onClick={(e) => e.stopPropagation()}>
        <h2>🔔 {info.round}라운드 끝!</h2>
        {winner && (
          <p class="hint">
            🎉 {winner.player === me ? '내가' : josa(names(winner.player), '이/가')} 가장 먼저 다 냈어요
          </p>
        )}
        <table class="ranking round-table">
          <thead>
            <tr>
              <th>등수</th>
              <th>이름</th>
              <th>이번 점수</th>
              <th>합계</th>
              <th>{info.last ? '신분' : '다음 신분'}</th>
            </tr>
          </thead>
          <tbody>
            {info.rows.map((r) => (
              <tr key={r.player} class={r.player === me ? 'me' : ''} data-testid={`round-row-${r.player}`}>
                <td>{r.place}등</td>
                <td>
                  <span style={{ color: seatStyle(r.player).color }}>{seatStyle(r.player).mark}</span> {r.player === me ? '나' : names(r.player)}
                </td>
                <td>+{r.points}점</td>
                <td>{r.total}점</td>
                <td>
                  {TITLE_ICONS[r.title] ?? ''} {r.title}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="muted center" data-testid="round-end-timer">
          {info.last ? '곧 최종 결과가 나와요' : `⏱ ${left}초 뒤에 다음 라운드가 시작돼요`}
        </p>
        <button class="btn primary big wide" data-testid="round-end-close" onClick={onClose}>
          확인
        </button>
      </section>
    </div>
  );
}

export function OpeningDrawScreen({ rows, names, me, until, onClose }: {
  rows: DrawRow[]; names: Names; me: string | null; until: number; onClose: () => void;
}) {
  useAutoClose(until, onClose);
  return (
    <div class="moment-backdrop" onClick={onClose}>
      <section class="moment" role="dialog" aria-label="첫 신분 뽑기" data-testid="opening-draw" onClick={(e) => e.stopPropagation()}>
        <h2>🎴 첫 신분 뽑기</h2>
        <p class="hint">한 장씩 뽑아 낮은 숫자가 높은 신분이 돼요</p>
        <ol class="draw-list">
          {rows.map((r, i) => (
            <li key={r.player} class="draw-row" style={{ animationDelay: `${i * 250}ms` }} data-testid={`draw-${r.player}`}>
              <span class="draw-cards">
                {r.draws.map((n, k) => (
                  <span key={k} class={`dcard small${k < r.draws.length - 1 ? ' redrawn' : ''}`}>
                    <b>{n === 13 ? '🤡' : n}</b>
                  </span>
                ))}
              </span>
              <span>
                {r.player === me ? '나' : names(r.player)}
                {r.draws.length > 1 ? ` (같은 숫자라 다시 뽑음: ${r.draws.map(cardLabel).join(' → ')})` : ''}
              </span>
              <strong>
                {TITLE_ICONS[r.title] ?? ''} {r.title}
              </strong>
            </li>
          ))}
        </ol>
        <button class="btn primary big wide" data-testid="opening-draw-close" onClick={onClose}>
          확인
        </button>
      </section>
    </div>
  );
}

export function RevolutionBanner({ kind, who }: { kind: string; who: string }) {
  return (
    <div class={`revolution-banner ${kind}`} role="status" data-testid="revolution-banner">
      ✊ {josa(who, '이/가')} {kind === 'great' ? '대혁명을 일으켰어요! 신분이 뒤집혀요' : '혁명을 일으켰어요! 이번 라운드는 세금이 없어요'}
    </div>
  );
}
