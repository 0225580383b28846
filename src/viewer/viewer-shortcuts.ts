import type { ViewerPanel } from './viewer-panel.ts';
import type { Inspection } from './inspection.ts';
import type { HelpOverlay } from './help-overlay.ts';
import type { ModelView } from '../view/model-view.ts';

/** What the keyboard shortcuts drive: the viewer application (`ViewerApp`) as they see it. */
export interface ShortcutTarget {
  readonly view: ModelView;
  readonly panel: ViewerPanel;
  readonly inspection: Inspection;
  readonly help: HelpOverlay;
  play(): void;
  pause(): void;
  frameModel(): void;
  saveScreenshot(scale: number): string | null;
  toggleFullscreen(): void;
  selectJoint(joint: number): void;
  /** A debug view setting changed: the panel shows it, the next frame draws it. */
  viewChanged(): void;
  /** The panel was shown or hidden: framing keeps the model clear of it. */
  updateCoveredArea(): void;
  /** The Drive folder: J jumps while it drives (its arrow keys it listens for itself). */
  readonly drive: { jump(): void };
}

/**
 * The viewer's keyboard shortcuts (the list in help-overlay.ts): Space play/pause, F frame, K skeleton, W
 * wireframe, H weights, I influences, B bounds, N normals, C GPU vs CPU, V CPU vertices, P screenshot, Enter
 * fullscreen, ? help, Escape deselect, G the panel, J jump (Drive folder on). Keys typed into the panel's inputs, and chords with Ctrl, Meta
 * or Alt, are left to the page.
 */
export function attachShortcuts(app: ShortcutTarget): void {
  window.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'BUTTON')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const view = app.inspection.settings;
    const toggleSurface = (surface: typeof view.surface): void => {
      view.surface = view.surface === surface ? 'shaded' : surface;
    };
    switch (e.key) {
      case ' ':
        e.preventDefault();
        if (app.view.playback.playing) app.pause();
        else app.play();
        return;
      case 'f': case 'F': app.frameModel(); return;
      case 'k': case 'K': view.skeleton = !view.skeleton; break;
      case 'w': case 'W': view.wireframe = !view.wireframe; break;
      case 'h': case 'H': toggleSurface('weights'); break;
      case 'i': case 'I': toggleSurface('influences'); break;
      case 'b': case 'B': view.bounds = !view.bounds; break;
      case 'n': case 'N': view.normals = !view.normals; break;
      case 'c': case 'C': view.compare = !view.compare; break;
      case 'v': case 'V': view.cpuVertices = !view.cpuVertices; break;
      case 'p': case 'P': app.saveScreenshot(1); return;
      case 'Enter': app.toggleFullscreen(); return;
      case '?': app.help.toggle(); return;
      case 'Escape': app.help.hide(); app.selectJoint(-1); return;
      case 'j': case 'J': app.drive.jump(); return;
      case 'g': case 'G': app.panel.element.hidden = !app.panel.element.hidden; app.updateCoveredArea(); app.view.requestRedraw(); return;
      default: return;
    }
    app.viewChanged();
  });
}
