/**
 * Length of the diagonal of the axis-aligned box around `positions` (x, y, z triples, length 3·n): the scale
 * the tests divide position errors by.
 */
export function positionsDiagonal(positions: ArrayLike<number>): number {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], positions[i]);
    max[i % 3] = Math.max(max[i % 3], positions[i]);
  }
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
}
