import { mkdirSync, writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import UPNG from 'upng-js';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';

// <sinew-viewer>'s toVideo({ clip, fps, duration, mimeType, turntable, onProgress }): frames posed by time, read as
// toBlob reads the canvas, encoded as APNG (upng-js), GIF (gifenc), WebM and MP4 (WebCodecs + mediabunny). The files
// are checked with decoders independent of the encoders: upng-js's decoder and Chromium's PNG encoder (toBlob) for
// APNG, mediabunny's demuxer in node and Chromium's <video> for WebM and MP4, Chromium's ImageDecoder for GIF.

const PAGE = '/tests/browser/pages/empty-page.html';
/** A small box, so SwiftShader draws and the encoders encode quickly: 160 × 120 pixels at devicePixelRatio 1. */
const WIDTH = 160;
const HEIGHT = 120;

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
});

/** Adds a Fox playing Walk and waits until it is shown. */
async function addFox(page: Page): Promise<void> {
  await page.goto(PAGE);
  await page.evaluate(({ width, height }) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'fox';
    el.setAttribute('src', '/shared/assets/gltf/Fox.glb');
    el.setAttribute('animation-name', 'Walk');
    el.setAttribute('autoplay', '');
    el.style.width = `${width}px`;
    el.style.height = `${height}px`;
    document.body.append(el);
  }, { width: WIDTH, height: HEIGHT });
  await page.waitForFunction(() => (document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer']).loaded, undefined, { timeout: 120_000 });
}

/** `toVideo(options)` of the Fox, its bytes (base64) and type, with the progress calls it made. */
async function record(page: Page, options: Record<string, unknown>): Promise<{ bytes: Buffer; type: string; progress: number[][] }> {
  const result = await page.evaluate(async (options) => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    const progress: number[][] = [];
    const blob = await el.toVideo({ ...options, onProgress: (done, count) => progress.push([done, count]) });
    const url = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsDataURL(blob);
    });
    return { base64: url.slice(url.indexOf(',') + 1), type: blob.type, progress };
  }, options);
  return { bytes: Buffer.from(result.base64, 'base64'), type: result.type, progress: result.progress };
}

/** The element's `toBlob()` (PNG) after `seek(seconds)` and `renderOnce()` while paused, decoded to RGBA. */
async function stillAt(page: Page, seconds: number): Promise<Uint8Array> {
  const base64 = await page.evaluate(async (seconds) => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    el.pause();
    el.seek(seconds);
    el.renderOnce();
    const blob = await el.toBlob();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  }, seconds);
  const image = UPNG.decode(arrayBufferOf(Buffer.from(base64, 'base64')));
  return new Uint8Array(UPNG.toRGBA8(image)[0]);
}

/** The bytes of `buffer` as an ArrayBuffer of their own. */
function arrayBufferOf(buffer: Buffer): ArrayBuffer {
  return new Uint8Array(buffer).buffer;
}

/** The fcTL chunks' delays of an APNG, as [numerator, denominator]. */
function frameDelays(png: Buffer): number[][] {
  const delays: number[][] = [];
  for (let offset = 8; offset + 12 <= png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'fcTL') delays.push([png.readUInt16BE(offset + 28), png.readUInt16BE(offset + 30)]);
    offset += 12 + length;
  }
  return delays;
}

test('APNG: two calls give the same bytes; frame k is toBlob at k / fps; 1 / fps delays; playback is put back', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await addFox(page);
  const before = await page.evaluate(() => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    return { paused: el.paused, animationName: el.animationName };
  });
  expect(before).toEqual({ paused: false, animationName: 'Walk' });

  const options = { mimeType: 'image/apng', clip: 'Run', fps: 10, duration: 0.5 };
  const first = await record(page, options);
  // Let the element play on between the calls: the frames depend on time k / fps only, not on the clock.
  await page.waitForTimeout(300);
  const second = await record(page, options);
  expect(first.type).toBe('image/apng');
  expect(first.progress).toEqual([[1, 5], [2, 5], [3, 5], [4, 5], [5, 5]]);
  expect(first.bytes.equals(second.bytes)).toBe(true);

  // Playing Walk again, its clock moving.
  const after = await page.evaluate(async () => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    const t0 = el.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { paused: el.paused, animationName: el.animationName, moved: el.currentTime !== t0 };
  });
  expect(after).toEqual({ paused: false, animationName: 'Walk', moved: true });

  const apng = UPNG.decode(arrayBufferOf(first.bytes));
  expect({ width: apng.width, height: apng.height, frames: apng.tabs.acTL?.num_frames }).toEqual({ width: WIDTH, height: HEIGHT, frames: 5 });
  expect(frameDelays(first.bytes)).toEqual(Array.from({ length: 5 }, () => [1, 10]));
  const frames = UPNG.toRGBA8(apng).map((buffer) => new Uint8Array(buffer));

  await page.evaluate(() => (document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer']).animationName = 'Run');
  let drawnBefore = -1;
  for (const k of [0, 2, 4]) {
    const still = await stillAt(page, k / 10);
    let differing = 0;
    let drawn = 0;
    for (let i = 0; i < still.length; i++) if (still[i] !== frames[k][i]) differing++;
    for (let i = 3; i < still.length; i += 4) if (still[i] > 0) drawn++;
    expect(differing, `frame ${k}: bytes differing from toBlob at ${k / 10} s`).toBe(0);
    expect(drawn, `frame ${k} shows the Fox`).toBeGreaterThan(500);
    // The frames differ from each other: the clip moves.
    expect(drawn).not.toBe(drawnBefore);
    drawnBefore = drawn;
  }
  expect(errors).toEqual([]);
});

