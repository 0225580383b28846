import { expect, test, type Page } from '@playwright/test';
import { isolateFromLiveReload } from '../helpers/viewer-page.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { AVATAR_SPRING_JOINTS } from '../../../src/procedural/avatar/avatar-springs.ts';

// <sinew-viewer>'s spring-bone surface on the generated avatar (built here in node, served by a fixture route as
// `/generated/avatar.vrm`), standing in its rest pose (no clips) and playing under Playwright's clock, so every
// frame advances the same 16 ms: `wind` blows the hair and the tail sideways (pixels, and hotspots on the chains'
// tail joints against the generator's table), a paused element holds its springs still, `resetSpringBones()` and
// `spring-bones="off"` put the joints back where the rest pose has them, a malformed `wind` is one `sinew-error`.

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

const avatar = buildAvatarVrm1().then((bytes) => Buffer.from(bytes));

/** The chains' tail joints watched by hotspots: a back hair strand, a side strand, the tail. */
const WATCHED = ['hair06_4', 'hair09_4', 'tail9'] as const;

/** The watched joints' rest positions (model space, metres), from the generator's table. */
const REST = Object.fromEntries(WATCHED.map((name) => [name, AVATAR_SPRING_JOINTS.find((j) => j.name === name)!.position]));

test.beforeEach(async ({ page }) => {
  const bytes = await avatar;
  await isolateFromLiveReload(page);
  await page.route('**/generated/avatar.vrm', (route) => route.fulfill({ body: bytes, contentType: 'model/gltf-binary' }));
  await page.addInitScript(() => {
    const errors: string[] = [];
    (window as unknown as { __errors: string[] }).__errors = errors;
    document.addEventListener('sinew-error', (e) => errors.push((e as CustomEvent).detail.message));
  });
  await page.goto('/tests/browser/pages/empty-page.html');
});

/** Adds `<sinew-viewer id="v">` with `attributes` and a hotspot on each watched joint, and waits for the avatar. */
async function addViewer(page: Page, attributes: Record<string, string>): Promise<void> {
  await page.evaluate(({ attrs, watched }) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.setAttribute('style', 'width: 320px; height: 320px');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    for (const joint of watched) {
      const spot = document.createElement('div');
      spot.slot = `hotspot-${joint}`;
      spot.dataset.joint = joint;
      el.append(spot);
    }
    document.body.append(el);
  }, { attrs: attributes, watched: WATCHED });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer | null)?.model === 'avatar.vrm', null, { timeout: 120_000 });
}

interface Picture { data: Uint8Array; spots: Record<string, number[]> }

/**
 * The picture drawn now (RGBA) and the watched joints' model-space positions in it. The pixels cross to node as one
 * base64 string: Playwright serializes an array's every element apart, which took seconds per picture.
 */
async function picture(page: Page): Promise<Picture> {
  const { base64, spots } = await page.evaluate((watched) => {
    const el = document.getElementById('v') as Viewer;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    const spots: Record<string, number[]> = {};
    for (const joint of watched) {
      const p = el.queryHotspot(`hotspot-${joint}`)!.position;
      spots[joint] = [p.x, p.y, p.z];
    }
    return { base64: btoa(binary), spots };
  }, WATCHED);
  return { data: new Uint8Array(Buffer.from(base64, 'base64')), spots };
}

/** How many pixels differ by more than 30 over RGBA between two pictures of the same size. */
function changed(a: Picture, b: Picture): number {
  let count = 0;
  for (let p = 0; p < a.data.length; p += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d += Math.abs(a.data[p + c] - b.data[p + c]);
    if (d > 30) count++;
  }
  return count;
}

/**
 * Pauses and resets the springs, lets the element's last real animation frame pass, then installs Playwright's
 * clock: a frame the element asked for before the clock would be waited for in real time, and the frames it
 * coalesces with would never come while the clock runs.
 */
async function holdStill(page: Page): Promise<void> {
  await page.evaluate(() => { const el = document.getElementById('v') as Viewer; el.pause(); el.resetSpringBones(); });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))));
  await page.clock.install();
}

/**
 * Milliseconds of Playwright's clock a test plays between two pictures. Every frame drawn costs real time
 * (SwiftShader); 1 s (62 frames) is enough for the chains to hang and for wind="4 0 0" to blow every watched tail
 * joint several times the 2 cm the tests ask along the wind.
 */
const PLAY_MS = 1000;

/** Plays for `ms` of Playwright's clock (a frame every 16 ms), then pauses. */
async function playFor(page: Page, ms: number): Promise<void> {
  await page.evaluate(() => (document.getElementById('v') as Viewer).play());
  await page.clock.runFor(ms);
  await page.evaluate(() => (document.getElementById('v') as Viewer).pause());
}

async function errors(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __errors: string[] }).__errors.splice(0));
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

