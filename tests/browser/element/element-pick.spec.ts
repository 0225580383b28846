import { expect, test } from '@playwright/test';
import { collectErrors, isolateFromLiveReload } from '../helpers/viewer-page.ts';

// <sinew-viewer>'s picking methods (src/element/element-picking.ts): positionAndNormalFromPoint and surfaceFromPoint
// as model-viewer shapes them, and pick. Over a grid of the element's points, every point well inside what the
// element drew picks the model, every point well outside picks nothing.

type Hit = { joint: number; jointName: string; weights: { weight: number }[]; triangle: number; point: Record<string, number> };
type Viewer = HTMLElement & {
  model: string; renderOnce(): void; pause(): void;
  positionAndNormalFromPoint(x: number, y: number): { position: { x: number; toString(): string }; normal: { x: number; y: number; z: number; toString(): string }; uv: { toString(): string } | null } | null;
  surfaceFromPoint(x: number, y: number): string | null;
  pick(x: number, y: number): Hit | null;
};

test('positionAndNormalFromPoint, surfaceFromPoint and pick agree with what the element drew', async ({ page }) => {
  await isolateFromLiveReload(page);
  const errors = collectErrors(page);
  await page.goto('/tests/browser/pages/embed-example.html');
  await page.waitForFunction(() => (document.getElementById('octopus') as Viewer | null)?.model);
  const report = await page.evaluate(() => {
    const v = document.getElementById('octopus') as Viewer;
    v.pause();
    v.renderOnce();
    const canvas = v.shadowRoot!.querySelector('canvas')!;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const box = v.getBoundingClientRect(), rect = canvas.getBoundingClientRect();
    const sx = canvas.width / rect.width, sy = canvas.height / rect.height;
    // Drawn at canvas pixel (i, j), and at every pixel around it (r = 1) or at none (inside / outside the silhouette).
    const alpha = (i: number, j: number) => (i < 0 || j < 0 || i >= canvas.width || j >= canvas.height ? 0 : pixels[4 * (j * canvas.width + i) + 3]);
    const around = (i: number, j: number, drawn: boolean) => {
      for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) if ((alpha(i + di, j + dj) > 0) !== drawn) return false;
      return true;
    };
    const out = { inside: 0, insideHit: 0, outside: 0, outsideHit: 0, strings: [] as string[], surfaces: [] as string[], picks: [] as Hit[], unitNormals: true, missed: [] as string[] };
    for (let y = 2; y < box.height - 2; y += 6) {
      for (let x = 2; x < box.width - 2; x += 6) {
        const i = Math.floor((x + box.left - rect.left) * sx), j = Math.floor((y + box.top - rect.top) * sy);
        const inside = around(i, j, true), outside = around(i, j, false);
        if (!inside && !outside) continue;
        const found = v.positionAndNormalFromPoint(x + 0.5 / sx, y + 0.5 / sy);
        if (inside) { out.inside++; if (found) out.insideHit++; else out.missed.push(`${x},${y}`); }
        if (outside) { out.outside++; if (found) out.outsideHit++; }
        if (found && out.strings.length < 3) {
          out.strings.push(`${found.position} | ${found.normal} | ${found.uv}`);
          out.surfaces.push(v.surfaceFromPoint(x + 0.5 / sx, y + 0.5 / sy)!);
          out.picks.push(v.pick(x + 0.5 / sx, y + 0.5 / sy)!);
        }
        if (found) out.unitNormals &&= Math.abs(Math.hypot(found.normal.x, found.normal.y, found.normal.z) - 1) < 1e-6;
      }
    }
    out.missed = out.missed.slice(0, 10);
    return out;
  });
  console.log(`element picking: inside ${report.inside} (hit ${report.insideHit}), outside ${report.outside} (hit ${report.outsideHit}); e.g. ${report.strings[0]} / ${report.surfaces[0]}`);
  expect(report.inside).toBeGreaterThan(20);
  expect(report.missed).toEqual([]);
  expect(report.outsideHit).toBe(0);
  expect(report.unitNormals).toBe(true);
  for (const s of report.strings) expect(s).toMatch(/^\S+m \S+m \S+m \| \S+m \S+m \S+m \| \S+ \S+$/);
  for (const s of report.surfaces) {
    const numbers = s.split(' ');
    expect(numbers).toHaveLength(8);
    expect(numbers.slice(0, 5).every((n) => /^\d+$/.test(n))).toBe(true);
    expect(numbers.slice(5).reduce((sum, n) => sum + Number(n), 0)).toBeCloseTo(1, 2);
  }
  for (const hit of report.picks) {
    expect(hit.joint).toBeGreaterThanOrEqual(0);
    expect(hit.jointName).not.toBe('');
    expect(hit.weights.reduce((sum, w) => sum + w.weight, 0)).toBeCloseTo(1, 6);
  }
  expect(await page.evaluate(() => (document.getElementById('octopus') as Viewer).pick(-5000, -5000))).toBeNull();
  expect(errors).toEqual([]);
});
