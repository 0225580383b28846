import { writeFileSync } from 'node:fs';
import { NodeIO, type Document } from '@gltf-transform/core';
import { resample } from '@gltf-transform/functions';
import { animationBytes } from '../../../src/compression/optimize-document.ts';
import { SkinnedModel, worstSkinnedError } from './skinned-vertices.ts';

/** glTF-Transform's `resample()` at the tolerance whose measured worst skinned error comes closest to (not over) a target. */
export interface ResampleMatch {
  readonly tolerance: number;
  /** Worst skinned-vertex error of its file against the source (Sinew's loader + CPU skinning), model units. */
  readonly error: number;
  readonly fileBytes: number;
  /** Bytes of every animation's sampler accessors. */
  readonly animationBytes: number;
}

/**
 * Tunes `resample({ tolerance })` by bisection on log(tolerance) (16 steps, 1e-8 … 1) until its worst skinned
 * error, measured like ours at 50 times per clip, is the largest not above `targetError`.
 * @param read a fresh copy of the source document
 */
export async function matchResample(read: () => Promise<Document>, source: SkinnedModel, targetError: number, scratchPath: string): Promise<ResampleMatch> {
  const io = new NodeIO();
  const attempt = async (tolerance: number) => {
    const document = await read();
    await document.transform(resample({ tolerance }));
    const bytes = await io.writeBinary(document);
    writeFileSync(scratchPath, bytes);
    const error = worstSkinnedError(source, await SkinnedModel.load(scratchPath)).error;
    return { tolerance, error, fileBytes: bytes.length, animationBytes: document.getRoot().listAnimations().reduce((s, a) => s + animationBytes(a), 0) };
  };
  let lo = Math.log(1e-8), hi = Math.log(1);
  let best = await attempt(Math.exp(lo));
  for (let step = 0; step < 16; step++) {
    const mid = (lo + hi) / 2, result = await attempt(Math.exp(mid));
    if (result.error <= targetError) { best = result; lo = mid; } else hi = mid;
  }
  return best;
}
