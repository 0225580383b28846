// The examples gallery (docs/examples/, built into site/examples/ by build/docs/build-examples.ts through
// `npm run docs`): every page loads in headless Chromium with no page error and no console error and draws its
// character; the pages whose picture holds still match goldens; the index, the credits and the copy button work.
// The site is served by tests/browser/helpers/static-site-server.ts (playwright.config.ts, SINEW_SITE_PORT).
import { existsSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

interface Entry { page: string; title: string; description: string }

const SITE_INDEX = 'site/examples/index.html';
const manifest = JSON.parse(readFileSync('docs/examples/manifest.json', 'utf8')) as Entry[];
const examples = `http://127.0.0.1:${process.env.SINEW_SITE_PORT}/examples/`;

/** The pages whose picture holds still (no autoplay, a fixed time): the region matched against a golden. */
const GOLDEN: Readonly<Record<string, string>> = {
  'camera.html': 'sinew-viewer',
  'environment.html': '.row',
  'shadow.html': '.row',
  'dqs-vs-lbs.html': '.row',
  'many-elements.html': '#grid',
  'skeleton-weights.html': '.stage',
  'gpu-vs-cpu.html': '#stage',
};

/**
 * Whether the page's `<sinew-viewer>` has the avatar API (`setExpression`, `availableExpressions`, `avatarMeta`, the
 * `look-at` and `auto-blink` attributes). The VRM pages are written against it; where it is missing (a build
 * before the element's avatar surface), the checks that need it are skipped, saying so, after those that work
 * without it (the avatar loads, draws and plays its VRMA clip with no error).
 */
async function elementHasAvatarApi(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const element = customElements.get('sinew-viewer') as (CustomElementConstructor & { observedAttributes?: string[] }) | undefined;
    return !!element && 'setExpression' in element.prototype && 'availableExpressions' in element.prototype
      && 'avatarMeta' in element.prototype && (element.observedAttributes ?? []).includes('look-at');
  });
}


const AWAITING_AVATAR_API = "the element's avatar API (setExpression, availableExpressions, avatarMeta, look-at) is not in this build";

/** Keeps each `<sinew-viewer>`'s picture now (drawn first), for {@link changedPixels}. */
async function keepPictures(page: Page): Promise<void> {
  await page.evaluate(() => {
    const viewers = [...document.querySelectorAll('sinew-viewer')] as HTMLElementTagNameMap['sinew-viewer'][];
    (window as unknown as { kept: ImageData[] }).kept = viewers.map((viewer) => {
      viewer.renderOnce();
      const canvas = viewer.shadowRoot!.querySelector('canvas[part="canvas"]') as HTMLCanvasElement;
      return canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    });
  });
}

/** Per `<sinew-viewer>`, how many pixels of its picture (drawn now) differ by more than 30 over RGBA from the kept one. */
async function changedPixels(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const kept = (window as unknown as { kept: ImageData[] }).kept;
    const viewers = [...document.querySelectorAll('sinew-viewer')] as HTMLElementTagNameMap['sinew-viewer'][];
    return viewers.map((viewer, i) => {
      viewer.renderOnce();
      const canvas = viewer.shadowRoot!.querySelector('canvas[part="canvas"]') as HTMLCanvasElement;
      const now = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data, before = kept[i].data;
      if (now.length !== before.length) return -1;
      let count = 0;
      for (let p = 0; p < now.length; p += 4) {
        let d = 0;
        for (let c = 0; c < 4; c++) d += Math.abs(now[p + c] - before[p + c]);
        if (d > 30) count++;
      }
      return count;
    });
  });
}

