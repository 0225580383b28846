import { expect, test, type Page } from '@playwright/test';
import { isolateFromLiveReload } from '../helpers/viewer-page.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { AVATAR_EXPRESSIONS } from '../../../src/procedural/avatar/avatar-expressions.ts';
import { AVATAR_BONES } from '../../../src/procedural/avatar/avatar-bones.ts';
import { AUTO_BLINK_DURATION, blinkOffset } from '../../../src/avatar/auto-blink.ts';
import {
  AVATAR_CC0_URL, AVATAR_LICENSE_URL, AVATAR_LOOK_AT_OFFSET, AVATAR_TITLE, avatarLookAtRangeMaps,
} from '../../../src/procedural/avatar/avatar-vrm-options.ts';

// <sinew-viewer>'s VRM avatar surface on the generated avatar (built here in node, served by a fixture route as
// `/generated/avatar.vrm`, with a generated VRMA clip as `/generated/walk.vrma`): `src` and `animations`,
// availableExpressions, setExpression / getExpression (and their bad arguments), avatarMeta, `look-at` (a point and
// the camera, read back through a hotspot on each eye joint, against the range maps of VRMC_vrm-1.0 lookAt.md),
// `auto-blink`, and a model that is not an avatar. The expected numbers come from the generator's own tables.

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

const CLIP_SECONDS = 2;
const files = (async () => ({ avatar: Buffer.from(await buildAvatarVrm1()), walk: Buffer.from(await buildVrmaClip({ duration: CLIP_SECONDS })) }))();

/** Metres: how far in front of each eye joint (its +Z, in its frame) the eye hotspots sit. */
const GAZE = 0.05;

test.beforeEach(async ({ page }) => {
  const { avatar, walk } = await files;
  await isolateFromLiveReload(page);
  await page.route('**/generated/avatar.vrm', (route) => route.fulfill({ body: avatar, contentType: 'model/gltf-binary' }));
  await page.route('**/generated/walk.vrma', (route) => route.fulfill({ body: walk, contentType: 'model/gltf-binary' }));
  await page.addInitScript(() => {
    const errors: string[] = [];
    (window as unknown as { __errors: string[] }).__errors = errors;
    document.addEventListener('sinew-error', (e) => errors.push((e as CustomEvent).detail.message));
  });
  await page.goto('/tests/browser/pages/empty-page.html');
});

/** Adds `<sinew-viewer id="v">` with `attributes` (and, for the avatar, hotspots 5 cm in front of each eye), and waits for `model`. */
async function addViewer(page: Page, attributes: Record<string, string>, model = 'avatar.vrm'): Promise<void> {
  await page.evaluate(({ attrs, gaze, eyes }) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.setAttribute('style', 'width: 320px; height: 320px');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    const w = window as unknown as { __atLoad: unknown };
    el.addEventListener('load', () => {
      w.__atLoad = { expressions: el.availableExpressions.length, meta: el.avatarMeta?.name ?? null };
    });
    for (const eye of eyes ? ['leftEye', 'rightEye'] : []) {
      const spot = document.createElement('div');
      spot.slot = `hotspot-${eye}`;
      spot.dataset.joint = eye;
      spot.dataset.offset = `0 0 ${gaze}`;
      el.append(spot);
    }
    document.body.append(el);
  }, { attrs: attributes, gaze: GAZE, eyes: model === 'avatar.vrm' });
  await page.waitForFunction((name) => (document.getElementById('v') as Viewer | null)?.model === name, model, { timeout: 120_000 });
}

/** The eye hotspots' model-space positions in a frame drawn now (metres). */
async function eyes(page: Page): Promise<{ left: number[]; right: number[] }> {
  return page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.renderOnce();
    const at = (name: string) => {
      const p = el.queryHotspot(`hotspot-${name}`)!.position;
      return [p.x, p.y, p.z];
    };
    return { left: at('leftEye'), right: at('rightEye') };
  });
}

async function errors(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __errors: string[] }).__errors.splice(0));
}

