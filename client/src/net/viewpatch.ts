// A view sent as what changed (docs/protocol.md, "Views and patches"): an update carries the
// whole view, or a patch of the view the client holds, or neither (unchanged). A patch is a list
// of operations, in order, each on a JSON Pointer (RFC 6901) path: `[path, value]` puts the value
// there (an object's member, new or not; a list's item, or a new last item at the list's
// length), a lone `path` removes what is there (a list's later items move down).
import type { PatchOp } from './protocol.gen';

export type View = Record<string, unknown>;

type Container = Record<string, unknown> | unknown[];

class Misfit extends Error {}

function unescape(token: string): string {
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

function index(token: string, length: number, putting: boolean): number {
  // digits without a leading zero (RFC 6901); putting may name the item after the last
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Misfit(token);
  const at = Number(token);
  if (at > length || (at === length && !putting)) throw new Misfit(token);
  return at;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** `doc` with `ops` applied; the containers on the changed paths are copied (once each), so
 * `doc` is left as it is and what did not change is shared with it. */
export function applyViewPatch(doc: unknown, ops: readonly PatchOp[]): unknown {
  const copied = new Set<Container>();
  const own = (value: Container): Container => {
    if (copied.has(value)) return value;
    const copy = Array.isArray(value) ? [...value] : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = doc;
  for (const op of ops) {
    const removing = typeof op === 'string';
    if (!removing && (!Array.isArray(op) || op.length !== 2)) throw new Misfit(String(op));
    const path = removing ? op : op[0];
    if (typeof path !== 'string') throw new Misfit(String(path));
    if (path === '') {
      if (removing) throw new Misfit('cannot remove the whole view');
      root = op[1];
      continue;
    }
    const tokens = path.split('/');
    if (tokens[0] !== '') throw new Misfit(path);
    if (!isContainer(root)) throw new Misfit(path);
    root = own(root);
    let parent = root as Container;
    for (const token of tokens.slice(1, -1)) {
      let child: unknown;
      let key: string | number;
      if (Array.isArray(parent)) {
        key = index(token, parent.length, false);
        child = parent[key];
      } else {
        key = unescape(token);
        if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Misfit(path);
        child = parent[key];
      }
      if (!isContainer(child)) throw new Misfit(path);
      const mine = own(child);
      (parent as Record<string | number, unknown>)[key] = mine;
      parent = mine;
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const at = index(last, parent.length, !removing);
      if (removing) parent.splice(at, 1);
      else parent[at] = op[1];
    } else {
      const key = unescape(last);
      if (removing) {
        if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Misfit(path);
        delete parent[key];
      } else parent[key] = op[1];
    }
  }
  return root;
}

/** The update's view from the one held: ``undefined`` when the patch cannot apply (the client
 * then asks for a snapshot). The held view is left as it is; the result is a new object. */
export function nextView(held: View | null, view: View | null | undefined, patch: PatchOp[] | null | undefined): View | null | undefined {
  if (view) return view;
  if (!patch || patch.length === 0) return held;
  if (!held) return undefined;
  try {
    const next = applyViewPatch(held, patch);
    return isContainer(next) && !Array.isArray(next) ? (next as View) : undefined;
  } catch (error) {
    if (error instanceof Misfit) return undefined;
    throw error;
  }
}