/** What some pages say they do, checked after the page drew: the page's own promise, from the user's side. */
const CHECKS: Readonly<Record<string, (page: Page, errors: readonly string[]) => Promise<void>>> = {
  'gpu-vs-cpu.html': async (page) => {
    await expect(page.locator('#result')).toContainText('equal to float32 rounding', { timeout: 60_000 });
  },
  'animation-graph.html': async (page) => {
    // The inline graph plays Swim; the Wave button's trigger takes it to Wave, which returns to Swim at its end.
    await expect(page.locator('#state')).toHaveText('Swim', { timeout: 60_000 });
    await expect(page.locator('#log')).toContainText('graph: parameters effort, wave');
    await page.getByRole('button', { name: 'Wave' }).click();
    await expect(page.locator('#state')).toHaveText('Wave');
    await expect(page.locator('#log')).toContainText('transition-start: Swim → Wave');
    expect(await page.locator('sinew-viewer').evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.getParameter('wave'))).toBe(false);
    await expect(page.locator('#state')).toHaveText('Swim', { timeout: 60_000 });
    await expect(page.locator('#log')).toContainText('transition-end: Wave → Swim');
  },
  'optimized-clips.html': async (page) => {
    // Both sizes shown, the optimized file the smaller.
    const sizes = page.locator('[data-size]');
    await expect(sizes.nth(1)).toContainText('bytes', { timeout: 30_000 });
    const [original, optimized] = (await sizes.allTextContents()).map((text) => Number(/\((\d+) bytes\)/.exec(text)![1]));
    expect(optimized).toBeLessThan(original);
  },
  'snapshot.html': async (page) => {
    await page.getByRole('button', { name: 'Take a snapshot' }).click();
    await expect.poll(() => page.locator('#picture').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  },
  'record-video.html': async (page) => {
    // An animated PNG of the octopus's wave (no WebCodecs needed): shown at the element's size, the progress full.
    await page.locator('#format').selectOption('image/apng');
    await page.getByRole('button', { name: 'Record' }).click();
    await expect(page.locator('#status')).toContainText('image/apng', { timeout: 120_000 });
    await expect.poll(() => page.locator('#result img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    const progress = await page.locator('#progress').evaluate((p: HTMLProgressElement) => ({ value: p.value, max: p.max }));
    expect(progress.max).toBeGreaterThan(1);
    expect(progress.value).toBe(progress.max);
    await expect(page.locator('#download')).toHaveAttribute('download', 'octopus-wave.png');
  },
  'picking.html': async (page) => {
    const box = (await page.locator('sinew-viewer').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.locator('#hit')).toContainText(/joint (head|tentacle\d_\d)/);
  },
  'vrm-avatar-vrma.html': async (page, errors) => {
    // The VRMA's walk joins the avatar's clips, every one of its 55 humanoid bones matched, and plays.
    await expect(page.locator('#clips')).toHaveText(/^walk\.vrma: (.*\b)?walk\b.* \(55 joints matched by humanoid bone\)$/, { timeout: 60_000 });
    const viewer = page.locator('sinew-viewer');
    await expect.poll(() => viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.clips.length)).toBe(1);
    await viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => { v.pause(); v.currentTime = 0.3; });
    await keepPictures(page);
    await viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => { v.currentTime = 0.9; });
    expect((await changedPixels(page))[0], 'the walk moves the avatar between 0.3 s and 0.9 s').toBeGreaterThan(500);
    expect(errors).toEqual([]);
    test.skip(!(await elementHasAvatarApi(page)), AWAITING_AVATAR_API);
    // The licence, before the avatar: the generated avatar's VRM Public License 1.0 and CC0.
    await expect(page.locator('#licence')).toContainText('"Sinew generated avatar" by Sinew. Licence: https://vrm.dev/licenses/1.0/ (and https://creativecommons.org/publicdomain/zero/1.0/)');
    await expect(page.locator('#licence')).toContainText('Commercial use: corporation; credit: unnecessary; redistribution: allowed.');
  },
  'baked-clips.html': async (page, errors) => {
    // The baked file's own clips: the four locomotion clips, no animations attribute; Walk plays and moves the avatar.
    await expect(page.locator('#clips button')).toHaveText(['Idle', 'Walk', 'Run', 'Jump'], { timeout: 60_000 });
    const viewer = page.locator('sinew-viewer');
    expect(await viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.getAttribute('animations'))).toBeNull();
    await viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => { v.pause(); v.currentTime = 0.2; });
    await keepPictures(page);
    await viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => { v.currentTime = 0.6; });
    expect((await changedPixels(page))[0], 'the baked walk moves the avatar between 0.2 s and 0.6 s').toBeGreaterThan(500);
    expect(errors).toEqual([]);
  },
  'drive.html': async (page) => {
    // The keys drive the graph: W raises the speed into Locomotion's walk and run and the character travels along
    // its heading; A turns it; Space jumps once and lands back in Locomotion.
    const readout = page.locator('#readout');
    const data = async () => readout.evaluate((e: HTMLElement) => ({ ...e.dataset }));
    await expect(readout).toHaveAttribute('data-state', 'Locomotion', { timeout: 60_000 });
    await page.locator('canvas#gl').focus();
    await page.keyboard.down('KeyW');
    await expect.poll(async () => Number((await data()).speed), { timeout: 60_000 }).toBeGreaterThan(1);
    await page.keyboard.up('KeyW');
    await expect.poll(async () => Number((await data()).z), { timeout: 60_000 }).toBeGreaterThan(0.5);
    expect(Math.abs(Number((await data()).x))).toBeLessThan(0.05);
    await page.keyboard.down('KeyA');
    await expect.poll(async () => Number((await data()).yaw), { timeout: 60_000 }).toBeGreaterThan(0.3);
    await page.keyboard.up('KeyA');
    await page.keyboard.press('Space');
    await expect(readout).toHaveAttribute('data-state', 'Jump', { timeout: 60_000 });
    await expect(readout).toHaveAttribute('data-state', 'Locomotion', { timeout: 60_000 });
  },
  'vrm-expressions.html': async (page) => {
    test.skip(!(await elementHasAvatarApi(page)), AWAITING_AVATAR_API);
    // One slider per expression of the generated avatar: the 17 presets it has and the custom cheekPuff.
    await expect(page.locator('#sliders input')).toHaveCount(18);
    await expect(page.locator('#sliders label').first()).toHaveText('happy');
    await expect(page.locator('#sliders label').last()).toHaveText('cheekPuff');
    await keepPictures(page);
    await page.locator('#expression-aa').fill('1');
    await expect(page.locator('#expression-aa + output')).toHaveText('1.00');
    expect(await page.locator('sinew-viewer').evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.getExpression('aa'))).toBe(1);
    expect((await changedPixels(page))[0], 'aa at 1 opens the mouth').toBeGreaterThan(20);
    // "All to 0" sets every expression back, through setExpression: the picture is the one kept.
    await page.getByRole('button', { name: 'All to 0' }).click();
    expect(await page.locator('sinew-viewer').evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.getExpression('aa'))).toBe(0);
    expect((await changedPixels(page))[0]).toBe(0);
    await page.getByLabel('auto-blink').check();
    await expect(page.locator('sinew-viewer')).toHaveAttribute('auto-blink', '');
  },
  'vrm-spring-bones.html': async (page, errors) => {
    const viewer = page.locator('sinew-viewer');
    await expect(viewer).toHaveAttribute('show-colliders', '');
    // The wind from 90° (the avatar's left, +X) at 4 m/s² blows towards −X.
    await page.locator('#strength').fill('4');
    await expect(viewer).toHaveAttribute('wind', '-4 0 0');
    await expect(page.locator('#wind-attribute')).toHaveText('wind="-4 0 0"');
    await page.locator('#gravity').fill('2');
    await expect(viewer).toHaveAttribute('gravity', '0 -2 0');
    await page.getByLabel('spring bones').uncheck();
    await expect(viewer).toHaveAttribute('spring-bones', 'off');
    await page.getByLabel('show colliders').uncheck();
    await expect(viewer).not.toHaveAttribute('show-colliders');
    await page.getByRole('button', { name: 'Reset spring bones' }).click();
    expect(errors).toEqual([]);
  },
  'vrm-mtoon.html': async (page, errors) => {
    const viewer = page.locator('sinew-viewer');
    await page.getByLabel('playing').uncheck();
    await expect.poll(() => viewer.evaluate((v: HTMLElementTagNameMap['sinew-viewer']) => v.paused)).toBe(true);
    await keepPictures(page);
    // Another environment is another key light and ambient: the legacy room is brighter than the studio.
    await page.locator('#environment').selectOption('legacy');
    await expect(viewer).toHaveAttribute('environment-image', 'legacy');
    await expect.poll(async () => (await changedPixels(page))[0], { timeout: 30_000 }).toBeGreaterThan(2000);
    await keepPictures(page);
    // angry's material colour binds turn the skin's shade and rim colours.
    await page.locator('#expression').fill('1');
    await expect(page.locator('#expression-value')).toHaveText('1.00');
    expect((await changedPixels(page))[0], 'angry at 1 recolours the skin').toBeGreaterThan(500);
    expect(errors).toEqual([]);
  },
  'vrm-look-at.html': async (page, errors) => {
    expect(errors).toEqual([]);
    test.skip(!(await elementHasAvatarApi(page)), AWAITING_AVATAR_API);
    // The pointer across each avatar, from its left edge to its right (over the element: the cursor counts there
    // whether the element follows it over the page or over itself): its eyes follow, by bones, then by expressions.
    const boxes = [(await page.locator('sinew-viewer').first().boundingBox())!, (await page.locator('sinew-viewer').last().boundingBox())!];
    for (const [i, kind] of ['bone look-at turns the eyes', 'expression look-at weights lookLeft and lookRight'].entries()) {
      const box = boxes[i], y = box.y + box.height / 3;
      await page.mouse.move(box.x + 2, y);
      await keepPictures(page);
      await page.mouse.move(box.x + box.width - 2, y);
      expect((await changedPixels(page))[i], kind).toBeGreaterThan(10);
    }
    // look-at="none": the eyes hold still wherever the pointer goes.
    await page.locator('#target').selectOption('none');
    await keepPictures(page);
    await page.mouse.move(boxes[0].x + 2, boxes[0].y + boxes[0].height / 3);
    expect(await changedPixels(page)).toEqual([0, 0]);
  },
};