/**
 * The element canvas's RGBA pixels after a frame drawn now. They cross to node as one base64 string: Playwright
 * serializes a returned array element by element, slowly.
 */
async function pixels(page: Page): Promise<{ width: number; height: number; data: Uint8Array }> {
  const { width, height, base64 } = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, base64: btoa(binary) };
  });
  return { width, height, data: new Uint8Array(Buffer.from(base64, 'base64')) };
}

/** The model-space position of a bone of the generated avatar at rest (metres). */
function restOf(name: string): readonly number[] {
  const bone = AVATAR_BONES.find((b) => b.name === name);
  if (!bone) throw new Error(`no bone ${name}`);
  return bone.position;
}

/** The look-at origin: the head at `offsetFromHeadBone` (rest rotations are identity, so it is a plain offset). */
const ORIGIN = restOf('head').map((v, i) => v + AVATAR_LOOK_AT_OFFSET[i]);

test('a .vrm src loads as an avatar: expressions, meta at the load event, setExpression / getExpression and their bad arguments', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm' });
  const state = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    return { expressions: el.availableExpressions, meta: el.avatarMeta, atLoad: (window as unknown as { __atLoad: unknown }).__atLoad };
  });
  expect([...state.expressions].sort()).toEqual(AVATAR_EXPRESSIONS.map((e) => e.name).sort());
  expect(state.atLoad).toEqual({ expressions: AVATAR_EXPRESSIONS.length, meta: AVATAR_TITLE });
  expect(state.meta).toMatchObject({
    name: AVATAR_TITLE, authors: ['Sinew'], licenseUrl: AVATAR_LICENSE_URL, otherLicenseUrl: AVATAR_CC0_URL,
    avatarPermission: 'everyone', commercialUsage: 'corporation', allowExcessivelyViolentUsage: false,
  });

  const weights = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    const before = el.getExpression('happy');
    el.setExpression('happy', 0.25);
    el.setExpression('aa', 3); // clamped
    return { before, happy: el.getExpression('happy'), aa: el.getExpression('aa') };
  });
  expect(weights).toEqual({ before: 0, happy: 0.25, aa: 1 });
  expect(await errors(page)).toEqual([]);

  const bad = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.setExpression('hapy', 1);
    el.setExpression('happy', Number.NaN);
    return { unknown: el.getExpression('nope'), happy: el.getExpression('happy') };
  });
  expect(bad).toEqual({ unknown: null, happy: 0.25 });
  const messages = await errors(page);
  expect(messages).toHaveLength(3);
  expect(messages[0]).toMatch(/setExpression\("hapy"\): avatar\.vrm has no such expression \(did you mean "happy"\?.*expressions: .*blink/);
  expect(messages[1]).toMatch(/setExpression\("happy", NaN\): expected a weight in \[0, 1\]/);
  expect(messages[2]).toMatch(/getExpression\("nope"\): avatar\.vrm has no such expression/);

  // A reconnect shows the same model again, with the weights set on it.
  await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.remove();
    document.body.append(el);
  });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).loaded, undefined, { timeout: 60_000 });
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).getExpression('happy'))).toBe(0.25);
});

test("setExpression('blink', 1) closes the eyes: the picture changes in the eye band only, and getExpression reads it back", async ({ page }) => {
  // The face fills the element: the orbit centre between the eyes, 40 cm in front.
  await addViewer(page, { src: '/generated/avatar.vrm', 'camera-target': `0m ${restOf('leftEye')[1]}m 0m`, 'camera-orbit': '0deg 90deg 0.4m', 'min-camera-orbit': 'auto auto 0.1m' });
  const open = await pixels(page);
  const weight = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.setExpression('blink', 1);
    return el.getExpression('blink');
  });
  expect(weight).toBe(1);
  const closed = await pixels(page);
  // The eyes sit on the middle row (the orbit centre's height), ±3.2 cm apart: the eye band is the middle fifth.
  let inBand = 0, outside = 0;
  const { width, height } = open;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = 4 * (y * width + x);
      const diff = Math.abs(open.data[o] - closed.data[o]) + Math.abs(open.data[o + 1] - closed.data[o + 1]) + Math.abs(open.data[o + 2] - closed.data[o + 2]);
      if (diff < 30) continue;
      if (Math.abs(y - height / 2) < height / 10) inBand++;
      else outside++;
    }
  }
  expect(inBand).toBeGreaterThan(200);
  expect(outside).toBeLessThan(inBand / 10);
  await page.evaluate(() => (document.getElementById('v') as Viewer).setExpression('blink', 0));
  const reopened = await pixels(page);
  expect(reopened.data).toEqual(open.data);
});

