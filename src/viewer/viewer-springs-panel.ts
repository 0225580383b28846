import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { ModelView } from '../view/model-view.ts';

/**
 * The wind the panel's strength and direction make: a horizontal world vector `strength · (sin θ, 0, cos θ)`,
 * θ the direction in degrees about +Y from +Z (0: blowing along +Z, 90: along +X). Units: those of
 * `SecondaryMotion.external`, added to each spring joint's `gravityDir · gravityPower` (the m/s²).
 */
export function windVector(strength: number, directionDegrees: number): [number, number, number] {
  const theta = (directionDegrees * Math.PI) / 180;
  const x = strength * Math.sin(theta), z = strength * Math.cos(theta);
  return [Math.abs(x) < 1e-12 ? 0 : x, 0, Math.abs(z) < 1e-12 ? 0 : z];
}

/**
 * The viewer's "Spring bones" folder (`#sinew-springs`), shown while the model has spring bones (a VRM's, or a
 * plain glTF's `VRMC_springBone`): springs on/off (`data-control="spring-bones"`; off draws the clip's pose),
 * wind strength (`data-control="wind-strength"`, 0–5) and direction (`data-control="wind-direction"`, degrees
 * about +Y from +Z; {@link windVector}), "show colliders" (`data-control="show-colliders"`: spheres, capsules and
 * planes drawn over the model) and reset (`data-control="reset-springs"`: the hair at rest on the current pose).
 * Everything goes through `ModelView.springs`. A model shown starts with springs on, no wind; the colliders view
 * stays as it was.
 */
export class ViewerSpringsPanel {
  /** The folder element (`#sinew-springs`). */
  readonly element: HTMLElement;
  private readonly values = { springs: true, strength: 0, direction: 0, colliders: false, reset: () => this.view.springs.reset() };
  private readonly controllers: Controller[];

  /**
   * @param view the viewer's view (its `springs` controls)
   * @param gui the panel's lil-gui root
   */
  constructor(private readonly view: ModelView, gui: GUI) {
    const folder = gui.addFolder('Spring bones');
    this.element = folder.domElement;
    this.element.id = 'sinew-springs';
    const tag = (controller: Controller, name: string): Controller => {
      controller.domElement.dataset.control = name;
      return controller;
    };
    this.controllers = [
      tag(folder.add(this.values, 'springs').name('Springs on').onChange((on: boolean) => view.springs.setEnabled(on)), 'spring-bones'),
      tag(folder.add(this.values, 'strength', 0, 5, 0.05).name('Wind strength').onChange(() => this.windChanged()), 'wind-strength'),
      tag(folder.add(this.values, 'direction', 0, 360, 1).name('Wind direction (°)').onChange(() => this.windChanged()), 'wind-direction'),
      tag(folder.add(this.values, 'colliders').name('Show colliders').onChange((on: boolean) => view.springs.setShowColliders(on)), 'show-colliders'),
      tag(folder.add(this.values, 'reset').name('Reset springs'), 'reset-springs'),
    ];
    this.element.hidden = true;
  }

  /** A model was shown: the folder for its springs (springs on, no wind), or hidden. */
  modelShown(): void {
    this.element.hidden = !this.view.springs.present;
    if (!this.view.springs.present) return;
    this.values.springs = true;
    this.values.strength = 0;
    for (const c of this.controllers) c.updateDisplay();
    this.view.springs.setEnabled(true);
    this.windChanged();
  }

  /** Switches (for the test hooks and the console), as the controls would. */
  set(settings: Partial<{ springs: boolean; strength: number; direction: number; colliders: boolean }>): void {
    Object.assign(this.values, settings);
    for (const c of this.controllers) c.updateDisplay();
    if (settings.springs !== undefined) this.view.springs.setEnabled(settings.springs);
    if (settings.colliders !== undefined) this.view.springs.setShowColliders(settings.colliders);
    if (settings.strength !== undefined || settings.direction !== undefined) this.windChanged();
  }

  private windChanged(): void {
    const { strength, direction } = this.values;
    if (Number.isFinite(strength) && Number.isFinite(direction)) this.view.springs.setWind(windVector(strength, direction));
  }
}
