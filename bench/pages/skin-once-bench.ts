/**
 * `dist/bench/skin-once-bench.html` (built by `npm run build`): issue 23's question, "skin once per frame or
 * skin in each pass?", for the two passes that need the whole skinned mesh — the main draw and the contact
 * shadow's depth draw (src/gl/contact-shadow.ts). Driven by bench/skin-once-bench.ts; a prototype, not product.
 *
 * - `window.ready = true` once the page can take calls; `window.info()` as the crowd page's;
 * - `await window.bench({ model, mode, frames, warmup, rasterize })` → `{ frameMs }`: `model` a glTF/GLB URL or
 *   a built-in model's name (src/crowd/built-in-models.ts); `mode`
 *   - `'per-pass'` (what ships): skinned.vert runs in both passes — the main draw into the 512×512 canvas, then
 *     the same draw from the shadow's orthographic camera (under the model, as ContactShadow places it) into a
 *     depth target of ContactShadow's size at softness 0.5;
 *   - `'once'`: one transform-feedback pass runs the very skinned.vert variant over the primitive's vertices
 *     (as src/gl/transform-feedback-capture.ts does for the parity tests, without the read-back) into
 *     GPU-only buffers; both passes then draw those positions and normals with a pass-through vertex shader
 *     (view-projection × captured position), through the primitive's own index buffer.
 *   Both modes use one trivial fragment shader (the normal as a colour: it reads the normal, so neither vertex
 *   stage can drop its normal work), no culling, the same targets; blur and ground passes are left out (the
 *   same in both). `rasterize: false` runs every pass under RASTERIZER_DISCARD: the vertex stages alone.
 *   A frame poses the model (not timed), then issues the passes and waits with `gl.finish()` and a 1-pixel read.
 * - `await window.check({ model })` → per target (`main`, `shadow`): pixels covered by either mode and pixels
 *   whose coverage or colour (beyond a few levels) differs, on one pose: the honesty check of the comparison.
 *
 * The palette path is the renderer's `'auto'` choice (`resolvePalettePath`); only the uniform path is built
 * here, which holds both benchmarked models.
 */
import { mat4 } from 'gl-matrix';
import vertexSource from '../../shaders/skinned.vert?raw';
import type { ModelAsset } from '../../src/asset/model-asset.ts';
import { BUILT_IN_MODELS } from '../../src/crowd/built-in-models.ts';
import { uploadModel, type GpuModel, type GpuPrimitive } from '../../src/gl/gpu-model.ts';
import { paletteCapacity, readPaletteLimits, resolvePalettePath } from '../../src/gl/palette-path.ts';
import { OVERFLOW_UNIT, ProgramCache, type SkinningProgram } from '../../src/gl/program-cache.ts';
import { compileProgram, insertDefines } from '../../src/gl/shader-program.ts';
import { createShaderVariant, variantDefines } from '../../src/gl/shader-variant.ts';
import { loadModelFromUrl } from '../../src/loaders/fetch/load-model-from-url.ts';
import { AnimatedModel } from '../../src/scene/animated-model.ts';
import { packPaletteRows } from '../../src/skinning/palette-rows.ts';
import { DEFAULT_SKINNING_METHOD } from '../../src/skinning/skinning-method.ts';
import { contextInfo } from './bench-page-common.ts';

type Mode = 'per-pass' | 'once';
interface BenchOptions { model: string; mode: Mode; frames: number; warmup?: number; rasterize?: boolean }

