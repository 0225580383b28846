import { basename, extname, join } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { openRenderSession } from '../node/render-session.ts';
import { checkRenderOptions, type RenderModelOptions } from '../node/render-options.ts';
import { isAnimatedFormat, isRenderFormat, RENDER_FORMATS, renderFormatOfPath, type RenderFormat } from '../node/render-format.ts';
import { statSync } from 'node:fs';
import { checkOutputFolder, writeOutputFile } from './output-file.ts';
import { describeError } from './describe-error.ts';
import { escapeControl } from './escape-control.ts';
import { parseDegrees, parsePixels, parsePositive, parseSeconds } from './number-options.ts';

/** `sinew render` options as commander hands them over: renderModel's, less the model and timeout, plus the outputs. */
type RenderOptions = Omit<RenderModelOptions, 'model' | 'timeoutMs' | 'onProgress'> & { out?: string; outDir?: string };

/** Least milliseconds between two frame-progress lines of one file on stderr. */
const PROGRESS_INTERVAL_MS = 1000;

/**
 * Adds `sinew render MODEL… (-o OUT | --out-dir DIR)` to `program`: a still PNG, or an animated preview (APNG,
 * GIF, WebM, MP4) encoded by `<sinew-viewer>`'s `toVideo` in headless Chromium; several models in one browser
 * with `--out-dir` (docs/guide/cli.md, docs/guide/animated-previews.md).
 */
export function addRenderCommand(program: Command): void {
  program
    .command('render')
    .description('draw models with <sinew-viewer> in headless Chromium and write a PNG, or an animated preview (APNG, GIF, WebM, MP4); several models in one browser with --out-dir')
    .argument('<model...>', 'one or more .glb, .gltf, .vrm or .md5mesh files (more than one needs --out-dir)')
    .option('-o, --out <file>', 'the file to write, for one model; its extension (.png .apng .gif .webm .mp4) gives the format unless --format does')
    .option('--out-dir <folder>', 'write each model to this folder as its base name plus the format\'s extension (Fox.glb → Fox.webm); a model that fails is reported and the others are still written (exit 1 at the end)')
    .option('--format <format>', `${RENDER_FORMATS.join(', ')} (default: from --out's extension; png with --out-dir)`, parseFormat)
    .option('--anim <file>', 'clips to play, as eval takes them: an .md5anim for an .md5mesh (default: <name>.md5anim next to it, if present; else the bind pose); a .glb/.gltf/.vrma (or an .md5anim for a glTF) whose clips are retargeted onto the model by joint name (a .vrma by humanoid bone)')
    .option('--clip <name|index>', 'clip by name or 0-based index (with --anim clips to retarget: one of theirs); rest or -1: the rest pose (default: the first clip)')
    .option('--time <seconds>', 'png: seconds into the clip (default: 0)', parseSeconds)
    .option('--fps <n>', 'animated formats: frames per second; frame k shows the clip at k/fps seconds (default: 30)', parseFramesPerSecond)
    .option('--duration <seconds>', 'animated formats: seconds of video (default: the clip\'s duration)', parsePositiveSeconds)
    .option('--turntable <degrees>', 'animated formats: degrees the camera turns about the model over the whole video, e.g. 360 (default: 0)', parseDegrees)
    .option('--width <pixels>', 'picture width (default: 640)', parsePixels)
    .option('--height <pixels>', 'picture height (default: 480)', parsePixels)
    .option('--yaw <degrees>', 'camera angle about the vertical from the model\'s front (camera-orbit θ; default: 0)', parseDegrees)
    .option('--pitch <degrees>', 'camera elevation above the horizon, in [-90, 90] (90 − camera-orbit φ; default: 15)', parseDegrees)
    .option('--distance <k>', 'camera distance as a multiple of the framed distance (camera-orbit radius / 100 %; default: 1.05)', parsePositive)
    .option('--background <colour>', 'CSS colour, or transparent for a PNG with alpha (default: the viewer\'s); WebM and MP4 frames are painted over it, APNG and GIF frames keep their transparent background')
    .helpOption('-h, --help', 'print this help')
    .showHelpAfterError("run 'sinew render --help' for usage")
    .addHelpText('after', '\nFrames are posed by time, not by the clock: two runs write the same frames.\nNeeds playwright-core and a Chromium: SINEW_CHROMIUM, the @sparticuz/chromium package, or a system Chromium.')
    .action((models: string[], options: RenderOptions) => runRender(models, options));
}

