// The replay of a finished card game shows every hand (the server's `viewer=all` frames carry
// each seat's own view), in seat order, with the seat's title.
import type { ReplayExtraProps } from '../registry';
import { Card } from './DalmutiTable';
import type { DalmutiView } from './view';
import { TITLE_ICONS } from './words';

export function ReplayHands({ view, seatViews, names }: ReplayExtraProps<DalmutiView>) {
  return (
    <section class="card replay-hands" data-testid="replay-hands" aria-label="모두의 손패">
      <h2>🂠 모두의 손패</h2>
      {view.order.map((id) => {
        const hand = seatViews[id]?.hand ?? [];
        const title = view.titles[id] ?? '';
        return (
          <div key={id} class="row" data-testid={`replay-hand-${id}`}>
            <strong>
              {TITLE_ICONS[title] ?? ''} {names(id)}
            </strong>
            <span class="muted">{hand.length}장</span>
            <span class="play">
              {hand.length ? hand.map((c) => <Card key={c.id} n={c.n} small />) : '다 냈어요'}
            </span>
          </div>
        );
      })}
    </section>
  );
}
