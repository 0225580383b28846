// Harness for tests/browser/view/attachments.spec.ts: a ModelView showing the octopus (clip `wave`) with a small unlit
// green cube attached to a tentacle tip (view.attachments), read back by pixels in the task that drew the frame.
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createSwordAsset } from '../../../src/procedural/sword.ts';
import { ModelView } from '../../../src/view/model-view.ts';
import type { Attachment } from '../../../src/view/view-attachments.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { withRigidProp } from '../helpers/rigid-prop.ts';

/** What one frame drew: the green pixels' centroid and count, and where the CPU puts the cube's centre. */
export interface PropFrame {
  time: number;
  /** Centroid of the prop's pixels, drawing-buffer pixels from the bottom-left; null when none. */
  drawn: [number, number] | null;
  pixels: number;
  /** `jointMatrix · offset · (0, 0, 0)` projected with the frame's camera, same pixel frame. */
  expected: [number, number];
  /** Pixels of orange octopus skin (to tell the character is drawn too). */
  character: number;
}

export const JOINT = 'tentacle2_5';
/** The cube's offset from the joint: 15 cm along the joint's z axis (clear of the tentacle), column-major. */
export const OFFSET = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0.15, 1];

/** A 5 cm cube, unlit pure green (KHR_materials_unlit): a colour nothing else on the page has. */
function greenCube(): ModelAsset {
  const base: ModelAsset = {
    name: 'green-cube', skeleton: { jointCount: 1, names: ['cube'], parents: Int32Array.of(-1), sourceIndices: Int32Array.of(0) },
    restPose: createLocalPose(1),
    meshes: [], skins: [], meshInstances: [],
    materials: [{ name: 'green', baseColorFactor: [0, 1, 0, 1], baseColorTexture: -1, doubleSided: false, unlit: true }],
    images: [], clips: [], upAxis: 'y', warnings: [],
  };
  return { ...withRigidProp(base, 0, 0.05, [0, 0, 0]), name: "green-cube" };
}

const canvas = document.getElementById('view') as HTMLCanvasElement;
const view = new ModelView(canvas, { method: { skinning: 'lbs', weights: 'normalize' } });
const warnings: string[] = [];
view.attachments.onWarning = (message) => warnings.push(message);
let cube: Attachment | null = null;
const matrix = new Float64Array(16);

/** Draws the frame at `time` in this task (nothing drawn at that time before) and reads it. */
function frameAt(time: number): PropFrame {
  view.seek(time);
  const result = view.drawAndRead((gl, width, height) => {
    const pixels = new Uint8Array(4 * width * height);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    let sx = 0, sy = 0, n = 0, character = 0;
    for (let i = 0; i < width * height; i++) {
      const r = pixels[4 * i], g = pixels[4 * i + 1], b = pixels[4 * i + 2];
      if (g > 200 && r < 60 && b < 60) { sx += (i % width) + 0.5; sy += Math.floor(i / width) + 0.5; n++; }
      else if (r > 90 && r > 2 * g && r > 2 * b) character++;
    }
    return { drawn: n > 0 ? [sx / n, sy / n] as [number, number] : null, pixels: n, character, width, height };
  });
  if (!result) throw new Error('nothing drawn');
  // The CPU expectation from the pose that frame drew.
  const animated = view.animated!;
  animated.jointMatrix(cube!.joint, matrix);
  const o = cube!.offset;
  const c = [0, 1, 2].map((r) => matrix[r] * o[12] + matrix[4 + r] * o[13] + matrix[8 + r] * o[14] + matrix[12 + r]);
  const camera = view.inspect((frame) => frame.camera)!;
  const clip = [0, 1, 2, 3].map((r) => {
    const v = [0, 1, 2, 3].map((k) => camera.view[k] * c[0] + camera.view[4 + k] * c[1] + camera.view[8 + k] * c[2] + camera.view[12 + k]);
    return camera.projection[r] * v[0] + camera.projection[4 + r] * v[1] + camera.projection[8 + r] * v[2] + camera.projection[12 + r] * v[3];
  });
  const expected: [number, number] = [((clip[0] / clip[3] + 1) / 2) * result.width, ((clip[1] / clip[3] + 1) / 2) * result.height];
  return { time, drawn: result.drawn, pixels: result.pixels, expected, character: result.character };
}

(window as unknown as Record<string, unknown>).sinewAttach = {
  async setup(clip = 'wave', joint = JOINT, offset = OFFSET, camera = { yaw: 30, pitch: 20, distance: 1 }): Promise<void> {
    await view.load(createOctopusAsset(), { clip, time: 0, playing: false });
    view.setCamera(camera);
    cube = await view.attachments.attach(greenCube(), joint, offset);
  },
  frames: (times: number[]): PropFrame[] => { view.pause(); return times.map(frameAt); },
  /** Loses the context, restores it, and resolves once the view has drawn again with the prop restored. */
  async loseAndRestore(): Promise<PropFrame> {
    const ext = view.gl!.getExtension('WEBGL_lose_context')!;
    const lost = new Promise((resolve) => canvas.addEventListener('webglcontextlost', resolve, { once: true }));
    ext.loseContext();
    await lost;
    // Leave the event dispatch first: Chrome reads defaultPrevented (restore allowed) after the listeners.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    ext.restoreContext();
    await restored;
    // Up to 30 s for the device to report every resource restored (images are decoded again).
    for (let i = 0; i < 1500 && !(cube!.gpu && !view.inspect((f) => f.renderer.contextLost)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view.renderOnce();
    }
    return frameAt(0.3);
  },
  /** Attaches the built-in sword to the joint (name) too; its joint index. */
  async attachSword(joint: string): Promise<number> {
    return (await view.attachments.attach(createSwordAsset(), joint)).joint;
  },
  /** Shows `model` instead ('worm-like': the octopus with its joints renamed but one); the attachments listed after. */
  async showRenamed(keep: string): Promise<{ attached: string[]; warnings: string[] }> {
    const octopus = createOctopusAsset();
    const names = octopus.skeleton.names.map((n) => (n === keep || n === 'head' ? n : `${n}-renamed`));
    await view.load({ ...octopus, name: 'renamed octopus', skeleton: { ...octopus.skeleton, names } }, { time: 0, playing: false });
    view.renderOnce();
    return { attached: view.attachments.list().map((a) => `${a.asset.name}@${a.jointName}`), warnings };
  },
};
(window as unknown as Record<string, unknown>).sinewAttachReady = true;
