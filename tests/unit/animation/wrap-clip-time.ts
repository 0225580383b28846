import { wrapPlayhead, type LoopMode } from '../../../src/animation/loop-mode.ts';

/** The clip time `wrapPlayhead` (src/animation/loop-mode.ts) derives from the playhead `time`, as a number. */
export function wrapClipTime(time: number, duration: number, mode: LoopMode): number {
  const clock = Float64Array.of(0, time, duration);
  wrapPlayhead(clock, mode);
  return clock[0];
}
