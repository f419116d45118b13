// prefers-reduced-motion: animations that carry information (a token's walk) jump instead.
export function reducedMotion(): boolean {
  try {
    return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  } catch {
    return false;
  }
}
