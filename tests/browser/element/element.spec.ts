import { test, expect, type Page } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors } from '../helpers/viewer-page.ts';
import { quietPeriod } from '../helpers/page-turns.ts';
import { recordGlContexts, trackGlObjectsInPage, type GlObjectTracker } from '../helpers/gl-counter.ts';

// <sinew-viewer> in a plain page (tests/browser/pages/embed-example.html): two elements sharing the page's one
// WebGL2 context; attributes, methods, events, bad input, and disposal on removal.

const PAGE = '/tests/browser/pages/embed-example.html';

/** An event a `<sinew-viewer>` fired, as recorded by the init script. */
interface Recorded {
  id: string;
  type: string;
  detail: { url?: string | null; model?: string; clips?: string[]; warnings?: string[]; message?: string; currentTime?: number; paused?: boolean };
}

/** The element's type (from the global tag map). */
type Viewer = HTMLElementTagNameMap['sinew-viewer'];

type TestWindow = Window & {
  __events: Recorded[];
  /** Every WebGL2 context the page made, in order. */
  __contexts: WebGL2RenderingContext[];
  __glObjects: GlObjectTracker;
};

test.beforeEach(async ({ page }) => {
  // Keep vite's live reload from reloading the page when other work edits files mid-test.
  await isolateFromLiveReload(page);
  await recordGlContexts(page);
  await trackGlObjectsInPage(page);
  await page.addInitScript(() => {
    // The element's load and problem events, recorded from the start (they bubble and are composed); sinew-load,
    // the deprecated alias of load, for the test of its detail.
    const events: unknown[] = [];
    (window as unknown as { __events: unknown[] }).__events = events;
    for (const type of ['load', 'sinew-load', 'sinew-error', 'sinew-timeupdate']) {
      document.addEventListener(type, (e) => {
        events.push({ id: (e.target as HTMLElement).id, type, detail: JSON.parse(JSON.stringify((e as CustomEvent).detail)) });
      });
    }
  });
});

/** Opens the embed example and waits until both viewers show a model. */
async function openEmbed(page: Page): Promise<void> {
  await page.goto(PAGE);
  await page.waitForFunction(() => {
    const els = [...document.querySelectorAll('sinew-viewer')];
    return els.length === 2 && els.every((el) => el.model !== '');
  }, undefined, { timeout: 120_000 });
}

/** Events recorded so far, of one type (and element). */
async function events(page: Page, type: string, id?: string): Promise<Recorded[]> {
  const all = await page.evaluate(() => (window as unknown as TestWindow).__events);
  return all.filter((e) => e.type === type && (id === undefined || e.id === id));
}

/** What one drawn frame of an element shows: coverage and a luminance grid. */
interface Frame {
  width: number;
  height: number;
  coverage: number;
  grid: number[];
}

/**
 * Draws a frame of `#id` with `renderOnce()` and reads its 2D canvas back (each frame is copied there from the
 * shared context), composited over the default background as the page shows it. Null when the element has no
 * canvas (disconnected).
 */
async function drawAndRead(page: Page, id: string): Promise<Frame | null> {
  return page.evaluate((id) => {
    const el = document.getElementById(id) as Viewer;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas');
    if (!canvas) return null;
    const { width, height } = canvas;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
    const bg = [0.13, 0.14, 0.16].map((c) => Math.round(c * 255));
    const cols = 16, rows = 12;
    const sums = new Float64Array(cols * rows), counts = new Uint32Array(cols * rows);
    let differing = 0;
    for (let y = 0; y < height; y++) {
      const row = Math.min(rows - 1, Math.floor((y * rows) / height));
      for (let x = 0; x < width; x++) {
        const i = 4 * (y * width + x);
        const a = pixels[i + 3] / 255;
        const [r, g, b] = [0, 1, 2].map((c) => pixels[i + c] * a + bg[c] * (1 - a));
        if (Math.abs(r - bg[0]) > 3 || Math.abs(g - bg[1]) > 3 || Math.abs(b - bg[2]) > 3) differing++;
        const cell = row * cols + Math.min(cols - 1, Math.floor((x * cols) / width));
        sums[cell] += 0.2126 * r + 0.7152 * g + 0.0722 * b;
        counts[cell]++;
      }
    }
    return { width, height, coverage: differing / (width * height), grid: [...sums].map((s, c) => s / Math.max(1, counts[c])) };
  }, id);
}

