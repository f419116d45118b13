// Animations of the card table honour prefers-reduced-motion: with it, nothing moves for
// longer than a flash (the CSS side is in styles.css under `.dalmuti`).

export function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Element.animate unless the player asked for less motion. */
export function animate(el: Element, frames: Keyframe[], options: KeyframeAnimationOptions): Animation | null {
  if (reducedMotion() || typeof el.animate !== 'function') return null;
  return el.animate(frames, options);
}
