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

export const ARC_DEPTH = 150; // px from the arc's top seat to its end seats (centres)

/** CSS left/top of a seat's centre for its angle: the arc spans the width, ARC_DEPTH deep. */
export function arcStyle(angle: number): { left: string; top: string } {
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad).toFixed(4);
  const down = (1 + Math.sin(rad)) * ARC_DEPTH;
  return { left: `calc(50% + (50% - 40px) * ${cos})`, top: `${Math.round(30 + down)}px` };
}
