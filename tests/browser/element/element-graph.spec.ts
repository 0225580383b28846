import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';

// <sinew-viewer animation-graph>: a small graph over Fox.glb's clips (Survey 3.42 s, Walk 0.708 s, Run 1.158 s)
// drives the element; parameters move it from state to state, and the graph's events reach the page once per
// crossing, in the order docs/guide/animation-graph.md gives ("What one update does"). Frames are driven by
// Playwright's clock (16 ms apart), installed and held before the element plays, so a loaded machine changes nothing.

const PAGE = '/tests/browser/pages/empty-page.html';

/** Idle (Survey) → Move (a 1D tree of Walk and Run on `speed`) and back; a `jump` trigger from ANY to Hop (Run, once). */
const GRAPH = {
  parameters: {
    0: { name: 'speed', type: 'FLOAT', value: 0 },
    1: { name: 'jump', type: 'TRIGGER', value: false },
  },
  layers: [{
    name: 'Base',
    states: [
      { name: 'START' },
      { name: 'Idle', clip: 'Survey' },
      { name: 'Move', blendTree: { type: '1D', parameter: 'speed', children: [{ name: 'Walk', point: 0 }, { name: 'Run', point: 1 }] } },
      { name: 'Hop', clip: 'Run', loop: false },
    ],
    transitions: [
      { from: 'START', to: 'Idle' },
      { from: 'Idle', to: 'Move', time: 0.25, conditions: [{ parameterName: 'speed', predicate: 'GREATER_THAN', value: 0.1 }] },
      { from: 'Move', to: 'Idle', time: 0.25, conditions: [{ parameterName: 'speed', predicate: 'LESS_THAN_EQUAL_TO', value: 0.1 }] },
      { from: 'ANY', to: 'Hop', time: 0.1, conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
      { from: 'Hop', to: 'Idle', exitTime: 0.9, time: 0.1 },
    ],
  }],
};

/** The same graph with a state naming a clip Fox does not have. */
const BAD_GRAPH = JSON.parse(JSON.stringify(GRAPH));
BAD_GRAPH.layers[0].states[2].blendTree.children[1].name = 'Gallop';

/** Serves Fox.glb and the graphs under /g/. */
async function serve(page: Page): Promise<void> {
  const fox = readFileSync(join(SHARED_ASSETS, 'gltf', 'Fox.glb'));
  await page.route('**/g/Fox.glb', (route) => route.fulfill({ body: fox, contentType: 'model/gltf-binary' }));
  await page.route('**/g/graph.json', (route) => route.fulfill({ body: JSON.stringify(GRAPH), contentType: 'application/json' }));
  await page.route('**/g/bad.json', (route) => route.fulfill({ body: JSON.stringify(BAD_GRAPH), contentType: 'application/json' }));
}

/** Records the graph's events, `sinew-graphload`, `sinew-error` and the console's warnings in `window.__heard`. */
async function listen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __heard: unknown[]; __warnings: string[] };
    w.__heard = [];
    w.__warnings = [];
    for (const type of ['state-enter', 'state-exit', 'transition-start', 'transition-end', 'sinew-graphload', 'sinew-error']) {
      document.addEventListener(type, (e) => w.__heard.push({ type, detail: (e as CustomEvent).detail }));
    }
    const warn = console.warn.bind(console);
    console.warn = (...args: unknown[]) => {
      w.__warnings.push(args.map(String).join(' '));
      warn(...args);
    };
  });
}

interface Heard {
  type: string;
  detail: Record<string, unknown>;
}

/** The events heard since the last call (then forgotten). */
async function take(page: Page): Promise<Heard[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __heard: Heard[] };
    return w.__heard.splice(0);
  });
}

/**
 * Waits until `ready()` holds in the page, moving the page's clock on (16 ms frames) meanwhile: polling by
 * animation frame or timer would wait on the clock the test holds. Before the clock is installed, real time passes.
 */
