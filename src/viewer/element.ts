/**
 * Library entry for embedders: registers `<sinew-viewer>` (see {@link SinewViewerElement}) when imported.
 *
 * ```html
 * <script type="module" src="/src/viewer/element.ts"></script>
 * <sinew-viewer src="/models/Fox.glb" clip="Run" controls></sinew-viewer>
 * ```
 *
 * or, from a module: `import 'sinew/src/viewer/element.ts'` (or `import { SinewViewerElement } from …`).
 * Importing it twice, or next to another copy, is harmless: the first definition stays.
 */
import { defineSinewViewer } from './sinew-viewer-element.ts';

defineSinewViewer();

export { defineSinewViewer, SinewViewerElement } from './sinew-viewer-element.ts';
export type { SinewErrorDetail, SinewLoadDetail, SinewProgressDetail, SinewTimeUpdateDetail } from './sinew-viewer-element.ts';
