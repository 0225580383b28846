import type { ModelAsset } from '../asset/model-asset.ts';
import { createOctopusAsset } from '../procedural/octopus.ts';
import { createWorm, WORM_5000, WORM_800 } from '../procedural/worm.ts';

/**
 * The models made in code that the crowd pages accept by name instead of a URL: `worm` (800 vertices, 16
 * joints: the low-poly crowd character), `worm-5000` (5 000 vertices, 64 joints), `octopus` (the viewer's
 * built-in model, 14 000 vertices, 49 joints).
 */
export const BUILT_IN_MODELS: Readonly<Record<string, () => ModelAsset>> = {
  worm: () => createWorm(WORM_800),
  'worm-5000': () => createWorm(WORM_5000),
  octopus: createOctopusAsset,
};
