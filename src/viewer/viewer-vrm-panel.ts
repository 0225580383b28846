import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { AvatarMeta } from '../asset/avatar-asset.ts';
import type { ModelView } from '../view/model-view.ts';
import { CursorGaze } from '../view/cursor-gaze.ts';

/** Where the avatar's eyes look in the viewer: nowhere in particular (as the clip poses them), the camera or the pointer. */
export type ViewerLookAt = 'off' | 'camera' | 'cursor';

/**
 * The meta's licence and permissions as label/value rows, licence first (VRMC_vrm-1.0 `meta.md`): what a user
 * must read before using the avatar, so the panel shows them before anything else.
 */
export function licenceRows(meta: AvatarMeta): [string, string][] {
  const yes = (allowed: boolean): string => (allowed ? 'allowed' : 'not allowed');
  const rows: [string, string][] = [
    ['Licence', meta.licenseUrl || '(none given)'],
    ['Avatar use', meta.avatarPermission],
    ['Commercial use', meta.commercialUsage],
    ['Credit', meta.creditNotation],
    ['Redistribution', yes(meta.allowRedistribution)],
    ['Modification', meta.modification],
    ['Violent use', yes(meta.allowExcessivelyViolentUsage)],
    ['Sexual use', yes(meta.allowExcessivelySexualUsage)],
    ['Political or religious use', yes(meta.allowPoliticalOrReligiousUsage)],
    ['Antisocial or hate use', yes(meta.allowAntisocialOrHateUsage)],
  ];
  if (meta.otherLicenseUrl) rows.push(['Other licence', meta.otherLicenseUrl]);
  rows.push(['Title', meta.name], ['Authors', meta.authors.join(', ')]);
  if (meta.version) rows.push(['Version', meta.version]);
  if (meta.copyrightInformation) rows.push(['Copyright', meta.copyrightInformation]);
  return rows;
}

/**
 * The viewer's VRM panel (the "VRM avatar" folder, `#sinew-vrm`), shown only while an avatar is shown, placed
 * right under the panel's header: first the licence and permissions, then the rest of the meta
 * (`#sinew-vrm-meta`, one `.sinew-vrm-meta-row` each, {@link licenceRows}); then one slider per expression
 * (0–1, `data-control="expression-NAME"`), the look-at toggle (off / camera / cursor; `data-control="look-at"`),
 * auto-blink (`data-control="auto-blink"`) and first person (`data-control="first-person"`, hiding the
 * third-person-only meshes: `ViewAvatar.setFirstPerson`). Everything goes through `ModelView.avatar`.
 */
export class ViewerVrmPanel {
  /** The folder element (`#sinew-vrm`). */
  readonly element: HTMLElement;
  private readonly folder: GUI;
  private readonly meta: HTMLElement;
  private readonly expressions: GUI;
  private expressionControllers: Controller[] = [];
  private readonly controllers: Controller[];
  private readonly values = { lookAt: 'off' as ViewerLookAt, autoBlink: false, firstPerson: false };
  private readonly weights: Record<string, number> = {};
  private readonly gaze = new CursorGaze();
  private readonly cursor: [number, number, number] = [0, 0, 0];
  private readonly eye: [number, number, number] = [0, 0, 0];
  private hasCursor = false;

  /**
   * @param view the viewer's view (its `avatar` controls)
   * @param gui the panel's lil-gui root; the folder goes right after its header
   * @param canvas the view's canvas, whose pointer moves steer look-at `cursor`
   */
  constructor(private readonly view: ModelView, gui: GUI, private readonly canvas: HTMLCanvasElement) {
    this.folder = gui.addFolder('VRM avatar');
    this.element = this.folder.domElement;
    this.element.id = 'sinew-vrm';
    const children = gui.$children;
    children.insertBefore(this.element, children.children[1] ?? null); // after the header
    this.meta = document.createElement('div');
    this.meta.id = 'sinew-vrm-meta';
    this.meta.className = 'sinew-vrm-meta';
    this.folder.$children.prepend(this.meta);
    const tag = (controller: Controller, name: string): Controller => {
      controller.domElement.dataset.control = name;
      return controller;
    };
    this.controllers = [
      tag(this.folder.add(this.values, 'lookAt', { off: 'off', camera: 'camera', cursor: 'cursor' }).name('Look at').onChange(() => this.lookAtChanged()), 'look-at'),
      tag(this.folder.add(this.values, 'autoBlink').name('Blink by itself').onChange((on: boolean) => view.avatar.setAutoBlink(on)), 'auto-blink'),
      tag(this.folder.add(this.values, 'firstPerson').name('First person (hide third-person meshes)').onChange((on: boolean) => view.avatar.setFirstPerson(on)), 'first-person'),
    ];
    this.expressions = this.folder.addFolder('Expressions');
    canvas.addEventListener('pointermove', (event) => this.pointerMoved(event));
    this.element.hidden = true;
  }

  /** A model was shown: the panel for its avatar (meta, one slider per expression, controls reset), or hidden. */
  modelShown(): void {
    const model = this.view.animated, avatar = model?.asset.avatar;
    this.element.hidden = !avatar;
    for (const c of this.expressionControllers) c.destroy();
    this.expressionControllers = [];
    this.meta.replaceChildren();
    if (!avatar) return;
    for (const [label, value] of licenceRows(avatar.meta)) {
      const row = document.createElement('div');
      row.className = 'sinew-vrm-meta-row sinew-note';
      const name = document.createElement('strong');
      name.textContent = `${label}: `;
      row.append(name, value);
      this.meta.append(row);
    }
    for (const name of this.view.avatar.availableExpressions) {
      this.weights[name] = this.view.avatar.getExpression(name);
      const c = this.expressions.add(this.weights, name, 0, 1, 0.01).onChange((w: number) => {
        if (Number.isFinite(w)) this.view.avatar.setExpression(name, w);
      });
      c.domElement.dataset.control = `expression-${name}`;
      this.expressionControllers.push(c);
    }
    this.values.lookAt = 'off';
    this.values.autoBlink = false;
    this.values.firstPerson = false;
    for (const c of this.controllers) c.updateDisplay();
    this.view.avatar.setAutoBlink(false);
    this.view.avatar.setFirstPerson(false);
    this.hasCursor = false;
  }

  /** After each frame drawn: look-at `camera` follows the camera (a moved camera is followed on the next frame). */
  frameDrawn(): void {
    if (this.values.lookAt !== 'camera' || !this.view.avatar.present) return;
    const eye = this.view.camera.eye;
    if (eye[0] === this.eye[0] && eye[1] === this.eye[1] && eye[2] === this.eye[2]) return;
    this.eye[0] = eye[0]; this.eye[1] = eye[1]; this.eye[2] = eye[2];
    this.view.avatar.setLookAtTarget(this.eye);
  }

  private lookAtChanged(): void {
    this.eye[0] = this.eye[1] = this.eye[2] = NaN;
    if (this.values.lookAt === 'off') this.view.avatar.setLookAtTarget(null);
    else if (this.values.lookAt === 'camera') this.frameDrawn();
    else this.view.avatar.setLookAtTarget(this.hasCursor ? this.cursor : [...this.view.camera.eye] as [number, number, number]);
  }

  /** Look-at `cursor`: the gaze target under the pointer ({@link CursorGaze}); a missed ray keeps the last point. */
  private pointerMoved(event: PointerEvent): void {
    if (this.values.lookAt !== 'cursor') return;
    if (!this.gaze.targetAt(this.cursor, this.view, event.clientX, event.clientY)) return;
    this.hasCursor = true;
    this.view.avatar.setLookAtTarget(this.cursor);
  }
}
