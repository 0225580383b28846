/** The message of a thrown value: an Error's `message`, anything else as a string. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