/** Mean absolute difference of two luminance grids, 0–255. */
function gridDistance(a: Frame, b: Frame): number {
  let sum = 0;
  for (let i = 0; i < a.grid.length; i++) sum += Math.abs(a.grid[i] - b.grid[i]);
  return sum / a.grid.length;
}

test('two viewers on a plain page: each draws its own model, both through one shared context; load fires, and the deprecated sinew-load still gives the clips', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);

  const octopusLoad = await events(page, 'sinew-load', 'octopus');
  expect(octopusLoad).toHaveLength(1);
  expect(octopusLoad[0].detail.model!.toLowerCase()).toContain('octopus');
  expect(octopusLoad[0].detail.clips!.length).toBeGreaterThan(0);
  const foxLoad = await events(page, 'sinew-load', 'fox');
  expect(foxLoad).toHaveLength(1);
  expect(foxLoad[0].detail).toEqual({ model: 'Fox.glb', clips: ['Survey', 'Walk', 'Run'], warnings: [] });
  expect((await events(page, 'load', 'fox')).map((e) => e.detail)).toEqual([{ url: '/shared/assets/gltf/Fox.glb', warnings: [] }]);
  expect((await events(page, 'load', 'octopus')).map((e) => e.detail)).toEqual([{ url: null, warnings: [] }]);
  expect(await events(page, 'sinew-error')).toEqual([]);

  const state = await page.evaluate(() => {
    const [octopus, fox] = [...document.querySelectorAll('sinew-viewer')];
    const canvasOf = (el: Element) => el.shadowRoot!.querySelector('canvas')!;
    return {
      octopus: { paused: octopus.paused, clips: octopus.clips, src: octopus.src, theta: octopus.getCameraOrbit().theta },
      fox: { model: fox.model, clips: fox.clips, paused: fox.paused, time: fox.currentTime, duration: fox.duration, animationName: fox.animationName, controls: fox.controls },
      // One WebGL2 context for the page, on a canvas of its own; each element shows its frames in a 2D canvas.
      contexts: (window as unknown as TestWindow).__contexts.length,
      sharedCanvasInDom: document.contains((window as unknown as TestWindow).__contexts[0].canvas as HTMLCanvasElement),
      elementCanvases2d: [octopus, fox].every((el) => canvasOf(el).getContext('2d') !== null),
      defaultSize: [octopus.clientWidth, octopus.clientHeight],
    };
  });
  expect(state.octopus.paused).toBe(false); // autoplay: playing
  expect(state.octopus.src).toBeNull();
  expect(state.octopus.theta).toBeCloseTo((25 * Math.PI) / 180, 6);
  expect(state.fox).toMatchObject({ model: 'Fox.glb', clips: ['Survey', 'Walk', 'Run'], paused: true, time: 0.5, animationName: 'Run', controls: true });
  expect(state.fox.duration).toBeGreaterThan(0.5);
  expect(state.contexts).toBe(1);
  expect(state.sharedCanvasInDom).toBe(false);
  expect(state.elementCanvases2d).toBe(true);
  expect(state.defaultSize).toEqual([300, 150]);

  const octopus = (await drawAndRead(page, 'octopus'))!;
  const fox = (await drawAndRead(page, 'fox'))!;
  expect([octopus.width, octopus.height]).toEqual([300, 150]); // devicePixelRatio 1
  expect([fox.width, fox.height]).toEqual([280, 210]); // the element's CSS box
  expect(octopus.coverage).toBeGreaterThan(0.03);
  expect(fox.coverage).toBeGreaterThan(0.03);
  expect(errors).toEqual([]);
});

