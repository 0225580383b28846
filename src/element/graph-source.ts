/**
 * Where `<sinew-viewer>`'s animation graph comes from, and what the element ignores while one is set: pure rules
 * (no DOM), read by element-graph.ts and tested on their own.
 */
import { fileNameOf } from '../loaders/fetch/load-model-from-url.ts';

/** The children that may hold a graph inline: `<script type="application/json" slot="animation-graph">`. */
export const GRAPH_SCRIPT_SELECTOR = ':scope > script[type="application/json"][slot="animation-graph"]';

/** The file name messages give an inline graph (`LoadError.file`). */
export const INLINE_GRAPH_FILE = '<script slot="animation-graph">';

/**
 * The graph the element asks for: a URL to fetch (from `animation-graph`), the text of an inline script, or none.
 * `key` is the same for the same request, so a change that asks for the same graph again loads nothing.
 */
export type GraphSource =
  | { readonly kind: 'url'; readonly url: string; readonly file: string; readonly key: string }
  | { readonly kind: 'inline'; readonly text: string; readonly file: string; readonly key: string };

/**
 * The graph asked for: the `animation-graph` attribute when present and not blank (it wins), else the first
 * inline script's text, else null (no graph: `animation-name` plays).
 * @param attribute the attribute as written, or null when absent
 * @param inlineText the text of the first `<script type="application/json" slot="animation-graph">` child, or null
 * @param resolve makes a URL absolute (against the page) for the key; default as written
 */
export function graphSource(attribute: string | null, inlineText: string | null, resolve: (url: string) => string = (url) => url): GraphSource | null {
  const url = (attribute ?? '').trim();
  if (url !== '') return { kind: 'url', url, file: fileNameOf(url, 'animation-graph.json'), key: `url ${resolve(url)}` };
  if (inlineText !== null) return { kind: 'inline', text: inlineText, file: INLINE_GRAPH_FILE, key: `inline ${inlineText}` };
  return null;
}

/**
 * What a page may still do with the `<model-viewer>` animation API while a graph chooses the clips, and what it
 * ignores (each with one console warning per element, {@link ignoredMessage}): the member (attribute or method)
 * → why. Members not listed work on the graph: `play()` and `pause()` resume and pause it, `autoplay` starts it,
 * `timeScale` / `speed` scale its time (≤ 0 holds it), `root-motion` moves the model as its clips travel,
 * `appendAnimations(url)` adds clips (the graph is compiled again over them, its state kept).
 */
export const IGNORED_WITH_GRAPH = {
  'animation-name': "the graph's states choose the clips",
  clip: "the graph's states choose the clips",
  time: 'the graph keeps the time of each state',
  currentTime: 'the graph keeps the time of each state (reading it gives the active state\'s clip time)',
  'seek()': 'the graph keeps the time of each state',
  loop: "each state's `loop` says whether its clips loop",
  'animation-crossfade-duration': "the graph's transitions give their own crossfade `time`",
  fade: "the graph's transitions give their own crossfade `time`",
  'play(options)': 'repetitions and pingpong belong to a clip; play() resumes the graph',
  'appendAnimation()': 'the graph drives the animator\'s layers',
  'detachAnimation()': 'the graph drives the animator\'s layers',
  'clip menu': "the graph's states choose the clips",
} as const;

/** A member {@link IGNORED_WITH_GRAPH} lists. */
export type IgnoredWithGraph = keyof typeof IGNORED_WITH_GRAPH;

/** The warning for `member`: `animation-name is ignored while animation-graph is set: the graph's states choose the clips`. */
export function ignoredMessage(member: IgnoredWithGraph): string {
  return `${member} is ignored while animation-graph is set: ${IGNORED_WITH_GRAPH[member]}`;
}

/** The attributes {@link IGNORED_WITH_GRAPH} lists, in its order. */
export const IGNORED_ATTRIBUTES: readonly IgnoredWithGraph[] = ['animation-name', 'clip', 'time', 'loop', 'animation-crossfade-duration', 'fade'];
