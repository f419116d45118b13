import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { setTips, tipsOn } from '../../logic/storage';
import type { SessionState } from '../../net/session';
import { RulesButton } from '../../screens/Rules';
import { seatStyle } from '../../text/ko';
import { Countdown } from '../../ui/Countdown';
import { useFeed, useNames } from '../../ui/feed';
import {
  groupHand, jesterCount, JESTER, playability, selectedCardIds, selectionLegal, stepCount, suggestReturn,
  tapGroup, toggleJesters, type DCard, type Selection,
} from './hand';
import { cardNumber, receivedTax, type DalmutiView, type PlayJson } from './view';
import { describeDalmutiEvent } from './events';
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

/** Seats glide to their new places when titles change (a FLIP animation on the seat list). */
function useSeatGlide(order: string[]) {
  const list = useRef<HTMLOListElement>(null);
  const last = useRef(new Map<string, DOMRect>());
  useLayoutEffect(() => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>('[data-seat]') ?? [])];
    const next = new Map(items.map((el) => [el.dataset.seat!, el.getBoundingClientRect()]));
    for (const el of items) {
      const before = last.current.get(el.dataset.seat!);
      const now = next.get(el.dataset.seat!)!;
      if (!before || (before.left === now.left && before.top === now.top)) continue;
      el.animate?.(
        [{ transform: `translate(${before.left - now.left}px, ${before.top - now.top}px)` }, { transform: 'none' }],
        { duration: 600, easing: 'ease-in-out' },
      );
    }
    last.current = next;
  }, [order.join()]);
  return list;
}