test('golden: the embed example page', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  // The octopus plays (autoplay): stop it at a fixed time for a stable picture.
  await page.evaluate(() => {
    const octopus = document.getElementById('octopus') as Viewer;
    octopus.autoplay = false;
    octopus.setAttribute('time', '0.75');
  });
  await page.waitForFunction(() => (document.getElementById('octopus') as Viewer).paused);
  await page.evaluate(() => document.querySelectorAll('sinew-viewer').forEach((el) => el.renderOnce()));
  await expect(page).toHaveScreenshot('embed-example.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('animation-name, time and camera attributes change the picture; properties reflect them', async ({ page }) => {
  requireSharedAssets();
  await openEmbed(page);
  const run05 = (await drawAndRead(page, 'fox'))!;
  expect(gridDistance(run05, (await drawAndRead(page, 'fox'))!)).toBe(0); // the same state draws the same picture

  // time: another moment of the same clip, still paused.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('time', '0.2'));
  const run02 = (await drawAndRead(page, 'fox'))!;
  expect(await page.evaluate(() => [(document.getElementById('fox') as Viewer).currentTime, (document.getElementById('fox') as Viewer).paused])).toEqual([0.2, true]);
  expect(gridDistance(run05, run02)).toBeGreaterThan(0.2);

  // animation-name (through the property, reflected to the attribute): paused, so the time stays.
  const clip = await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.animationName = 'Survey';
    return { attribute: fox.getAttribute('animation-name'), time: fox.currentTime };
  });
  expect(clip).toEqual({ attribute: 'Survey', time: 0.2 });
  const survey02 = (await drawAndRead(page, 'fox'))!;
  expect(gridDistance(run02, survey02)).toBeGreaterThan(0.2);

  // A clip index works too, and the rest pose.
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).animationName = 2));
  expect(gridDistance(run02, (await drawAndRead(page, 'fox'))!)).toBe(0);
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).animationName = 'rest'));
  expect(gridDistance(run02, (await drawAndRead(page, 'fox'))!)).toBeGreaterThan(0.2);
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).animationName = 'Run'));

  // Camera: camera-orbit's θ turns the model, its radius shrinks it.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('camera-orbit', '30deg 75deg'));
  const side = (await drawAndRead(page, 'fox'))!;
  expect(gridDistance(run02, side)).toBeGreaterThan(0.2);
  await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    fox.setAttribute('max-camera-orbit', 'auto auto 400%'); // model-viewer's auto limit is 105 % of the framed distance
    fox.setAttribute('camera-orbit', '30deg 75deg 210%');
  });
  const far = (await drawAndRead(page, 'fox'))!;
  expect(far.coverage).toBeLessThan(0.6 * side.coverage);

  // An unknown clip is reported, naming the clip and the model, and changes nothing.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('animation-name', 'Jump'));
  const clipErrors = await events(page, 'sinew-error', 'fox');
  expect(clipErrors.map((e) => e.detail.message)).toEqual(['<sinew-viewer animation-name="Jump">: Fox.glb has no such clip (clips: Survey, Walk, Run)']);
  expect(gridDistance(far, (await drawAndRead(page, 'fox'))!)).toBe(0);

  // Removing `time` changes nothing (model-viewer's rule: no autoplay, no play); autoplay with time plays from there.
  expect(await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.removeAttribute('time');
    return fox.paused;
  })).toBe(true);
  expect(await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.setAttribute('time', '0.1');
    const pausedAtTime = fox.paused;
    fox.autoplay = true;
    return [pausedAtTime, fox.paused, fox.getAttribute('autoplay')];
  })).toEqual([true, false, '']);
});

