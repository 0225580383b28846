import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import UPNG from 'upng-js';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';

// `sinew render --format apng|webm` and batches: the real command (bin/sinew.mjs → dist/cli.js), which starts its
// own headless Chromium and encodes with the element's toVideo; this spec decodes what it writes (APNG with
// upng-js in node, WebM demuxed by mediabunny in node and decoded by this spec's Chromium). Each invocation
// starts a browser, so the checks share few of them.
const SINEW = resolve(import.meta.dirname, '../../../bin/sinew.mjs');
const run = promisify(execFile);
const FOX = join(SHARED_ASSETS, 'gltf/Fox.glb');
const SIZE = ['--width', '160', '--height', '120'];

let out = '';
test.beforeAll(() => { out = mkdtempSync(join(tmpdir(), 'sinew-render-video-')); });
test.afterAll(() => rmSync(out, { recursive: true, force: true }));

async function sinew(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [SINEW, ...args], { maxBuffer: 1 << 24 });
    return { code: 0, stderr };
  } catch (error: any) {
    return { code: error.code, stderr: error.stderr };
  }
}

/** Every frame of an APNG (or the one of a PNG), composited to RGBA8 as a viewer shows it. */
function frames(file: Buffer): { width: number; height: number; frames: Uint8Array[] } {
  const image = UPNG.decode(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  return { width: image.width, height: image.height, frames: UPNG.toRGBA8(image).map((frame) => new Uint8Array(frame)) };
}

/** Largest difference of one channel between two RGBA pictures of one size. */
function largestDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i] - b[i]));
  return largest;
}

/** Largest difference of a colour channel times alpha (or of alpha) between two RGBA pictures of one size, in 0..255. */
function largestPremultipliedDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let largest = 0;
  for (let i = 0; i < a.length; i += 4) {
    largest = Math.max(largest, Math.abs(a[i + 3] - b[i + 3]));
    for (let c = 0; c < 3; c++) largest = Math.max(largest, Math.abs(a[i + c] * a[i + 3] - b[i + c] * b[i + 3]) / 255);
  }
  return largest;
}

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test('sinew render --format apng: a batch writes the good model and names the bad ones (exit 1); two runs give the same bytes; frame 0 is the still at 0 s', async () => {
  requireSharedAssets();
  const batchDir = join(out, 'batch');
  (await import('node:fs')).mkdirSync(batchDir);
  const video = ['--clip', 'Run', '--fps', '10', '--duration', '0.5', ...SIZE];
  const [batch, single, still] = await Promise.all([
    sinew('render', FOX, join(SHARED_ASSETS, 'md5/invalid/InvalidBoneIndex.md5mesh'), join(SHARED_ASSETS, 'gltf/CesiumMan.glb'),
      '--format', 'apng', '--out-dir', batchDir, ...video),
    sinew('render', FOX, '-o', join(out, 'again.apng'), ...video),
    sinew('render', FOX, '--clip', 'Run', '--time', '0', '--background', 'transparent', ...SIZE, '-o', join(out, 'still.png')),
  ]);
  // The batch: progress per file, each failure named, a summary, exit 1; only the good file (no temporary one).
  expect(batch.code).toBe(1);
  expect(batch.stderr).toContain(`sinew: [1/3] Fox.glb → ${join(batchDir, 'Fox.apng')}\n`);
  expect(batch.stderr).toContain('sinew: Fox.glb: frame 5/5\n');
  expect(batch.stderr).toContain('sinew: InvalidBoneIndex.md5mesh:23: weight 0 names joint 999 of 1\n');
  expect(batch.stderr).toContain('sinew: CesiumMan.glb: no clip "Run" (clips: "animation 0")\n');
  expect(batch.stderr).toMatch(/sinew: 2 of 3 models could not be rendered \(see above\); the others were written\n$/);
  expect(readdirSync(batchDir)).toEqual(['Fox.apng']);
  expect(single).toEqual({ code: 0, stderr: expect.stringContaining('frame 5/5') });
  expect(still).toEqual({ code: 0, stderr: '' });

  // Determinism: frames are posed by time, so another run (another browser) writes the same file.
  const apng = readFileSync(join(batchDir, 'Fox.apng'));
  expect(readFileSync(join(out, 'again.apng')).equals(apng)).toBe(true);

  // 0.5 s at 10 fps: 5 frames of 160 × 120, animated (the Run moves the fox between frames).
  const decoded = frames(apng);
  expect({ width: decoded.width, height: decoded.height, count: decoded.frames.length }).toEqual({ width: 160, height: 120, count: 5 });
  expect(largestDifference(decoded.frames[0], decoded.frames[4])).toBeGreaterThan(64);
  // Frame 0 is the clip at 0 s: the still `sinew render --time 0` draws in another browser by another path
  // (renderOnce and a screenshot of the element; the element's frames have a transparent clear, the background
  // being CSS, hence --background transparent), so the video pipeline and its read-back alter no pixel. Only
  // frame 0 compares across pages: the element frames the model by its pose when it loads, so a page loaded at
  // --time 0.3 frames it a little differently. Frame k against toBlob after seek(k / fps) in one page is the
  // element's spec (tests/browser/element).
  const picture = frames(readFileSync(join(out, 'still.png')));
  const difference = largestPremultipliedDifference(decoded.frames[0], picture.frames[0]);
  console.log(`sinew render: APNG frame 0 vs the still at 0 s, largest premultiplied channel difference ${difference}`);
  expect(difference).toBeLessThanOrEqual(2);
  expect(largestPremultipliedDifference(decoded.frames[3], picture.frames[0])).toBeGreaterThan(16);
});

