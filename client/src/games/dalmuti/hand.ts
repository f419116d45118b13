// The own hand of dalmuti.md section 9: grouped by number, which groups can be played on the
// current trick (5.1), and the selection a tap, +/- and the "광대 섞기" toggle make.

export const JESTER = 13;

export interface DCard {
  id: string;
  n: number;
}

export interface TopPlay {
  count: number;
  rank: number;
}

export interface HandGroup {
  n: number; // 1..12, or 13 for the jesters on their own
  cards: DCard[];
}

export type Playability = 'playable' | 'needsJester' | 'blocked';

export interface Selection {
  n: number; // the group tapped
  count: number; // cards in total, jesters included
  mixJesters: boolean;
}

/** Number groups in ascending order (best first); the jesters, if any, as a last group 13. */
export function groupHand(hand: DCard[]): HandGroup[] {
  const byNumber = new Map<number, DCard[]>();
  for (const card of hand) {
    const list = byNumber.get(card.n) ?? [];
    list.push(card);
    byNumber.set(card.n, list);
  }
  return [...byNumber.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, cards]) => ({ n, cards: [...cards].sort((x, y) => x.id.localeCompare(y.id)) }));
}

export function jesterCount(hand: DCard[]): number {
  return hand.filter((c) => c.n === JESTER).length;
}

/** How many cards a play must have now: the top's count when following, null when leading. */
export function neededCount(top: TopPlay | null): number | null {
  return top ? top.count : null;
}

/**
 * Whether the group can go on the trick: on its own, only with jesters mixed in, or not at all.
 * Jesters alone count 13, so they only lead (nothing is worse than 13 to follow).
 */
export function playability(group: HandGroup, jesters: number, top: TopPlay | null): Playability {
  if (group.n === JESTER) {
    if (!top) return 'playable';
    return 'blocked';
  }
  if (!top) return 'playable';
  if (group.n >= top.rank) return 'blocked';
  if (group.cards.length >= top.count) return 'playable';
  if (group.cards.length + jesters >= top.count) return 'needsJester';
  return 'blocked';
}

/** The most cards a selection on this group may hold. */
export function maxCount(group: HandGroup, jesters: number, mixJesters: boolean): number {
  if (group.n === JESTER) return group.cards.length;
  return group.cards.length + (mixJesters ? jesters : 0);
}

/** A tap on a group: following selects the needed count (mixing jesters if that is the only
 * way); leading selects the whole group. Returns null when the group cannot be played. */
export function tapGroup(group: HandGroup, jesters: number, top: TopPlay | null): Selection | null {
  const how = playability(group, jesters, top);
  if (how === 'blocked') return null;
  if (!top) return { n: group.n, count: group.cards.length, mixJesters: false };
  return { n: group.n, count: top.count, mixJesters: how === 'needsJester' };
}

/** +1 / −1 on the count, kept within 1..max. */
export function stepCount(sel: Selection, group: HandGroup, jesters: number, delta: number): Selection {
  const max = maxCount(group, jesters, sel.mixJesters);
  return { ...sel, count: Math.min(max, Math.max(1, sel.count + delta)) };
}

/** Turning "광대 섞기" on or off; switching off trims the count to the number cards. */
export function toggleJesters(sel: Selection, group: HandGroup, jesters: number): Selection {
  const mixJesters = !sel.mixJesters && jesters > 0 && group.n !== JESTER;
  const count = Math.min(sel.count, maxCount(group, jesters, mixJesters));
  return { ...sel, mixJesters, count };
}

/** The card ids of a selection: number cards first, then as many jesters as needed. */
export function selectedCardIds(sel: Selection, hand: DCard[]): string[] {
  const groups = groupHand(hand);
  const group = groups.find((g) => g.n === sel.n);
  if (!group) return [];
  const numbers = group.cards.slice(0, sel.count).map((c) => c.id);
  if (sel.n === JESTER || !sel.mixJesters || numbers.length >= sel.count) return numbers;
  const jesters = hand.filter((c) => c.n === JESTER).map((c) => c.id).sort();
  return [...numbers, ...jesters.slice(0, sel.count - numbers.length)];
}

/** Whether the selection is a legal play on the trick (the server checks it again). */
export function selectionLegal(sel: Selection, hand: DCard[], top: TopPlay | null): boolean {
  const ids = selectedCardIds(sel, hand);
  if (ids.length !== sel.count || ids.length === 0) return false;
  if (!top) return true;
  return ids.length === top.count && sel.n < top.rank;
}

/** The worst cards to give back in the tax return: highest numbers first, jesters last. */
export function suggestReturn(hand: DCard[], count: number): string[] {
  const numbers = hand
    .filter((c) => c.n !== JESTER)
    .sort((a, b) => b.n - a.n || a.id.localeCompare(b.id));
  const jesters = hand.filter((c) => c.n === JESTER);
  return [...numbers, ...jesters].slice(0, count).map((c) => c.id);
}
