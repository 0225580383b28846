import { test, expect } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors, openViewer, grid, gridDistance } from '../helpers/viewer-page.ts';
import { animationFrames } from '../helpers/page-turns.ts';

// The viewer's animation controls: crossfades between clips, speed (negative plays backwards), loop modes,
// their URL parameters and panel inputs. Time is stepped with `window.sinew.step(dt)` (rAF is throttled
// headless), and frames are compared through their luminance fingerprints (`inspectFrame`).

const FOX = '/shared/assets/gltf/Fox.glb';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

/** Fox paused on Survey at 0.5 s, side view, no panel. */
const FOX_SURVEY = `?ui=0&model=${FOX}&clip=Survey&time=0.5&yaw=-60&pitch=15`;

test('a clip change while playing crossfades: mid-fade differs from both clips, after the fade it is the new clip alone', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `${FOX_SURVEY}&fade=1`);
  const start = await page.evaluate(() => window.sinew!.state());
  expect(start).toMatchObject({ clip: 'Survey', playing: false, fade: 1, speed: 1, loop: 'loop', activeClips: 1 });
  const durations = await page.evaluate(() => {
    const s = window.sinew!;
    const out: Record<string, number> = {};
    for (const name of s.state().clips) {
      s.selectClip(name);
      out[name] = s.state().duration;
    }
    s.selectClip('Survey');
    s.setTime(0.5);
    return out;
  });
  expect(durations.Survey).toBeGreaterThan(1);

  // Playing, choose Run (the UI path: crossfade over `fade` from Run's start), then 0.5 s on: halfway.
  const mid = await page.evaluate(() => {
    const s = window.sinew!;
    s.play();
    s.selectClip('Run');
    const justAfter = s.state();
    s.step(0.5);
    return { justAfter, state: s.state(), grid: s.inspectFrame(32, 24)!.grid };
  });
  expect(mid.justAfter).toMatchObject({ clip: 'Run', time: 0, activeClips: 2 });
  expect(mid.state).toMatchObject({ clip: 'Run', playing: false, activeClips: 2 });
  expect(mid.state.time).toBeCloseTo(0.5 % durations.Run, 9);

  // The pure clips at the times they have reached: Run at its time (a paused selection cuts and keeps the
  // time), Survey 0.5 s past 0.5 s.
  const run = await page.evaluate(() => {
    window.sinew!.selectClip('Run');
    return window.sinew!.state();
  });
  expect(run.activeClips).toBe(1);
  expect(run.time).toBeCloseTo(mid.state.time, 12);
  const pureRun = await grid(page);
  await page.evaluate((t) => {
    window.sinew!.selectClip('Survey');
    window.sinew!.setTime(t);
  }, 1.0 % durations.Survey);
  const pureSurvey = await grid(page);

  const between = gridDistance(pureRun, pureSurvey);
  expect(between).toBeGreaterThan(0.5);
  expect(gridDistance(mid.grid, pureRun)).toBeGreaterThan(0.1);
  expect(gridDistance(mid.grid, pureSurvey)).toBeGreaterThan(0.1);
  // A blend, not a third pose: closer to each clip than the clips are to each other.
  expect(gridDistance(mid.grid, pureRun)).toBeLessThan(between);
  expect(gridDistance(mid.grid, pureSurvey)).toBeLessThan(between);

  // The same again, stepped past the end of the fade (0.5 + 0.6 s ≥ 1 s): pure Run.
  const end = await page.evaluate(() => {
    const s = window.sinew!;
    s.setTime(0.5);
    s.play();
    s.selectClip('Run');
    s.step(0.5);
    s.step(0.6);
    return { state: s.state(), grid: s.inspectFrame(32, 24)!.grid };
  });
  expect(end.state).toMatchObject({ clip: 'Run', activeClips: 1 });
  expect(end.state.time).toBeCloseTo(1.1 % durations.Run, 9);
  await page.evaluate(() => window.sinew!.selectClip('Run'));
  expect(gridDistance(end.grid, await grid(page))).toBeLessThan(0.01);

  // fade=0 cuts: the new clip alone at once.
  const cut = await page.evaluate(() => {
    const s = window.sinew!;
    s.setFade(0);
    s.play();
    s.selectClip('Walk');
    const state = s.state();
    s.pause();
    return state;
  });
  expect(cut).toMatchObject({ clip: 'Walk', time: 0, activeClips: 1, fade: 0 });

  // Scrubbing during a crossfade cuts it.
  const scrubbed = await page.evaluate(() => {
    const s = window.sinew!;
    s.selectClip('Survey', 1);
    s.step(0.25);
    const during = s.state().activeClips;
    s.setTime(0.4);
    return { during, after: s.state() };
  });
  expect(scrubbed.during).toBe(2);
  expect(scrubbed.after).toMatchObject({ clip: 'Survey', activeClips: 1 });
  expect(scrubbed.after.time).toBeCloseTo(0.4, 12);
  expect(errors).toEqual([]);
});