test.use({ viewport: { width: 1280, height: 800 } });

test.beforeAll(() => {
  if (!existsSync(SITE_INDEX)) throw new Error(`${SITE_INDEX} is missing: run \`npm run docs\` to build the site first`);
});

/** Fails the test on any page error or console error (a 404 is one too). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()} (${message.location().url})`);
  });
  return errors;
}

/** The fraction of the pixels of RGBA `data` that differ from its first pixel by more than 30 over R + G + B + A. */
function differing(data: Uint8ClampedArray): number {
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) + Math.abs(data[i + 3] - data[3]) > 30) count++;
  }
  return (4 * count) / Math.max(4, data.length);
}

/**
 * How much of each drawing of the page differs from its background (its top-left pixel; see {@link differing}).
 * A `<sinew-viewer>` is read in the page from its canvas (part `canvas` of its shadow root: the pixels it shows,
 * transparent where the model is not), which is fast; a WebGL canvas of the pages that draw with the API
 * (`canvas#stage`, `canvas#gl`) keeps no pixels once shown, so it is read from a screenshot.
 */
async function coverages(page: Page): Promise<number[]> {
  const viewers = await page.evaluate((measure) => {
    const differing = new Function(`return ${measure}`)() as (data: Uint8ClampedArray) => number;
    return [...document.querySelectorAll('sinew-viewer')].map((viewer) => {
      const canvas = viewer.shadowRoot!.querySelector('canvas[part="canvas"]') as HTMLCanvasElement;
      if (!(canvas.width > 0 && canvas.height > 0)) return 0;
      return differing(canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data);
    });
  }, differing.toString());
  const canvases = page.locator('canvas#stage, canvas#gl');
  const shots: number[] = [];
  for (let i = 0; i < await canvases.count(); i++) {
    const png = (await canvases.nth(i).screenshot({ animations: 'allow' })).toString('base64');
    shots.push(await page.evaluate(async ({ base64, measure }) => {
      const differing = new Function(`return ${measure}`)() as (data: Uint8ClampedArray) => number;
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      return differing(context.getImageData(0, 0, bitmap.width, bitmap.height).data);
    }, { base64: png, measure: differing.toString() }));
  }
  return [...viewers, ...shots];
}

