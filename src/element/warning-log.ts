/** (model URL, warning) pairs already logged on this page: the page's one console, shared by every element. */
const logged = new Set<string>();

/**
 * Logs each loader warning of the model at `source` to the console as `sinew-viewer: WARNING`, once per page:
 * fifty elements showing one model log its warnings once, not fifty times (each element's `sinew-load` still
 * lists them all). `source` is the element's model URL (resolved against the page) and `anim` companion.
 */
export function logWarningsOnce(source: string, warnings: readonly string[]): void {
  for (const warning of warnings) {
    const key = `${source}\n${warning}`;
    if (logged.has(key)) continue;
    logged.add(key);
    console.warn(`sinew-viewer: ${warning}`);
  }
}

/** The warnings each element has logged through {@link warnOncePerElement}. */
const loggedBy = new WeakMap<Element, Set<string>>();

/**
 * Logs `warning` to the console as `sinew-viewer: WARNING` unless `element` has logged it before: a warning
 * about the element's own markup (an attribute it ignores), said once per element however often it is checked.
 */
export function warnOncePerElement(element: Element, warning: string): void {
  let seen = loggedBy.get(element);
  if (!seen) loggedBy.set(element, (seen = new Set()));
  if (seen.has(warning)) return;
  seen.add(warning);
  console.warn(`sinew-viewer: ${warning}`);
}
