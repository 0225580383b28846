/**
 * `sinew-gl/element` (and, bundled with its dependencies, `dist/standalone/sinew-viewer.js`): registers `<sinew-viewer>`
 * (see {@link SinewViewerElement}) when imported.
 *
 * ```html
 * <script type="module" src="./sinew-viewer.js"></script>
 * <sinew-viewer src="/models/Fox.glb" animation-name="Run" autoplay camera-controls></sinew-viewer>
 * ```
 *
 * or, from a module: `import 'sinew-gl/element'` (or `import { SinewViewerElement } from 'sinew-gl/element'`).
 * Importing it twice, or next to another copy, is harmless: the first definition stays. Importing it in node
 * or during server-side rendering registers nothing and throws nothing.
 */
import { defineSinewViewer } from './sinew-viewer-element.ts';

defineSinewViewer();

export { defineSinewViewer, SinewViewerElement } from './sinew-viewer-element.ts';
export type {
  ModelViewerErrorDetail, ModelViewerLoadDetail, ModelViewerProgressDetail, ModelVisibilityDetail,
  SinewErrorDetail, SinewLoadDetail, SinewLoopDetail, SinewMarkerDetail, SinewProgressDetail, SinewTimeUpdateDetail,
} from './element-events.ts';
export type { ToBlobOptions } from './element-snapshot.ts';
export type { ToVideoOptions } from './element-video.ts';
export type { HotspotConfiguration, HotspotData } from './element-hotspots.ts';
export type { Vector2D, Vector3D } from './model-viewer-vectors.ts';
export type { ElementSurfaceHit } from './element-picking.ts';
export type { SinewCameraChangeDetail, SinewClipsAddedDetail } from './element-events.ts';
export type { SinewGraphLoadDetail, SinewGraphStateDetail, SinewGraphTransitionDetail } from './element-events.ts';
export type { SinewViewerElementEventMap } from './element-event-map.ts';
export type { SphericalPosition } from './element-camera.ts';
export type { AvatarMeta } from '../asset/avatar-asset.ts';
export type { LookAtSetting } from './look-at-syntax.ts';
