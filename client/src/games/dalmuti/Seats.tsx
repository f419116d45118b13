// The seats around the table: the others on an arc over the trick, my own seat under it.
// Seats glide when titles change, turn over in a great revolution, and tax cards fly from the
// giver's seat to the receiver's (faces for the two concerned, backs for everyone else).
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { RoomInfo } from '../../net/protocol.gen';
import { seatStyle } from '../../text/ko';
import { PresenceBadge, presenceOf } from '../../ui/Presence';
import { animate } from './motion';
import type { TaxFlight } from './moments';
import { flightOf, glideStart, type Box } from './paths';
import { arcSeats, arcStyle, crowded } from './ring';
import type { DalmutiView } from './view';
import { cardNumber } from './view';
import { TITLE_ICONS } from './words';

type Names = (id: string) => string;
type RoomSeat = RoomInfo['seats'][number] & { away?: boolean };

function SeatCard({ view, id, me, names, seat, style }: {
  view: DalmutiView; id: string; me: string | null; names: Names; seat: RoomSeat | undefined; style?: Record<string, string>;
}) {
  const title = view.titles[id];
  const colour = seatStyle(id);
  const passed = view.trick.passesSinceTop.includes(id);
  const out = view.finishOrder.indexOf(id);
  const checked = view.phase.kind === 'revolutionCheck' && view.phase.confirmed[id];
  const absent = presenceOf(seat) !== 'here';
  const current = view.current === id;
  return (
    <li
      data-seat={id}
      class={`dseat${current ? ' current' : ''}${id === me ? ' me' : ''}${absent ? ' absent' : ''}`}
      style={{ borderColor: colour.color, ...style }}
      data-testid={`dseat-${id}`}
    >
      <span class="dtitle">
        {TITLE_ICONS[title] ?? ''} {title}
      </span>
      <span class="dname">
        {current ? '▶ ' : ''}
        <span style={{ color: colour.color }}>{colour.mark}</span> {id === me ? '나' : names(id)}
      </span>
      <span class="dcount" data-testid={`count-${id}`}>🂠 {view.handCounts[id]}장</span>
      <PresenceBadge seat={seat} testId={`badge-${id}`} />
      {passed && <span class="bubble">패스</span>}
      {out >= 0 && <span class="bubble done">{out + 1}등 🎉</span>}
      {checked && view.revolutionBy !== id && <span class="bubble done">확인 ✔</span>}
      {view.revolutionBy === id && <span class="bubble revolt">✊ 혁명</span>}
    </li>
  );
}

/** A client box relative to `origin`'s corner, so a table that moved on the page (a tip closed
 * above it) does not make its seats glide. */
function within(r: DOMRect, origin: DOMRect): Box {
  return { left: r.left - origin.left, top: r.top - origin.top, width: r.width, height: r.height };
}

/** Seats glide to their new places when the order changes (FLIP), and turn over when `flip`. */
function useSeatMotion(order: string[], flip: number) {
  const box = useRef<HTMLDivElement>(null);
  const last = useRef(new Map<string, Box>());
  const glides = useRef(new WeakMap<Element, Animation>());
  const flipped = useRef(flip);
  useLayoutEffect(() => {
    const root = box.current;
    if (!root) return;
    const origin = root.getBoundingClientRect();
    const items = [...root.querySelectorAll<HTMLElement>('[data-seat]')];
    // where each seat is drawn now, then where it rests once the glides under way are stopped
    const shown = items.map((el) => within(el.getBoundingClientRect(), origin));
    for (const el of items) glides.current.get(el)?.cancel();
    const rest = items.map((el) => within(el.getBoundingClientRect(), origin));
    const turning = flip !== flipped.current;
    flipped.current = flip;
    items.forEach((el, i) => {
      const { dx, dy } = glideStart(last.current.get(el.dataset.seat!), shown[i], rest[i]);
      let run: Animation | null = null;
      if (turning) {
        // the great revolution: every seat turns over on its way to its new place
        run = animate(el, [
          { transform: `translate(${dx}px, ${dy}px) rotateY(0deg)` },
          { transform: `translate(${dx / 2}px, ${dy / 2}px) rotateY(90deg) scale(1.15)`, offset: 0.4 },
          { transform: 'none' },
        ], { duration: 1400, easing: 'ease-in-out' });
      } else if (Math.abs(dx) >= 0.5 || Math.abs(dy) >= 0.5) {
        run = animate(el, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], {
          duration: 600, easing: 'ease-in-out',
        });
      }
      if (run) glides.current.set(el, run);
    });
    last.current = new Map(items.map((el, i) => [el.dataset.seat!, rest[i]]));
  }, [order.join(), flip]);
  return box;
}