test('methods: play, pause, seek, renderOnce; timeupdate events; bad values are reported, not thrown', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  const result = await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.seek(1);
    fox.renderOnce();
    const afterSeek = [fox.currentTime, fox.paused];
    fox.seek(1e6); // clamped to the clip
    const clamped = fox.currentTime === fox.duration;
    fox.play();
    const playing = !fox.paused;
    fox.pause();
    let thrown = '';
    try {
      fox.seek(Number.NaN);
    } catch (e) {
      thrown = `${(e as Error).name}: ${(e as Error).message}`;
    }
    return { afterSeek, clamped, playing, paused: fox.paused, thrown };
  });
  expect(result).toEqual({
    afterSeek: [1, true], clamped: true, playing: true, paused: true,
    thrown: 'TypeError: <sinew-viewer>.seek: expected a finite number of seconds, got NaN',
  });
  const updates = await events(page, 'sinew-timeupdate', 'fox');
  expect(updates.some((e) => e.detail.currentTime === 1 && e.detail.paused === true)).toBe(true);

  // Malformed attribute values fire sinew-error naming the attribute; the model keeps drawing.
  await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.setAttribute('palette', 'gpu');
    fox.setAttribute('field-of-view', 'wide');
    fox.setAttribute('time', 'soon');
  });
  const messages = (await events(page, 'sinew-error', 'fox')).map((e) => e.detail.message);
  expect(messages).toEqual([
    '<sinew-viewer palette="gpu">: expected uniform, texture, ubo or auto',
    '<sinew-viewer field-of-view="wide">: expected an angle between 0deg and 180deg (deg or rad) or auto; using auto',
    '<sinew-viewer time="soon">: expected seconds ≥ 0',
  ]);
  const uniformPalette = (await drawAndRead(page, 'fox'))!;
  expect(uniformPalette.coverage).toBeGreaterThan(0.03);

  // A palette change re-uploads the model for the other path: the same picture, no error.
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).palette = 'texture'));
  await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  expect(gridDistance(uniformPalette, (await drawAndRead(page, 'fox'))!)).toBeLessThan(0.05);
  expect(await events(page, 'sinew-error', 'fox')).toHaveLength(3);

  // The mini control bar drives the same state.
  const bar = page.locator('#fox').locator('[part="play"]');
  await expect(bar).toHaveAttribute('aria-label', 'Play');
  await bar.click();
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).paused)).toBe(false);
  await expect(bar).toHaveAttribute('aria-label', 'Pause');
  await expect(page.locator('#octopus').locator('[part="controls"]')).toBeHidden();
  expect(errors).toEqual([]);
});

