import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';

// <sinew-viewer>'s <model-viewer> animation API: animation-name, animation-crossfade-duration (ms), autoplay,
// play({repetitions, pingpong}) / pause() and their events, appendAnimation / detachAnimation (layers), timeScale,
// currentTime, availableAnimations, the deprecated `clip` / `fade` with one console note each. Time is driven
// by Playwright's clock (rAF is throttled headless), installed once the model has loaded.

const PAGE = '/tests/browser/pages/empty-page.html';
const FOX = '/shared/assets/gltf/Fox.glb';

interface Heard {
  type: string;
  detail: unknown;
}

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

/** Records the element's animation events and sinew-error messages (they bubble to the document). */
async function listen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const list: unknown[] = [];
    (window as unknown as { __heard: unknown[] }).__heard = list;
    for (const type of ['play', 'pause', 'loop', 'finished', 'append-animation', 'detach-animation', 'sinew-error']) {
      document.addEventListener(type, (e) => list.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
}

/** The events heard since the last call (the list is emptied). */
async function take(page: Page): Promise<Heard[]> {
  return page.evaluate(() => (window as unknown as { __heard: Heard[] }).__heard.splice(0));
}

/** Adds a Fox element with `attributes` (and a hotspot on the head) and waits for its model. */
async function addFox(page: Page, attributes: Record<string, string>): Promise<void> {
  await page.evaluate((attrs) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'fox';
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    const head = document.createElement('div');
    head.slot = 'hotspot-head';
    head.dataset.joint = 'b_Head_05';
    el.append(head);
    document.body.append(el);
  }, attributes);
  await page.waitForFunction(() => (document.getElementById('fox') as Viewer | null)?.model === 'Fox.glb', undefined, { timeout: 120_000 });
}

/** The head joint's model-space position in a frame drawn now. */
async function head(page: Page): Promise<[number, number, number]> {
  return page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.renderOnce();
    const p = el.queryHotspot('hotspot-head')!.position;
    return [p.x, p.y, p.z] as [number, number, number];
  });
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

test.beforeEach(async ({ page }) => {
  requireSharedAssets();
  await isolateFromLiveReload(page);
  await listen(page);
  await page.goto(PAGE);
});

test('play({repetitions: 2}) finishes after 2 plays, and again after 2 more on the next play (model-viewer #3494); play / pause / loop / finished details', async ({ page }) => {
  const errors = collectErrors(page);
  await addFox(page, { src: FOX, 'animation-name': 'Walk', time: '0' });
  expect(await take(page)).toEqual([]); // loaded paused: no `play`
  await page.clock.install();
  const walk = await page.evaluate(() => (document.getElementById('fox') as Viewer).duration);
  expect(walk).toBeGreaterThan(0.5);

  for (let round = 0; round < 2; round++) {
    await page.evaluate(() => (document.getElementById('fox') as Viewer).play({ repetitions: 2 }));
    await page.clock.runFor(Math.ceil(walk * 1000 * 3));
    expect(await take(page), `round ${round + 1}`).toEqual([
      { type: 'play', detail: null },
      { type: 'loop', detail: { name: 'Walk', clip: 'Walk', count: 1 } },
      { type: 'finished', detail: { name: 'Walk', clip: 'Walk', count: 2 } },
    ]);
    const state = await page.evaluate(() => {
      const el = document.getElementById('fox') as Viewer;
      return { paused: el.paused, time: el.currentTime, duration: el.duration };
    });
    expect(state.paused).toBe(true);
    expect(state.time).toBeCloseTo(state.duration, 5); // held at the end reached
  }

  // pingpong bounces; pause() fires `pause` once, a second pause() nothing.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).play({ pingpong: true }));
  await page.clock.runFor(Math.ceil(walk * 1000 * 1.5));
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.pause();
    el.pause();
  });
  const bounced = await take(page);
  expect(bounced.map((e) => e.type)).toEqual(['play', 'loop', 'pause']);
  // Going back after the bounce: past the middle of the clip, towards 0.
  const t = await page.evaluate(() => (document.getElementById('fox') as Viewer).currentTime);
  expect(t).toBeLessThan(walk * 0.75);

  // repetitions: 1 plays once (no `loop`); bad options: a sinew-error each, and the default (loops for ever).
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.currentTime = 0;
    el.play({ repetitions: 1 });
  });
  await page.clock.runFor(Math.ceil(walk * 1000 * 2));
  expect((await take(page)).map((e) => e.type)).toEqual(['play', 'finished']);
  await page.evaluate(() => (document.getElementById('fox') as Viewer).play({ repetitions: Number.NaN }));
  await page.clock.runFor(Math.ceil(walk * 1000 * 3.5));
  const forever = await take(page);
  expect(forever[0]).toEqual({ type: 'sinew-error', detail: { message: 'play: repetitions NaN: expected an integer ≥ 1; using Infinity' } });
  expect(forever.filter((e) => e.type === 'loop').length).toBeGreaterThanOrEqual(3);
  expect(forever.some((e) => e.type === 'finished')).toBe(false);
  expect(errors).toEqual([]);
});

