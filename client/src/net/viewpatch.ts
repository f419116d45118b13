// A view sent as what changed (docs/protocol.md, "Views and patches"): an update carries the
// whole view, or a JSON Patch (RFC 6902) of the view the client holds, or neither (unchanged).
import { applyPatch, type Operation } from 'fast-json-patch';
import type { PatchOp } from './protocol.gen';

export type View = Record<string, unknown>;

/** The update's view from the one held: ``undefined`` when the patch cannot apply (the client
 * then asks for a snapshot). The held view is left as it is; the result is a new object. */
export function nextView(held: View | null, view: View | null | undefined, patch: PatchOp[] | null | undefined): View | null | undefined {
  if (view) return view;
  if (!patch || patch.length === 0) return held;
  if (!held) return undefined;
  try {
    return applyPatch(held, patch as Operation[], true, false).newDocument as View;
  } catch {
    return undefined;
  }
}