test('sinew render -o OUT.webm: decodes in Chromium with the asked duration and frame count; an unknown clip leaves no file', async ({ page }) => {
  requireSharedAssets();
  const file = join(out, 'fox.webm');
  const [made, unknown] = await Promise.all([
    sinew('render', FOX, '--clip', 'Walk', '--fps', '12', '--duration', '1.5', '--turntable', '90', ...SIZE, '-o', file),
    sinew('render', FOX, '--clip', 'Fly', '--fps', '12', ...SIZE, '-o', join(out, 'fly.webm')),
  ]);
  expect(made.code).toBe(0);
  expect(unknown).toEqual({ code: 1, stderr: 'sinew: Fox.glb: no clip "Fly" (clips: "Survey", "Walk", "Run")\n' });
  expect(readdirSync(out).filter((name) => name.startsWith('fly') || name.endsWith('.tmp'))).toEqual([]);

  const webm = readFileSync(file);
  // The container: 1.5 s at 12 fps is 18 frames, timestamps k/12 s.
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(webm) });
  const track = (await input.getPrimaryVideoTrack())!;
  expect(await track.getCodec()).toMatch(/^vp[89]$|^av1$/);
  const timestamps: number[] = [];
  for await (const packet of new EncodedPacketSink(track).packets()) timestamps.push(packet.timestamp);
  expect(timestamps.length).toBe(18);
  timestamps.forEach((t, k) => expect(t).toBeCloseTo(k / 12, 3));
  expect(await input.computeDuration()).toBeCloseTo(1.5, 2);

  // Chromium's own decoder: its duration, and the last frame drawn with the fox in it (not blank).
  const decoded = await page.evaluate(async (base64) => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = URL.createObjectURL(await (await fetch(`data:video/webm;base64,${base64}`)).blob());
    await new Promise((loaded, failed) => { video.onloadeddata = loaded; video.onerror = () => failed(new Error(`video error ${video.error?.code}`)); });
    video.currentTime = 1.45;
    await new Promise((seeked) => { video.onseeked = seeked; });
    const canvas = new OffscreenCanvas(video.videoWidth, video.videoHeight);
    const context = canvas.getContext('2d')!;
    context.drawImage(video, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const corner = [data[0], data[1], data[2]];
    let differing = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - corner[0]) + Math.abs(data[i + 1] - corner[1]) + Math.abs(data[i + 2] - corner[2]) > 48) differing++;
    return { width: video.videoWidth, height: video.videoHeight, duration: video.duration, differing: differing / (data.length / 4) };
  }, webm.toString('base64'));
  console.log(`sinew render: WebM in Chromium ${JSON.stringify(decoded)}`);
  expect(decoded).toMatchObject({ width: 160, height: 120 });
  expect(decoded.duration).toBeCloseTo(1.5, 1);
  expect(decoded.differing).toBeGreaterThan(0.02);
});
