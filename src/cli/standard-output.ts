let epipeGuarded = false;

/** Whether `error` says the other end of a pipe has closed (e.g. `sinew eval big.glb | head -c 100`). */
function isBrokenPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/**
 * Node only: writes `text` to standard output. Resolves true once node has handed it to the OS, or false,
 * quietly, when the reader has gone away (EPIPE, or the stream already closed by it: a closed pipe is the
 * reader's choice, not a failure, so no message and no stack trace; a streaming writer stops there). Node
 * emits a write error as an `'error'` event too, which would crash the process without a listener, so one is
 * added to `process.stdout` on the first call.
 * @throws Error (the promise rejects) for any other write error
 */
export function writeStandardOutput(text: string): Promise<boolean> {
  if (!epipeGuarded) {
    epipeGuarded = true;
    // The write callback below already reports each error (the CLI writes stdout only through here); the
    // listener only keeps the event from crashing the process.
    process.stdout.on('error', () => {});
  }
  if (process.stdout.destroyed) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => {
      if (error && !isBrokenPipe(error)) reject(error);
      else resolve(!error);
    });
  });
}
