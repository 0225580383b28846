/**
 * Resolves once the GPU has finished every command issued on `gl` before the call: inserts a fence
 * (`fenceSync(SYNC_GPU_COMMANDS_COMPLETE)`), flushes, and polls `clientWaitSync(sync, 0, 0)` once per task
 * (WebGL 2.0 §5.15: a sync object's status only changes between tasks, and client waits may not block).
 * Reading a `*_READ` buffer back after this returns the data without stalling the pipeline; reading it before
 * makes Chromium stall and log "READ-usage buffer was read back without waiting on a fence".
 * @throws Error (rejects) when the context is lost or the wait fails
 */
export function gpuCommandsComplete(gl: WebGL2RenderingContext): Promise<void> {
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!sync) return Promise.reject(new Error('fenceSync failed (WebGL context lost?)'));
  gl.flush();
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const status = gl.isContextLost() ? gl.WAIT_FAILED : gl.clientWaitSync(sync, 0, 0);
      if (status === gl.TIMEOUT_EXPIRED) {
        setTimeout(poll, 0);
        return;
      }
      gl.deleteSync(sync);
      if (status === gl.WAIT_FAILED) reject(new Error('waiting for the GPU failed (WebGL context lost?)'));
      else resolve();
    };
    setTimeout(poll, 0);
  });
}
