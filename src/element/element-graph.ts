import { AnimationGraph } from '../animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../animation/graph/animation-graph-driver.ts';
import type { AnimationGraphState } from '../animation/graph/animation-graph-state.ts';
import { PARAMETER_TYPES } from '../animation/graph/graph-layout.ts';
import type { AnimationEventList } from '../animation/animation-events.ts';
import { readAnimationGraph } from '../loaders/animation-graph/read-animation-graph.ts';
import { fetchFile } from '../loaders/fetch/load-model-from-url.ts';
import { fetchableRequestUrl } from '../loaders/fetch/fetchable-url.ts';
import { LoadError } from '../loaders/load-error.ts';
import { messageOf } from '../errors/message-of.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { ModelView } from '../view/model-view.ts';
import type { PlaybackDriver } from '../view/playback.ts';
import type { SinewGraphLoadDetail } from './element-events.ts';
import { warnOncePerElement } from './warning-log.ts';
import {
  GRAPH_SCRIPT_SELECTOR, graphSource, IGNORED_ATTRIBUTES, ignoredMessage, type GraphSource, type IgnoredWithGraph,
} from './graph-source.ts';

/** What {@link ElementGraph} needs of its `<sinew-viewer>`. */
export interface ElementGraphOwner {
  /** The element whose `animation-graph` attribute and inline graph script are read. */
  readonly element: HTMLElement;
  /** The view shown; null while disconnected. */
  currentView(): ModelView | null;
  /** Resolves once the clips files asked for so far (`animations`) have been added or have failed. */
  clipsSettled(): Promise<void>;
  /** A graph drives the model shown: fires `sinew-graphload`. */
  loaded(detail: SinewGraphLoadDetail): void;
  /** The graph was removed: `animation-name` plays again (the animator's graph slots are free). */
  released(): void;
  /** Reports a graph that cannot be read or fetched: console warning and `sinew-error`. */
  report(message: string): void;
}

/** A graph's text and file name (for messages). */
interface GraphText {
  readonly text: string;
  readonly file: string;
}

/** The graph compiled for one model, and the driver playing it on that model's animator. */
interface Installed {
  readonly source: GraphText;
  readonly animated: AnimatedModel;
  readonly graph: AnimationGraph;
  readonly driver: AnimationGraphDriver;
}

/**
 * `<sinew-viewer>`'s animation graph (docs/guide/animation-graph.md, "On the element"): the `animation-graph`
 * attribute (a URL, fetched once a model is shown and the `animations` files asked for are in) or an inline
 * `<script type="application/json" slot="animation-graph">` child (the attribute wins), read by
 * `readAnimationGraph` against every clip the element has, compiled once per model (`AnimationGraph`) and played
 * on the model's own animator by an `AnimationGraphDriver`, which the view's {@link Playback} calls in place of
 * the animator's own clock (`Playback.driver`: so `pause()` holds the graph, and its dt is scaled by `timeScale`).
 *
 * A graph that cannot be fetched or read is reported (the file and the JSON pointer) and changes nothing: what
 * played (the previous graph, or the clip) plays on. A new model gets the graph again with a fresh state (the
 * parameters' values carried over by name); clips added (`appendAnimations`, which makes a new model) keep the
 * whole state. Removing the graph frees the animator's slots and hands back to `animation-name`.
 * Each frame allocates nothing (the driver's update, through one bound {@link PlaybackDriver}).
 */
export class ElementGraph {
  private installed: Installed | null = null;
  /** The key of the source asked for last (graphSource), '' for none. */
  private requestedKey = '';
  /** The graph asked for and read, not yet put on a model (waiting for one, or for its clips files). */
  private pending: GraphText | null = null;
  /** The graph that last drove a model (a new model whose requested graph does not read gets it back). */
  private lastGood: GraphText | null = null;
  /** Bumped by each request: an earlier fetch is dropped. */
  private requestSerial = 0;
  /** Bumped by each model shown: an earlier model's wait for its clips files is dropped. */
  private shownSerial = 0;
  /** The parameter values of the graph that drove the model before a disconnection, by name (for the reconnect's model). */
  private carried: ReadonlyMap<string, number> | null = null;
  private observer: MutationObserver | null = null;
  /** {@link clipTime}'s answer, rewritten by each call (it is read every frame drawn). */
  private readonly clock = { time: 0, duration: 0 };
  /** The driver the view's playback calls each frame: moves the graph on by dt × the playback rate. */
  private readonly drive: PlaybackDriver = {
    update: (dt: number, events: AnimationEventList) => {
      const installed = this.installed;
      const speed = installed ? this.owner.currentView()?.playback.speed ?? 1 : 0;
      if (installed) installed.driver.update(speed > 0 ? dt * speed : 0, events);
      else events.clear();
    },
  };

