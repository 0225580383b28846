import type { LoopMode } from '../animation/loop-mode.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import type { PalettePath, PaletteRequest } from '../gpu/passes/renderer.ts';
import type { SkinningMode, WeightPolicy } from '../skinning/skinning-method.ts';
import type { InspectionSettings } from './inspection.ts';
import type { SampleModel } from './sample-models.ts';
import type { SiteLinks } from './site-links.ts';

/** What the panel asks the viewer to do. */
export interface ViewerPanelHandlers {
  /** A clip was chosen: its index, or −1 for the rest pose. */
  onClipChange(clipIndex: number): void;
  /** The play / pause button was pressed. */
  onPlayToggle(): void;
  /** The time slider moved, seconds. */
  onScrub(seconds: number): void;
  /** Playback rate (1 real time, negative backwards). */
  onSpeedChange(speed: number): void;
  onLoopChange(mode: LoopMode): void;
  /** Crossfade duration, seconds ≥ 0. */
  onFadeChange(seconds: number): void;
  /** Weight in [0, 1] of clip `clipIndex` layered over the selected one (0 removes the layer). */
  onLayerWeight(clipIndex: number, weight: number): void;
  /** Limit the layered clips to the selected joint and the joints below it (false: the whole skeleton). */
  onLayerMask(on: boolean): void;
  /** Files picked with Open file…. */
  onFiles(files: File[]): void;
  /** A URL to open (typed); null: the built-in octopus. */
  onOpenUrl(url: string | null): void;
  /** A model picked in the Sample list: a URL to open, or a model made in the page. */
  onOpenSample(sample: SampleModel): void;
  /** Re-aim the camera at the model. */
  onFrame(): void;
  onSkinningChange(skinning: SkinningMode): void;
  onWeightsChange(weights: WeightPolicy): void;
  onPaletteRequestChange(paletteRequest: PaletteRequest): void;
  /** A debug view setting changed (the settings object is the inspection's own, already updated). */
  onViewChange(): void;
  /** A joint was chosen in the list (−1: none). */
  onJointSelect(joint: number): void;
  /** Bind pose (the mesh as skinned at bind time) on or off. */
  onBindPose(on: boolean): void;
  /** Save a PNG of the canvas at `scale` × its size. */
  onScreenshot(scale: number): void;
  onFullscreen(): void;
  onHelp(): void;
}

/** What the panel shows about the loaded model. */
export interface PanelModelInfo {
  readonly name: string;
  readonly clips: readonly AnimationClip[];
  readonly clipIndex: number;
  readonly palettePath: PalettePath;
  /** A one-line summary, e.g. "24 joints · 1728 vertices · 3 clips" (model-summary.ts). */
  readonly summary: string;
  /** The loader's warnings (`ModelAsset.warnings`); listed once, under the summary. */
  readonly warnings?: readonly string[];
  /** Names of the joints the skeleton view can select, with their skeleton indices. */
  readonly joints: readonly { readonly index: number; readonly name: string }[];
}

const SPEED_MIN = -2;
const SPEED_MAX = 2;
/** At most this many key markers under the time slider (keys closer than a marker's width merge anyway). */
const MAX_KEY_MARKERS = 200;

/** What a `ViewerPanel` is built with. */
export interface ViewerPanelOptions {
  /** What the panel asks the viewer to do. */
  readonly handlers: ViewerPanelHandlers;
  /** The debug view settings the View folder edits in place (the inspection's own). */
  readonly view: InspectionSettings;
  /** The Sample list's first entries (replace them with `ViewerPanel.setSamples` once probed). */
  readonly samples: readonly SampleModel[];
  /** Said under the Sample list: where its extra models come from; default none. */
  readonly sampleSource?: string;
  /** The docs site and examples gallery, linked from the header (`#sinew-links`); default none. */
  readonly links?: SiteLinks | null;
}