test('WebM and MP4 decode with the asked frame count, timestamps k / fps and duration; GIF has its frames', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await addFox(page);

  for (const mimeType of ['video/webm', 'video/mp4'] as const) {
    const video = await record(page, { mimeType, fps: 20, duration: 1, turntable: 90 });
    expect(video.type).toBe(mimeType);
    expect(video.progress.length).toBe(20);
    // Demuxed in node: one packet per frame at k / fps.
    const input = new Input({ source: new BufferSource(video.bytes), formats: ALL_FORMATS });
    const track = await input.getPrimaryVideoTrack();
    expect(track).not.toBeNull();
    expect({ width: track!.displayWidth, height: track!.displayHeight }).toEqual({ width: WIDTH, height: HEIGHT });
    const timestamps: number[] = [];
    for await (const packet of new EncodedPacketSink(track!).packets()) timestamps.push(packet.timestamp);
    timestamps.sort((a, b) => a - b);
    expect(timestamps.length, `${mimeType}: frames`).toBe(20);
    timestamps.forEach((t, k) => expect(t, `${mimeType}: frame ${k}'s timestamp`).toBeCloseTo(k / 20, 3));
    expect(await input.computeDuration()).toBeCloseTo(1, 3);
    mkdirSync('test-results', { recursive: true });
    writeFileSync(`test-results/element-video.${mimeType.slice(6)}`, video.bytes);
    // Which codec the browser gave each container (the guide names the order tried).
    console.log(`${mimeType}: codec ${track!.codec}, ${video.bytes.length} bytes`);

    // Decoded by Chromium's <video>: its size, its duration, and frames that show the Fox.
    const decoded = await page.evaluate(async ({ base64, mimeType }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const element = document.createElement('video');
      element.muted = true;
      document.body.append(element);
      element.src = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
      await new Promise((resolve, reject) => {
        element.onloadeddata = resolve;
        element.onerror = () => reject(new Error(`<video> could not decode ${mimeType}: ${element.error?.message}`));
      });
      // Frames at 0 s and 0.5 s drawn into a canvas (the <video> in the document, so Chromium shows it a frame).
      const lits: number[] = [], corners: number[][] = [];
      for (const t of [0, 0.5]) {
        element.currentTime = t;
        await new Promise((resolve) => (element.onseeked = resolve));
        const canvas = document.createElement('canvas');
        canvas.width = element.videoWidth;
        canvas.height = element.videoHeight;
        const context = canvas.getContext('2d', { willReadFrequently: true })!;
        context.drawImage(element, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        corners.push([pixels[0], pixels[1], pixels[2]]);
        // The Fox: pixels far from the element's background (#212429), which the video paints under its frames.
        let lit = 0;
        for (let i = 0; i < pixels.length; i += 4) if (Math.abs(pixels[i] - 0x21) + Math.abs(pixels[i + 1] - 0x24) + Math.abs(pixels[i + 2] - 0x29) > 60) lit++;
        lits.push(lit);
      }
      element.remove();
      URL.revokeObjectURL(element.src);
      const lit = Math.min(...lits);
      return { width: element.videoWidth, height: element.videoHeight, duration: element.duration, lit, corners };
    }, { base64: video.bytes.toString('base64'), mimeType });
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: WIDTH, height: HEIGHT });
    expect(decoded.duration).toBeCloseTo(1, 2);
    expect(decoded.lit, `${mimeType}: the frames show the Fox`).toBeGreaterThan(300);
    // No alpha in a video: the element's CSS background (#212429 = 33, 36, 41) is painted under each frame, not black.
    for (const corner of decoded.corners) for (const [c, expected] of corner.map((v, i) => [v, [33, 36, 41][i]])) expect(Math.abs(c - expected), `${mimeType}: corner ${corner}`).toBeLessThanOrEqual(10);
  }

  const gif = await record(page, { mimeType: 'image/gif', fps: 10, duration: 0.6 });
  expect(gif.type).toBe('image/gif');
  expect(gif.bytes.toString('latin1', 0, 6)).toBe('GIF89a');
  const gifInfo = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const decoder = new ImageDecoder({ data: bytes, type: 'image/gif' });
    await decoder.tracks.ready;
    await decoder.completed;
    const last = await decoder.decode({ frameIndex: decoder.tracks.selectedTrack!.frameCount - 1 });
    const result = { frames: decoder.tracks.selectedTrack!.frameCount, width: last.image.displayWidth, height: last.image.displayHeight, duration: last.image.duration };
    last.image.close();
    return result;
  }, gif.bytes.toString('base64'));
  // 10 fps: 10 cs per frame (the duration in microseconds).
  expect(gifInfo).toEqual({ frames: 6, width: WIDTH, height: HEIGHT, duration: 100_000 });

  // turntable: the rest pose from four sides (0°, 90°, 180°, 270° of yaw): the pictures differ, the camera is put back.
  const orbit = () => page.evaluate(() => (document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer']).getCameraOrbit().theta);
  const theta = await orbit();
  const turn = await record(page, { mimeType: 'image/apng', clip: 'rest', duration: 4, fps: 1, turntable: 360 });
  expect(await orbit()).toBe(theta);
  const sides = UPNG.toRGBA8(UPNG.decode(arrayBufferOf(turn.bytes))).map((buffer) => new Uint8Array(buffer));
  expect(sides.length).toBe(4);
  const differing = (a: Uint8Array, b: Uint8Array): number => {
    let count = 0;
    for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i + 3] - b[i + 3]) > 128) count++;
    return count;
  };
  // A quarter turn apart, the Fox's silhouette covers other pixels.
  expect(differing(sides[0], sides[1])).toBeGreaterThan(300);
  expect(differing(sides[1], sides[2])).toBeGreaterThan(300);
  expect(errors).toEqual([]);
});

