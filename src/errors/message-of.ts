/**
 * The message of a thrown value: an Error's `message`, anything else (a string, a DOMException-like object from
 * another realm, `undefined`) as `String(value)`. A `catch` gets `unknown`; every room reports failures with this.
 */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