/** Degrees the bone look-at turns an eye for a gaze `yaw` degrees to the avatar's left (VRMC_vrm-1.0 lookAt.md range maps). */
function eyeYaw(yaw: number, eye: 'left' | 'right'): number {
  const maps = avatarLookAtRangeMaps('bone');
  // yaw > 0 (to the avatar's left): the left eye turns outwards, the right eye inwards.
  const map = (yaw > 0) === (eye === 'left') ? maps.rangeMapHorizontalOuter : maps.rangeMapHorizontalInner;
  return Math.sign(yaw) * Math.min(Math.abs(yaw), map.inputMaxValue) * (map.outputScale / map.inputMaxValue);
}

test('look-at="X Y Z" turns the eyes by the range maps; none lets them go; a malformed value is reported', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm' });
  const rest = await eyes(page);
  for (const [eye, name] of [[rest.left, 'leftEye'], [rest.right, 'rightEye']] as const) {
    const joint = restOf(name);
    expect(eye[0]).toBeCloseTo(joint[0], 5);
    expect(eye[1]).toBeCloseTo(joint[1], 5);
    expect(eye[2]).toBeCloseTo(joint[2] + GAZE, 5);
  }

  // A point 2 m ahead, a little below the eyes: the gaze pitches down by atan(drop / distance).
  await page.evaluate(() => document.getElementById('v')!.setAttribute('look-at', '0 1.5 2'));
  const ahead = await eyes(page);
  const pitch = Math.atan2(ORIGIN[1] - 1.5, 2 - ORIGIN[2]) * (180 / Math.PI);
  const down = avatarLookAtRangeMaps('bone').rangeMapVerticalDown;
  const eyePitch = (Math.min(pitch, down.inputMaxValue) * down.outputScale / down.inputMaxValue) * (Math.PI / 180);
  for (const [now, before] of [[ahead.left, rest.left], [ahead.right, rest.right]]) {
    expect(now[0] - before[0]).toBeCloseTo(0, 6);
    expect(now[1] - before[1]).toBeCloseTo(-GAZE * Math.sin(eyePitch), 6);
  }
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).lookAt)).toBe('0 1.5 2');

  // A point 45° to the avatar's left (+X) at the eyes' height, in cm: left eye outer map, right eye inner map.
  await page.evaluate((o) => { (document.getElementById('v') as Viewer).lookAt = `${100 * (o[0] + 2)}cm ${100 * o[1]}cm ${100 * (o[2] + 2)}cm`; }, ORIGIN);
  const left = await eyes(page);
  for (const [now, before, eye] of [[left.left, rest.left, 'left'], [left.right, rest.right, 'right']] as const) {
    const turn = eyeYaw(45, eye) * (Math.PI / 180);
    expect(now[0] - before[0]).toBeCloseTo(GAZE * Math.sin(turn), 5);
    expect(now[1] - before[1]).toBeCloseTo(0, 5);
    expect(now[2] - before[2]).toBeCloseTo(GAZE * (Math.cos(turn) - 1), 5);
  }

  await page.evaluate(() => document.getElementById('v')!.setAttribute('look-at', 'none'));
  const back = await eyes(page);
  expect(back.left[0]).toBeCloseTo(rest.left[0], 6);
  expect(back.right[0]).toBeCloseTo(rest.right[0], 6);
  expect(await errors(page)).toEqual([]);

  await page.evaluate(() => document.getElementById('v')!.setAttribute('look-at', 'up there'));
  expect(await errors(page)).toEqual(['<sinew-viewer look-at="up there">: expected camera, cursor, none or "X Y Z" (metres, model space; m, cm or mm); using none']);
});