test('attributes: animation-name, animation-crossfade-duration (ms), autoplay; properties; bad values warn and take the default', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await addFox(page, { src: FOX, 'animation-name': 'Run', autoplay: '', 'animation-crossfade-duration': '-5' });
  // The connect-time report comes a task after the element connects, play when the loaded model starts.
  await page.waitForFunction(() => {
    const heard = (window as unknown as { __heard: Heard[] }).__heard;
    return heard.some((e) => e.type === 'play') && heard.some((e) => e.type === 'sinew-error');
  });
  const heard = await take(page);
  expect(heard).toContainEqual({ type: 'play', detail: null }); // autoplay on load
  expect(heard).toContainEqual({
    type: 'sinew-error',
    detail: { message: '<sinew-viewer animation-crossfade-duration="-5">: expected milliseconds ≥ 0; using 300' },
  });
  expect(warnings.some((w) => w.includes('animation-crossfade-duration="-5"'))).toBe(true);
  const state = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    return {
      names: el.availableAnimations, name: el.animationName, crossfade: el.animationCrossfadeDuration, paused: el.paused,
      duration: el.duration, timeScale: el.timeScale, appended: el.appendedAnimations,
    };
  });
  expect(state).toMatchObject({ names: ['Survey', 'Walk', 'Run'], name: 'Run', crossfade: 300, paused: false, timeScale: 1, appended: [] });
  const runDuration = state.duration;

  // Changing animation-name selects that clip (by name or index); unknown: sinew-error, the clip stays.
  const after = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.pause();
    el.animationCrossfadeDuration = 500;
    const crossfade = [el.getAttribute('animation-crossfade-duration'), el.animationCrossfadeDuration];
    el.animationName = 1;
    const walk = el.duration;
    el.setAttribute('animation-name', 'Jump');
    return { crossfade, walk, kept: el.duration, attr: el.getAttribute('animation-name') };
  });
  expect(after.crossfade).toEqual(['500', 500]);
  expect(after.walk).not.toBeCloseTo(runDuration, 3);
  expect(after.kept).toBeCloseTo(after.walk, 6);
  // A clip change keeps the play state (model-viewer's rule): paused stays paused.
  expect(await take(page)).toEqual([
    { type: 'pause', detail: null },
    { type: 'sinew-error', detail: { message: '<sinew-viewer animation-name="Jump">: Fox.glb has no such clip (clips: Survey, Walk, Run)' } },
  ]);

  // timeScale writes `speed`; currentTime seeks; bad values: sinew-error, unchanged, never a throw.
  const props = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.pause();
    el.timeScale = -2;
    const speed = el.getAttribute('speed');
    el.timeScale = Number.NaN;
    el.currentTime = 0.25;
    const time = el.currentTime;
    (el as unknown as { currentTime: unknown }).currentTime = 'soon';
    return { speed, timeScale: el.timeScale, time, timeAfter: el.currentTime, paused: el.paused };
  });
  expect(props).toEqual({ speed: '-2', timeScale: -2, time: 0.25, timeAfter: 0.25, paused: true });
  const errors = (await take(page)).filter((e) => e.type === 'sinew-error').map((e) => (e.detail as { message: string }).message);
  expect(errors).toEqual([
    'timeScale: expected a finite number (a rate: 1 real time, −1 backwards), got NaN; it stays -2',
    'currentTime: expected a finite number of seconds, got soon',
  ]);

  // model-viewer's rules: removing `autoplay` changes nothing, `time` seeks (still paused), autoplay added later
  // plays (`play`) and removed again keeps playing.
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.removeAttribute('autoplay');
    el.setAttribute('time', '0.1');
  });
  const seeked = await page.evaluate(() => ({ paused: (document.getElementById('fox') as Viewer).paused, time: (document.getElementById('fox') as Viewer).currentTime }));
  expect(seeked.paused).toBe(true);
  expect(seeked.time).toBeCloseTo(0.1, 6);
  await page.evaluate(() => document.getElementById('fox')!.setAttribute('autoplay', ''));
  expect((await take(page)).map((e) => e.type)).toEqual(['play']);
  await page.evaluate(() => document.getElementById('fox')!.removeAttribute('autoplay'));
  expect((await take(page)).map((e) => e.type).filter((type) => type === 'play' || type === 'pause')).toEqual([]);
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).paused)).toBe(false);
});

