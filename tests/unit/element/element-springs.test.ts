import { describe, expect, it } from 'vitest';
import { ElementSprings, HeldWhilePaused } from '../../../src/element/element-springs.ts';
import type { SpringSimulator } from '../../../src/secondary/spring-simulator.ts';
import type { ModelView } from '../../../src/view/model-view.ts';

/** A spring simulator that records what it is asked. */
class RecordingSimulator implements SpringSimulator {
  readonly world = new Float64Array(16);
  readonly external = new Float64Array(3);
  enabled = true;
  stepped = 0;
  resets = 0;
  applies = 0;
  step(dt: number): void { this.stepped += dt; }
  reset(): void { this.resets++; }
  apply(): void { this.applies++; }
}

/** The attribute methods ElementSprings reads, over a map. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  getAttribute(name: string): string | null { return this.attributes.get(name) ?? null; }
  setAttribute(name: string, value: string): void { this.attributes.set(name, value); }
  hasAttribute(name: string): boolean { return this.attributes.has(name); }
  removeAttribute(name: string): void { this.attributes.delete(name); }
}

/** A view with a shown model whose secondary motion has `simulator` as its springs. */
function fakeView(simulator: SpringSimulator) {
  const motion = { springs: simulator as SpringSimulator | null, external: new Float64Array(3) };
  const view = {
    playback: { playing: false }, animated: { secondaryMotion: motion }, redraws: 0, requestRedraw() { this.redraws++; },
    springs: { showColliders: false, setShowColliders(on: boolean) { this.showColliders = on; } },
  };
  return { view, motion };
}

function setUp(attributes: Record<string, string> = {}) {
  const element = new FakeElement();
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
  const simulator = new RecordingSimulator();
  const { view, motion } = fakeView(simulator);
  const reports: string[] = [];
  const springs = new ElementSprings({
    element: element as unknown as HTMLElement, currentView: () => view as unknown as ModelView, report: (m) => reports.push(m),
  });
  springs.connect();
  springs.shown();
  return { element, simulator, view, motion, reports, springs };
}

describe('ElementSprings', () => {
  it('holds the springs while paused and steps them while playing (paused = still picture)', () => {
    const { simulator, view, motion } = setUp();
    expect(motion.springs).toBeInstanceOf(HeldWhilePaused);
    motion.springs!.step(0.25);
    expect(simulator.stepped).toBe(0);
    view.playback.playing = true;
    motion.springs!.step(0.25);
    expect(simulator.stepped).toBe(0.25);
    motion.springs!.apply({} as never, {} as never);
    expect(simulator.applies).toBe(1);
    expect(motion.springs!.world).toBe(simulator.world);
    expect(motion.springs!.external).toBe(simulator.external);
  });

  it('writes gravity + wind into the secondary motion\'s external vector, and spring-bones into enabled', () => {
    const { element, simulator, view, motion, reports, springs } = setUp({ gravity: '0 -2 0', wind: '4, 0, 0.5', 'spring-bones': 'off' });
    expect([...motion.external]).toEqual([4, -2, 0.5]);
    expect(simulator.enabled).toBe(false);
    element.setAttribute('spring-bones', 'ON');
    springs.changed('spring-bones');
    expect(simulator.enabled).toBe(true);
    element.setAttribute('wind', '1 1 1');
    springs.changed('wind');
    expect([...motion.external]).toEqual([1, -1, 1]);
    expect(view.redraws).toBe(2);
    expect(reports).toEqual([]);
  });

  it('reports one malformed value naming the attribute, and uses its fallback', () => {
    const { element, simulator, motion, reports, springs } = setUp({ wind: '4 0 0' });
    element.setAttribute('wind', '4 0');
    springs.changed('wind');
    expect(reports).toEqual(['<sinew-viewer wind="4 0">: expected "X Y Z", three numbers in m/s² (world space, e.g. "4 0 0"); using 0 0 0']);
    expect([...motion.external]).toEqual([0, 0, 0]);
    element.setAttribute('spring-bones', 'maybe');
    springs.changed('spring-bones');
    expect(reports[1]).toBe('<sinew-viewer spring-bones="maybe">: expected on or off; using on');
    expect(simulator.enabled).toBe(true);
  });

  it('resetSpringBones resets the simulator and draws; a second shown() does not wrap twice', () => {
    const { simulator, view, motion, springs } = setUp();
    springs.reset();
    expect(simulator.resets).toBe(1);
    expect(view.redraws).toBe(1);
    const wrapped = motion.springs;
    springs.shown();
    expect(motion.springs).toBe(wrapped);
  });

  it('show-colliders turns the view\'s collider overlay on and off, and a model shown later gets it', () => {
    const { element, view, springs } = setUp({ 'show-colliders': '' });
    expect(view.springs.showColliders).toBe(true);
    element.removeAttribute('show-colliders');
    springs.changed('show-colliders');
    expect(view.springs.showColliders).toBe(false);
    element.setAttribute('show-colliders', '');
    springs.changed('show-colliders');
    view.springs.showColliders = false; // a new view of the next model
    springs.shown();
    expect(view.springs.showColliders).toBe(true);
  });
});