test('a bad src fires sinew-error naming the file while the previous model keeps drawing; a good one replaces it', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  const before = (await drawAndRead(page, 'fox'))!;

  for (const [src, pattern] of [
    ['/shared/assets/md5/invalid/InvalidBoneIndex.md5mesh', /^InvalidBoneIndex\.md5mesh:\d+: /],
    ['/shared/assets/gltf/Missing.glb', /^Missing\.glb: not found/],
    ['/shared/assets/md5/bob.source.txt', /^bob\.source\.txt: unsupported file type/],
  ] as const) {
    const count = (await events(page, 'sinew-error', 'fox')).length;
    await page.evaluate((src) => ((document.getElementById('fox') as Viewer).src = src), src);
    await page.waitForFunction((n) => (window as unknown as TestWindow).__events.filter((e) => e.type === 'sinew-error' && e.id === 'fox').length > n, count);
    const error = (await events(page, 'sinew-error', 'fox')).at(-1)!;
    expect(error.detail.message).toMatch(pattern);
    // The Fox is still there, drawing the same picture.
    expect(await page.evaluate(() => [(document.getElementById('fox') as Viewer).model, (document.getElementById('fox') as Viewer).clips])).toEqual(['Fox.glb', ['Survey', 'Walk', 'Run']]);
    expect(gridDistance(before, (await drawAndRead(page, 'fox'))!)).toBe(0);
  }
  expect(await events(page, 'load', 'fox')).toHaveLength(1);

  // A good model with an explicit anim (MD5) replaces it; the element's animation-name / time apply to it.
  await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    fox.removeAttribute('animation-name');
    fox.anim = '/shared/assets/md5/Bob.md5anim';
    fox.src = '/shared/assets/md5/Bob.md5mesh';
  });
  await page.waitForFunction(() => (document.getElementById('fox') as Viewer).model === 'Bob.md5mesh');
  const loads = await events(page, 'load', 'fox');
  expect(loads.at(-1)!.detail).toMatchObject({ url: '/shared/assets/md5/Bob.md5mesh' });
  expect(await page.evaluate(() => (document.getElementById('fox') as Viewer).clips)).toEqual(['Bob']);
  expect(await page.evaluate(() => [(document.getElementById('fox') as Viewer).paused, (document.getElementById('fox') as Viewer).currentTime])).toEqual([true, 0.5]);
  const bob = (await drawAndRead(page, 'fox'))!;
  expect(bob.coverage).toBeGreaterThan(0.03);
  expect(gridDistance(before, bob)).toBeGreaterThan(0.2);
  // The octopus next to it was never disturbed.
  expect((await drawAndRead(page, 'octopus'))!.coverage).toBeGreaterThan(0.03);
  expect(await events(page, 'load', 'octopus')).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('removing an element deletes its GL objects; removing the last releases the shared context; renderOnce is then a no-op; re-adding draws again', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  type W = TestWindow & { __shared: WebGL2RenderingContext; __parents: Element[]; __removed: Viewer[] };
  const live = await page.evaluate(() => {
    const w = window as unknown as W;
    w.__shared = w.__contexts[0];
    return w.__glObjects.counts(w.__shared).live;
  });
  expect(live.Buffer).toBeGreaterThan(0);
  expect(live.VertexArray).toBeGreaterThan(0);
  expect(live.Program).toBeGreaterThan(0);

  // The Fox goes: its buffers, arrays and textures are deleted; the octopus keeps the context and programs.
  const afterFox = await page.evaluate(() => {
    const w = window as unknown as W;
    const fox = document.getElementById('fox') as Viewer;
    w.__parents = [fox.parentElement!];
    fox.remove();
    w.__removed = [fox];
    fox.renderOnce(); // no-op, no throw
    fox.renderOnce();
    fox.pause();
    return {
      live: w.__glObjects.counts(w.__shared).live,
      contextLost: w.__shared.isContextLost(),
      canvasInShadow: fox.shadowRoot!.querySelector('canvas') !== null,
      model: fox.model,
    };
  });
  expect(afterFox.live.Buffer).toBeLessThan(live.Buffer);
  expect(afterFox.live.VertexArray).toBeLessThan(live.VertexArray);
  expect(afterFox.live.Texture).toBeLessThan(live.Texture);
  expect(afterFox.live.Program).toBe(live.Program);
  expect(afterFox.contextLost).toBe(false);
  expect(afterFox.canvasInShadow).toBe(false);
  expect(afterFox.model).toBe('Fox.glb');
  expect((await drawAndRead(page, 'octopus'))!.coverage).toBeGreaterThan(0.03);

  // The last one goes: nothing is left in the context, and it is released.
  const afterAll = await page.evaluate(() => {
    const w = window as unknown as W;
    const octopus = document.getElementById('octopus') as Viewer;
    w.__parents.push(octopus.parentElement!);
    octopus.remove();
    w.__removed.push(octopus);
    return { live: w.__glObjects.counts(w.__shared).live, contextLost: w.__shared.isContextLost() };
  });
  expect(Object.values(afterAll.live).every((n) => n === 0), JSON.stringify(afterAll.live)).toBe(true);
  expect(afterAll.contextLost).toBe(true);

  // Re-adding them makes a new shared context and shows the same models in the same state, without fetching.
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.evaluate(() => {
    const w = window as unknown as W;
    w.__parents[0].prepend(w.__removed[0]);
    w.__parents[1].prepend(w.__removed[1]);
  });
  await page.waitForFunction(() => ['fox', 'octopus'].every((id) => (window as unknown as TestWindow).__events.filter((e) => e.type === 'load' && e.id === id).length === 2));
  const again = await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    const w = window as unknown as W;
    return {
      model: fox.model, animationName: fox.animationName, time: fox.currentTime, paused: fox.paused,
      contexts: w.__contexts.length, newContextLive: !w.__contexts[1].isContextLost(),
    };
  });
  expect(again).toEqual({ model: 'Fox.glb', animationName: 'Run', time: 0.5, paused: true, contexts: 2, newContextLive: true });
  expect(requests.filter((u) => u.endsWith('.glb'))).toEqual([]);
  expect((await drawAndRead(page, 'fox'))!.coverage).toBeGreaterThan(0.03);
  expect((await drawAndRead(page, 'octopus'))!.coverage).toBeGreaterThan(0.03);

  // Removing twice in a row (and disconnecting a never-loaded element) is harmless.
  await page.evaluate(() => {
    const fox = (document.getElementById('fox') as Viewer);
    const parent = fox.parentElement!;
    fox.remove();
    parent.append(fox);
    fox.remove();
    const fresh = document.createElement('sinew-viewer');
    document.body.append(fresh);
    fresh.remove();
  });
  expect(errors).toEqual([]);
});