test('deprecated clip and fade keep working, with one console note per element naming the new attribute', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await addFox(page, { src: FOX, clip: 'Walk', fade: '0.5', time: '0' });
  const state = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    const walk = el.duration;
    el.clip = 'Run';
    el.clip = 'Survey';
    el.fade = 0.25;
    return { walk, survey: el.duration, crossfade: el.animationCrossfadeDuration, names: el.availableAnimations };
  });
  expect(state.crossfade).toBe(250);
  expect(state.walk).not.toBeCloseTo(state.survey, 3);
  const notes = warnings.filter((w) => w.includes('deprecated'));
  expect(notes).toHaveLength(2);
  expect(notes[0]).toContain('`clip`');
  expect(notes[0]).toContain('animation-name');
  expect(notes[1]).toContain('`fade`');
  expect(notes[1]).toContain('animation-crossfade-duration');
  // animation-name wins over clip.
  const chosen = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.setAttribute('animation-name', 'Walk');
    const walk = el.duration;
    el.setAttribute('clip', 'Run'); // ignored while animation-name is set
    return [walk, el.duration];
  });
  expect(chosen[1]).toBeCloseTo(chosen[0], 6);
  expect(chosen[0]).toBeCloseTo(state.walk, 6);
  expect(warnings.filter((w) => w.includes('deprecated'))).toHaveLength(2);
});

test('appendAnimation blends a second clip on a layer (weight), detachAnimation fades it out; events and appendedAnimations', async ({ page }) => {
  const errors = collectErrors(page);
  await addFox(page, { src: FOX, 'animation-name': 'Survey', time: '0.3' });
  await page.clock.install();
  const survey = await head(page);

  // Run alone at 0.3 s: what a full-weight layer of Run started at 0.3 s shows.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('animation-name', 'Run'));
  await page.evaluate(() => (document.getElementById('fox') as Viewer).currentTime = 0.3);
  const run = await head(page);
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.setAttribute('animation-name', 'Survey');
    el.currentTime = 0.3;
  });
  expect(distance(await head(page), survey)).toBeLessThan(1e-4);
  expect(distance(run, survey)).toBeGreaterThan(1);
  await take(page);

  const full = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.appendAnimation('Run', { time: 0.3 });
    const playing = !el.paused; // model-viewer's appendAnimation resumes playback
    el.pause();
    return { playing, appended: el.appendedAnimations };
  });
  expect(full).toEqual({ playing: true, appended: ['Run'] });
  expect(distance(await head(page), run)).toBeLessThan(1e-3);
  expect((await take(page)).map((e) => e.type)).toEqual(['append-animation', 'pause']);

  // Weight 0.5: between the two.
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.appendAnimation('Run', { weight: 0.5, time: 0.3 });
    el.pause();
    el.currentTime = 0.3;
  });
  const half = await head(page);
  expect(distance(half, survey)).toBeGreaterThan(0.2 * distance(run, survey));
  expect(distance(half, run)).toBeGreaterThan(0.2 * distance(run, survey));

  // Bad options: sinew-error each, the default; the playing clip itself and an unknown one: refused.
  await take(page);
  const refused = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.appendAnimation('Walk', { weight: 3, timeScale: Number.POSITIVE_INFINITY, fade: -1 });
    el.appendAnimation('Survey');
    el.appendAnimation('Jump');
    el.pause();
    return el.appendedAnimations;
  });
  expect(refused).toEqual(['Run', 'Walk']);
  expect((await take(page)).filter((e) => e.type === 'sinew-error').map((e) => (e.detail as { message: string }).message)).toEqual([
    'appendAnimation: weight 3: expected a number in [0, 1]; using 1',
    'appendAnimation: timeScale Infinity: expected a finite number; using 1',
    'appendAnimation: fade -1: expected seconds ≥ 0 or a boolean; using 0',
    'appendAnimation("Survey"): that clip plays as animation-name; append another clip',
    'appendAnimation("Jump"): Fox.glb has no such clip (clips: Survey, Walk, Run)',
  ]);

  // Detach both: Walk at once, Run over 0.5 s — half-way it still shows, after the fade Survey alone.
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.detachAnimation('Walk', { fade: false });
    el.detachAnimation('Run', { fade: 0.5 });
  });
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).appendedAnimations)).toEqual([]);
  await page.clock.runFor(200);
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.pause();
    el.currentTime = 0.3;
  });
  const fading = await head(page);
  expect(distance(fading, survey)).toBeGreaterThan(1e-3);
  await page.evaluate(() => (document.getElementById('fox') as Viewer).play());
  await page.clock.runFor(600);
  await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.pause();
    el.currentTime = 0.3;
  });
  expect(distance(await head(page), survey)).toBeLessThan(1e-4);
  expect((await take(page)).filter((e) => e.type === 'detach-animation')).toHaveLength(2);

  // An appended clip with repetitions finishes (`finished` with its name) and leaves appendedAnimations.
  const walk = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.appendAnimation('Walk', { repetitions: 1, weight: 0.3 });
    return el.duration;
  });
  expect(walk).toBeGreaterThan(1); // Survey's
  await page.clock.runFor(1200); // Walk is 0.708 s
  const ended = await take(page);
  expect(ended.filter((e) => e.type === 'finished')).toEqual([{ type: 'finished', detail: { name: 'Walk', clip: 'Walk', count: 1 } }]);
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).appendedAnimations)).toEqual([]);
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).paused)).toBe(false); // Survey plays on
  expect(errors).toEqual([]);
});
