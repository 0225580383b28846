/** How one file ended in the element: its `sinew-error` message (or `LOADED`) and the time from `src` to that, ms. */
export interface CorpusOutcome {
  readonly outcome: string;
  readonly ms: number;
}

/**
 * Runs in the page (`page.evaluate(loadEachInElement, names)`; self-contained): sets each file, served at
 * `/corpus/<name>`, as the `src` of the `<sinew-viewer id="v">` on the page, one after another, and waits for its
 * `load` or `sinew-error`. Used by tests/browser/element/hardening.spec.ts (every file must end in one error) and
 * bench/malformed-corpus-cost.ts (`malformed_corpus.element_slowest_ms`).
 */
export async function loadEachInElement(names: readonly string[]): Promise<CorpusOutcome[]> {
  const viewer = document.getElementById('v')!;
  const out: CorpusOutcome[] = [];
  for (const name of names) {
    const started = performance.now();
    const outcome = await new Promise<string>((done) => {
      const onError = (e: Event) => { viewer.removeEventListener('load', onLoad); done((e as CustomEvent<{ message: string }>).detail.message); };
      const onLoad = () => { viewer.removeEventListener('sinew-error', onError); done('LOADED'); };
      viewer.addEventListener('sinew-error', onError, { once: true });
      viewer.addEventListener('load', onLoad, { once: true });
      viewer.setAttribute('src', `/corpus/${encodeURIComponent(name)}`);
    });
    out.push({ outcome, ms: performance.now() - started });
  }
  return out;
}