test('speed −1 moves time backwards; the picture is the clip at that earlier time', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, FOX_SURVEY);
  const back = await page.evaluate(() => {
    const s = window.sinew!;
    s.setTime(1);
    s.setSpeed(-1);
    s.step(0.25);
    return { state: s.state(), grid: s.inspectFrame(32, 24)!.grid };
  });
  expect(back.state.speed).toBe(-1);
  expect(back.state.time).toBeCloseTo(0.75, 9);
  await page.evaluate(() => window.sinew!.setTime(0.75));
  expect(gridDistance(back.grid, await grid(page))).toBeLessThan(0.01);

  // Backwards through 0 wraps to the end (loop); half speed moves half as far.
  const wrapped = await page.evaluate(() => {
    const s = window.sinew!;
    s.setTime(0.1);
    s.step(0.3);
    const t1 = s.state().time;
    s.setSpeed(-0.5);
    s.setTime(1);
    s.step(0.4);
    return { t1, t2: s.state().time, duration: s.state().duration };
  });
  expect(wrapped.t1).toBeCloseTo(wrapped.duration - 0.2, 9);
  expect(wrapped.t2).toBeCloseTo(0.8, 9);
});

test('loop modes: loop wraps, once clamps and holds the end, ping-pong comes back', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, FOX_SURVEY);
  const d = await page.evaluate(() => window.sinew!.state().duration);

  const looped = await page.evaluate((d) => {
    const s = window.sinew!;
    s.setTime(d - 0.1);
    s.step(0.3);
    return s.state();
  }, d);
  expect(looped.time).toBeCloseTo(0.2, 9);
  expect(looped.finished).toBe(false);

  const once = await page.evaluate((d) => {
    const s = window.sinew!;
    s.setLoop('once');
    s.setTime(d - 0.1);
    s.step(0.3);
    const first = s.state();
    s.step(0.5);
    return { first, second: s.state(), grid: s.inspectFrame(32, 24)!.grid };
  }, d);
  expect(once.first).toMatchObject({ loop: 'once', time: d, finished: true });
  expect(once.second.time).toBe(d);
  await page.evaluate((d) => window.sinew!.setTime(d), d);
  expect(gridDistance(once.grid, await grid(page))).toBeLessThan(0.01);
  // Backwards in once mode stops at 0.
  const onceBack = await page.evaluate(() => {
    const s = window.sinew!;
    s.setSpeed(-2);
    s.setTime(0.3);
    s.step(1);
    const state = s.state();
    s.setSpeed(1);
    return state;
  });
  expect(onceBack).toMatchObject({ time: 0, finished: true });

  const pingpong = await page.evaluate((d) => {
    const s = window.sinew!;
    s.setLoop('pingpong');
    s.setTime(d - 0.1);
    s.step(0.3);
    const t1 = s.state().time;
    s.step(0.3);
    return { t1, t2: s.state().time, loop: s.state().loop, grid: s.inspectFrame(32, 24)!.grid };
  }, d);
  expect(pingpong.loop).toBe('pingpong');
  expect(pingpong.t1).toBeCloseTo(d - 0.2, 9);
  expect(pingpong.t2).toBeCloseTo(d - 0.5, 9);
  await page.evaluate((t) => window.sinew!.setTime(t), d - 0.5);
  expect(gridDistance(pingpong.grid, await grid(page))).toBeLessThan(0.01);

  // A looping clip scrubbed to its very end shows the end (not 0) until time moves on.
  const end = await page.evaluate((d) => {
    const s = window.sinew!;
    s.setLoop('loop');
    s.setTime(d);
    const atEnd = s.state().time;
    s.step(0.1);
    return { atEnd, after: s.state().time };
  }, d);
  expect(end.atEnd).toBe(d);
  expect(end.after).toBeCloseTo(0.1, 9);
});

