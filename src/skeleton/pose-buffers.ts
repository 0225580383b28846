/**
 * The matrices a posed model is drawn and skinned from: what one evaluation of a pose produces (e.g.
 * `AnimatedModel.evaluate`) and what the renderer (`SkinnedRenderer.draw`), the CPU reference path
 * (`skinVertices`) and bounds read. Spaces as in docs/explanation/skinning-formulas.md "Spaces and poses": *model space*
 * is the space of the skeleton's roots.
 *
 * The arrays are owned by the writer and overwritten in place each frame; readers keep no copies.
 */
export interface PoseBuffers {
  /**
   * `Float32Array(16·jointCount)`, column-major: the model-space matrix `M_i` of every skeleton joint (glTF:
   * every node), joint i at `16i` (docs/explanation/skinning-formulas.md S4), relative to {@link origin}: `T(−O) · M_i`.
   * A rigid mesh instance is placed by its joint's matrix.
   */
  readonly modelMatrices: Float32Array;
  /**
   * One set of skinning matrices per skin s of the asset, `Float32Array(16·skins[s].joints.length)`, column-major: skin joint
   * i's skinning matrix `K_i = T(−O) · M_{joints[i]} · B_i⁻¹` at `16i` (docs/explanation/skinning-formulas.md S0). It
   * carries a bind-pose vertex to model space relative to {@link origin}.
   */
  readonly skinMatrices: readonly Float32Array[];
  /**
   * `Float64Array(3)`: the model's origin O in model space, in the file's units (`computeModelOrigin`); the
   * matrices above are relative to it, and a point `p` they give is `O + p` in model space, added in f64 (the
   * renderer folds O into the view-projection, bounds and `sinew eval` add it). Absent: (0, 0, 0).
   */
  readonly origin?: Float64Array;
  /**
   * `Float32Array(w)`: this pose's morph target weights, mesh instance i's at
   * `ModelAsset.meshInstances[i].morphWeightOffset` (`LocalPose.morphWeights`), applied before skinning
   * (docs/explanation/skinning-formulas.md M0). Absent: the morph targets are not applied (all weights 0).
   */
  readonly morphWeights?: Float32Array;
}
