/**
 * What `<model-viewer>` 4.4 reads that `<sinew-viewer>` does not: a page renamed from `<model-viewer>` keeps
 * these attributes and slotted children, and the element says once (per element and name) that it ignores each,
 * on the console as its other warnings (warning-log.ts). The two tables are a contract: every attribute of
 * model-viewer is either a row of `ELEMENT_ATTRIBUTES` or of {@link UNSUPPORTED_ATTRIBUTES}
 * (tests/unit/element/unsupported-features.test.ts reads model-viewer's source to check it).
 */
import { warnOncePerElement } from './warning-log.ts';

/** model-viewer's attributes that Sinew ignores → the feature they belong to, in a warning's words. */
export const UNSUPPORTED_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({
  ar: 'augmented reality',
  'ar-modes': 'augmented reality',
  'ar-scale': 'augmented reality',
  'ar-placement': 'augmented reality',
  'ar-usdz-max-texture-size': 'augmented reality',
  'ios-src': 'augmented reality (Quick Look)',
  'xr-environment': 'augmented reality (WebXR)',
  'variant-name': 'material variants (KHR_materials_variants)',
  'touch-action': 'touch-action (the canvas takes every touch it is given)',
  'skybox-height': 'ground-projected skyboxes',
  'with-credentials': 'credentialed cross-origin requests',
  'generate-schema': 'schema.org structured data',
  'interaction-prompt-style': 'the interaction prompt\'s styles',
  'interaction-prompt-threshold': 'the interaction prompt\'s threshold',
  'orbit-sensitivity': 'input sensitivity',
  'zoom-sensitivity': 'input sensitivity',
  'pan-sensitivity': 'input sensitivity',
  'disable-tap': 'tap to recentre',
  'interpolation-decay': 'camera easing (the camera moves at once)',
  a11y: 'custom accessibility strings',
});

/** model-viewer's named slots that Sinew has no place for (only `hotspot-…` is slotted) → their feature. */
export const UNSUPPORTED_SLOTS: Readonly<Record<string, string>> = Object.freeze({
  'ar-button': 'augmented reality',
  'exit-webxr-ar-button': 'augmented reality (WebXR)',
  'progress-bar': 'a custom progress bar (listen to `progress` instead)',
  poster: 'a slotted poster (use the `poster` attribute)',
  'interaction-prompt': 'a custom interaction prompt',
  'pan-target': 'a custom pan target',
  finger0: 'the interaction prompt\'s fingers',
  finger1: 'the interaction prompt\'s fingers',
  canvas: 'a slotted canvas',
});

/** The warning for attribute `name` of {@link UNSUPPORTED_ATTRIBUTES}. */
export function unsupportedAttributeMessage(name: string): string {
  return `<sinew-viewer ${name}> is ignored: Sinew does not support <model-viewer>'s ${UNSUPPORTED_ATTRIBUTES[name]}.`;
}

/** The warning for a child slotted into slot `name` of {@link UNSUPPORTED_SLOTS}. */
export function unsupportedSlotMessage(name: string): string {
  return `<sinew-viewer>: the child in slot="${name}" is ignored: Sinew does not support <model-viewer>'s ${UNSUPPORTED_SLOTS[name]}.`;
}

/**
 * The unsupported attributes present on `element` and the unsupported slots its children name, in table
 * order: the warnings {@link watchUnsupported} logs.
 */
export function unsupportedMessages(element: Element): string[] {
  const messages: string[] = [];
  for (const name of Object.keys(UNSUPPORTED_ATTRIBUTES)) {
    if (element.hasAttribute(name)) messages.push(unsupportedAttributeMessage(name));
  }
  const slots = new Set<string>();
  for (const child of element.children) slots.add(child.getAttribute('slot') ?? '');
  for (const name of Object.keys(UNSUPPORTED_SLOTS)) {
    if (slots.has(name)) messages.push(unsupportedSlotMessage(name));
  }
  return messages;
}

/**
 * Warns of each unsupported attribute and slot of `element` now and whenever one appears later, each once per
 * element (warning-log.ts).
 * @returns stops watching (the element left the page)
 */
export function watchUnsupported(element: Element): () => void {
  const check = (): void => {
    for (const message of unsupportedMessages(element)) warnOncePerElement(element, message);
  };
  check();
  const observer = new MutationObserver(check);
  observer.observe(element, { attributes: true, attributeFilter: [...Object.keys(UNSUPPORTED_ATTRIBUTES), 'slot'], childList: true, subtree: true });
  return () => observer.disconnect();
}