test('speed, loop and fade attributes: reflected, applied to playback, malformed ones reported', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  const reflected = await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    const before = [fox.speed, fox.loop, fox.fade];
    fox.speed = -1;
    fox.loop = 'once';
    fox.fade = 0;
    return { before, after: [fox.getAttribute('speed'), fox.getAttribute('loop'), fox.getAttribute('fade'), fox.speed, fox.fade] };
  });
  expect(reflected).toEqual({ before: [null, null, null], after: ['-1', 'once', '0', -1, 0] });

  // Backwards, once: from 0.3 s the clip runs back to 0 and holds there.
  await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    fox.seek(0.3);
    fox.play();
  });
  await page.waitForFunction(() => (document.getElementById('fox') as Viewer).currentTime === 0, undefined, { timeout: 60_000 });
  // Forwards, once: it stops at the end. (The backwards run ended paused, like a video: play again.)
  await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    fox.speed = 1;
    fox.seek(fox.duration - 0.2);
    fox.play();
  });
  await page.waitForFunction(() => {
    const fox = document.getElementById('fox') as Viewer;
    return fox.currentTime === fox.duration;
  }, undefined, { timeout: 60_000 });
  await page.evaluate(() => (document.getElementById('fox') as Viewer).pause());

  await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    fox.setAttribute('speed', 'fast');
    fox.setAttribute('loop', 'forever');
    fox.setAttribute('fade', '-2');
  });
  expect((await events(page, 'sinew-error', 'fox')).map((e) => e.detail.message)).toEqual([
    '<sinew-viewer speed="fast">: expected a playback rate (1 real time, -1 backwards)',
    '<sinew-viewer loop="forever">: expected loop, once or pingpong',
    '<sinew-viewer fade="-2">: expected seconds ≥ 0',
  ]);
  expect((await drawAndRead(page, 'fox'))!.coverage).toBeGreaterThan(0.03);
  expect(errors).toEqual([]);
});

/** RGBA of the pixel at (x, y) of a PNG, decoded by the page. */
async function pixelOf(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(async ({ base64, x, y }) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    return [...context.getImageData(x, y, 1, 1).data];
  }, { base64: png.toString('base64'), x, y });
}

test('background (CSS colour, transparent), alt and poster', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  // Hold a second Fox download until released, to see a poster while it loads.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/Fox.glb?held', async (route) => {
    await released;
    await route.continue();
  });
  await openEmbed(page);
  const fox = page.locator('#fox');
  const corner = async () => pixelOf(page, await fox.screenshot(), 4, 4);

  // alt names the canvas (role img); without it, the model's name does.
  await expect(fox.getByRole('img', { name: '3D model: Fox.glb' })).toBeVisible();
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).alt = 'A fox, running'));
  await expect(fox.getByRole('img', { name: 'A fox, running' })).toBeVisible();

  // The default background is the renderer's dark grey; a CSS colour replaces it; transparent shows the page.
  const frame = (await drawAndRead(page, 'fox'))!;
  expect(await corner()).toEqual([33, 36, 41, 255]);
  await page.evaluate(() => ((document.getElementById('fox') as Viewer).background = 'rgb(200, 30, 40)'));
  await page.evaluate(() => (document.getElementById('fox') as Viewer).renderOnce());
  expect(await corner()).toEqual([200, 30, 40, 255]);
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('background', 'transparent'));
  await page.evaluate(() => (document.getElementById('fox') as Viewer).renderOnce());
  expect(await corner()).toEqual([244, 244, 246, 255]); // the page's own background
  // The model is drawn the same over any background (the canvas holds it over transparent pixels).
  expect(gridDistance(frame, (await drawAndRead(page, 'fox'))!)).toBe(0);
  // Not a colour: reported, and the background stays.
  await page.evaluate(() => (document.getElementById('fox') as Viewer).setAttribute('background', 'plaid'));
  expect((await events(page, 'sinew-error', 'fox')).map((e) => e.detail.message)).toEqual(['<sinew-viewer background="plaid">: expected a CSS colour or transparent']);
  expect(await corner()).toEqual([244, 244, 246, 255]);

  // A poster shows until the first frame is drawn; one set after that never shows.
  await page.evaluate(() => {
    const late = document.createElement('sinew-viewer');
    late.id = 'late';
    late.poster = '/favicon.svg';
    late.src = '/shared/assets/gltf/Fox.glb?held';
    document.body.append(late);
    (document.getElementById('octopus') as Viewer).poster = '/favicon.svg';
  });
  await expect(page.locator('#late').locator('[part="poster"]')).toBeVisible();
  await expect(page.locator('#octopus').locator('[part="poster"]')).toBeHidden();
  release();
  await page.waitForFunction(() => (document.getElementById('late') as Viewer).model === 'Fox.glb', undefined, { timeout: 60_000 });
  await expect(page.locator('#late').locator('[part="poster"]')).toBeHidden();
  expect(errors).toEqual([]);
});

