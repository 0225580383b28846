/**
 * VRM Animation load cost for `npm run bench` (bench/run-bench.ts, key `vrma.load60s_ms`): the generated 60 s
 * VRMA (`buildVrmaClip({ duration: 60 })`: the walk's humanoid rotation tracks and the hips' translation at 30 keys
 * per second, three expression tracks and the look-at track) loaded with `loadClips` and retargeted through the
 * humanoid onto the generated VRM 1.0 avatar (`buildAvatarVrm1`) with `retargetClipLibrary`: what a page pays
 * before an avatar plays a VRMA clip.
 */
import { retargetClipLibrary } from '../src/loaders/clip-library.ts';
import { loadClips } from '../src/loaders/load-clips.ts';
import { loadModel } from '../src/loaders/load-model.ts';
import { buildAvatarVrm1 } from '../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../src/procedural/avatar/vrma-clip.ts';

/**
 * Milliseconds to load the 60 s VRMA with `loadClips` and retarget it onto the generated avatar with
 * `retargetClipLibrary`: the median of `runs`. The VRMA and the avatar are made and the avatar loaded once,
 * outside the timing.
 */
export async function vrmaLoadMs(runs = 5): Promise<number> {
  const none = async () => null;
  const bytes = await buildVrmaClip({ duration: 60 });
  const target = await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1() }, none);
  const elapsed: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const library = await loadClips({ name: 'walk.vrma', bytes }, none);
    retargetClipLibrary(library, target);
    elapsed.push(performance.now() - started);
  }
  return elapsed.sort((a, b) => a - b)[runs >> 1];
}

/** `node --import tsx bench/vrma-cost.ts`: this key alone, printed with the machine's load average. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadavg } = await import('node:os');
  const ms = await vrmaLoadMs();
  console.log(`vrma.load60s_ms ${ms.toFixed(1)} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
}
