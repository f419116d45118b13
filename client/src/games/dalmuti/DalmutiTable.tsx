import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { setTips, tipsOn } from '../../logic/storage';
import type { GameEvent } from '../../net/api';
import type { SessionState } from '../../net/session';
import { RulesButton } from '../../screens/Rules';
import { josa } from '../../text/josa';
import { eventsSince } from '../../ui/batches';
import { Countdown } from '../../ui/Countdown';
import { useFeed, useNames } from '../../ui/feed';
import {
  blockedReason, countRange, countWord, describeSelection, groupHand, jesterCount, JESTER, playability, selectedCardIds,
  selectionProblem, stepCount, suggestReturn, tapGroup, toggleJesters, type DCard, type Selection,
} from './hand';
import { describeDalmutiEvent } from './events';
import { openingDraw, roundEnd, taxFlights, type DrawRow, type RoundEnd, type TaxFlight } from './moments';
import { OpeningDrawScreen, RevolutionBanner, RoundEndScreen } from './MomentScreens';
import { Seats } from './Seats';
import { cardNumber, confirmedCount, handCheckStatus, receivedTax, type DalmutiView, type PlayJson } from './view';
import { CARD_NAMES, PHASE_HINTS, TITLE_ICONS, cardLabel } from './words';

type Act = (action: Record<string, unknown>) => void;
type Names = (id: string) => string;

function Card({ n, small, highlight }: { n: number; small?: boolean; highlight?: boolean }) {
  return (
    <span class={`dcard n${n}${small ? ' small' : ''}${highlight ? ' received' : ''}`}>
      <b>{n === JESTER ? '🤡' : n}</b>
      {!small && <i>{CARD_NAMES[n]}</i>}
    </span>
  );
}

function PlayCards({ play, small }: { play: PlayJson; small?: boolean }) {
  return (
    <span class="play">
      {play.cardIds.map((id) => (
        <Card key={id} n={cardNumber(id)} small={small} />
      ))}
    </span>
  );
}

function Trick({ view, names }: { view: DalmutiView; names: Names }) {
  const top = view.trick.top;
  const earlier = view.trick.pile.slice(0, -1).slice(-4);
  return (
    <section class="trick" data-testid="trick">
      {top ? (
        <>
          <p class="standard" data-testid="standard">
            지금 기준: {cardLabel(top.rank)} × {top.count}장
          </p>
          <div class="pile">
            {earlier.map((p, i) => (
              <PlayCards key={i} play={p} small />
            ))}
          </div>
          <div class="top-play">
            <PlayCards play={top} />
            <small>{names(top.by)}님이 냈어요</small>
          </div>
        </>
      ) : (
        <p class="standard" data-testid="standard">
          {view.phase.kind === 'playing' && view.current ? `${names(view.current)}님이 새로 시작해요` : PHASE_HINTS[view.phase.kind]}
        </p>
      )}
    </section>
  );
}

type Top = { count: number; rank: number } | null;

function topOf(view: DalmutiView): Top {
  return view.trick.top ? { count: view.trick.top.count, rank: view.trick.top.rank } : null;
}

/** The selection of the own hand, shared by the hand (in the page) and the action bar. */
function useHandSelection(view: DalmutiView, hand: DCard[]) {
  const [sel, setSel] = useState<Selection | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  useEffect(() => {
    setSel(null);
    setWhy(null);
  }, [view.trick.top?.cardIds.join(), view.current, hand.length]);
  return { sel, setSel, why, setWhy };
}

type HandSel = ReturnType<typeof useHandSelection>;