function Seats({ view, me, names }: { view: DalmutiView; me: string | null; names: Names }) {
  const list = useSeatGlide(view.order);
  return (
    <ol class="dseats" data-testid="dseats" ref={list}>
      {view.order.map((id) => {
        const title = view.titles[id];
        const style = seatStyle(id);
        const passed = view.trick.passesSinceTop.includes(id);
        const out = view.finishOrder.indexOf(id);
        const checked = view.phase.kind === 'revolutionCheck' && view.phase.confirmed[id];
        return (
          <li key={id} data-seat={id} class={`dseat${view.current === id ? ' current' : ''}${id === me ? ' me' : ''}`} style={{ borderColor: style.color }} data-testid={`dseat-${id}`}>
            <span class="dtitle">
              {TITLE_ICONS[title] ?? ''} {title}
            </span>
            <span class="dname">
              {view.current === id ? '▶ ' : ''}
              <span style={{ color: style.color }}>{style.mark}</span> {names(id)}
              {id === me ? ' (나)' : ''}
            </span>
            <span class="dcount" data-testid={`count-${id}`}>🂠 {view.handCounts[id]}장</span>
            {passed && <span class="bubble">패스</span>}
            {out >= 0 && <span class="bubble done">{out + 1}등 🎉</span>}
            {checked && <span class="bubble done">확인 ✔</span>}
          </li>
        );
      })}
    </ol>
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

function PlayControls({ view, hand, act }: { view: DalmutiView; hand: DCard[]; act: Act }) {
  const top = view.trick.top ? { count: view.trick.top.count, rank: view.trick.top.rank } : null;
  const groups = useMemo(() => groupHand(hand), [hand]);
  const jesters = jesterCount(hand);
  const [sel, setSel] = useState<Selection | null>(null);
  useEffect(() => setSel(null), [view.trick.top?.cardIds.join(), view.current, hand.length]);
  const myTurn = view.current === view.viewer && view.phase.kind === 'playing';
  const group = sel ? groups.find((g) => g.n === sel.n) : undefined;
  const legal = !!sel && selectionLegal(sel, hand, top);
  const ids = sel ? selectedCardIds(sel, hand) : [];
  return (
    <>
      <div class="hand" data-testid="hand">
        {groups.map((g) => {
          const how = myTurn ? playability(g, g.n === JESTER ? 0 : jesters, top) : 'playable';
          const chosen = sel?.n === g.n;
          return (
            <button
              key={g.n}
              class={`group ${how}${chosen ? ' chosen' : ''}${myTurn ? '' : ' idle'}`}
              data-testid={`group-${g.n}`}
              aria-pressed={chosen}
              aria-label={`${cardLabel(g.n)} ${g.cards.length}장${how === 'blocked' ? ', 낼 수 없음' : ''}${how === 'needsJester' ? ', 광대 필요' : ''}`}
              onClick={() => myTurn && setSel(tapGroup(g, jesters, top))}
            >
              <Card n={g.n} />
              <span class="badge">×{g.cards.length}</span>
              {how === 'needsJester' && <span class="need">🤡 광대 필요</span>}
              {chosen && <span class="tick">✔</span>}
            </button>
          );
        })}
      </div>
      {myTurn && (
        <div class="controls" data-testid="controls">
          <div class="row sel-row">
            <button class="btn" aria-label="한 장 빼기" disabled={!sel || !group} onClick={() => sel && group && setSel(stepCount(sel, group, jesters, -1))}>
              −
            </button>
            <span class="sel-text" data-testid="selection">
              {sel ? `${cardLabel(sel.n)} × ${ids.length}장${ids.some((id) => cardNumber(id) === JESTER) && sel.n !== JESTER ? ' (광대 포함)' : ''}` : '낼 숫자를 눌러 주세요'}
            </span>
            <button class="btn" aria-label="한 장 더" disabled={!sel || !group} onClick={() => sel && group && setSel(stepCount(sel, group, jesters, +1))}>
              +
            </button>
          </div>
          <label class="toggle">
            <input
              type="checkbox"
              data-testid="mix-jesters"
              checked={!!sel?.mixJesters}
              disabled={!sel || jesters === 0 || sel.n === JESTER}
              onChange={() => sel && group && setSel(toggleJesters(sel, group, jesters))}
            />
            🤡 광대 섞기 ({jesters}장)
          </label>
          <div class="row">
            <button class="btn primary big" data-testid="play" disabled={!sel} onClick={() => sel && act({ type: 'play', cardIds: ids })}>
              내기{sel && !legal ? ' ⚠️' : ''}
            </button>
            <button class="btn big" data-testid="pass" disabled={!top} onClick={() => act({ type: 'pass' })}>
              패스
            </button>
          </div>
        </div>
      )}
    </>
  );
}

function RevolutionCheck({ view, act }: { view: DalmutiView; act: Act }) {
  const me = view.viewer;
  const phase = view.phase as { kind: 'revolutionCheck'; confirmed: Record<string, boolean> };
  if (!me || !(me in phase.confirmed) || phase.confirmed[me]) {
    return <p class="hint center">모두 손패를 확인하고 있어요…</p>;
  }
  return (
    <div class="controls" data-testid="revolution-check">
      <p class="hint">손패를 확인했으면 눌러 주세요.</p>
      <div class="row">
        <button class="btn primary big" data-testid="confirm-hand" onClick={() => act({ type: 'confirmHand', declareRevolution: false })}>
          손패 확인
        </button>
        {view.canDeclareRevolution && (
          <button class="btn danger big" data-testid="declare-revolution" onClick={() => act({ type: 'confirmHand', declareRevolution: true })}>
            ✊ 혁명!
          </button>
        )}
      </div>
    </div>
  );
}

function TaxReturn({ view, hand, act, names }: { view: DalmutiView; hand: DCard[]; act: Act; names: Names }) {
  const me = view.viewer;
  const phase = view.phase as { kind: 'taxReturn'; owed: Record<string, { to: string; count: number; done: boolean }> };
  const owed = me ? phase.owed[me] : undefined;
  const [picked, setPicked] = useState<string[]>(() => (owed ? suggestReturn(hand, owed.count) : []));
  const received = receivedTax(view);
  const moves = view.tax.map((t, i) => (
    <li key={i}>
      {TITLE_ICONS[view.titles[t.from]] ?? ''} {names(t.from)} → {names(t.to)} {t.count}장
      {t.cardIds ? ` (${t.cardIds.map((id) => cardLabel(cardNumber(id))).join(', ')})` : ''}
    </li>
  ));
  if (!owed || owed.done) {
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
      <button class="btn primary big wide" data-testid="return-tax" disabled={picked.length !== owed.count} onClick={() => act({ type: 'returnTax', cardIds: picked })}>
        {picked.length}/{owed.count}장 돌려주기
      </button>
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

export function DalmutiTable({ state, act }: { state: SessionState; act: Act }) {
  const view = state.view as unknown as DalmutiView;
  const me = state.you?.playerId ?? null;
  const names = useNames(state);
  const feed = useFeed(state, (e) => describeDalmutiEvent(e, names));
  const [tips, setTipsState] = useState(tipsOn());
  const hand = view.hand ?? [];
  const pending = state.pending.find((p) => p.player === me) ?? state.pending.find((p) => p.player === view.current) ?? state.pending[0];
  const totalSeconds = view.phase.kind === 'revolutionCheck' ? 20 : view.phase.kind === 'taxReturn' ? 30 : (view.options.turnSeconds as number);
  return (
    <main class="table dalmuti" data-testid="dalmuti-table">
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
      <Seats view={view} me={me} names={names} />
      <Scores view={view} names={names} />
      <Trick view={view} names={names} />
      <Countdown deadline={pending?.deadline} offset={state.offset} totalSeconds={totalSeconds} />
      {view.hand === null && <p class="hint center" data-testid="spectating">👀 관전 중이에요. 손패는 보이지 않아요.</p>}
      {view.phase.kind === 'revolutionCheck' && view.hand && <RevolutionCheck view={view} act={act} />}
      {view.phase.kind === 'taxReturn' && view.hand && <TaxReturn key={view.round} view={view} hand={hand} act={act} names={names} />}
      {view.hand && view.phase.kind !== 'taxReturn' && <PlayControls view={view} hand={hand} act={act} />}
      <ol class="feed" data-testid="feed">
        {feed.map((line, i) => (
          <li key={`${state.eventSerial}-${i}`}>{line}</li>
        ))}
      </ol>
    </main>
  );
}