test('look-at="camera" follows the camera as it orbits', async ({ page }) => {
  // The orbit centre at the look-at origin: the gaze's yaw is the orbit's θ.
  const target = ORIGIN.map((v) => `${v}m`).join(' ');
  await addViewer(page, { src: '/generated/avatar.vrm', 'camera-target': target, 'camera-orbit': '45deg 90deg 3m', 'look-at': 'camera' });
  const at45 = await eyes(page);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).setAttribute('camera-orbit', '-30deg 90deg 3m'); });
  // The camera moved on this frame; its eye is followed from the next.
  await eyes(page);
  const atMinus30 = await eyes(page);
  const left = restOf('leftEye'), right = restOf('rightEye');
  for (const [now, joint, yaw, eye] of [
    [at45.left, left, 45, 'left'], [at45.right, right, 45, 'right'], [atMinus30.left, left, -30, 'left'], [atMinus30.right, right, -30, 'right'],
  ] as const) {
    const turn = eyeYaw(yaw, eye) * (Math.PI / 180);
    expect(now[0] - joint[0], `${eye} eye at ${yaw}°`).toBeCloseTo(GAZE * Math.sin(turn), 4);
    expect(now[2] - joint[2], `${eye} eye at ${yaw}°`).toBeCloseTo(GAZE * Math.cos(turn), 4);
  }
});

test('look-at="cursor" follows the pointer over the element: the gaze turns by the pointer\'s angle from the view centre', async ({ page }) => {
  // The camera straight in front of the look-at origin, level with it: the target is halfway along the pointer's ray
  // to the plane through the origin facing the camera, so its yaw (VRMC_vrm-1.0 lookAt.md: atan2(x, z)) is the
  // pointer's angle from the view centre.
  const target = ORIGIN.map((v) => `${v}m`).join(' ');
  // The orbit's limits pinned to the 3 m asked for: model-viewer's automatic ones follow the model's size, which the
  // avatar's hair and tail change.
  await addViewer(page, {
    src: '/generated/avatar.vrm', 'camera-target': target, 'camera-orbit': '0deg 90deg 3m', 'look-at': 'cursor',
    'min-camera-orbit': 'auto auto 3m', 'max-camera-orbit': 'auto auto 3m',
  });
  const left = restOf('leftEye'), right = restOf('rightEye');
  // Before the pointer moves the eyes follow the camera: straight ahead.
  const before = await eyes(page);
  expect(before.left[0] - left[0]).toBeCloseTo(0, 5);
  const box = (await page.locator('#v').boundingBox())!;
  // The camera is 3 m in front of the origin: a point 1.5 m in front of it (half way) and `side` metres across is
  // where the gaze goes when the pointer is over that point's projection (read through a hotspot placed there).
  for (const side of [0.3, -0.3]) {
    const probe = [ORIGIN[0] + side, ORIGIN[1], ORIGIN[2] + 1.5];
    const slot = `hotspot-probe${side > 0 ? 'Left' : 'Right'}`;
    await page.evaluate(([position, slot]) => {
      const el = document.getElementById('v') as Viewer;
      const hotspot = document.createElement('div');
      hotspot.slot = slot;
      hotspot.dataset.position = position.map((v) => `${v}m`).join(' ');
      el.append(hotspot);
    }, [probe, slot] as const);
    // The element takes the new hotspot on its slot change: read its projection once it is there.
    const at = await (await page.waitForFunction((slot) => {
      const el = document.getElementById('v') as Viewer;
      el.renderOnce();
      const p = el.queryHotspot(slot)?.canvasPosition;
      return p ? [p.x, p.y] : null;
    }, slot)).jsonValue() as number[];
    const yaw = (Math.atan2(side, 1.5) * 180) / Math.PI;
    await page.mouse.move(box.x + at[0], box.y + at[1]);
    const now = await eyes(page);
    for (const [at, joint, eye] of [[now.left, left, 'left'], [now.right, right, 'right']] as const) {
      const turn = eyeYaw(yaw, eye) * (Math.PI / 180);
      expect(at[0] - joint[0], `${eye} eye, pointer over a point ${side} m across`).toBeCloseTo(GAZE * Math.sin(turn), 4);
      expect(at[1] - joint[1], `${eye} eye, pointer over a point ${side} m across`).toBeCloseTo(0, 4);
    }
  }
  // The pointer leaves: the last point stays.
  const last = await eyes(page);
  await page.mouse.move(box.x + box.width + 100, box.y + box.height + 100);
  expect(await eyes(page)).toEqual(last);
  expect(await errors(page)).toEqual([]);
});