/** One model and the file it is written to. */
interface RenderJob {
  readonly model: string;
  readonly out: string;
}

/**
 * The command: usage checked (exit 2) and every output folder checked before the browser starts; each model
 * drawn in one session and written temp-then-rename; with `--out-dir`, a model that fails is reported on stderr
 * and the rest go on, and the command fails at the end.
 */
async function runRender(models: string[], options: RenderOptions): Promise<void> {
  const { out, outDir, ...view } = options;
  const usage = (message: string): never => {
    process.stderr.write(`sinew: ${message}\nrun 'sinew render --help' for usage\n`);
    throw new InvalidArgumentError(message);
  };
  if ((out === undefined) === (outDir === undefined)) usage('give either --out FILE (one model) or --out-dir FOLDER');
  if (out !== undefined && models.length > 1) usage(`${models.length} models need --out-dir FOLDER, not --out`);
  let format: RenderFormat = view.format ?? 'png';
  if (out !== undefined && view.format === undefined) {
    const fromName = renderFormatOfPath(out);
    if (fromName === null) usage(`${out}: unknown format ${JSON.stringify(extname(out))}; use .${RENDER_FORMATS.join(', .')} or --format`);
    format = fromName!;
  }
  try {
    checkRenderOptions({ ...view, format, model: '' });
  } catch (error) {
    usage((error as Error).message.replace(/^renderModel: /, '').replace(/^(\w+)/, (key) => `--${key}`));
  }
  const jobs: RenderJob[] = models.map((model) => ({
    model,
    out: out ?? join(outDir!, `${basename(model, extname(model))}.${format}`),
  }));
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.out)) usage(`two models would be written to ${job.out}`);
    seen.add(job.out);
  }
  if (outDir !== undefined) checkOutputFolder(join(outDir, 'x'));
  for (const job of jobs) checkOutputFile(job.out);

  const batch = outDir !== undefined;
  const session = await openRenderSession();
  let failed = 0;
  try {
    for (const [i, job] of jobs.entries()) {
      const name = escapeControl(basename(job.model));
      if (batch) process.stderr.write(`sinew: [${i + 1}/${jobs.length}] ${name} → ${escapeControl(job.out)}\n`);
      try {
        const bytes = await session.render({ ...view, format, model: job.model, onProgress: isAnimatedFormat(format) ? frameProgress(name) : undefined });
        await writeOutputFile(job.out, bytes);
      } catch (error) {
        if (!batch) throw error;
        failed++;
        process.stderr.write(`sinew: ${escapeControl(describeError(error))}\n`);
      }
    }
  } finally {
    await session.close();
  }
  if (failed > 0) throw new Error(`${failed} of ${jobs.length} models could not be rendered (see above); the others were written`);
}

/**
 * Checks, before the browser starts, that `path` can take an output file: its folder exists
 * ({@link checkOutputFolder}) and `path` is not a folder (the rename would fail after all the work).
 * @throws Error `folder: no such folder`, `folder: not a folder` or `path: is a folder, not a file`
 */
function checkOutputFile(path: string): void {
  checkOutputFolder(path);
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // Absent (or unreadable): the write says what is wrong.
  }
  if (isFolder) throw new Error(`${path}: is a folder, not a file`);
}

/** A `toVideo` progress listener printing `sinew: NAME: frame K/N` at most once a second, and the last frame. */
function frameProgress(name: string): (framesDone: number, frameCount: number) => void {
  let last = -Infinity;
  return (framesDone, frameCount) => {
    const now = performance.now();
    if (framesDone < frameCount && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    process.stderr.write(`sinew: ${name}: frame ${framesDone}/${frameCount}\n`);
  };
}

/** `--format`: one of {@link RENDER_FORMATS}. */
function parseFormat(value: string): RenderFormat {
  const format = value.trim().toLowerCase();
  if (!isRenderFormat(format)) throw new InvalidArgumentError(`It must be one of ${RENDER_FORMATS.join(', ')}.`);
  return format;
}

/** `--fps`: frames per second, a number in (0, 240]. */
function parseFramesPerSecond(value: string): number {
  const fps = Number(value);
  if (value.trim() === '' || !Number.isFinite(fps) || fps <= 0 || fps > 240) throw new InvalidArgumentError('It must be a number of frames per second, more than 0 and at most 240.');
  return fps;
}

/** `--duration`: a positive finite number of seconds. */
function parsePositiveSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('It must be a number of seconds greater than 0.');
  return seconds;
}
