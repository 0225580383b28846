import { LoadError, quoteUrl } from '../load-error.ts';

/** URL schemes the viewer fetches models and their companion files from. */
const FETCHABLE = new Set(['http:', 'https:', 'data:', 'blob:']);

/**
 * Resolves a model's URL, or a companion file's reference (a glTF uri, an MD5 image name), against `base` (the
 * page, or the model's URL) and checks that the browser may fetch it: http(s), data and blob URLs only
 * (`javascript:`, `file:` and other schemes a hostile file might name are refused before any request).
 *
 * @param reference the URL or relative reference as written
 * @param base absolute URL it is relative to; undefined when `reference` must be absolute
 * @param file the file the reference belongs to, named in the error (the model for a companion)
 * @throws LoadError `INVALID_URI` for an unparsable reference or a scheme not fetched
 */
export function fetchableUrl(reference: string, base: string | undefined, file: string): URL {
  let url: URL;
  try {
    url = new URL(reference, base);
  } catch (error) {
    throw new LoadError(file, null, 'INVALID_URI', `${quoteUrl(reference)} is not a valid URL`, { cause: error });
  }
  if (!FETCHABLE.has(url.protocol)) {
    throw new LoadError(file, null, 'INVALID_URI', `${quoteUrl(reference)} has the URI scheme ${url.protocol} (only http, https, data and blob URLs are fetched)`);
  }
  return url;
}

/**
 * The base URL a page's `fetch` resolves relative URLs against — the document's base URL in a window, the script's
 * URL in a worker (Fetch Standard, "Request" constructor: parse with the relevant settings object's API base URL) —
 * read through `new Request('')` so the loaders name no DOM object; null where there is none (node, where a
 * `Request` needs an absolute URL). The default of the fetch loaders' `baseUrl` option.
 */
export function fetchBaseUrl(): string | null {
  try {
    return new Request('').url;
  } catch {
    return null;
  }
}

/**
 * {@link fetchableUrl} for the URL a caller gave a fetch loader: resolved against `baseUrl` when given (the viewer
 * and the element pass `document.baseURI`), else against {@link fetchBaseUrl}; with neither, it must be absolute.
 * @throws LoadError `INVALID_URI` as {@link fetchableUrl}
 */
export function fetchableRequestUrl(reference: string, baseUrl: string | undefined, file: string): URL {
  return fetchableUrl(reference, baseUrl ?? fetchBaseUrl() ?? undefined, file);
}
