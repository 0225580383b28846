// Harness for tests/browser/gpu/skinning/skin-once.spec.ts (window.sinewSkinOnce): a model skinned once by transform feedback
// into SkinnedVertexBuffers (SkinnedRenderer.skinInto), read back from the buffers its VAOs draw, against the CPU
// reference (skinVertices, morph targets first), and the frame drawn from those buffers against the frame the
// skinning vertex shader draws itself.
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { ATTRIBUTE_LOCATIONS } from '../../../src/gpu/skinning/gpu-model.ts';
import { gpuCommandsComplete } from '../../../src/gpu/device/gpu-fence.ts';
import type { PaletteRequest } from '../../../src/gpu/skinning/palette-path.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { SkinnedVertexBuffers } from '../../../src/gpu/skinning/skinned-vertex-buffers.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { loadGltf } from '../helpers/load-gltf.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';

/** One model, method and palette request: the skinned buffers against the CPU, and the two frames. */
export interface SkinOnceReport {
  model: string;
  primitives: number;
  vertices: number;
  /** Bounding-box diagonal of the CPU-skinned positions. */
  diagonal: number;
  /** Max |p_buffers − p_cpu| and |n_buffers − n_cpu| over every skinned vertex. */
  maxPositionError: number;
  maxNormalError: number;
  /** Pixels the model covers in the frame the skinning shader draws, and pixels whose RGB differs by more than 2/255 from it. */
  covered: number;
  differing: number;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const renderer = new SkinnedRenderer(gl);

function readAttribute(vao: WebGLVertexArrayObject, location: number, floats: number): Float32Array {
  gl.bindVertexArray(vao);
  const buffer = gl.getVertexAttrib(location, gl.VERTEX_ATTRIB_ARRAY_BUFFER_BINDING) as WebGLBuffer;
  gl.bindVertexArray(null);
  const out = new Float32Array(floats);
  gl.bindBuffer(gl.COPY_READ_BUFFER, buffer);
  gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out);
  gl.bindBuffer(gl.COPY_READ_BUFFER, null);
  return out;
}

function frame(): Uint8Array {
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  return pixels;
}

async function run(asset: ModelAsset, method: SkinningMethod, request: PaletteRequest): Promise<SkinOnceReport> {
  const gpu = await renderer.upload(asset, request, method);
  const buffers = new SkinnedVertexBuffers(gl, gpu);
  try {
    const animated = new AnimatedModel(asset);
    const clip = asset.clips.length > 0 ? 0 : -1;
    animated.evaluate(animated.clipSample(clip).at(clip >= 0 ? 0.37 * asset.clips[0].duration : 0));
    renderer.skinInto(buffers, { ...createRenderItem(gpu, animated), paletteRequest: request, method });
    await gpuCommandsComplete(gl);
    const report: SkinOnceReport = { model: asset.name, primitives: 0, vertices: 0, diagonal: 0, maxPositionError: 0, maxNormalError: 0, covered: 0, differing: 0 };
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    asset.meshInstances.forEach((instance, i) => {
      if (instance.skin < 0) return;
      asset.meshes[instance.mesh].primitives.forEach((source, p) => {
        const vao = buffers.vaoOf(i, p);
        if (!vao) return;
        const offset = instance.morphWeightOffset ?? -1;
        const primitive = source.morphTargets && offset >= 0 ? new MorphedPrimitive(source).apply(animated.morphWeights, offset) : source;
        const n = primitive.vertexCount;
        const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
        skinVertices(positions, normals, primitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], method);
        const gpuPositions = readAttribute(vao, ATTRIBUTE_LOCATIONS.a_position, 3 * n);
        const gpuNormals = readAttribute(vao, ATTRIBUTE_LOCATIONS.a_normal, 3 * n);
        for (let v = 0; v < 3 * n; v += 3) {
          for (let k = 0; k < 3; k++) {
            lo[k] = Math.min(lo[k], positions[v + k]);
            hi[k] = Math.max(hi[k], positions[v + k]);
          }
          const dp = Math.hypot(gpuPositions[v] - positions[v], gpuPositions[v + 1] - positions[v + 1], gpuPositions[v + 2] - positions[v + 2]);
          const dn = Math.hypot(gpuNormals[v] - normals[v], gpuNormals[v + 1] - normals[v + 1], gpuNormals[v + 2] - normals[v + 2]);
          // NaN must fail.
          if (!(dp <= report.maxPositionError)) report.maxPositionError = Number.isNaN(dp) ? Infinity : dp;
          if (!(dn <= report.maxNormalError)) report.maxNormalError = Number.isNaN(dn) ? Infinity : dn;
        }
        report.primitives++;
        report.vertices += n;
      });
    });
    report.diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);

    // The same frame drawn both ways, framed on the pose.
    const { min, max } = computeModelBounds(asset, animated);
    const centre = new Float32Array([0, 1, 2].map((a) => 0.5 * (min[a] + max[a])));
    const radius = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    const eye = new Float32Array([centre[0] + 1.2 * radius, centre[1] + 0.6 * radius, centre[2] + 2 * radius]);
    const camera = {
      view: mat4.lookAt(new Float32Array(16), eye, centre, new Float32Array([0, 1, 0])) as Float32Array,
      projection: mat4.perspective(new Float32Array(16), Math.PI / 4, 1, 0.05 * radius, 10 * radius) as Float32Array,
      eye,
    };
    const background = [0.1, 0.1, 0.12, 1] as const;
    renderer.beginFrame(canvas.width, canvas.height, background);
    const item = { ...createRenderItem(gpu, animated), paletteRequest: request, method };
    renderer.draw(item, camera);
    const shader = frame();
    renderer.beginFrame(canvas.width, canvas.height, background);
    renderer.skinInto(buffers, item);
    item.skinnedVertices = buffers;
    renderer.draw(item, camera);
    const once = frame();
    const clear = background.map((c) => Math.round(255 * c));
    for (let i = 0; i < shader.length; i += 4) {
      if (Math.abs(shader[i] - clear[0]) > 2 || Math.abs(shader[i + 1] - clear[1]) > 2 || Math.abs(shader[i + 2] - clear[2]) > 2) report.covered++;
      if (Math.abs(shader[i] - once[i]) > 2 || Math.abs(shader[i + 1] - once[i + 1]) > 2 || Math.abs(shader[i + 2] - once[i + 2]) > 2) report.differing++;
    }
    return report;
  } finally {
    buffers.dispose();
    gpu.dispose();
  }
}

/** Runs {@link run} on the glTF at `url` (or the built-in octopus for `octopus`). */
async function model(url: string, method: SkinningMethod, request: PaletteRequest): Promise<SkinOnceReport> {
  return run(url === 'octopus' ? createOctopusAsset() : await loadGltf(url), method, request);
}

(window as unknown as { sinewSkinOnce: { model: typeof model } }).sinewSkinOnce = { model };
(window as unknown as { sinewSkinOnceReady: boolean }).sinewSkinOnceReady = true;
