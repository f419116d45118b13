import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** A bottom sheet for decisions; `onClose` adds a close button and Esc (info sheets only:
 * a decision is never taken by a stray key). `pos` names the board square it is about. */
export function Sheet({ title, children, onClose, testId, timer, pos }: {
  title: string;
  children: ComponentChildren;
  onClose?: () => void;
  testId?: string;
  timer?: ComponentChildren;
  pos?: number;
}) {
  // Esc works from the first frame the sheet is seen: the listener is attached before the
  // browser paints (a layout effect) and once per sheet, reading the latest onClose.
  const close = useRef(onClose);
  close.current = onClose;
  const closable = onClose !== undefined;
  useLayoutEffect(() => {
    if (!closable) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current?.();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [closable]);
  return (
    <div class="sheet-backdrop" onClick={onClose}>
      <section class="sheet" role="dialog" aria-label={title} data-testid={testId} data-pos={pos} onClick={(e) => e.stopPropagation()}>
        <header class="sheet-head">
          <h2>{title}</h2>
          {onClose && (
            <button class="icon-btn" aria-label="닫기" onClick={onClose}>
              ✕
            </button>
          )}
        </header>
        {timer}
        {children}
      </section>
    </div>
  );
}

/** The rejection banner: the server's Korean message, shown until dismissed or replaced. */
export function Toast({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <div class="toast" role="alert" data-testid="rejection">
      <span>⚠️ {message}</span>
      <button class="icon-btn" aria-label="닫기" onClick={onClose}>
        ✕
      </button>
    </div>
  );
}
