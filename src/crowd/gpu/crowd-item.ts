import type { GpuModel } from '../../gpu/skinning/gpu-model.ts';
import type { InstanceBlocks } from '../../skinning/instance-blocks.ts';
import type { GpuInstances } from './instance-draw.ts';

/** What a crowd draws in one pass: one model, its instance textures in this context and the blocks `Crowd.prepare` wrote. */
export interface CrowdItem {
  /** The crowd's model (`Crowd.asset`), uploaded in the renderer's context. */
  gpuModel: GpuModel;
  /** The model's instance textures in this context (`new GpuInstances(gl)`, caller-owned). */
  instances: GpuInstances;
  /** The instances' blocks (a `Crowd` after `prepare`, src/crowd/crowd.ts). */
  blocks: InstanceBlocks;
}
