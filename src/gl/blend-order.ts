/**
 * The BLEND primitives of one draw, drawn after the opaque ones farthest first (glTF 2.0 §3.9.4): mesh
 * instance, primitive and squared distance to the eye of each, and the drawing order. Caller-owned scratch,
 * grown when a draw has more than it held and never shrunk, so frames allocate nothing.
 */
export class BlendOrder {
  /** Entries added since the last {@link clear}. */
  count = 0;
  private instances = new Int32Array(8);
  private primitives = new Int32Array(8);
  private distances = new Float64Array(8);
  private order = new Int32Array(8);

  clear(): void {
    this.count = 0;
  }

  /** Adds primitive `primitive` of mesh instance `instance` at squared display-space distance `distance`. */
  add(instance: number, primitive: number, distance: number): void {
    const k = this.count;
    if (k === this.order.length) this.grow(2 * k);
    this.instances[k] = instance;
    this.primitives[k] = primitive;
    this.distances[k] = distance;
    this.order[k] = k;
    this.count = k + 1;
  }

  /** Orders the entries by distance, largest first (insertion sort: few blended primitives; no allocation). */
  sortFarthestFirst(): void {
    const order = this.order, distance = this.distances;
    for (let k = 1; k < this.count; k++) {
      const item = order[k];
      const d = distance[item];
      let j = k - 1;
      while (j >= 0 && distance[order[j]] < d) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = item;
    }
  }

  /** Mesh instance of the k-th entry in drawing order. */
  instanceAt(k: number): number {
    return this.instances[this.order[k]];
  }

  /** Primitive of the k-th entry in drawing order. */
  primitiveAt(k: number): number {
    return this.primitives[this.order[k]];
  }

  private grow(size: number): void {
    const grow = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.instances = grow(this.instances, (n) => new Int32Array(n));
    this.primitives = grow(this.primitives, (n) => new Int32Array(n));
    this.distances = grow(this.distances, (n) => new Float64Array(n));
    this.order = grow(this.order, (n) => new Int32Array(n));
  }
}