function HandView({ view, hand, hs }: { view: DalmutiView; hand: DCard[]; hs: HandSel }) {
  const top = topOf(view);
  const groups = useMemo(() => groupHand(hand), [hand]);
  const jesters = jesterCount(hand);
  const myTurn = view.current === view.viewer && view.phase.kind === 'playing';
  const tap = (g: (typeof groups)[number]) => {
    if (!myTurn) return;
    const reason = blockedReason(g, g.n === JESTER ? 0 : jesters, top);
    if (reason) {
      hs.setWhy(`${g.n === JESTER ? '광대' : g.n}: ${reason}`);
      return;
    }
    hs.setWhy(null);
    hs.setSel(tapGroup(g, jesters, top));
  };
  return (
    <div class="hand" data-testid="hand">
      {groups.map((g) => {
        const how = myTurn ? playability(g, g.n === JESTER ? 0 : jesters, top) : 'playable';
        const chosen = hs.sel?.n === g.n;
        return (
          <button
            key={g.n}
            class={`group ${how}${chosen ? ' chosen' : ''}${myTurn ? '' : ' idle'}`}
            data-testid={`group-${g.n}`}
            aria-pressed={chosen}
            aria-label={`${cardLabel(g.n)} ${g.cards.length}장${how === 'blocked' ? ', 낼 수 없음' : ''}${how === 'needsJester' ? ', 광대 필요' : ''}`}
            onClick={() => tap(g)}
          >
            <Card n={g.n} />
            <span class="badge">×{g.cards.length}</span>
            {how === 'needsJester' && <span class="need">🤡 광대 필요</span>}
            {how === 'blocked' && <span class="need muted">✕ 못 내요</span>}
            {chosen && <span class="tick">✔</span>}
          </button>
        );
      })}
    </div>
  );
}

function PlayBar({ view, hand, hs, act }: { view: DalmutiView; hand: DCard[]; hs: HandSel; act: Act }) {
  const top = topOf(view);
  const groups = groupHand(hand);
  const jesters = jesterCount(hand);
  const { sel, setSel } = hs;
  const group = sel ? groups.find((g) => g.n === sel.n) : undefined;
  const problem = sel ? selectionProblem(sel, hand, top) : null;
  const ids = sel ? selectedCardIds(sel, hand) : [];
  const [low, high] = sel && group ? countRange(group, jesters, sel.mixJesters, top) : [0, 0];
  const showJesters = jesters > 0 && sel?.n !== JESTER;
  const note = hs.why ?? problem ?? (top && !sel ? `${cardLabel(top.rank)}보다 낮은 숫자 ${countWord(top.count)}을 고르거나 패스하세요` : null);
  return (
    <div data-testid="controls">
      <div class="row sel-row">
        <button class="btn" aria-label="한 장 빼기" data-testid="minus" disabled={!sel || !group || sel.count <= low} onClick={() => sel && group && setSel(stepCount(sel, group, jesters, -1, top))}>
          −
        </button>
        <span class="sel-text" data-testid="selection">
          {sel ? describeSelection(sel, hand) : '낼 숫자를 눌러 주세요'}
        </span>
        <button class="btn" aria-label="한 장 더" data-testid="plus" disabled={!sel || !group || sel.count >= high} onClick={() => sel && group && setSel(stepCount(sel, group, jesters, +1, top))}>
          +
        </button>
        {showJesters && (
          <button
            class={`btn chip-btn${sel?.mixJesters ? ' on' : ''}`}
            data-testid="mix-jesters"
            aria-pressed={!!sel?.mixJesters}
            disabled={!sel}
            onClick={() => sel && group && setSel(toggleJesters(sel, group, jesters, top))}
          >
            🤡 광대 섞기 {sel?.mixJesters ? '✔' : ''}
          </button>
        )}
      </div>
      {note && (
        <p class="why" data-testid="why" role="status">
          ℹ️ {note}
        </p>
      )}
      <div class="row">
        <button class="btn primary big" data-testid="play" disabled={!sel || !!problem} onClick={() => sel && !problem && act({ type: 'play', cardIds: ids })}>
          내기
        </button>
        <button class="btn big" data-testid="pass" disabled={!top} onClick={() => act({ type: 'pass' })}>
          패스
        </button>
      </div>
    </div>
  );
}