const SIZE = 512;
// ContactShadow's depth map for an animated model at softness 0.5: 2·2^(9 − 1.5) texels plus its 10 of blur pad.
const SHADOW_SIZE = Math.round(2 * 2 ** 7.5) + 10;
const IDENTITY4 = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const IDENTITY3 = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 v_displayNormal;
out vec4 fragColor;
void main() { fragColor = vec4(normalize(v_displayNormal) * 0.5 + 0.5, 1.0); }
`;
const PASS_THROUGH = `#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_viewProjection;
out vec3 v_displayNormal;
void main() {
  v_displayNormal = a_normal;
  gl_Position = u_viewProjection * vec4(a_position, 1.0);
}
`;

const canvas = document.getElementById('bench-canvas') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' })!;
const programs = new ProgramCache(gl);
const pixel = new Uint8Array(4);

/** One skinned primitive: its GPU form, the buffers its skinned vertices are captured into, and the VAO drawing them. */
interface Part { primitive: GpuPrimitive; position: WebGLBuffer; normal: WebGLBuffer; tangent: WebGLBuffer; capturedVao: WebGLVertexArrayObject }

/** The skinning uniforms of a skinned.vert program. */
interface SkinningLocations {
  toDisplay: WebGLUniformLocation | null;
  normalMatrix: WebGLUniformLocation | null;
  origin: WebGLUniformLocation | null;
  joints: WebGLUniformLocation | null;
}

/** What a model's runs share: pose, programs (uniform locations), capture buffers, cameras. */
interface Scene {
  url: string;
  animated: AnimatedModel;
  clip: number;
  jointCount: number;
  rows: Float32Array;
  parts: Part[];
  skin: number;
  perPass: { program: WebGLProgram; locations: SkinningLocations; viewProjection: WebGLUniformLocation | null };
  capture: SkinningProgram;
  passThrough: { program: WebGLProgram; viewProjection: WebGLUniformLocation | null };
  feedback: WebGLTransformFeedback;
  mainViewProjection: Float32Array;
  shadowViewProjection: Float32Array;
  shadowTarget: { framebuffer: WebGLFramebuffer; colour: WebGLTexture };
}

let scene: Scene | null = null;
let frameIndex = 0;

async function sceneOf(url: string): Promise<Scene> {
  if (scene?.url === url) return scene;
  const asset: ModelAsset = BUILT_IN_MODELS[url]?.() ?? await loadModelFromUrl(url);
  const gpu: GpuModel = uploadModel(gl, asset);
  await gpu.texturesReady;
  const instance = asset.meshInstances.findIndex((m) => m.skin >= 0);
  if (instance < 0) throw new Error(`skin-once-bench: ${asset.name} has no skinned mesh`);
  const skin = asset.meshInstances[instance].skin;
  const jointCount = asset.skins[skin].joints.length;
  const limits = readPaletteLimits(gl);
  const path = resolvePalettePath('auto', jointCount, limits, asset.name, 3);
  if (path !== 'uniform') throw new Error(`skin-once-bench: ${asset.name} takes the ${path} palette path; only the uniform one is built here`);
  const primitives = gpu.meshes[asset.meshInstances[instance].mesh].filter((p) => p.skinned);
  const influences = Math.max(...primitives.map((p) => p.influences)) as 4 | 8 | 12;
  const variant = createShaderVariant();
  variant.skinned = true;
  variant.palettePath = path;
  variant.jointCapacity = paletteCapacity(path, jointCount, limits, 3);
  variant.skinning = DEFAULT_SKINNING_METHOD.skinning;
  variant.weights = DEFAULT_SKINNING_METHOD.weights;
  variant.influences = influences;
  const perPassProgram = compileProgram(gl, { name: 'skinned.vert+normal colour', vertex: insertDefines(vertexSource, variantDefines(variant)), fragment: FRAGMENT });
  variant.transformFeedback = true;
  const capture = programs.get(variant);
  const passThroughProgram = compileProgram(gl, { name: 'pass-through+normal colour', vertex: PASS_THROUGH, fragment: FRAGMENT });
  gl.useProgram(perPassProgram);
  gl.uniform1i(gl.getUniformLocation(perPassProgram, 'u_overflowTexture'), OVERFLOW_UNIT);

  const parts = primitives.map((primitive): Part => {
    const n = primitive.vertexCount;
    const make = (bytes: number) => {
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      // Written by transform feedback, read by the draws: never by the CPU.
      gl.bufferData(gl.ARRAY_BUFFER, bytes, gl.STREAM_COPY);
      return buffer;
    };
    const position = make(12 * n), normal = make(12 * n), tangent = make(16 * n);
    const capturedVao = gl.createVertexArray();
    gl.bindVertexArray(capturedVao);
    for (const [location, buffer] of [[0, position], [1, normal]] as const) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 0, 0);
    }
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, primitive.buffers[primitive.buffers.length - 1]);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return { primitive, position, normal, tangent, capturedVao };
  });

  const colour = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, colour);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, SHADOW_SIZE, SHADOW_SIZE);
  const depth = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, SHADOW_SIZE, SHADOW_SIZE);
  const framebuffer = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, colour, 0);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);

  const at = (name: string) => gl.getUniformLocation(perPassProgram, name);
  const animated = new AnimatedModel(asset);
  const clip = asset.clips.length > 0 ? 0 : -1;
  scene = {
    url, animated, clip, jointCount, rows: new Float32Array(12 * jointCount), parts, skin,
    perPass: {
      program: perPassProgram, viewProjection: at('u_viewProjection'),
      locations: { toDisplay: at('u_toDisplay'), normalMatrix: at('u_normalMatrix'), origin: at('u_origin'), joints: at('u_joints[0]') ?? at('u_joints') },
    },
    capture,
    passThrough: { program: passThroughProgram, viewProjection: gl.getUniformLocation(passThroughProgram, 'u_viewProjection') },
    feedback: gl.createTransformFeedback(),
    mainViewProjection: new Float32Array(16), shadowViewProjection: new Float32Array(16),
    shadowTarget: { framebuffer, colour },
  };
  await frameCameras(scene);
  return scene;
}

/** Cameras framing the skinned vertices of the rest pose (read back once): a perspective view and the shadow's. */
async function frameCameras(s: Scene): Promise<void> {
  s.animated.evaluate(s.animated.clipSample(-1));
  skinOnce(s);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const part of s.parts) {
    const positions = new Float32Array(3 * part.primitive.vertexCount);
    gl.bindBuffer(gl.COPY_READ_BUFFER, part.position);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, positions);
    for (let i = 0; i < positions.length; i++) {
      min[i % 3] = Math.min(min[i % 3], positions[i]);
      max[i % 3] = Math.max(max[i % 3], positions[i]);
    }
  }
  gl.bindBuffer(gl.COPY_READ_BUFFER, null);
  const centre = [0, 1, 2].map((k) => 0.5 * (min[k] + max[k]));
  const radius = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const view = mat4.lookAt(mat4.create(), [centre[0] + 1.2 * radius, centre[1] + 0.8 * radius, centre[2] + 2 * radius], centre, [0, 1, 0]);
  const projection = mat4.perspective(mat4.create(), Math.PI / 4, 1, 0.05 * radius, 10 * radius);
  mat4.multiply(s.mainViewProjection, projection, view);
  // As ContactShadow: looking up +Y from the bottom of the box, a square of twice the largest side (animated), far plane at softness 0.5.
  const height = Math.max(1e-6, max[1] - min[1]);
  const half = Math.max(max[0] - min[0], height, max[2] - min[2]) * (1 + 10 / (SHADOW_SIZE - 10));
  const shadowView = mat4.lookAt(mat4.create(), [centre[0], min[1], centre[2]], [centre[0], min[1] + 1, centre[2]], [0, 0, 1]);
  const shadowProjection = mat4.ortho(mat4.create(), -half, half, -half, half, 0, 1.25 * height);
  mat4.multiply(s.shadowViewProjection, shadowProjection, shadowView);
}

/** Sets the skinning program's uniforms from this frame's pose (both modes do this once per frame). */
function skinningUniforms(s: Scene, locations: SkinningLocations): void {
  const origin = s.animated.origin;
  packPaletteRows(s.rows, s.animated.skinMatrices[s.skin], s.jointCount);
  gl.uniformMatrix4fv(locations.toDisplay, false, IDENTITY4);
  gl.uniformMatrix3fv(locations.normalMatrix, false, IDENTITY3);
  gl.uniform3f(locations.origin, origin[0], origin[1], origin[2]);
  gl.uniform4fv(locations.joints, s.rows, 0, 12 * s.jointCount);
}

/** The transform-feedback pass: skinned.vert over every vertex as POINTS, outputs into the parts' buffers. */
function skinOnce(s: Scene): void {
  const c = s.capture;
  gl.useProgram(c.program);
  skinningUniforms(s, { toDisplay: c.u_toDisplay, normalMatrix: c.u_normalMatrix, origin: c.u_origin, joints: c.u_joints });
  gl.uniformMatrix4fv(c.u_viewProjection, false, IDENTITY4);
  gl.enable(gl.RASTERIZER_DISCARD);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, s.feedback);
  for (const part of s.parts) {
    if (part.primitive.overflowTexture) bindOverflow(part.primitive.overflowTexture);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, part.position);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, part.normal);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, part.tangent);
    gl.bindVertexArray(part.primitive.vao);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, part.primitive.vertexCount);
    gl.endTransformFeedback();
  }
  // Unbound so the draws may read the buffers as vertex attributes.
  for (let k = 0; k < 3; k++) gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, k, null);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  gl.disable(gl.RASTERIZER_DISCARD);
}

function bindOverflow(texture: WebGLTexture): void {
  gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, texture);
}

/**
 * One frame's two passes in `mode`: the main draw into the canvas, the shadow's into its target (colour masked
 * off, as ContactShadow's depth draw, unless `shadowColour` for the picture check).
 */
function drawPasses(s: Scene, mode: Mode, rasterize: boolean, shadowColour = false): void {
  let viewProjection: WebGLUniformLocation | null;
  if (mode === 'per-pass') {
    gl.useProgram(s.perPass.program);
    skinningUniforms(s, s.perPass.locations);
    viewProjection = s.perPass.viewProjection;
  } else {
    skinOnce(s);
    gl.useProgram(s.passThrough.program);
    viewProjection = s.passThrough.viewProjection;
  }
  gl.enable(gl.DEPTH_TEST);
  gl.disable(gl.CULL_FACE);
  if (!rasterize) gl.enable(gl.RASTERIZER_DISCARD);
  for (const [framebuffer, size, camera, colour] of [
    [null, SIZE, s.mainViewProjection, true], [s.shadowTarget.framebuffer, SHADOW_SIZE, s.shadowViewProjection, shadowColour],
  ] as const) {
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.viewport(0, 0, size, size);
    gl.colorMask(true, true, true, true);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.colorMask(colour, colour, colour, colour);
    gl.uniformMatrix4fv(viewProjection, false, camera);
    for (const part of s.parts) {
      const p = part.primitive;
      if (mode === 'per-pass' && p.overflowTexture) bindOverflow(p.overflowTexture);
      gl.bindVertexArray(mode === 'per-pass' ? p.vao : part.capturedVao);
      gl.drawElements(gl.TRIANGLES, p.indexCount, p.indexType, 0);
    }
  }
  gl.colorMask(true, true, true, true);
  gl.disable(gl.RASTERIZER_DISCARD);
  gl.bindVertexArray(null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
}

function pose(s: Scene, time: number): void {
  s.animated.evaluate(s.animated.clipSample(s.clip).at(time));
}

async function bench(options: BenchOptions): Promise<{ frameMs: number[] }> {
  const s = await sceneOf(options.model);
  const warmup = options.warmup ?? 3, rasterize = options.rasterize ?? true;
  if (options.mode !== 'per-pass' && options.mode !== 'once') throw new Error(`skin-once-bench: mode must be 'per-pass' or 'once', not ${String(options.mode)}`);
  const frameMs: number[] = [];
  for (let i = 0; i < warmup + options.frames; i++) {
    pose(s, ++frameIndex / 60);
    const t0 = performance.now();
    drawPasses(s, options.mode, rasterize);
    gl.finish();
    gl.readPixels(SIZE >> 1, SIZE >> 1, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    if (i >= warmup) frameMs.push(performance.now() - t0);
  }
  const error = gl.getError();
  if (error !== gl.NO_ERROR) throw new Error(`skin-once-bench: GL error 0x${error.toString(16)}`);
  return { frameMs };
}

/** Both modes' pictures of one pose, compared per target. */
async function check(options: { model: string }): Promise<Record<'main' | 'shadow', { covered: number; differing: number }>> {
  const s = await sceneOf(options.model);
  const read = (mode: Mode) => {
    pose(s, 0.37);
    drawPasses(s, mode, true, true);
    const main = new Uint8Array(4 * SIZE * SIZE), shadow = new Uint8Array(4 * SHADOW_SIZE * SHADOW_SIZE);
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, main);
    gl.bindFramebuffer(gl.FRAMEBUFFER, s.shadowTarget.framebuffer);
    gl.readPixels(0, 0, SHADOW_SIZE, SHADOW_SIZE, gl.RGBA, gl.UNSIGNED_BYTE, shadow);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return { main, shadow };
  };
  const a = read('per-pass'), b = read('once');
  const compare = (x: Uint8Array, y: Uint8Array) => {
    let covered = 0, differing = 0;
    for (let i = 0; i < x.length; i += 4) {
      if (x[i + 3] === 0 && y[i + 3] === 0) continue;
      covered++;
      // Coverage (alpha) must agree; colour within a few levels (float rounding of the two vertex paths).
      if (x[i + 3] !== y[i + 3] || Math.max(Math.abs(x[i] - y[i]), Math.abs(x[i + 1] - y[i + 1]), Math.abs(x[i + 2] - y[i + 2])) > 3) differing++;
    }
    return { covered, differing };
  };
  return { main: compare(a.main, b.main), shadow: compare(a.shadow, b.shadow) };
}

Object.assign(window, { bench, check, info: () => contextInfo(gl), ready: true });
