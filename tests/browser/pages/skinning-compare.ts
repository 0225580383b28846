// LBS and DQS side by side on the built-in twist cylinder (src/procedural/twist-cylinder.ts): one renderer,
// one uploaded model, drawn twice per frame with another skinning method each (no rebuild, no re-upload).
// Under `npm run dev`: /tests/browser/pages/skinning-compare.html?time=1&weights=normalize&palette=auto
// (time in seconds of the `twist` clip: 170° at 1 s). window.sinewCompare.render(time) draws a frame and
// measures the cylinder's width at the twisting joint in each half, for tests/browser/gpu/skinning/skinning-compare.spec.ts.
import { mat4 } from 'gl-matrix';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { createTwistCylinder } from '../../../src/procedural/twist-cylinder.ts';
import { parsePaletteSetting, parseWeightsSetting } from '../../../src/view/settings.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const query = new URLSearchParams(location.search);
const palette = parsePaletteSetting(query.get('palette')).value;
const weights = parseWeightsSetting(query.get('weights')).value;
const renderer = new SkinnedRenderer(gl);
const asset = createTwistCylinder();
const animated = new AnimatedModel(asset);
const gpu = await renderer.upload(asset);
const lbs: SkinningMethod = { skinning: 'lbs', weights }, dqs: SkinningMethod = { skinning: 'dqs', weights };
// The cylinder (y ∈ [0, 2]) seen from the front; the twisting joint (y = 1) is at the middle row.
const eye = new Float32Array([0, 1, 3.2]);
const camera = {
  view: mat4.lookAt(new Float32Array(16), eye, [0, 1, 0], [0, 1, 0]) as Float32Array,
  projection: mat4.perspective(new Float32Array(16), (40 * Math.PI) / 180, canvas.width / canvas.height, 0.1, 20) as Float32Array,
  eye,
};
const left = mat4.fromTranslation(new Float32Array(16), [-1.03, 0, 0]) as Float32Array;
const right = mat4.fromTranslation(new Float32Array(16), [1.03, 0, 0]) as Float32Array;
const leftItem = { ...createRenderItem(gpu, animated, left), paletteRequest: palette, method: lbs };
const rightItem = { ...createRenderItem(gpu, animated, right), paletteRequest: palette, method: dqs };
const pixels = new Uint8Array(4 * canvas.width);

/** Covered pixels of the middle row in [x0, x1): the silhouette's width there. */
function widthAt(x0: number, x1: number): number {
  let count = 0;
  for (let x = x0; x < x1; x++) if (pixels[4 * x] + pixels[4 * x + 1] + pixels[4 * x + 2] > 3 * 40) count++;
  return count;
}

function render(time: number): { lbsWidth: number; dqsWidth: number; restWidth: number } {
  const measure = (t: number) => {
    animated.evaluate(animated.clipSample(0).at(t));
    renderer.beginFrame(canvas.width, canvas.height, [0.12, 0.12, 0.13, 1]);
    renderer.draw(leftItem, camera);
    renderer.draw(rightItem, camera);
    gl.readPixels(0, canvas.height >> 1, canvas.width, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return [widthAt(0, canvas.width >> 1), widthAt(canvas.width >> 1, canvas.width)];
  };
  const [restWidth] = measure(0);
  const [lbsWidth, dqsWidth] = measure(time);
  document.getElementById('note')!.textContent =
    `twist clip at ${time.toFixed(2)} s, weights ${weights}, palette ${renderer.palettePathFor(asset, palette)}: ` +
    `width at the joint ${lbsWidth} px (LBS), ${dqsWidth} px (DQS), ${restWidth} px at rest`;
  return { lbsWidth, dqsWidth, restWidth };
}

render(Number(query.get('time') ?? 1));
(window as unknown as { sinewCompare: { render: typeof render } }).sinewCompare = { render };
(window as unknown as { sinewCompareReady: boolean }).sinewCompareReady = true;
