/** The name of the joint under the pointer, beside it (`#sinew-joint-tip`). */
export class JointTip {
  readonly element: HTMLElement;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.id = 'sinew-joint-tip';
    this.element.setAttribute('role', 'tooltip');
    this.element.hidden = true;
    parent.append(this.element);
  }

  /** Shows `name` next to the page point (x, y), CSS pixels. */
  show(name: string, x: number, y: number): void {
    this.element.textContent = name;
    this.element.style.transform = `translate(${Math.round(x + 12)}px, ${Math.round(y + 12)}px)`;
    this.element.hidden = false;
  }

  hide(): void {
    this.element.hidden = true;
  }
}