/** Where a seat rests: its drawn box less the move of a glide under way (a new round's tax can
 * take off while the seats still glide to their new places). */
function resting(el: Element): Box {
  const r = el.getBoundingClientRect();
  const t = new DOMMatrixReadOnly(getComputedStyle(el).transform);
  return { left: r.left - t.m41, top: r.top - t.m42, width: r.width, height: r.height };
}

/** Tax cards flying from seat to seat, each flight once (keyed by the batch serial). */
function useTaxFlights(box: { current: HTMLDivElement | null }, flights: TaxFlight[], serial: number) {
  useLayoutEffect(() => {
    const root = box.current;
    if (!root || !flights.length) return;
    const rootRect = root.getBoundingClientRect();
    flights.forEach((f, i) => {
      const giver = root.querySelector(`[data-seat="${f.from}"]`);
      const receiver = root.querySelector(`[data-seat="${f.to}"]`);
      if (!giver || !receiver) return;
      const from = resting(giver);
      const to = resting(receiver);
      for (let k = 0; k < f.count; k += 1) {
        const card = document.createElement('span');
        const id = f.cardIds?.[k];
        const path = flightOf(from, to, rootRect, k);
        card.className = `dcard small flying${id ? '' : ' back'}`;
        card.textContent = id ? (cardNumber(id) === 13 ? '🤡' : String(cardNumber(id))) : '🂠';
        card.style.left = `${path.left}px`;
        card.style.top = `${path.top}px`;
        root.appendChild(card);
        const run = animate(card, [
          { transform: 'translate(0, 0)', opacity: 1 },
          { transform: `translate(${path.dx}px, ${path.dy}px)`, opacity: 1 },
        ], { duration: 900, delay: i * 700 + k * 120, easing: 'ease-in-out', fill: 'forwards' });
        if (run) run.onfinish = () => card.remove();
        else card.remove();
      }
    });
  }, [serial]);
}

export function Seats({ view, me, names, room, flip, flights, flightSerial, children }: {
  view: DalmutiView;
  me: string | null;
  names: Names;
  room: RoomInfo | null;
  flip: number;
  flights: TaxFlight[];
  flightSerial: number;
  children: ComponentChildren;
}) {
  const box = useSeatMotion(view.order, flip);
  useTaxFlights(box, flights, flightSerial);
  const seat = (id: string) => room?.seats.find((s) => s.playerId === id) as RoomSeat | undefined;
  const mine = me && view.order.includes(me);
  const arc = arcSeats(view.order, me);
  return (
    <div class={`dtable${crowded(arc.length) ? ' crowded' : ''}`} ref={box} data-testid="dtable">
      <ol class="dseats arc" data-testid="dseats">
        {arc.map((p) => (
          <SeatCard key={p.id} view={view} id={p.id} me={me} names={names} seat={seat(p.id)} style={arcStyle(p.angle, arc.length)} />
        ))}
      </ol>
      {children}
      {mine && (
        <ol class="dseats mine">
          <SeatCard view={view} id={me} me={me} names={names} seat={seat(me)} />
        </ol>
      )}
    </div>
  );
}