test('bad options reject with what is allowed; a second call while one runs rejects; the element plays on', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await addFox(page);
  const messages = await page.evaluate(async () => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    const message = (options: unknown): Promise<string> =>
      el.toVideo(options as never).then(() => 'resolved', (e: Error) => `${e.name}: ${e.message}`);
    const running = el.toVideo({ mimeType: 'image/apng', fps: 5, duration: 0.4 });
    const concurrent = await message({ mimeType: 'image/apng' });
    await running;
    const detached = await document.createElement('sinew-viewer').toVideo().then(() => 'resolved', (e: Error) => e.message);
    return {
      concurrent,
      detached,
      mimeType: await message({ mimeType: 'video/avi' }),
      clip: await message({ clip: 'Runn' }),
      fpsZero: await message({ fps: 0 }),
      fpsNaN: await message({ fps: Number.NaN }),
      gifFps: await message({ mimeType: 'image/gif', fps: 60 }),
      duration: await message({ duration: -1 }),
      tooMany: await message({ fps: 240, duration: 60 }),
      rest: await message({ clip: 'rest' }),
      paused: el.paused,
      animationName: el.animationName,
    };
  });
  expect(messages.concurrent).toMatch(/already running/);
  expect(messages.detached).toMatch(/no model is shown/);
  expect(messages.mimeType).toBe('TypeError: toVideo: unsupported mimeType "video/avi"; use one of video/webm, video/mp4, image/apng, image/gif');
  expect(messages.clip).toMatch(/^Error: toVideo: Fox.glb has no clip "Runn"; did you mean "Run"\? clips: "Survey", "Walk", "Run"$/);
  expect(messages.fpsZero).toBe('RangeError: toVideo: fps must be a number in (0, 240], got 0');
  expect(messages.fpsNaN).toBe('RangeError: toVideo: fps must be a number in (0, 240], got NaN');
  expect(messages.gifFps).toMatch(/fps must be a number in \(0, 50\] for image\/gif/);
  expect(messages.duration).toBe('RangeError: toVideo: duration must be a positive number of seconds, got -1');
  expect(messages.tooMany).toMatch(/is 14400 frames; at most 3600/);
  expect(messages.rest).toMatch(/the rest pose has no duration; give options\.duration/);
  expect({ paused: messages.paused, animationName: messages.animationName }).toEqual({ paused: false, animationName: 'Walk' });
  expect(errors).toEqual([]);
});
