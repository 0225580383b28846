import { AlphaMode } from '../../gpu/shading/alpha-mode.ts';
import { ATTRIBUTE_LOCATIONS } from '../../gpu/skinning/gpu-model.ts';
import { bindMaterial, setAlphaState } from '../../gpu/skinning/material-binding.ts';
import type { CameraMatrices, PassContext, SkinnedRenderer } from '../../gpu/passes/renderer.ts';
import { outlineModeOf, OutlineWidthModeCode } from '../../gpu/passes/outline-material.ts';
import type { SkinningProgram } from '../../gpu/skinning/program-cache.ts';
import type { CrowdItem } from './crowd-item.ts';
import type { InstancedDrawStats } from './instance-draw.ts';
import { bindInstancedPrimitive, instancedProgram } from './instanced-binding.ts';

/**
 * Instanced skinning: draws the `blocks.drawCount` instances a crowd prepared with the renderer's programs and
 * light, one `drawElementsInstanced` per primitive and winding ({@link drawInstances}): skinned meshes by the
 * crowd's skinning method, rigid ones by their node's matrix in each instance's pose, mirrored instances with the
 * opposite `frontFace`. The camera is in world space (the instances' world matrices lead there). No-op while the
 * context is lost.
 * @param stats filled with the draw calls and vertices shaded, when given
 * @throws as `SkinnedRenderer.draw` for a disposed model, and as {@link drawInstances}
 */
export function drawCrowd(renderer: SkinnedRenderer, item: CrowdItem, camera: CameraMatrices, stats?: InstancedDrawStats): void {
  const pass = renderer.beginPass(item.gpuModel, camera);
  if (pass) drawInstances(pass, item, stats);
}

/**
 * The crowd's pass: draws `item.blocks.drawCount` instances of every mesh instance of `gpuModel` — skinned ones by `blocks.method`,
 * rigid ones placed by their node's matrix in each instance's pose — per primitive one
 * `drawElementsInstanced` for the instances that do not mirror and one for those that do
 * (`blocks.mirroredFrom`), with opposite `frontFace` (flipped once more for a mesh mirrored within the model,
 * `blocks.meshMirrored`; glTF 2.0 §3.7.4), morph targets at each instance's weights; its material by
 * `bindMaterial` (the caller binds the environment); the instance texture uploaded once first. Blended
 * materials are drawn in file order like the others (no sorting across instances). Then the MToon outlines
 * (src/gpu/passes/outline-pass.ts), instanced the same way for every drawn instance (live or baked): each outlined
 * primitive's `MTOON_OUTLINE` variant, front faces culled, blended when its surface is. A crowd has no skin-once
 * buffers: the outline draw skins its vertices again in the vertex shader, from the same instance texture the
 * prepass filled (no second palette upload). The camera's view-projection (world → clip) and
 * eye are set as given (world space is display space: instanced variants have no u_toDisplay). The GL state is left as `SkinnedRenderer.draw` leaves it. Allocates nothing.
 * @throws Error when `gpuModel`'s mesh instances are not those the blocks are laid out for (upload `Crowd.asset`)
 */
export function drawInstances(pass: PassContext, item: CrowdItem, stats?: InstancedDrawStats): void {
  const gl = pass.gl;
  const { gpuModel, instances: gpu, blocks } = item;
  const viewProjection = pass.camera.viewProjection, eye = pass.camera.eye;
  if (stats) stats.drawCalls = stats.verts = 0;
  if (blocks.rigidOffsets.length !== gpuModel.asset.meshInstances.length) {
    // The blocks are laid out per mesh instance of the crowd's asset: another asset (a crowd made with props, and the
    // character uploaded without them) would read the wrong texels.
    throw new Error(`${gpuModel.asset.name}: its ${gpuModel.asset.meshInstances.length} mesh instances do not match the crowd's ${blocks.rigidOffsets.length}; upload the crowd's own asset (Crowd.asset)`);
  }
  const count = blocks.drawCount;
  if (count === 0) return;
  gpu.upload(blocks);
  const asset = gpuModel.asset, origin = blocks.origin, split = blocks.mirroredFrom;
  let current: SkinningProgram | null = null;
  for (let layer = 0; layer < 2; layer++) {
    const outline = layer === 1;
    for (let m = 0; m < asset.meshInstances.length; m++) {
      const mesh = asset.meshInstances[m].mesh;
      const primitiveCount = asset.meshes[mesh].primitives.length;
      for (let p = 0; p < primitiveCount; p++) {
        const primitive = gpuModel.primitive(mesh, p);
        if (outline && outlineModeOf(asset, primitive.asset.material) === OutlineWidthModeCode.None) continue;
        const program = instancedProgram(pass, item, m, primitive, false, outline);
        if (!program) continue;
        if (program !== current) {
          current = program;
          gl.useProgram(program.program);
          gl.uniformMatrix4fv(program.u_viewProjection, false, viewProjection);
          gl.uniform3fv(program.u_eye, eye);
          gl.uniform3f(program.u_origin, origin[0], origin[1], origin[2]);
        }
        bindInstancedPrimitive(gl, program, item, m, primitive);
        const material = bindMaterial(gl, program, gpuModel, primitive);
        gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
        setAlphaState(gl, material?.alphaMode === AlphaMode.Blend);
        if (outline) {
          pass.outlines.bind(program, gpuModel, primitive, pass.camera);
          gl.enable(gl.CULL_FACE);
          gl.cullFace(gl.FRONT);
        } else if (material?.doubleSided) gl.disable(gl.CULL_FACE);
        else gl.enable(gl.CULL_FACE);
        gl.bindVertexArray(primitive.vao);
        const meshMirrored = blocks.meshMirrored[m] === 1;
        for (let range = 0; range < 2; range++) {
          const first = range === 0 ? 0 : split, instances = range === 0 ? split : count - split;
          if (instances === 0) continue;
          gl.frontFace((range === 1) !== meshMirrored ? gl.CW : gl.CCW);
          gl.uniform1i(program.u_instanceBase, first);
          gl.drawElementsInstanced(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0, instances);
          if (stats) {
            stats.drawCalls++;
            stats.verts += primitive.vertexCount * instances;
          }
        }
        if (outline) gl.cullFace(gl.BACK);
      }
    }
  }
  gl.bindVertexArray(null);
  gl.frontFace(gl.CCW);
  gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_joints, 0, 0, 0, 1);
  gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_weights, 0, 0, 0, 1);
  setAlphaState(gl, false);
}
