/**
 * `<sinew-viewer>`'s `orientation` and `scale` (`<model-viewer>`'s, placement-syntax.ts) applied to its
 * {@link ModelView}: the model's display transform, which the camera frames.
 */
import type { ModelView } from '../view/model-view.ts';
import { readAttribute } from './element-attributes.ts';
import { placementMatrix } from './placement-syntax.ts';

/** The placement attributes, in the order they are read. */
export const PLACEMENT_ATTRIBUTES = ['orientation', 'scale'] as const;

/** A placement attribute's name. */
export type PlacementAttribute = (typeof PLACEMENT_ATTRIBUTES)[number];

/**
 * Reads `orientation` and `scale` of `element` into `view`'s placement (`ModelView.setPlacement`: the model shown
 * and those loaded later, framed on their placed bounds). A malformed value is read as its default and, when
 * `report` is given, reported — only `changed`'s, when given.
 */
export function applyPlacement(
  element: Element, view: ModelView, report: ((message: string) => void) | null, changed: PlacementAttribute | null = null,
): void {
  const reporter = (name: PlacementAttribute): ((message: string) => void) | null => (changed === null || changed === name ? report : null);
  const orientation = readAttribute(element, 'orientation', reporter('orientation')).value;
  const scale = readAttribute(element, 'scale', reporter('scale')).value;
  view.setPlacement(placementMatrix(new Float32Array(16), orientation, scale));
}
