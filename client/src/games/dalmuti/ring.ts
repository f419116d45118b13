// Where the seats sit (dalmuti.md 9: "신분 순서대로 상대를 원형으로 배치"): the others on an arc
// over the trick, in turn order going clockwise from me (left end → top → right end), so the
// turn travels round the table the way the spec seats it (4.2). A spectator sees everyone on it.

export interface ArcPlace {
  id: string;
  /** angle on the arc in degrees, 180 (left end) → 270 (top) → 360 (right end) */
  angle: number;
}

export function arcSeats(order: string[], me: string | null): ArcPlace[] {
  const start = me && order.includes(me) ? order.indexOf(me) + 1 : 0;
  const others = [...order.slice(start), ...order.slice(0, start)].filter((id) => id !== me);
  const step = others.length > 1 ? 180 / (others.length - 1) : 0;
  return others.map((id, i) => ({ id, angle: others.length > 1 ? 180 + i * step : 270 }));
}

/** Six or more others get narrower seats on a deeper arc, so neighbours never overlap at 360 px. */
export function crowded(others: number): boolean {
  return others >= 6;
}

/** CSS left/top of a seat's centre for its angle: the arc spans the width; its depth (top seat
 * to end seats, centres) is 150 px, 170 px when crowded. */
export function arcStyle(angle: number, others: number): { left: string; top: string } {
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad).toFixed(4);
  const half = crowded(others) ? 35 : 40; // half a seat's width
  const down = (1 + Math.sin(rad)) * (crowded(others) ? 170 : 150);
  return { left: `calc(50% + (50% - ${half}px) * ${cos})`, top: `${Math.round(30 + down)}px` };
}
