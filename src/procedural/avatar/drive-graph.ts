import { RUN_SPEED, WALK_SPEED } from './avatar-locomotion.ts';

/**
 * The Drive example's animation graph (docs/guide/animation-graph.md's format, PlayCanvas's `AnimStateGraph`
 * layout), as the JSON object the gallery writes to `drive.json` and the viewer's Drive panel reads with
 * `readAnimationGraph`. It plays the generated avatar's locomotion clips (`buildLocomotionVrma`):
 * - parameters `speed` (FLOAT, metres per second), `turn` (FLOAT, radians per second: no transition reads it; the
 *   page turns the character by it, and a graph of turning clips could blend on it), `jump` (TRIGGER), `grounded`
 *   (BOOLEAN, default true; the page sets it from the Jump clip's `take-off` and `land` markers);
 * - layer `Base`: `START` → `Locomotion`, a 1D blend tree on `speed` with Idle at 0, Walk at `WALK_SPEED` (1.4)
 *   and Run at `RUN_SPEED` (3.5), each clip's travel speed, so at those points the feet move as fast as the ground;
 *   synchronised, so Walk's and Run's foot markers (phases 0 and 0.5) stay in step through the blend. Idle is in the
 *   synchronised tree too: a tree's synchronisation covers all its clips, and its longer cycle only slows the walk
 *   as the character comes to rest;
 * - `ANY` → `Jump` when `jump` is set (0.1 s crossfade; the trigger is consumed); `Jump` (not looping) →
 *   `Locomotion` at exit time 0.9 once `grounded` (0.2 s crossfade).
 */
export const DRIVE_GRAPH = {
  parameters: {
    0: { name: 'speed', type: 'FLOAT', value: 0 },
    1: { name: 'turn', type: 'FLOAT', value: 0 },
    2: { name: 'jump', type: 'TRIGGER', value: false },
    3: { name: 'grounded', type: 'BOOLEAN', value: true },
  },
  layers: [{
    name: 'Base',
    blendType: 'OVERWRITE',
    weight: 1,
    states: [
      { name: 'START' },
      {
        name: 'Locomotion', speed: 1, loop: true,
        blendTree: {
          type: '1D', parameter: 'speed', syncAnimations: true,
          children: [{ name: 'Idle', point: 0 }, { name: 'Walk', point: WALK_SPEED }, { name: 'Run', point: RUN_SPEED }],
        },
      },
      { name: 'Jump', speed: 1, loop: false },
      { name: 'ANY' },
    ],
    transitions: [
      { from: 'START', to: 'Locomotion' },
      { from: 'ANY', to: 'Jump', time: 0.1, conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
      { from: 'Jump', to: 'Locomotion', exitTime: 0.9, time: 0.2, conditions: [{ parameterName: 'grounded', predicate: 'EQUAL_TO', value: true }] },
    ],
  }],
} as const;

/** {@link DRIVE_GRAPH} as the text of `drive.json` (two-space indented, a final newline). */
export function driveGraphJson(): string {
  return `${JSON.stringify(DRIVE_GRAPH, null, 2)}\n`;
}