test('URL speed / loop / fade set the panel; the panel inputs change them; bad values are reported', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${FOX}&clip=Survey&speed=-0.5&loop=pingpong&fade=0.7`);
  expect(await page.evaluate(() => window.sinew!.state())).toMatchObject({ speed: -0.5, loop: 'pingpong', fade: 0.7, playing: true, error: null });
  await expect(page.locator('#sinew-speed')).toHaveValue('-0.5');
  await expect(page.locator('#sinew-loop')).toHaveValue('ping-pong');
  await expect(page.locator('#sinew-fade')).toHaveValue('0.7');
  await expect(page.locator('#sinew-loop option')).toHaveText(['loop', 'once', 'ping-pong']);

  await page.locator('#sinew-loop').selectOption('once');
  await page.locator('#sinew-speed').fill('1.5');
  await page.locator('#sinew-fade').fill('5');
  expect(await page.evaluate(() => window.sinew!.state())).toMatchObject({ speed: 1.5, loop: 'once', fade: 5 });
  await expect(page.locator('#sinew-speed')).toHaveValue('1.5');

  // A `once` clip at 1.5× ends within seconds of real time and stops playing, so on a slow machine the crossfade
  // below would start from a stopped clip: back to `loop` in the panel, and play.
  await page.locator('#sinew-loop').selectOption('loop');
  await page.evaluate(() => window.sinew!.play());
  expect(await page.evaluate(() => window.sinew!.state())).toMatchObject({ loop: 'loop', playing: true });

  // Choosing a clip in the list while playing crossfades over the 5 s fade; scrubbing then cuts to it alone.
  await page.locator('#sinew-clip').selectOption({ label: 'Run' });
  expect(await page.evaluate(() => window.sinew!.state())).toMatchObject({ clip: 'Run', activeClips: 2 });
  await page.locator('#sinew-time').fill('0.2');
  const scrubbed = await page.evaluate(() => window.sinew!.state());
  expect(scrubbed).toMatchObject({ clip: 'Run', activeClips: 1, playing: false });
  expect(scrubbed.time).toBeCloseTo(0.2, 3);
  await expect(page.locator('#sinew-time-readout')).toContainText('0.20');
  expect(errors).toEqual([]);

  await openViewer(page, '?speed=fast&loop=forever&fade=-1');
  const bad = await page.evaluate(() => window.sinew!.state());
  expect(bad).toMatchObject({ speed: 1, loop: 'loop', fade: 0.3 });
  expect(bad.error).toContain('speed=fast');
  expect(bad.error).toContain('loop=forever');
  expect(bad.error).toContain('fade=-1');
});

test('every clip of InterpolationTest (step, linear, cubic spline) animates in the viewer', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&model=/shared/assets/gltf/InterpolationTest.glb&time=0');
  const clips = await page.evaluate(() => window.sinew!.state().clips);
  expect(clips.length).toBeGreaterThanOrEqual(9);
  for (const clip of clips) {
    const frames = await page.evaluate((clip) => {
      const s = window.sinew!;
      s.selectClip(clip);
      s.setTime(0);
      const a = s.inspectFrame(32, 24)!.grid;
      const d = s.state().duration;
      s.setTime(d * 0.35); // between keys 1 and 2 of 5: a STEP clip holds key 1 there
      return { a, b: s.inspectFrame(32, 24)!.grid };
    }, clip);
    expect(gridDistance(frames.a, frames.b), clip).toBeGreaterThan(0.01);
  }
  expect(errors).toEqual([]);
});

test('a once clip that ends stops playback: the button offers Play, the loop stops, Play restarts it', async ({ page }) => {
  const errors = collectErrors(page);
  // The built-in octopus, paused at 0 in once mode, with the panel.
  await openViewer(page, '?loop=once&time=0');
  const play = page.locator('#sinew-play');
  const d = await page.evaluate(() => window.sinew!.state().duration);
  expect(d).toBeGreaterThan(0.5);

  // Stepped past its end: held at the end, finished, paused; the button offers Play.
  const ended = await page.evaluate((d) => {
    const s = window.sinew!;
    s.step(d - 0.2);
    const before = s.state();
    s.step(0.3);
    return { before, after: s.state() };
  }, d);
  expect(ended.before).toMatchObject({ loop: 'once', finished: false, playing: false });
  expect(ended.after).toMatchObject({ loop: 'once', time: d, finished: true, playing: false });
  await expect(play).toHaveText('Play');

  // Play (the button) restarts from the start, and the button offers Pause.
  await play.click();
  const restarted = await page.evaluate(() => window.sinew!.state());
  expect(restarted).toMatchObject({ playing: true, finished: false });
  expect(restarted.time).toBeLessThan(0.5);
  await expect(play).toHaveText('Pause');

  // Stepped to its end again, then played: the clip restarts (step pauses, so time is stepped while paused).
  const again = await page.evaluate((d) => {
    const s = window.sinew!;
    s.step(d + 1);
    const atEnd = s.state();
    s.play();
    const afterPlay = s.state();
    s.pause();
    return { atEnd, afterPlay };
  }, d);
  expect(again.atEnd).toMatchObject({ time: d, finished: true, playing: false });
  expect(again.afterPlay).toMatchObject({ time: 0, finished: false, playing: true });

  // Backwards: a once clip ends at 0, and Play restarts it from its end.
  const back = await page.evaluate(() => {
    const s = window.sinew!;
    s.setSpeed(-1);
    s.setTime(0.3);
    s.step(0.5);
    const atStart = s.state();
    s.play();
    const afterPlay = s.state();
    s.pause();
    s.setSpeed(1);
    return { atStart, afterPlay };
  });
  expect(back.atStart).toMatchObject({ time: 0, finished: true, playing: false });
  expect(back.afterPlay).toMatchObject({ time: d, finished: false, playing: true });

  // Played (by the frame loop) into its end: playback stops on its own, at the end; the button says Play and
  // no more frames are drawn.
  // Half a second before the end: one slow SwiftShader frame on a busy machine can step past 50 ms, which ended
  // the clip before the button's Pause could be seen.
  await page.evaluate((d) => {
    window.sinew!.setTime(Math.max(0, d - 0.5));
    window.sinew!.play();
  }, d);
  await expect(play).toHaveText('Pause');
  await expect.poll(() => page.evaluate(() => window.sinew!.state().playing), { timeout: 20_000 }).toBe(false);
  await expect(play).toHaveText('Play');
  const stopped = await page.evaluate(() => window.sinew!.state());
  expect(stopped).toMatchObject({ time: d, finished: true, playing: false });
  await animationFrames(page, 3);
  expect((await page.evaluate(() => window.sinew!.state())).frames).toBe(stopped.frames);
  expect(errors).toEqual([]);
});

test('speed is the playback rate of every clip: a clip fading out follows a speed change', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&time=0');
  const frames = await page.evaluate(() => {
    const s = window.sinew!;
    const [first, second] = s.state().clips;
    /** `first` at `from` fading out, `second` at 0 fading in over 1 s. */
    const startFade = (from: number): void => {
      s.selectClip(first);
      s.setTime(from);
      s.selectClip(second, 1);
    };
    // 0.3 s forwards, then speed −1 for 0.3 s: both clips are back where they started (first at 0.5 s,
    // second at 0), 0.6 s into the fade.
    s.setSpeed(1);
    startFade(0.5);
    s.step(0.3);
    s.setSpeed(-1);
    s.step(0.3);
    const changed = { state: s.state(), grid: s.inspectFrame(32, 24)!.grid };
    // The same fade with both clips held (speed 0) at those times, 0.6 s in; and with the clip fading out
    // where it would be had it kept speed 1 (1.1 s).
    s.setSpeed(0);
    startFade(0.5);
    s.step(0.6);
    const held = s.inspectFrame(32, 24)!.grid;
    startFade(1.1);
    s.step(0.6);
    const oldSpeed = s.inspectFrame(32, 24)!.grid;
    s.setSpeed(1);
    return { changed, held, oldSpeed };
  });
  expect(frames.changed.state).toMatchObject({ speed: -1, activeClips: 2, time: 0 });
  expect(gridDistance(frames.held, frames.oldSpeed)).toBeGreaterThan(0.1);
  expect(gridDistance(frames.changed.grid, frames.held)).toBeLessThan(0.01);
  expect(errors).toEqual([]);
});

test('<sinew-viewer loop="once">: an ending clip pauses the element and fires sinew-timeupdate with paused: true', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/tests/browser/pages/embed-example.html');
  await page.waitForFunction(() => (document.getElementById('octopus') as HTMLElementTagNameMap['sinew-viewer']).model !== '', undefined, { timeout: 120_000 });
  const d = await page.evaluate(() => {
    const octopus = document.getElementById('octopus') as HTMLElementTagNameMap['sinew-viewer'];
    const events: { currentTime: number; paused: boolean }[] = [];
    (window as unknown as { __updates: typeof events }).__updates = events;
    octopus.addEventListener('sinew-timeupdate', (e) => events.push({ currentTime: e.detail.currentTime, paused: e.detail.paused }));
    octopus.controls = true;
    octopus.loop = 'once';
    octopus.seek(octopus.duration - 0.05);
    octopus.play();
    return octopus.duration;
  });
  await page.waitForFunction(() => (document.getElementById('octopus') as HTMLElementTagNameMap['sinew-viewer']).paused, undefined, { timeout: 20_000 });
  const result = await page.evaluate(() => {
    const octopus = document.getElementById('octopus') as HTMLElementTagNameMap['sinew-viewer'];
    return { currentTime: octopus.currentTime, updates: (window as unknown as { __updates: { currentTime: number; paused: boolean }[] }).__updates };
  });
  expect(result.currentTime).toBe(d);
  expect(result.updates.at(-1)).toEqual({ currentTime: d, paused: true });
  const button = page.locator('#octopus').locator('[part="play"]');
  await expect(button).toHaveAttribute('aria-label', 'Play');
  // Play restarts from the start.
  await button.click();
  await expect(button).toHaveAttribute('aria-label', 'Pause');
  expect(await page.evaluate(() => (document.getElementById('octopus') as HTMLElementTagNameMap['sinew-viewer']).currentTime)).toBeLessThan(d / 2);
  expect(errors).toEqual([]);
});
