// The model frames moved to skeleton/ (the humanoid's normalised view uses them too); kept here for importers.
export { computeModelFrames, createModelFrames, type ModelFrames } from '../skeleton/model-frames.ts';
