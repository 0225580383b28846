/**
 * The scenes of model-viewer's generated environments `neutral` and `legacy` (model-viewer 4.x,
 * three-components/EnvironmentScene.ts: positions and scales in metres, rotations in radians about +Y, light
 * intensities as three.js takes them), shifted by that scene's `position.y = −3.5` so the camera sits at the
 * origin. shaders/environment/room.frag ray-casts them.
 */
export interface RoomScene {
  /** The room: a box seen from inside. */
  readonly room: { readonly center: readonly number[]; readonly scale: readonly number[] };
  /** White boxes: centre, scale, rotation about +Y (radians). */
  readonly boxes: readonly { readonly center: readonly number[]; readonly scale: readonly number[]; readonly angle: number }[];
  /** Emissive boxes: centre, scale, radiance (three's MeshBasicMaterial colour = intensity). */
  readonly lights: readonly { readonly center: readonly number[]; readonly scale: readonly number[]; readonly radiance: number }[];
  /** The point light (three PointLight, cutoff 28, decay 2): position and intensity in candela. */
  readonly point: { readonly position: readonly number[]; readonly intensity: number };
}

const Y = -3.5;
const at = (x: number, y: number, z: number): number[] => [x, y + Y, z];

const BOXES_NEUTRAL = [
  { center: at(-10.906, -1.0, 1.846), angle: -0.195, scale: [2.328, 7.905, 4.651] },
  { center: at(-5.607, -0.754, -0.758), angle: 0.994, scale: [1.970, 1.534, 3.955] },
  { center: at(6.167, -0.16, 7.803), angle: 0.561, scale: [3.927, 6.285, 3.687] },
  { center: at(-2.017, 0.018, 6.124), angle: 0.333, scale: [2.002, 4.566, 2.064] },
  { center: at(2.291, -0.756, -2.621), angle: -0.286, scale: [1.546, 1.552, 1.496] },
  { center: at(-2.193, -0.369, -5.547), angle: 0.516, scale: [3.875, 3.487, 2.986] },
];

/** model-viewer's `neutral` environment (its default since 3.x): even, colour-preserving light. */
export const NEUTRAL_ROOM: RoomScene = {
  room: { center: at(0, 13.2, 0), scale: [31.5, 28.5, 31.5] },
  boxes: BOXES_NEUTRAL,
  lights: [
    { radiance: 80, center: at(-14.0, 10.0, 8.0), scale: [0.1, 2.5, 2.5] },
    { radiance: 80, center: at(-14.0, 14.0, -4.0), scale: [0.1, 2.5, 2.5] },
    { radiance: 23, center: at(14.0, 12.0, 0.0), scale: [0.1, 5.0, 5.0] },
    { radiance: 16, center: at(0.0, 9.0, 14.0), scale: [5.0, 5.0, 0.1] },
    { radiance: 80, center: at(7.0, 8.0, -14.0), scale: [2.5, 2.5, 0.1] },
    { radiance: 80, center: at(-7.0, 16.0, -14.0), scale: [2.5, 2.5, 0.1] },
    { radiance: 1, center: at(0.0, 20.0, 0.0), scale: [0.1, 0.1, 0.1] },
  ],
  point: { position: at(0.5, 14.0, 0.5), intensity: 400 },
};

/** model-viewer's `legacy` environment (its default before 3.x): more contrast between the model's sides. */
export const LEGACY_ROOM: RoomScene = {
  room: { center: at(-0.757, 13.219, 0.717), scale: [31.713, 28.305, 28.591] },
  boxes: [
    { center: at(-10.906, 2.009, 1.846), angle: -0.195, scale: [2.328, 7.905, 4.651] },
    BOXES_NEUTRAL[1],
    { center: at(6.167, 0.857, 7.803), angle: 0.561, scale: [3.927, 6.285, 3.687] },
    BOXES_NEUTRAL[3], BOXES_NEUTRAL[4], BOXES_NEUTRAL[5],
  ],
  lights: [
    { radiance: 50, center: at(-16.116, 14.37, 8.208), scale: [0.1, 2.428, 2.739] },
    { radiance: 50, center: at(-16.109, 18.021, -8.207), scale: [0.1, 2.425, 2.751] },
    { radiance: 17, center: at(14.904, 12.198, -1.832), scale: [0.15, 4.265, 6.331] },
    { radiance: 43, center: at(-0.462, 8.89, 14.520), scale: [4.38, 5.441, 0.088] },
    { radiance: 20, center: at(3.235, 11.486, -12.541), scale: [2.5, 2.0, 0.1] },
    { radiance: 100, center: at(0.0, 20.0, 0.0), scale: [1.0, 0.1, 1.0] },
  ],
  point: { position: at(0.418, 16.199, 0.300), intensity: 500 },
};

/** Sets room.frag's uniforms of `program` (in use) for `scene`. */
export function setRoomUniforms(gl: WebGL2RenderingContext, program: WebGLProgram, scene: RoomScene): void {
  const at = (name: string) => gl.getUniformLocation(program, name);
  gl.uniform3fv(at('u_roomCenter'), scene.room.center);
  gl.uniform3fv(at('u_roomScale'), scene.room.scale);
  gl.uniform3fv(at('u_boxCenter'), scene.boxes.flatMap((b) => b.center));
  gl.uniform3fv(at('u_boxScale'), scene.boxes.flatMap((b) => b.scale));
  gl.uniform1fv(at('u_boxAngle'), scene.boxes.map((b) => b.angle));
  gl.uniform1i(at('u_lightCount'), scene.lights.length);
  gl.uniform3fv(at('u_lightCenter'), scene.lights.flatMap((l) => l.center));
  gl.uniform3fv(at('u_lightScale'), scene.lights.flatMap((l) => l.scale));
  gl.uniform1fv(at('u_lightRadiance'), scene.lights.map((l) => l.radiance));
  gl.uniform3fv(at('u_pointPosition'), scene.point.position);
  gl.uniform1f(at('u_pointIntensity'), scene.point.intensity);
}