function HandCheckBar({ view, act }: { view: DalmutiView; act: Act }) {
  const status = handCheckStatus(view);
  const [done, all] = confirmedCount(view);
  if (status === 'declared') {
    return (
      <p class="hint" data-testid="hand-check-status">
        ✊ 혁명을 선언했어요 — 모두 확인하면 시작해요 ({done}/{all})
      </p>
    );
  }
  if (status === 'waiting') {
    return (
      <p class="hint" data-testid="hand-check-status">
        ✔ 확인했어요 · 다른 사람을 기다리는 중 ({done}/{all})
      </p>
    );
  }
  if (status === 'watching') return <p class="hint">모두 손패를 확인하고 있어요 ({done}/{all})</p>;
  return (
    <div class="row" data-testid="revolution-check">
      <button class="btn primary big" data-testid="confirm-hand" onClick={() => act({ type: 'confirmHand', declareRevolution: false })}>
        손패 확인
      </button>
      {view.canDeclareRevolution && (
        <button class="btn danger big" data-testid="declare-revolution" onClick={() => act({ type: 'confirmHand', declareRevolution: true })}>
          ✊ 혁명!
        </button>
      )}
    </div>
  );
}

type Owed = { to: string; count: number; done: boolean };

function owedBy(view: DalmutiView): Owed | undefined {
  if (view.phase.kind !== 'taxReturn' || !view.viewer) return undefined;
  const owed = view.phase.owed[view.viewer];
  return owed && !owed.done ? owed : undefined;
}

function TaxPicker({ view, hand, names, picked, setPicked }: {
  view: DalmutiView; hand: DCard[]; names: Names; picked: string[]; setPicked: (f: (cur: string[]) => string[]) => void;
}) {
  const owed = owedBy(view);
  const received = receivedTax(view);
  const moves = view.tax.map((t, i) => (
    <li key={i}>
      {TITLE_ICONS[view.titles[t.from]] ?? ''} {names(t.from)} → {names(t.to)} {t.count}장
      {t.cardIds ? ` (${t.cardIds.map((id) => cardLabel(cardNumber(id))).join(', ')})` : ''}
    </li>
  ));
  if (!owed) {
    return (
      <div class="controls" data-testid="tax-phase">
        <p class="hint">💰 세금을 주고받는 중이에요…</p>
        <ul class="tax-list">{moves}</ul>
      </div>
    );
  }
  const toggle = (id: string) =>
    setPicked((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : cur.length < owed.count ? [...cur, id] : [...cur.slice(1), id]));
  const sorted = [...hand].sort((a, b) => a.n - b.n || a.id.localeCompare(b.id));
  return (
    <div class="controls" data-testid="tax-return">
      <p class="hint">
        {names(owed.to)}님에게 돌려줄 카드 {owed.count}장을 고르세요. (추천: 가장 큰 숫자)
      </p>
      <ul class="tax-list">{moves}</ul>
      <div class="tax-hand">
        {sorted.map((c) => (
          <button key={c.id} class={`tax-card${picked.includes(c.id) ? ' chosen' : ''}`} aria-pressed={picked.includes(c.id)} onClick={() => toggle(c.id)}>
            <Card n={c.n} small highlight={received.includes(c.id)} />
            {received.includes(c.id) && <small>받음</small>}
            {picked.includes(c.id) && <span class="tick">✔</span>}
          </button>
        ))}
      </div>
    </div>
  );
}
function Scores({ view, names }: { view: DalmutiView; names: Names }) {
  return (
    <details class="scores">
      <summary>
        {view.round}/{String(view.options.rounds ?? '?')}라운드 · 점수
        {view.revolution !== 'none' ? (view.revolution === 'great' ? ' · ✊ 대혁명!' : ' · ✊ 혁명!') : ''}
      </summary>
      <ul>
        {view.players.map((p) => (
          <li key={p}>
            {names(p)}: {view.totals[p] ?? 0}점
          </li>
        ))}
      </ul>
    </details>
  );
}

