// Where the card table's moving parts start and land, from measured boxes: a seat gliding to
// its new place (or turning over on the way) and a tax card flying between two seats. Centres
// throughout, so a seat drawn half-turned or scaled, or seats of different widths (my own seat
// is wider than those on the arc), still start and land where they are seen.

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Offset {
  dx: number;
  dy: number;
}

function centre(b: Box): { x: number; y: number } {
  return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
}

/** The offset a seat's glide starts from, relative to where it rests now.
 *
 * `before` is where it rested (its box without animations) when the seats last moved, `shown`
 * where it is drawn now (with a glide still under way, if any) and `rest` its box now without
 * animations. A glide's transform is relative to the seat's own box, so what a running one adds
 * is `shown - rest`; the seat is seen at `before` plus that. Measuring the drawn box alone would
 * count a running glide twice: a reorder followed by a great revolution's turn sent seats past
 * the screen's edge. */
export function glideStart(before: Box | undefined, shown: Box, rest: Box): Offset {
  const was = centre(before ?? rest);
  const drawn = centre(shown);
  const now = centre(rest);
  const seen = { x: was.x + (drawn.x - now.x), y: was.y + (drawn.y - now.y) };
  return { dx: seen.x - now.x, dy: seen.y - now.y };
}

/** The size of a flying card (`.dcard.small` in styles.css). */
export const FLYING_CARD = { width: 30, height: 42 };
/** How far each further card of one flight sits to the right of the one before it. */
export const FAN = 8;

export interface Flight {
  /** the card's place in the box it flies over (CSS left/top) */
  left: number;
  top: number;
  /** its way from the giver's centre to the receiver's */
  dx: number;
  dy: number;
}

/** The `k`-th card of a flight from seat `from` to seat `to`, over `root` (all client boxes). */
export function flightOf(from: Box, to: Box, root: Box, k: number): Flight {
  const a = centre(from);
  const b = centre(to);
  return {
    left: a.x - root.left - FLYING_CARD.width / 2 + k * FAN,
    top: a.y - root.top - FLYING_CARD.height / 2,
    dx: b.x - a.x,
    dy: b.y - a.y,
  };
}