test('wind blows the springs sideways; paused holds them; resetSpringBones and spring-bones="off" give the rest pose; on again, the springs start from rest with no wind left', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm', autoplay: '' });
  await holdStill(page);

  // Reset at the rest pose: every spring joint as the file places it.
  const reset = await picture(page);
  for (const joint of WATCHED) expect(distance(reset.spots[joint], REST[joint]), `${joint} after resetSpringBones()`).toBeLessThan(1e-4);

  // Gravity alone (PLAY_MS): the chains hang down from where they started.
  await playFor(page, PLAY_MS);
  const calm = await picture(page);
  expect(REST.hair09_4[1] - calm.spots.hair09_4[1], 'a side strand droops').toBeGreaterThan(0.01);
  expect(changed(reset, calm), 'hanging hair and tail change the picture').toBeGreaterThan(100);

  // Paused, a change of wind changes nothing drawn: a paused element is a still picture.
  await page.evaluate(() => { (document.getElementById('v') as Viewer).wind = '4 0 0'; });
  await page.clock.runFor(PLAY_MS);
  const held = await picture(page);
  expect(changed(calm, held), 'paused: the picture holds').toBe(0);

  // Playing again, the wind (+X, world) blows every watched chain towards +X.
  await playFor(page, PLAY_MS);
  const windy = await picture(page);
  for (const joint of WATCHED) {
    expect(windy.spots[joint][0] - calm.spots[joint][0], `${joint} blown towards +X`).toBeGreaterThan(0.02);
  }
  expect(changed(calm, windy), 'wind="4 0 0" against wind="0 0 0" at the same time').toBeGreaterThan(200);

  // resetSpringBones(), paused: drawn at once, the joints back at rest.
  await page.evaluate(() => (document.getElementById('v') as Viewer).resetSpringBones());
  const again = await picture(page);
  for (const joint of WATCHED) expect(distance(again.spots[joint], REST[joint]), `${joint} after the second reset`).toBeLessThan(1e-4);
  expect(changed(reset, again), 'the reset picture is the first one').toBe(0);

  // spring-bones="off": the clip's pose (here the rest pose) for every spring joint, playing or not.
  await page.evaluate(() => { (document.getElementById('v') as Viewer).springBones = 'off'; });
  await playFor(page, 500);
  const off = await picture(page);
  for (const joint of WATCHED) expect(distance(off.spots[joint], REST[joint]), `${joint} with spring-bones="off"`).toBeLessThan(1e-4);
  expect(changed(reset, off)).toBe(0);

  // On again, without wind: the same time from rest gives the calm picture again.
  await page.evaluate(() => { const el = document.getElementById('v') as Viewer; el.springBones = 'on'; el.wind = null; });
  await playFor(page, PLAY_MS);
  const calmAgain = await picture(page);
  // The element steps its springs by each drawn frame's dt, and on a loaded machine the frames of two runs need not
  // fall at the same times, so the long tail's swing is not repeated exactly. What must hold: the springs started again
  // from rest and no wind is left (wind="4 0 0" blew every watched chain more than 2 cm towards +X).
  for (const joint of WATCHED) {
    expect(calmAgain.spots[joint][0] - calm.spots[joint][0], `${joint}: no wind left on the second calm run`).toBeLessThan(0.01);
  }
  expect(REST.hair09_4[1] - calmAgain.spots.hair09_4[1], 'the side strand droops again').toBeGreaterThan(0.01);
  expect(await errors(page)).toEqual([]);
});

test('gravity and wind are world vectors: the model turned a quarter turn about Y is blown along its own +Z', async ({ page }) => {
  // orientation "roll pitch yaw" = "0 0 90deg": a yaw of +90° about Y carries the model's +Z onto world +X.
  await addViewer(page, { src: '/generated/avatar.vrm', autoplay: '', orientation: '0deg 0deg 90deg' });
  await holdStill(page);
  await playFor(page, PLAY_MS);
  const calm = await picture(page);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).wind = '4 0 0'; });
  await playFor(page, PLAY_MS);
  const windy = await picture(page);
  // World +X is the model's +Z: the world wind blows the chains along the model's +Z.
  for (const joint of WATCHED) {
    expect(windy.spots[joint][2] - calm.spots[joint][2], `${joint} along the model's +Z`).toBeGreaterThan(0.02);
    expect(Math.abs(windy.spots[joint][0] - calm.spots[joint][0]), `${joint} barely along the model's X`).toBeLessThan(Math.abs(windy.spots[joint][2] - calm.spots[joint][2]));
  }
  // Gravity stays world −Y: a side strand hangs below its rest height whatever the turn.
  expect(REST.hair09_4[1] - calm.spots.hair09_4[1]).toBeGreaterThan(0.01);
  expect(await errors(page)).toEqual([]);
});

test('a malformed wind or spring-bones is one sinew-error each, and its fallback is used', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm' });
  await page.evaluate(() => { (document.getElementById('v') as Viewer).setAttribute('wind', '4 0'); });
  expect(await errors(page)).toEqual(['<sinew-viewer wind="4 0">: expected "X Y Z", three numbers in m/s² (world space, e.g. "4 0 0"); using 0 0 0']);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).setAttribute('spring-bones', 'yes'); });
  expect(await errors(page)).toEqual(['<sinew-viewer spring-bones="yes">: expected on or off; using on']);
  // The reflected properties read as written.
  expect(await page.evaluate(() => { const el = document.getElementById('v') as Viewer; return [el.wind, el.springBones, el.gravity, el.showColliders]; }))
    .toEqual(['4 0', 'yes', null, false]);
});

test('a malformed wind present at connect is reported once, after the element is upgraded', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm', wind: 'east' });
  expect(await errors(page)).toEqual(['<sinew-viewer wind="east">: expected "X Y Z", three numbers in m/s² (world space, e.g. "4 0 0"); using 0 0 0']);
});

test('show-colliders draws the colliders over the avatar, and removing it draws the same picture as before', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm' });
  await holdStill(page);
  const plain = await picture(page);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).showColliders = true; });
  const shown = await picture(page);
  // Spheres, capsules and the ground plane's square: lines over and around the body.
  expect(changed(plain, shown), 'collider lines drawn').toBeGreaterThan(200);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).showColliders = false; });
  const hidden = await picture(page);
  expect(changed(plain, hidden), 'the lines are gone again').toBe(0);
});
