import type { SiteLinks } from './site-links.ts';

/**
 * The viewer page's keyboard shortcuts: key and what it does, in the order the help lists them. The one list:
 * the help dialog shows it and the docs are generated from it; every key the viewer handles
 * (viewer-app.ts, `attachKeys`) is in it (tests/unit/viewer/shortcuts.test.ts holds the two together).
 */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['Space', 'play / pause'],
  ['F', 'frame the model'],
  ['K', 'skeleton (hover a joint for its name, click to select it)'],
  ['H', 'weights of the selected joint (heat map)'],
  ['I', 'influences per vertex'],
  ['W', 'wireframe'],
  ['B', 'bounding box'],
  ['N', 'normals'],
  ['V', 'draw the CPU reference vertices instead of the shader’s'],
  ['C', 'compare GPU with CPU (max |GPU − CPU|)'],
  ['P', 'save a screenshot (PNG)'],
  ['Enter', 'fullscreen'],
  ['G', 'hide / show the panel'],
  ['J', 'jump (Drive folder on)'],
  ['↑ ↓ ← →', 'Drive folder on: speed up, slow down, turn left, turn right'],
  ['Esc', 'close this help, clear the joint selection'],
  ['?', 'this help'],
  ['Shift + drop a file', 'add its clips to the model shown, retargeted by joint name (an animation-only glTF, an .md5anim or a .vrma adds its clips without Shift)'],
  ['drag · right-drag · wheel', 'orbit · pan · zoom (touch: one finger orbits, two pan and pinch-zoom)'],
];

/**
 * The keyboard shortcut list over the viewer (`#sinew-help`), hidden until toggled (the `?` key), with links to
 * the docs site and the examples gallery when `links` are given.
 */
export class HelpOverlay {
  readonly element: HTMLElement;

  constructor(parent: HTMLElement, links: SiteLinks | null = null) {
    this.element = document.createElement('section');
    this.element.id = 'sinew-help';
    this.element.setAttribute('aria-label', 'Keyboard shortcuts');
    this.element.hidden = true;
    const title = document.createElement('h2');
    title.textContent = 'Keyboard shortcuts';
    const list = document.createElement('dl');
    for (const [key, what] of SHORTCUTS) {
      const dt = document.createElement('dt');
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      dt.append(kbd);
      const dd = document.createElement('dd');
      dd.textContent = what;
      list.append(dt, dd);
    }
    this.element.append(title, list);
    if (links) {
      const more = document.createElement('p');
      const docs = document.createElement('a');
      docs.href = links.docs;
      docs.textContent = 'the Sinew docs';
      const examples = document.createElement('a');
      examples.href = links.examples;
      examples.textContent = 'the examples gallery';
      more.append('More: ', docs, ' and ', examples, '.');
      this.element.append(more);
    }
    this.element.addEventListener('click', () => this.hide());
    parent.append(this.element);
  }

  toggle(): void {
    this.element.hidden = !this.element.hidden;
  }

  hide(): void {
    this.element.hidden = true;
  }
}