test('animations="….vrma" adds the clip, which poses the avatar and drives its expressions', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm', animations: '/generated/walk.vrma', 'animation-name': 'walk' });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).clips.includes('walk'), undefined, { timeout: 60_000 });
  const at = await page.evaluate((duration) => {
    const el = document.getElementById('v') as Viewer;
    const sample = (t: number) => {
      el.currentTime = t;
      el.renderOnce();
      const eye = el.queryHotspot('hotspot-leftEye')!.position;
      return { cheekPuff: el.getExpression('cheekPuff'), eye: [eye.x, eye.y, eye.z] };
    };
    return { duration: el.duration, start: sample(0), half: sample(duration / 2), late: sample(0.9 * duration) };
  }, CLIP_SECONDS);
  expect(at.duration).toBeCloseTo(CLIP_SECONDS, 3);
  // The clip's cheekPuff track rises linearly from 0 to 1 over the clip.
  expect(at.start.cheekPuff).toBeCloseTo(0, 3);
  expect(at.half.cheekPuff).toBeCloseTo(0.5, 2);
  expect(at.late.cheekPuff).toBeCloseTo(0.9, 2);
  // The walk moves the head (the eyes with it) by more than a centimetre.
  const moved = Math.hypot(...at.half.eye.map((v, i) => v - at.start.eye[i]));
  expect(moved).toBeGreaterThan(0.01);
  expect(await errors(page)).toEqual([]);
});

test('auto-blink blinks on its schedule while paused (a model without clips); the property reflects it', async ({ page }) => {
  await addViewer(page, { src: '/generated/avatar.vrm' });
  await page.clock.install();
  await page.evaluate(() => { (document.getElementById('v') as Viewer).autoBlink = true; });
  expect(await page.evaluate(() => document.getElementById('v')!.hasAttribute('auto-blink'))).toBe(true);
  // One blink (0.3 s) falls in each 4 s period, the first blinkOffset(0) s after the clock's start (a new avatar's
  // blink clock starts at 0 and runs with the paused element's frames): the page records the most closed the eyes were
  // at each animation frame. Each frame costs real time, so the clock runs to just past that blink, not a whole period.
  await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    const w = window as unknown as { __most: number };
    w.__most = 0;
    const record = () => {
      w.__most = Math.max(w.__most, el.getExpression('blink') ?? -1);
      requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
  await page.clock.runFor((blinkOffset(0) + AUTO_BLINK_DURATION) * 1000 + 250);
  const most = await page.evaluate(() => (window as unknown as { __most: number }).__most);
  expect(most).toBeGreaterThan(0.5);
  await page.evaluate(() => { (document.getElementById('v') as Viewer).autoBlink = false; });
  await page.clock.runFor(500);
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).getExpression('blink'))).toBe(0);
});

test('a model that is not an avatar: availableExpressions [], avatarMeta null, setExpression reported', async ({ page }) => {
  await addViewer(page, { 'look-at': 'camera', 'auto-blink': '' }, 'octopus (built-in)');
  const state = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.setExpression('happy', 1);
    return { expressions: el.availableExpressions, meta: el.avatarMeta, happy: el.getExpression('happy') };
  });
  expect(state).toEqual({ expressions: [], meta: null, happy: null });
  const messages = await errors(page);
  expect(messages).toHaveLength(2);
  expect(messages[0]).toMatch(/setExpression\("happy"\): .* is not an avatar/);
});