  constructor(private readonly owner: ElementGraphOwner) {}

  /** Whether a graph drives the model shown. */
  get active(): boolean {
    return this.installed !== null && this.owner.currentView()?.playback.driver === this.drive;
  }

  /** The graph's layer names (for the events' `layer`), [] without a graph. */
  get layerNames(): readonly string[] {
    return this.installed?.graph.layout.layerNames ?? [];
  }

  /** The element connected: watches its inline graph script, and reads what it asks for now. */
  connect(): void {
    if (typeof MutationObserver !== 'undefined') {
      this.observer = new MutationObserver(() => this.refresh());
      this.observer.observe(this.owner.element, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['slot', 'type'] });
    }
    this.refresh();
  }

  /**
   * The element disconnected: stops watching; the graph (or one still being fetched) goes on the model shown on
   * reconnect.
   */
  disconnect(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.shownSerial++;
    if (this.installed) {
      this.pending ??= this.installed.source;
      this.carried = parameterValues(this.installed);
    }
    this.installed = null;
  }

  /**
   * `animation-graph` changed or the inline script did: fetches and reads the graph now asked for (nothing when it
   * is the one asked for before); none asked for: the graph goes and `animation-name` plays again.
   */
  refresh(): void {
    const element = this.owner.element;
    const script = element.querySelector(GRAPH_SCRIPT_SELECTOR);
    const source = graphSource(element.getAttribute('animation-graph'), script ? script.textContent ?? '' : null, resolved);
    const key = source?.key ?? '';
    if (key === this.requestedKey) return;
    this.requestedKey = key;
    const serial = ++this.requestSerial;
    this.pending = null;
    if (!source) {
      this.remove();
      return;
    }
    void this.request(source, serial);
  }

  /**
   * A model is shown (a load or a reconnect: a new animator): once its clips files are in, the graph asked for
   * (else the one that drove the previous model) is put on it, its parameters' values carried over by name.
   */
  shown(): void {
    const previous = this.installed;
    this.installed = null;
    if (previous && !this.pending) this.pending = previous.source;
    // A graph still being fetched goes on this model when it arrives (`request`).
    if (!this.pending) return;
    const serial = ++this.shownSerial;
    const carried = previous ? parameterValues(previous) : this.carried;
    this.carried = null;
    void this.owner.clipsSettled().then(() => {
      if (serial === this.shownSerial) this.applyPending(carried);
    });
  }

  /** Clips were added to the model shown (a new model over the same asset, its clips grown): the graph goes on it, its state kept. */
  clipsAdded(): void {
    const previous = this.installed;
    if (!previous) return;
    this.installed = null;
    try {
      this.install(previous.source, previous.driver.state);
    } catch (e) {
      // The same graph over more clips: it read before, so this is not expected; say it, and play the clip.
      this.owner.report(messageOf(e));
      this.owner.released();
    }
  }

  /**
   * Sets a parameter of the graph (`AnimationGraph.setParameter`): a FLOAT as given, an INTEGER rounded, a
   * BOOLEAN or TRIGGER from a boolean (or a number, non-zero true). Read by the next frame's update.
   * @throws RangeError without a graph, or for a parameter the graph does not have (naming its parameters)
   * @throws TypeError for a value that is neither a finite number nor a boolean
   */
  setParameter(name: string, value: number | boolean): void {
    const installed = this.require('setParameter', name);
    if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new TypeError(`<sinew-viewer>.setParameter("${name}"): expected a finite number or a boolean, got ${String(value)}`);
    }
    installed.graph.setParameter(installed.driver.state, this.parameter('setParameter', installed, name), value);
  }

  /**
   * A parameter's value: FLOAT and INTEGER as a number, BOOLEAN and TRIGGER as a boolean (a trigger is true until a
   * transition reading it fires).
   * @throws RangeError without a graph, or for a parameter the graph does not have
   */
  getParameter(name: string): number | boolean {
    const installed = this.require('getParameter', name);
    const index = this.parameter('getParameter', installed, name);
    const value = installed.graph.getParameter(installed.driver.state, index);
    const type = PARAMETER_TYPES[installed.graph.layout.parameterTypes[index]];
    return type === 'BOOLEAN' || type === 'TRIGGER' ? value !== 0 : value;
  }

  /**
   * The active state's name on graph layer `layer` (the destination while a transition runs), or null without a
   * graph. @throws RangeError for a layer the graph does not have
   */
  activeState(layer: number): string | null {
    const installed = this.installed;
    if (!installed || !this.active) return null;
    const count = installed.graph.layerCount;
    if (!Number.isInteger(layer) || layer < 0 || layer >= count) {
      throw new RangeError(`<sinew-viewer>.activeState(${String(layer)}): the graph has ${count} layer${count === 1 ? '' : 's'} (${installed.graph.layout.layerNames.join(', ')})`);
    }
    return installed.graph.activeState(installed.driver.state, layer);
  }

  /**
   * Seconds into the clip layer 0's active state plays (its first clip, for a blend tree), and that clip's
   * duration: what `currentTime`, `duration` and `sinew-timeupdate` say while a graph drives; 0, 0 at `START`.
   */
  clipTime(): Readonly<{ time: number; duration: number }> {
    const out = this.clock, installed = this.installed;
    out.time = 0;
    out.duration = 0;
    if (!installed) return out;
    const layout = installed.graph.layout, state = installed.driver.state, s = state.activeStates[0];
    if (layout.stateLeafCount[s] === 0) return out;
    const leaf = layout.stateLeafStart[s];
    out.time = state.leafTimes[leaf];
    out.duration = layout.leafClips[leaf].duration;
    return out;
  }

  /**
   * With a graph driving: warns once per element (console) that `member` is ignored, and says why
   * ({@link ignoredMessage}). @returns true when a graph drives (the caller then ignores the call)
   */
  ignores(member: IgnoredWithGraph): boolean {
    if (!this.active) return false;
    // The same sentence as `sinew-graphload`'s warning for an attribute present then: one console line for both.
    warnOncePerElement(this.owner.element, ignoredMessage(member));
    return true;
  }

  /** Fetches (for a URL) and reads the graph of `source`, then puts it on the model shown once its clips files are in. */
  private async request(source: GraphSource, serial: number): Promise<void> {
    let text: string;
    try {
      if (source.kind === 'url') {
        const url = fetchableRequestUrl(source.url, document.baseURI, source.file);
        const fetched = await fetchFile(url.href, source.file, null);
        if ('missing' in fetched) throw new LoadError(source.file, null, 'FILE_NOT_FOUND', fetched.missing);
        text = new TextDecoder().decode(fetched.bytes);
      } else {
        text = source.text;
      }
    } catch (e) {
      if (serial === this.requestSerial) this.owner.report(messageOf(e));
      return;
    }
    if (serial !== this.requestSerial) return;
    this.pending = { text, file: source.file };
    await this.owner.clipsSettled();
    // Another graph starts from its own defaults.
    if (serial === this.requestSerial) this.applyPending(null);
  }

  /**
   * Puts the pending graph on the model shown (carrying `carried` parameter values over by name); when it does
   * not read, reports why and keeps what plays — on a new model, the graph that drove the previous one when that
   * reads, else the clip.
   */
  private applyPending(carried: ReadonlyMap<string, number> | null): void {
    const pending = this.pending;
    if (!pending || !this.owner.currentView()?.animated) return;
    const fallback = this.installed ? null : this.lastGood;
    this.pending = null;
    try {
      this.install(pending, null, carried);
      return;
    } catch (e) {
      this.owner.report(messageOf(e));
    }
    if (fallback && fallback !== pending) {
      try {
        this.install(fallback, null, carried);
      } catch {
        // Said when it first failed on this model's clips: the clip plays.
      }
    }
  }

  /**
   * Reads `source` against the clips of the model shown, compiles it, and has it drive the model's animator.
   * @param state the graph state to go on with (clips added: the same graph over the same asset), else a new one
   * @param carried parameter values by name for a new state
   * @throws LoadError (file and JSON pointer) when the graph does not read against these clips; RangeError when it
   *   cannot drive the animator (a first layer that is `ADDITIVE`); nothing changes then
   */
  private install(source: GraphText, state: AnimationGraphState | null, carried: ReadonlyMap<string, number> | null = null): void {
    const view = this.owner.currentView();
    const animated = view?.animated;
    if (!view || !animated) return;
    const clipNames = animated.clips.map((clip) => clip.name);
    const { graph: asset, warnings } = readAnimationGraph(source.text, { file: source.file, clipNames });
    let graph: AnimationGraph;
    try {
      graph = new AnimationGraph(asset, animated.clips, { jointNames: animated.asset.skeleton.names });
    } catch (e) {
      throw new Error(`${source.file}: ${messageOf(e)}`, { cause: e });
    }
    if (graph.layout.layerAdditive[0] === 1) throw new RangeError(`${source.file}: the first layer must be OVERWRITE: it plays on the model's base layer`);
    const previous = this.installed;
    const animator = animated.animator;
    animator.reserveClipsPerLayer(graph.maxClipsPerLayer());
    // Clips appended over the clip stop: the graph's layers take the animator's layers from the base one up.
    for (const clip of view.layers.appended()) view.layers.detach(clip, 0);
    const reuse = state !== null && state.parameters.length === graph.layout.parameterNames.length && state.activeStates.length === graph.layerCount;
    const driver = new AnimationGraphDriver(graph, animator, reuse ? state : graph.createState());
    if (!reuse && carried) {
      for (const [name, value] of carried) if (graph.parameterIndex(name) >= 0) graph.setParameter(driver.state, name, value);
    }
    if (previous && previous.animated === animated) {
      for (let l = graph.layerCount; l < previous.graph.layerCount; l++) animator.stop(l);
    }
    this.installed = { source, animated, graph, driver };
    this.lastGood = source;
    view.playback.driver = this.drive;
    view.requestRedraw();
    if (state !== null && reuse) return;
    const ignored = IGNORED_ATTRIBUTES.filter((name) => this.owner.element.hasAttribute(name)).map((name) => ignoredMessage(name));
    this.owner.loaded({
      file: source.file, parameters: [...graph.layout.parameterNames], layers: [...graph.layout.layerNames], warnings: [...warnings, ...ignored],
    });
  }

  /** No graph asked for any more: the driver lets go of the animator, and `animation-name` plays again. */
  private remove(): void {
    const installed = this.installed;
    this.installed = null;
    this.lastGood = null;
    const view = this.owner.currentView();
    if (!installed || !view || view.animated !== installed.animated) return;
    if (view.playback.driver === this.drive) view.playback.driver = null;
    const animator = installed.animated.animator;
    for (let l = 0; l < installed.graph.layerCount; l++) {
      for (let s = 0; s < animator.maxClipsPerLayer; s++) animator.releaseSlot(l, s);
    }
    this.owner.released();
  }

  /** The installed graph, else a RangeError saying no graph is set. */
  private require(method: string, name: string): Installed {
    const installed = this.installed;
    if (installed && this.active) return installed;
    throw new RangeError(`<sinew-viewer>.${method}("${name}"): no animation graph is set (the animation-graph attribute, or a <script type="application/json" slot="animation-graph"> child, once the model is shown)`);
  }

  /** The index of parameter `name`, else a RangeError naming the graph's parameters. */
  private parameter(method: string, installed: Installed, name: string): number {
    const index = installed.graph.parameterIndex(String(name));
    if (index >= 0) return index;
    const names = installed.graph.layout.parameterNames;
    throw new RangeError(`<sinew-viewer>.${method}("${name}"): ${installed.source.file} has no such parameter (parameters: ${names.join(', ') || 'none'})`);
  }
}

/** A graph's parameter values by name (to carry over to the same graph on another model). */
function parameterValues(installed: Installed): Map<string, number> {
  const names = installed.graph.layout.parameterNames, values = installed.driver.state.parameters;
  return new Map(names.map((name, i) => [name, values[i]]));
}

/** `url` resolved against the page, so one file has one key. */
function resolved(url: string): string {
  try {
    return new URL(url, document.baseURI).href;
  } catch {
    return url;
  }
}
