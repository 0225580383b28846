// The Khronos glTF validator (devDependency `gltf-validator`) ships no types: the part the tests call.
declare module 'gltf-validator' {
  /** One finding; severity 0 is an error, 1 a warning, 2 information, 3 a hint. */
  export interface ValidatorMessage { readonly code: string; readonly message: string; readonly severity: number; readonly pointer?: string }
  export interface ValidatorReport {
    readonly issues: { readonly numErrors: number; readonly numWarnings: number; readonly messages: readonly ValidatorMessage[] };
  }
  /** Validates a GLB (or glTF JSON as bytes). */
  export function validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidatorReport>;
}