const ROUND_END_MS = 6000;
const DRAW_MS = 5000;
const PHASE_SECONDS: Record<string, number> = { revolutionCheck: 20, taxReturn: 30 };

interface Moments {
  roundEnd: { info: RoundEnd; until: number } | null;
  draw: { rows: DrawRow[]; until: number } | null;
  banner: { kind: string; who: string } | null;
  flip: number;
  flights: TaxFlight[];
  flightSerial: number;
}

/** Reads every new event batch once and starts what it calls for (screens, banner, motion). */
function useMoments(state: SessionState, view: DalmutiView): [Moments, (patch: Partial<Moments>) => void] {
  const [m, setM] = useState<Moments>({ roundEnd: null, draw: null, banner: null, flip: 0, flights: [], flightSerial: 0 });
  const handled = useRef(0);
  const drawSeen = useRef<number | null>(null);
  const patch = (p: Partial<Moments>) => setM((cur) => ({ ...cur, ...p }));
  const showDraw = (events: GameEvent[]) => {
    const draw = events.find((e) => e.type === 'firstRankDraw');
    const match = state.room?.match ?? 0;
    if (!draw || drawSeen.current === match || view.phase.kind === 'finished') return;
    drawSeen.current = match;
    patch({ draw: { rows: openingDraw(draw), until: Date.now() + DRAW_MS } });
  };
  useEffect(() => showDraw(state.setupEvents ?? []), [state.setupEvents]);
  useEffect(() => {
    const start = state.eventSerial < handled.current ? state.eventSerial - 1 : handled.current;
    const events = state.batches.length ? eventsSince(state, start) : [];
    handled.current = state.eventSerial;
    if (!events.length) return;
    showDraw(events);
    const over = [...events].reverse().find((e) => e.type === 'roundOver');
    if (over && !events.some((e) => e.type === 'gameOver')) {
      // the server pauses before the next round's deadlines; stay up at least as long
      const mine = state.pending.find((p) => p.player === view.viewer) ?? state.pending[0];
      const total = (PHASE_SECONDS[view.phase.kind] ?? Number(view.options.turnSeconds ?? 20)) * 1000;
      const pause = mine?.deadline ? mine.deadline - total - (Date.now() + state.offset) : 0;
      const info = roundEnd(over, view.totals, Number(view.options.rounds ?? 0));
      patch({ roundEnd: { info, until: Date.now() + Math.max(ROUND_END_MS, pause) } });
    }
    const revolt = events.find((e) => e.type === 'revolution');
    if (revolt) {
      const who = String(revolt.player);
      setM((cur) => ({
        ...cur,
        banner: { kind: String(revolt.kind), who: who === view.viewer ? '내가' : who },
        flip: revolt.kind === 'great' ? cur.flip + 1 : cur.flip,
      }));
      setTimeout(() => patch({ banner: null }), 3000);
    }
    const flights = taxFlights(events);
    if (flights.length) setM((cur) => ({ ...cur, flights, flightSerial: cur.flightSerial + 1 }));
  }, [state.eventSerial]);
  return [m, patch];
}

function TurnLine({ view, names, mine }: { view: DalmutiView; names: Names; mine: boolean }) {
  if (mine) {
    const what = view.phase.kind === 'revolutionCheck' ? '손패를 확인해 주세요' : view.phase.kind === 'taxReturn' ? '돌려줄 카드를 고르세요' : view.trick.top ? '낼까요, 패스할까요?' : '새로 시작해요';
    return (
      <p class="turn-line my-turn" data-testid="my-turn">
        ▶ 내 차례 · {what}
      </p>
    );
  }
  if (view.phase.kind === 'revolutionCheck') return null; // the hand check's own line says where it stands
  if (view.phase.kind === 'playing' && view.current) {
    return <p class="turn-line">⏳ {josa(names(view.current), '이/가')} 고르는 중이에요</p>;
  }
  return <p class="turn-line">{PHASE_HINTS[view.phase.kind]}</p>;
}

