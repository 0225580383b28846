import type { ClipMarker } from '../asset/animation-clip.ts';

/**
 * A clip's markers laid out for the per-frame crossing sweep ({@link emitCrossings}): times ascending (ties in
 * the order given), names alongside. Immutable: {@link withMarker} makes a new track.
 */
export class MarkerTrack {
  /** `Float64Array(n)`: marker times, seconds, ascending, each in [0, clip duration]. */
  readonly times: Float64Array;
  /** `n` names, `names[i]` at `times[i]`. */
  readonly names: readonly string[];

  constructor(times: Float64Array, names: readonly string[]) {
    this.times = times;
    this.names = names;
    Object.freeze(this);
  }

  /** Number of markers. */
  get length(): number {
    return this.times.length;
  }
}

/** The empty track, shared by every clip without markers. */
export const NO_MARKERS = new MarkerTrack(new Float64Array(0), Object.freeze([]));

/**
 * Sorts and copies `markers` of a clip `durationSeconds` long into a {@link MarkerTrack} (allocates: at compile
 * time or when a marker is added, never per frame).
 * @throws RangeError naming `clipName` when a marker's time is not a finite number in [0, duration] or its name
 *   is not a string
 */
export function compileMarkers(markers: readonly ClipMarker[] | undefined, durationSeconds: number, clipName: string): MarkerTrack {
  if (!markers || markers.length === 0) return NO_MARKERS;
  markers.forEach((marker, i) => checkMarker(marker.time, marker.name, durationSeconds, `clip "${clipName}" marker ${i}`));
  const order = markers.map((_, i) => i).sort((a, b) => markers[a].time - markers[b].time || a - b);
  return new MarkerTrack(Float64Array.from(order, (i) => markers[i].time), Object.freeze(order.map((i) => markers[i].name)));
}

/**
 * `track` with one more marker at `timeSeconds` (after the markers already at that time).
 * @throws RangeError when the time is not a finite number in [0, duration] or the name not a string
 */
export function withMarker(track: MarkerTrack, timeSeconds: number, name: string, durationSeconds: number, clipName: string): MarkerTrack {
  checkMarker(timeSeconds, name, durationSeconds, `clip "${clipName}" marker "${String(name)}"`);
  const markers: ClipMarker[] = [];
  for (let i = 0; i < track.length; i++) markers.push({ time: track.times[i], name: track.names[i] });
  markers.push({ time: timeSeconds, name });
  return compileMarkers(markers, durationSeconds, clipName);
}

function checkMarker(time: number, name: string, duration: number, where: string): void {
  if (typeof time !== 'number' || !(time >= 0 && time <= duration)) {
    throw new RangeError(`${where}: time ${String(time)} is not in [0, ${duration}] seconds`);
  }
  if (typeof name !== 'string') throw new RangeError(`${where}: the name is not a string`);
}
