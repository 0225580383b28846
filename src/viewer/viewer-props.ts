import type GUI from 'lil-gui';
import type { ModelAsset } from '../asset/model-asset.ts';
import { loadModelFromFiles } from '../loaders/fetch/load-model-from-files.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { createSwordAsset } from '../procedural/sword.ts';
import { defaultPropJoint, swordOffset } from '../scene/prop-placement.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ModelView } from '../view/model-view.ts';

export { defaultPropJoint };
import type { ErrorBanner } from './error-banner.ts';

/** What {@link ViewerProps} needs of the viewer page. */
export interface ViewerPropsHost {
  readonly view: ModelView;
  readonly banner: ErrorBanner;
  /** The joint selected in the panel or by a click (−1: none). */
  selectedJoint(): number;
}

/**
 * The viewer's props (docs/guide/viewer-app.md, Attachments): the panel's "Attachments" folder (attach the built-in
 * sword or a file to the selected joint, remove them all) and the drop rule — a model file dropped with Alt held,
 * or with Shift held when it has no clips (Shift with clips adds the clips, "Clips from other files"), goes on the
 * selected joint, or on a right hand / the deepest joint when none is selected. Failures show in the banner; the
 * model stays.
 */
export class ViewerProps {
  constructor(private readonly host: ViewerPropsHost, gui: GUI) {
    host.view.attachments.onWarning = (message) => host.banner.show(message, 'warning');
    const folder = gui.addFolder('Attachments');
    const input = document.createElement('input');
    Object.assign(input, { type: 'file', multiple: true, hidden: true, id: 'sinew-attach-file' });
    input.addEventListener('change', () => {
      const files = input.files ? [...input.files] : [];
      input.value = '';
      if (files.length > 0) void this.attach(() => loadModelFromFiles(files));
    });
    folder.domElement.append(input);
    const actions = {
      sword: () => void this.attach(async () => createSwordAsset(), (joint) => swordOffset(this.host.view.animated!, joint)),
      file: () => input.click(),
      clear: () => this.host.view.attachments.clear(),
    };
    folder.add(actions, 'sword').name('Attach a sword to the joint').domElement.dataset.control = 'attach-sword';
    folder.add(actions, 'file').name('Attach file…').domElement.dataset.control = 'attach-file';
    folder.add(actions, 'clear').name('Remove attachments').domElement.dataset.control = 'attach-clear';
    folder.close();
  }

  /**
   * A drop: handled here (attached as a prop) when Alt is held, or Shift and the files hold a model without
   * clips. Never rejects.
   * @returns whether the drop was a prop (false: the page's own drop rule applies)
   */
  async drop(files: readonly File[], shift: boolean, alt: boolean): Promise<boolean> {
    if (!this.host.view.asset || !(shift || alt) || !files.some((f) => modelFormatOf(f.name) !== null)) return false;
    if (alt) {
      await this.attach(() => loadModelFromFiles(files));
      return true;
    }
    let asset: ModelAsset;
    try {
      asset = await loadModelFromFiles(files);
    } catch {
      return false; // the clips rule reads it again and reports
    }
    if (asset.clips.length > 0 || asset.meshes.length === 0) return false;
    await this.attach(async () => asset);
    return true;
  }

  /**
   * Attaches the prop `load` gives to the selected joint (or the default one); never rejects.
   * @param offsetFor the offset for the joint chosen (default identity)
   */
  async attach(load: () => Promise<ModelAsset>, offsetFor?: (joint: number) => ArrayLike<number>): Promise<boolean> {
    const view = this.host.view;
    const asset = view.asset;
    if (!asset) return false;
    const selected = this.host.selectedJoint();
    const joint = selected >= 0 ? selected : defaultPropJoint(asset.skeleton);
    try {
      const attachment = await view.attachments.attach(load, joint, offsetFor?.(joint));
      this.host.banner.show(`${attachment.asset.name} attached to ${attachment.jointName || `joint ${attachment.joint}`}`, 'info');
      return true;
    } catch (e) {
      this.host.banner.show(messageOf(e), 'error');
      return false;
    }
  }
}
