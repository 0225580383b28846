import type { OrbitCamera } from '../scene/orbit-camera.ts';

/**
 * Mouse / touch / wheel input for an {@link OrbitCamera} on an element: left-drag orbits (a full drag across
 * the element's height turns π radians), right-drag or shift-drag pans, the wheel zooms (exponentially,
 * so each notch is the same ratio). `onChange` runs after every camera change (e.g. to redraw while
 * paused). Returns a function that removes the listeners.
 */
export function attachOrbitInput(element: HTMLElement, camera: OrbitCamera, onChange: () => void): () => void {
  let pointerId = -1;
  let panning = false;
  let lastX = 0;
  let lastY = 0;

  const down = (e: PointerEvent): void => {
    if (pointerId !== -1) return;
    pointerId = e.pointerId;
    panning = e.button === 2 || e.button === 1 || e.shiftKey;
    lastX = e.clientX;
    lastY = e.clientY;
    element.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const move = (e: PointerEvent): void => {
    if (e.pointerId !== pointerId) return;
    const h = Math.max(element.clientHeight, 1);
    const dx = (e.clientX - lastX) / h;
    const dy = (e.clientY - lastY) / h;
    lastX = e.clientX;
    lastY = e.clientY;
    if (panning) camera.pan(dx, dy);
    else camera.orbit(-dx * Math.PI, dy * Math.PI);
    onChange();
  };
  const up = (e: PointerEvent): void => {
    if (e.pointerId !== pointerId) return;
    pointerId = -1;
    if (element.hasPointerCapture(e.pointerId)) element.releasePointerCapture(e.pointerId);
  };
  const wheel = (e: WheelEvent): void => {
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
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointermove', move);
    element.removeEventListener('pointerup', up);
    element.removeEventListener('pointercancel', up);
    element.removeEventListener('wheel', wheel);
    element.removeEventListener('contextmenu', menu);
  };
}
