// The built-in twist model (src/procedural/twist-cylinder.ts), for the parity harness.
export { createTwistCylinder } from '../../../src/procedural/twist-cylinder.ts';