export function DalmutiTable({ state, act }: { state: SessionState; act: Act }) {
  const view = state.view as unknown as DalmutiView;
  const me = state.you?.playerId ?? null;
  const names = useNames(state);
  const feed = useFeed(state, (e) => describeDalmutiEvent(e, names));
  const [tips, setTipsState] = useState(tipsOn());
  const hand = view.hand ?? [];
  const hs = useHandSelection(view, hand);
  const [m, patch] = useMoments(state, view);
  const owed = owedBy(view);
  const [picked, setPicked] = useState<string[]>([]);
  useEffect(() => setPicked(owed ? suggestReturn(hand, owed.count) : []), [owed?.to, view.round]);
  const pending = state.pending.find((p) => p.player === me) ?? state.pending.find((p) => p.player === view.current) ?? state.pending[0];
  const totalSeconds = PHASE_SECONDS[view.phase.kind] ?? (view.options.turnSeconds as number);
  const checking = view.phase.kind === 'revolutionCheck' && !!view.hand;
  const myTurn = !!view.hand && (
    (view.phase.kind === 'playing' && view.current === me) || (checking && handCheckStatus(view) === 'decide') || !!owed
  );
  return (
    <main class={`table dalmuti${m.flip ? ' turned' : ''}`} data-testid="dalmuti-table">
      <header class="bar">
        <h1>신분 카드 게임</h1>
        <RulesButton game="dalmuti" />
      </header>
      {tips && (
        <aside class="tips" data-testid="tips">
          <span>💡 숫자가 낮을수록 강해요 · 앞사람과 같은 장수로만 낼 수 있어요</span>
          <button class="btn small" onClick={() => { setTips(false); setTipsState(false); }}>
            끄기
          </button>
        </aside>
      )}
      <Scores view={view} names={names} />
      <Seats view={view} me={me} names={names} room={state.room} flip={m.flip} flights={m.flights} flightSerial={m.flightSerial}>
        <Trick view={view} names={names} />
      </Seats>
      {m.banner && <RevolutionBanner kind={m.banner.kind} who={m.banner.who === '내가' ? '내' : names(m.banner.who)} />}
      {view.hand === null && <p class="hint center" data-testid="spectating">👀 관전 중이에요. 손패는 보이지 않아요.</p>}
      {view.phase.kind === 'taxReturn' && view.hand && <TaxPicker view={view} hand={hand} names={names} picked={picked} setPicked={setPicked} />}
      {view.hand && view.phase.kind !== 'taxReturn' && <HandView view={view} hand={hand} hs={hs} />}
      <ol class="feed" data-testid="feed">
        {feed.map((line, i) => (
          <li key={`${state.eventSerial}-${i}`}>{line}</li>
        ))}
      </ol>
      {/* spectators and replays have nothing to decide: their turn line stays in the page */}
      <section class={view.hand ? `action-bar${myTurn ? ' mine' : ''}` : 'turn-info'} data-testid="action-bar">
        <TurnLine view={view} names={names} mine={myTurn} />
        <Countdown deadline={pending?.deadline} offset={state.offset} totalSeconds={totalSeconds} />
        {checking && <HandCheckBar view={view} act={act} />}
        {owed && (
          <button class="btn primary big wide" data-testid="return-tax" disabled={picked.length !== owed.count} onClick={() => act({ type: 'returnTax', cardIds: picked })}>
            {names(owed.to)}님에게 {picked.length}/{owed.count}장 돌려주기
          </button>
        )}
        {view.hand && view.phase.kind === 'playing' && view.current === me && <PlayBar view={view} hand={hand} hs={hs} act={act} />}
      </section>
      {m.roundEnd && <RoundEndScreen info={m.roundEnd.info} names={names} me={me} until={m.roundEnd.until} onClose={() => patch({ roundEnd: null })} />}
      {m.draw && !m.roundEnd && <OpeningDrawScreen rows={m.draw.rows} names={names} me={me} until={m.draw.until} onClose={() => patch({ draw: null })} />}
    </main>
  );
}
