import type { ModelView } from '../view/model-view.ts';
import type { Inspection } from './inspection.ts';
import type { JointTip } from './joint-tip.ts';
import { SurfacePicking } from './surface-picking.ts';

/** What {@link attachJointPicking} listens on and drives. */
export interface JointPickingOptions {
  readonly view: ModelView;
  /** The view's canvas; its parent holds the surface picking's marker. */
  readonly canvas: HTMLCanvasElement;
  /** The skeleton overlay's joints (`Inspection.pickJoint`) and the hovered joint. */
  readonly inspection: Inspection;
  /** Names the hovered joint by the pointer. */
  readonly jointTip: JointTip;
  /** A click chose `joint` (−1: none). */
  readonly selectJoint: (joint: number) => void;
}

/**
 * Pointer picking on the viewer's canvas: hovering a joint of the skeleton overlay names it; a click (not a drag:
 * within 4 CSS pixels) selects it, or else the joint that dominates the skinned surface under the pointer
 * (surface-picking.ts). Returns the surface picking, which the viewer hides when a model is shown.
 */
export function attachJointPicking(options: JointPickingOptions): SurfacePicking {
  const { view, canvas, inspection, jointTip, selectJoint } = options;
  const surfacePicking = new SurfacePicking(view, canvas, canvas.parentElement!);
  let downX = 0, downY = 0;
  const pick = (e: PointerEvent | MouseEvent): number => {
    if (!inspection.settings.skeleton) return -1;
    const rect = canvas.getBoundingClientRect();
    const sx = canvas.width / Math.max(rect.width, 1), sy = canvas.height / Math.max(rect.height, 1);
    return inspection.pickJoint((e.clientX - rect.left) * sx, (e.clientY - rect.top) * sy, 10 * sx);
  };
  canvas.addEventListener('pointerdown', (e) => {
    downX = e.clientX;
    downY = e.clientY;
  });
  canvas.addEventListener('pointerup', (e) => {
    if (Math.hypot(e.clientX - downX, e.clientY - downY) > 4) return;
    // A skeleton joint first; else the skinned surface under the pointer (its dominant joint, its weights).
    let joint = pick(e);
    if (joint >= 0) surfacePicking.hide();
    else joint = surfacePicking.click(e.clientX, e.clientY);
    if (joint >= 0 || inspection.settings.skeleton) selectJoint(joint);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (e.buttons !== 0) return;
    const joint = pick(e);
    if (joint !== inspection.hoverJoint) {
      inspection.hoverJoint = joint;
      view.requestRedraw();
    }
    if (joint >= 0) jointTip.show(inspection.jointName(joint), e.clientX, e.clientY);
    else jointTip.hide();
  });
  canvas.addEventListener('pointerleave', () => jointTip.hide());
  return surfacePicking;
}
