import type { OrbitCamera } from '../scene/orbit-camera.ts';

/** Options of {@link attachOrbitInput}. */
export interface OrbitInputOptions {
  /**
   * Keep orbiting after a drag is released, slowing down (exponential damping, half the speed every
   * {@link INERTIA_HALF_LIFE_MS}); a new press stops it. Default false.
   */
  readonly inertia?: boolean;
  /** Input moves the camera at all (read at each event). Default true. */
  enabled?: boolean;
  /** The wheel and pinching zoom (read at each event). Default true. */
  zoom?: boolean;
  /** Right-, shift- and two-finger drags pan (read at each event). Default true. */
  pan?: boolean;
}

/** Milliseconds in which the orbit speed left by a released drag halves. */
export const INERTIA_HALF_LIFE_MS = 90;

/**
 * Mouse / touch / wheel input for an {@link OrbitCamera} on an element: one pointer dragging orbits (a full
 * drag across the element's height turns π radians), right-drag or shift-drag pans, the wheel zooms
 * (exponentially, so each notch is the same ratio); with two touches, moving their midpoint pans and
 * pinching zooms (the distance scales by the inverse ratio of the finger spread). `onChange` runs after
 * every camera change (e.g. to redraw while paused). Returns a function that removes the listeners.
 */
export function attachOrbitInput(element: HTMLElement, camera: OrbitCamera, onChange: () => void, options: OrbitInputOptions = {}): () => void {
  /** Active pointers: id → last position. */
  const pointers = new Map<number, { x: number; y: number }>();
  let panning = false;
  let lastX = 0;
  let lastY = 0;
  let lastSpread = 0;
  // Inertia: radians per millisecond of the last drag moves.
  let velocityYaw = 0;
  let velocityPitch = 0;
  let lastMoveMs = 0;
  let inertiaFrame = 0;
  let inertiaLastMs = 0;

  const stopInertia = (): void => {
    if (inertiaFrame) cancelAnimationFrame(inertiaFrame);
    inertiaFrame = 0;
  };
  const coast = (now: number): void => {
    const dt = Math.min(now - inertiaLastMs, 50);
    inertiaLastMs = now;
    const decay = Math.pow(0.5, dt / INERTIA_HALF_LIFE_MS);
    velocityYaw *= decay;
    velocityPitch *= decay;
    camera.orbit(velocityYaw * dt, velocityPitch * dt);
    onChange();
    inertiaFrame = Math.abs(velocityYaw) + Math.abs(velocityPitch) > 1e-5 ? requestAnimationFrame(coast) : 0;
  };
  const midpoint = (): { x: number; y: number; spread: number } => {
    const [a, b] = [...pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, spread: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  const down = (e: PointerEvent): void => {
    if (pointers.size >= 2 || options.enabled === false) return;
    stopInertia();
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try {
      element.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks (synthetic events): drag without capture.
    }
    e.preventDefault();
    velocityYaw = velocityPitch = 0;
    if (pointers.size === 2) {
      const m = midpoint();
      lastX = m.x;
      lastY = m.y;
      lastSpread = m.spread;
      return;
    }
    panning = e.button === 2 || e.button === 1 || e.shiftKey;
    lastX = e.clientX;
    lastY = e.clientY;
  };
  const move = (e: PointerEvent): void => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    p.x = e.clientX;
    p.y = e.clientY;
    const h = Math.max(element.clientHeight, 1);
    if (pointers.size === 2) {
      const m = midpoint();
      if (options.pan !== false) camera.pan((m.x - lastX) / h, (m.y - lastY) / h);
      if (lastSpread > 0 && m.spread > 0 && options.zoom !== false) camera.zoom(lastSpread / m.spread);
      lastX = m.x;
      lastY = m.y;
      lastSpread = m.spread;
      onChange();
      return;
    }
    const dx = (e.clientX - lastX) / h;
    const dy = (e.clientY - lastY) / h;
    lastX = e.clientX;
    lastY = e.clientY;
    if (panning) {
      if (options.pan === false) return;
      camera.pan(dx, dy);
    } else {
      camera.orbit(-dx * Math.PI, dy * Math.PI);
      const now = performance.now();
      const dt = Math.max(now - lastMoveMs, 1);
      lastMoveMs = now;
      velocityYaw = (-dx * Math.PI) / dt;
      velocityPitch = (dy * Math.PI) / dt;
    }
    onChange();
  };
  const up = (e: PointerEvent): void => {
    if (!pointers.delete(e.pointerId)) return;
    if (element.hasPointerCapture(e.pointerId)) element.releasePointerCapture(e.pointerId);
    if (pointers.size === 1) {
      // From a pinch back to one finger: carry on orbiting from where that finger is.
      const [rest] = pointers.values();
      lastX = rest.x;
      lastY = rest.y;
      panning = false;
      velocityYaw = velocityPitch = 0;
      return;
    }
    const recent = performance.now() - lastMoveMs < 60;
    if (options.inertia && !panning && recent && e.type === 'pointerup' && (velocityYaw !== 0 || velocityPitch !== 0)) {
      inertiaLastMs = performance.now();
      inertiaFrame = requestAnimationFrame(coast);
    }
  };
  const wheel = (e: WheelEvent): void => {
    // Without zoom the page scrolls, as over model-viewer with disable-zoom.
    if (options.enabled === false || options.zoom === false) return;
    e.preventDefault();
    const pixels = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
    camera.zoom(Math.exp(pixels * 0.001));
    onChange();
  };
  const menu = (e: Event): void => e.preventDefault();

  element.addEventListener('pointerdown', down);
  element.addEventListener('pointermove', move);
  element.addEventListener('pointerup', up);
  element.addEventListener('pointercancel', up);
  element.addEventListener('wheel', wheel, { passive: false });
  element.addEventListener('contextmenu', menu);
  return () => {
    stopInertia();
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointermove', move);
    element.removeEventListener('pointerup', up);
    element.removeEventListener('pointercancel', up);
    element.removeEventListener('wheel', wheel);
    element.removeEventListener('contextmenu', menu);
  };
}
