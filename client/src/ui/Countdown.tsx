import { useEffect, useState } from 'preact/hooks';
import { formatRemaining, fractionLeft, isUrgent, remainingMs } from '../logic/countdown';

interface Props {
  deadline: number | null | undefined;
  offset: number;
  totalSeconds?: number | null;
  label?: string;
}

/** The time left on a decision; urgent time gets a colour AND an alarm icon. */
export function Countdown({ deadline, offset, totalSeconds, label }: Props) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!deadline) return undefined;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [deadline]);
  if (!deadline) return null;
  const ms = remainingMs(deadline, now, offset);
  const urgent = isUrgent(ms);
  const total = (totalSeconds ?? 30) * 1000;
  return (
    <div class={`countdown${urgent ? ' urgent' : ''}`} role="timer" aria-label="남은 시간">
      <span class="countdown-text">
        {urgent ? '⏰ ' : '⏱ '}
        {label ? `${label} ` : ''}
        {formatRemaining(ms)}
      </span>
      <span class="countdown-bar" style={{ width: `${fractionLeft(ms, total) * 100}%` }} />
    </div>
  );
}