test('loading: reflected; a value other than auto, lazy or eager is reported; lazy to eager loads at once', async ({ page }) => {
  requireSharedAssets();
  await openEmbed(page);
  const result = await page.evaluate(() => {
    const fox = document.getElementById('fox') as Viewer;
    const before = fox.loading;
    fox.loading = 'later';
    return [before, fox.getAttribute('loading')];
  });
  expect(result).toEqual([null, 'later']);
  expect((await events(page, 'sinew-error', 'fox')).map((e) => e.detail.message)).toEqual(['<sinew-viewer loading="later">: expected auto, lazy or eager']);

  // Far below the page, lazy: nothing loads until it turns eager.
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '4000px';
    const far = document.createElement('sinew-viewer');
    far.id = 'far';
    far.loading = 'lazy';
    document.body.append(spacer, far);
  });
  await quietPeriod(page, 500); // a load that does not wait to be near the viewport would show itself meanwhile
  expect(await page.evaluate(() => (document.getElementById('far') as Viewer).model)).toBe('');
  await page.evaluate(() => ((document.getElementById('far') as Viewer).loading = 'eager'));
  await page.waitForFunction(() => (document.getElementById('far') as Viewer).model !== '', undefined, { timeout: 60_000 });
});

test('a lost shared context is restored for every element; a restore that fails fires sinew-error on each', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openEmbed(page);
  await page.evaluate(() => {
    const octopus = document.getElementById('octopus') as Viewer;
    octopus.autoplay = false; // `time` then holds the frame
    octopus.time = 0.5;
  });
  const before = { octopus: (await drawAndRead(page, 'octopus'))!, fox: (await drawAndRead(page, 'fox'))! };
  type W = TestWindow & { __lose: WEBGL_lose_context; __lostEvents: number };
  const lose = async () => {
    await page.evaluate(() => {
      const w = window as unknown as W;
      const gl = w.__contexts[0];
      w.__lose = gl.getExtension('WEBGL_lose_context')!;
      w.__lostEvents ??= 0;
      const count = w.__lostEvents;
      gl.canvas.addEventListener('webglcontextlost', () => (w.__lostEvents = count + 1), { once: true });
      w.__lose.loseContext();
    });
    // restoreContext is allowed only once the loss has been dispatched.
    await page.waitForFunction(() => (window as unknown as W).__lostEvents > 0);
  };

  await lose();
  // Lost: drawing is a no-op, not an error.
  await page.evaluate(() => document.querySelectorAll('sinew-viewer').forEach((el) => el.renderOnce()));
  await page.evaluate(() => (window as unknown as W).__lose.restoreContext());
  for (const id of ['octopus', 'fox'] as const) {
    await expect.poll(async () => (await drawAndRead(page, id))!.coverage, { timeout: 30_000 }).toBeGreaterThan(0.03);
    expect(gridDistance(before[id], (await drawAndRead(page, id))!)).toBeLessThan(0.5);
  }
  expect(await events(page, 'sinew-error')).toEqual([]);
  expect(await events(page, 'load')).toHaveLength(2); // a restore is not a new load
  expect(await page.evaluate(() => (window as unknown as TestWindow).__contexts.length)).toBe(1);

  // A context that comes back unable to take the models: each element says so.
  await page.evaluate(() => ((window as unknown as W).__lostEvents = 0));
  await lose();
  await page.evaluate(() => {
    const w = window as unknown as W;
    const gl = w.__contexts[0];
    gl.createBuffer = () => null as unknown as WebGLBuffer;
    w.__lose.restoreContext();
  });
  await page.waitForFunction(() => (window as unknown as TestWindow).__events.filter((e) => e.type === 'sinew-error').length === 2, undefined, { timeout: 30_000 });
  const failures = await events(page, 'sinew-error');
  expect(failures.map((e) => e.id).sort()).toEqual(['fox', 'octopus']);
  for (const failure of failures) expect(failure.detail.message).toMatch(/^Could not restore after WebGL context loss: .*createBuffer failed/);
  expect(errors).toEqual([]);
});