async function until(page: Page, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await page.evaluate(ready)) return;
    await page.clock.runFor(16).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${ready.toString()}`);
}

/** Installs Playwright's clock and stops it: from now on time moves only by `runFor`, in 16 ms frames. */
async function holdClock(page: Page): Promise<void> {
  await page.clock.install({ time: 0 });
  await page.clock.pauseAt(1000);
}

const enter = (state: string): Heard => ({ type: 'state-enter', detail: { layer: 'Base', state } });
const exit = (state: string): Heard => ({ type: 'state-exit', detail: { layer: 'Base', state } });
const start = (from: string, to: string): Heard => ({ type: 'transition-start', detail: { layer: 'Base', from, to } });
const end = (from: string, to: string): Heard => ({ type: 'transition-end', detail: { layer: 'Base', from, to } });

test('parameters drive the states in order, each event once per crossing; a trigger is consumed once; a bad graph leaves the old one playing', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await isolateFromLiveReload(page);
  await serve(page);
  await listen(page);
  await page.goto(PAGE);
  await page.evaluate(() => {
    const el = document.createElement('sinew-viewer');
    el.setAttribute('src', '/g/Fox.glb');
    el.setAttribute('animation-graph', '/g/graph.json');
    document.body.append(el); // no autoplay: it waits, paused, until the clock is ours
  });
  await page.waitForFunction(() => (window as unknown as { __heard: Heard[] }).__heard.some((e) => e.type === 'sinew-graphload'), undefined, { timeout: 120_000 });
  expect(await take(page)).toEqual([{ type: 'sinew-graphload', detail: { file: 'graph.json', parameters: ['speed', 'jump'], layers: ['Base'], warnings: [] } }]);
  const before = await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    return { state: el.activeState(), speed: el.getParameter('speed'), jump: el.getParameter('jump'), property: el.animationGraph };
  });
  expect(before).toEqual({ state: 'START', speed: 0, jump: false, property: '/g/graph.json' });

  await holdClock(page);
  await page.evaluate(() => document.querySelector('sinew-viewer')!.play());
  await page.clock.runFor(200);
  // START → Idle has no crossfade: it starts and ends in the first update.
  expect(await take(page)).toEqual([start('START', 'Idle'), enter('Idle'), exit('START'), end('START', 'Idle')]);

  // speed 0.5: Idle → Move at once, its 0.25 s crossfade over within the next 0.5 s.
  await page.evaluate(() => document.querySelector('sinew-viewer')!.setParameter('speed', 0.5));
  await page.clock.runFor(100);
  expect(await take(page)).toEqual([start('Idle', 'Move'), enter('Move')]);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.activeState(0))).toBe('Move');
  await page.clock.runFor(400);
  expect(await take(page)).toEqual([exit('Idle'), end('Idle', 'Move')]);

  // The trigger: true until the transition reading it fires, then false; one Hop for one setParameter.
  const jump = await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.setParameter('jump', true);
    return el.getParameter('jump');
  });
  expect(jump).toBe(true);
  await page.clock.runFor(50);
  expect(await page.evaluate(() => [document.querySelector('sinew-viewer')!.getParameter('jump'), document.querySelector('sinew-viewer')!.activeState()])).toEqual([false, 'Hop']);
  // Hop (Run once, 1.158 s) leaves at 90 %, back to Idle, and speed 0.5 takes it on to Move again.
  await page.clock.runFor(1700);
  expect(await take(page)).toEqual([
    start('Move', 'Hop'), enter('Hop'), exit('Move'), end('Move', 'Hop'),
    // No interruption source: Idle → Move waits for the end of Hop → Idle.
    start('Hop', 'Idle'), enter('Idle'), exit('Hop'), end('Hop', 'Idle'),
    start('Idle', 'Move'), enter('Move'), exit('Idle'), end('Idle', 'Move'),
  ]);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.activeState())).toBe('Move');

  // Unknown parameter and no-graph errors are script errors naming the parameters, not sinew-error.
  const thrown = await page.evaluate(() => {
    try {
      document.querySelector('sinew-viewer')!.setParameter('sped', 1);
      return null;
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`;
    }
  });
  expect(thrown).toBe('RangeError: <sinew-viewer>.setParameter("sped"): graph.json has no such parameter (parameters: speed, jump)');

  // A bad graph: one sinew-error with the file and JSON pointer; the graph before plays on (the picture moves).
  await page.evaluate(() => document.querySelector('sinew-viewer')!.setAttribute('animation-graph', '/g/bad.json'));
  await until(page, () => (window as unknown as { __heard: Heard[] }).__heard.length > 0);
  const bad = await take(page);
  expect(bad).toHaveLength(1);
  expect(bad[0].type).toBe('sinew-error');
  expect(String(bad[0].detail.message)).toContain('bad.json');
  expect(String(bad[0].detail.message)).toContain('/layers/0/states/2/blendTree/children/1/name');
  const frames = await page.evaluate(async () => {
    const el = document.querySelector('sinew-viewer')!;
    return { state: el.activeState(), a: el.toDataURL() };
  });
  await page.clock.runFor(300);
  const later = await page.evaluate(() => document.querySelector('sinew-viewer')!.toDataURL());
  expect(frames.state).toBe('Move');
  expect(later).not.toBe(frames.a);
  expect(await take(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('an inline graph script; the attribute wins over it; removing the graph plays animation-name again; what is ignored is warned once', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await isolateFromLiveReload(page);
  await serve(page);
  await listen(page);
  await page.goto(PAGE);
  await page.evaluate((graph) => {
    const el = document.createElement('sinew-viewer');
    el.setAttribute('src', '/g/Fox.glb');
    el.setAttribute('animation-graph', '/g/graph.json');
    el.setAttribute('animation-name', 'Survey');
    const script = document.createElement('script');
    script.type = 'application/json';
    script.slot = 'animation-graph';
    // The inline graph starts in Move at once.
    script.textContent = JSON.stringify({ ...graph, layers: [{ ...graph.layers[0], transitions: [{ from: 'START', to: 'Move' }] }] });
    el.append(script);
    document.body.append(el);
  }, GRAPH);
  const heardLoad = async (): Promise<Heard> => {
    await until(page, () => (window as unknown as { __heard: Heard[] }).__heard.some((e) => e.type === 'sinew-graphload'));
    return (await take(page)).find((e) => e.type === 'sinew-graphload')!;
  };
  const first = await heardLoad();
  expect(first.detail.file).toBe('graph.json');
  // animation-name is there: the graph's load says it is ignored.
  expect(first.detail.warnings).toEqual(["animation-name is ignored while animation-graph is set: the graph's states choose the clips"]);

  await holdClock(page);
  await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.play();
    el.setAttribute('animation-name', 'Walk');
    el.setAttribute('animation-name', 'Run');
    el.currentTime = 1;
    el.currentTime = 2;
  });
  await page.clock.runFor(100);
  const warned = await page.evaluate(() => (window as unknown as { __warnings: string[] }).__warnings.filter((w) => w.includes('is ignored while animation-graph is set')));
  expect(warned).toEqual([
    "sinew-viewer: animation-name is ignored while animation-graph is set: the graph's states choose the clips",
    "sinew-viewer: currentTime is ignored while animation-graph is set: the graph keeps the time of each state (reading it gives the active state's clip time)",
  ]);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.activeState())).toBe('Idle');

  // The attribute removed: the inline script's graph.
  await page.evaluate(() => document.querySelector('sinew-viewer')!.removeAttribute('animation-graph'));
  const inline = await heardLoad();
  expect(inline.detail.file).toBe('<script slot="animation-graph">');
  await page.clock.runFor(100);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.activeState())).toBe('Move');
  // timeScale scales the graph's time (Move at speed 0 is Walk alone, 0.708 s: currentTime is its clip time);
  // pause() holds it.
  const clipTime = (): Promise<number> => page.evaluate(() => document.querySelector('sinew-viewer')!.currentTime);
  await page.evaluate(() => { document.querySelector('sinew-viewer')!.timeScale = 2; });
  await page.clock.runFor(32);
  const t0 = await clipTime();
  await page.clock.runFor(160);
  const twice = (await clipTime()) - t0;
  expect(((twice % 0.7083) + 0.7083) % 0.7083).toBeCloseTo(0.32, 1);
  await page.evaluate(() => document.querySelector('sinew-viewer')!.pause());
  const held = await clipTime();
  await page.clock.runFor(160);
  expect(await clipTime()).toBe(held);
  await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.timeScale = 1;
    el.play();
  });
  // Its text edited: read again.
  await page.evaluate(() => {
    const script = document.querySelector('sinew-viewer > script')!;
    const graph = JSON.parse(script.textContent!);
    graph.layers[0].transitions[0].to = 'Hop';
    script.textContent = JSON.stringify(graph);
  });
  await heardLoad();
  await page.clock.runFor(100);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.activeState())).toBe('Hop');

  // The script removed too: animation-name (now Run, 1.158 s) plays again, its time moving.
  await page.evaluate(() => document.querySelector('sinew-viewer > script')!.remove());
  await until(page, () => document.querySelector('sinew-viewer')!.activeState() === null);
  const t1 = await page.evaluate(() => document.querySelector('sinew-viewer')!.currentTime);
  await page.clock.runFor(300);
  const after = await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    return { duration: el.duration, time: el.currentTime, paused: el.paused };
  });
  expect(after.duration).toBeCloseTo(1.158, 2);
  expect(after.paused).toBe(false);
  expect(after.time).not.toBe(t1);
  const noGraph = await page.evaluate(() => {
    try {
      document.querySelector('sinew-viewer')!.setParameter('speed', 1);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(noGraph).toContain('no animation graph is set');
  expect(errors).toEqual([]);
});