/** Opens a page and waits until every `<sinew-viewer>` shows its model; then draws each once more, now. */
async function open(page: Page, file: string): Promise<void> {
  await page.goto(examples + file);
  await page.waitForFunction(() => {
    const viewers = [...document.querySelectorAll('sinew-viewer')] as HTMLElementTagNameMap['sinew-viewer'][];
    return viewers.every((viewer) => viewer.loaded);
  }, undefined, { timeout: 60_000 });
  // requestAnimationFrame is throttled in a headless page: draw the elements' frames on demand.
  await page.evaluate(() => document.querySelectorAll('sinew-viewer').forEach((viewer) => viewer.renderOnce()));
}

for (const { page: file } of manifest) {
  test(`${file} loads without an error and draws its character`, async ({ page }) => {
    const errors = watchErrors(page);
    await open(page, file);
    // Every drawing covers more than 1 % of its canvas (the least of them is checked).
    await expect.poll(async () => {
      const covered = await coverages(page);
      return covered.length ? Math.min(...covered) : -1;
    }, { message: `${file}: a drawing stays empty (-1: no <sinew-viewer> and no canvas#stage / canvas#gl to check)` }).toBeGreaterThan(0.01);
    if (GOLDEN[file]) {
      await page.evaluate(() => document.querySelectorAll('sinew-viewer').forEach((viewer) => viewer.renderOnce()));
      await expect(page.locator(GOLDEN[file]).first()).toHaveScreenshot(file.replace('.html', '.png'));
    }
    await CHECKS[file]?.(page, errors);
    expect(errors).toEqual([]);
  });
}

test('the index lists every page with its title and description, and the credits name each model copied', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(examples);
  const items = page.locator('li');
  await expect(items).toHaveCount(manifest.length);
  for (const [i, entry] of manifest.entries()) {
    await expect(items.nth(i)).toHaveText(`${entry.title}: ${entry.description}`);
    await expect(items.nth(i).locator('a')).toHaveAttribute('href', `./${entry.page}`);
  }
  await page.goto(examples + 'credits.html');
  const copied = JSON.parse(readFileSync('site/assets/models.json', 'utf8')) as string[];
  for (const model of copied) await expect(page.locator('tr', { hasText: model })).toContainText('CC');
  expect(errors).toEqual([]);
});

test('the copy button copies the page exactly as it is written in docs/examples/', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(examples + 'attachments.html');
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(readFileSync('docs/examples/attachments.html', 'utf8'));
});
