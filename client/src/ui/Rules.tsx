import type { FunctionComponent } from 'preact';
import { useState } from 'preact/hooks';
import { Sheet } from './Sheet';

/** 📖 규칙 보기 and its sheet; each game brings its own rules (games/registry.ts). */
export function RulesButton({ Rules }: { Rules: FunctionComponent }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button class="btn" data-testid="rules-button" onClick={() => setOpen(true)}>
        📖 규칙 보기
      </button>
      {open && (
        <Sheet title="규칙 보기" onClose={() => setOpen(false)} testId="rules">
          <Rules />
        </Sheet>
      )}
    </>
  );
}
