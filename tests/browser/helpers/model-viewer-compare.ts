import type { Page } from '@playwright/test';

// The picture comparison of tests/browser/pages/model-viewer-side-by-side.html: <model-viewer> (id
// `model-viewer`) and <sinew-viewer> (id `sinew-viewer`) drawn at one size, their silhouettes (alpha > 0)
// compared by intersection over union.

export interface Comparison {
  iou: number;
  sinewPixels: number;
  modelViewerPixels: number;
  /** Side-by-side PNG (model-viewer left, sinew right, overlap below) as a data URL. */
  image: string;
}

const SIDE_BY_SIDE = '/tests/browser/pages/model-viewer-side-by-side.html';

/**
 * Shows a new pair on the side-by-side page set by `query` (its `src`, size and attributes), opening the page first
 * unless `page` shows it already (a page kept for many cases loads its modules once), and waits until both elements
 * have loaded and model-viewer has settled on its camera goal (it frames after load, in its update cycle).
 */
export async function openSideBySide(page: Page, query: URLSearchParams): Promise<void> {
  if (new URL(page.url(), 'http://x').pathname !== SIDE_BY_SIDE) {
    await page.goto(SIDE_BY_SIDE);
    await page.waitForFunction(() => 'showPair' in window, undefined, { timeout: 120_000 });
  }
  await page.evaluate((search) => (window as unknown as { showPair(search: string): void }).showPair(search), query.toString());
  await page.waitForFunction(() => {
    const mv = document.getElementById('model-viewer') as (HTMLElement & { loaded?: boolean }) | null;
    const sv = document.getElementById('sinew-viewer') as HTMLElementTagNameMap['sinew-viewer'] | null;
    return !!mv?.loaded && !!sv && sv.model !== '';
  }, undefined, { timeout: 120_000 });
  await page.evaluate(async () => {
    const mv = document.getElementById('model-viewer') as HTMLElement & { jumpCameraToGoal(): void; updateComplete: Promise<unknown> };
    mv.jumpCameraToGoal();
    await mv.updateComplete;
    for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
  });
}

/** Draws both elements' pictures, measures their silhouettes' IoU, and returns a side-by-side image. */
export async function compareWithModelViewer(page: Page): Promise<Comparison> {
  return page.evaluate(async () => {
    type MV = HTMLElement & { loaded: boolean; toDataURL(type?: string): string; jumpCameraToGoal(): void };
    const mv = document.getElementById('model-viewer') as MV;
    const sv = document.getElementById('sinew-viewer') as HTMLElementTagNameMap['sinew-viewer'];
    sv.renderOnce();
    const sinewCanvas = sv.shadowRoot!.querySelector('canvas')!;
    const w = sinewCanvas.width;
    const h = sinewCanvas.height;
    // model-viewer's one renderer canvas is resized in its frame loop: a picture of another size is not settled yet.
    let image = new Image();
    for (let i = 0; i < 120; i++) {
      image = new Image();
      image.src = mv.toDataURL('image/png');
      await image.decode();
      if (image.naturalWidth === w && image.naturalHeight === h) break;
      await new Promise((r) => requestAnimationFrame(r));
    }
    if (image.naturalWidth !== w || image.naturalHeight !== h) throw new Error(`model-viewer's picture is ${image.naturalWidth} × ${image.naturalHeight}, not ${w} × ${h}`);
    const mvCanvas = document.createElement('canvas');
    mvCanvas.width = w;
    mvCanvas.height = h;
    const mctx = mvCanvas.getContext('2d')!;
    mctx.drawImage(image, 0, 0);
    const a = mctx.getImageData(0, 0, w, h).data;
    const b = sinewCanvas.getContext('2d')!.getImageData(0, 0, w, h).data;
    const out = document.createElement('canvas');
    out.width = 3 * w;
    out.height = h;
    const octx = out.getContext('2d')!;
    octx.drawImage(mvCanvas, 0, 0);
    octx.drawImage(sinewCanvas, w, 0);
    const overlap = octx.createImageData(w, h);
    let both = 0, either = 0, na = 0, nb = 0;
    for (let i = 0; i < w * h; i++) {
      const inA = a[4 * i + 3] > 0;
      const inB = b[4 * i + 3] > 0;
      if (inA) na++;
      if (inB) nb++;
      if (inA && inB) both++;
      if (inA || inB) either++;
      overlap.data[4 * i] = inA ? 255 : 0;
      overlap.data[4 * i + 1] = inB ? 255 : 0;
      overlap.data[4 * i + 2] = 0;
      overlap.data[4 * i + 3] = inA || inB ? 255 : 0;
    }
    octx.putImageData(overlap, 2 * w, 0);
    return { iou: either ? both / either : 0, sinewPixels: nb, modelViewerPixels: na, image: out.toDataURL('image/png') };
  });
}
