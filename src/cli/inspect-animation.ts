import { basename } from 'node:path';
import { LoadError } from '../loaders/load-error.ts';
import { loadClips } from '../loaders/load-clips.ts';
import { decodeMd5Text } from '../loaders/md5/decode-md5-text.ts';
import { MD5_ANIM_FLAGS, parseMd5Anim } from '../loaders/md5/parse-md5-anim.ts';
import { DEFAULT_MAX_FILE_BYTES, readGuardedFile } from '../node/load-model-from-path.ts';
import { escapeControl } from './escape-control.ts';
import type { ClipInspection } from './inspect-model.ts';
import { formatTable, type TextColumn } from './text-table.ts';

/**
 * What `sinew inspect X.md5anim --json` prints (README "Command line: `sinew`"): an animation file as the file
 * states it, after Sinew has loaded it (so it is known to be valid). A contract scripts rely on, like
 * {@link ModelInspection}: fields may be added, existing ones keep their names and meaning. Tell the two apart
 * by `format`.
 */
export interface AnimationInspection {
  /** The file's name, without folders. */
  file: string;
  /** `md5anim`, by the file's extension. */
  format: 'md5anim';
  /** The data's up axis: `z` for MD5 (Sinew keeps the file's axes; a glTF model plays it turned, retargeted). */
  upAxis: 'z';
  /** Frames in the file (`numFrames`). */
  frameCount: number;
  /** Frames per second (`frameRate`). */
  frameRate: number;
  /** Seconds the clip plays: (frameCount − 1) / frameRate, the last frame's time (0 for one frame). */
  duration: number;
  /** Numbers each frame stores (`numAnimatedComponents`). */
  animatedComponentCount: number;
  /** The file's joints, in file order (parents first). */
  joints: AnimationJointInspection[];
  /** The one clip Sinew makes of the file (named after it), as `sinew eval --anim … --clip` names it. */
  clips: ClipInspection[];
  /** Sinew's loader warnings, each starting with the file name. */
  warnings: string[];
}

/** One joint of an `.md5anim` (its `hierarchy` entry). */
export interface AnimationJointInspection {
  name: string;
  /** Parent joint index, −1 for a root. */
  parent: number;
  /**
   * The components the frames animate, in the file's order: `Tx`, `Ty`, `Tz` (translation) and `Qx`, `Qy`,
   * `Qz` (rotation), by the joint's flags; empty for a joint that holds its baseframe throughout.
   */
  channels: string[];
}

const FLAG_NAMES = Object.entries(MD5_ANIM_FLAGS) as [string, number][];

/**
 * Node only: reads the `.md5anim` at `path` once (under the model reader's rules: a regular file, at most the
 * memory budget's bytes), loads its clip as `sinew eval --anim` would, and describes it.
 * @param options.maxMemoryBytes `--max-memory`: the largest file read (default 512 MiB)
 * @throws LoadError about the file: the MD5 parser's (`file:line: problem`), `FILE_NOT_FOUND`, `IO_ERROR`
 */
export async function inspectAnimationFile(path: string, options: { maxMemoryBytes?: number } = {}): Promise<AnimationInspection> {
  const name = basename(path);
  const bytes = await readGuardedFile(path, options.maxMemoryBytes ?? DEFAULT_MAX_FILE_BYTES);
  const library = await loadClips({ name, bytes }, async () => null, { memoryBudgetBytes: options.maxMemoryBytes });
  const anim = parseMd5Anim(name, decodeMd5Text(name, bytes));
  const clip = library.clips[0];
  if (!clip) throw new LoadError(name, null, 'INTERNAL', 'loaded without its clip');
  return {
    file: name,
    format: 'md5anim',
    upAxis: 'z',
    frameCount: anim.frameCount,
    frameRate: anim.frameRate,
    duration: clip.duration,
    animatedComponentCount: anim.numAnimatedComponents,
    joints: anim.hierarchy.map((joint) => ({
      name: joint.name,
      parent: joint.parent,
      channels: FLAG_NAMES.filter(([, bit]) => (joint.flags & bit) !== 0).map(([flag]) => flag),
    })),
    clips: library.clips.map((c) => ({
      name: c.name,
      duration: c.duration,
      channelCount: c.channels.length,
      interpolations: [...new Set(c.channels.map((channel) => channel.interpolation))].sort(),
    })),
    warnings: [...library.warnings],
  };
}

const left = (heading: string): TextColumn => ({ heading, align: 'left' });
const right = (heading: string): TextColumn => ({ heading, align: 'right' });

/**
 * `sinew inspect X.md5anim` without `--json`: a summary line (joints, frames, frame rate, duration rounded to
 * milliseconds), the joints table (parent and animated components), the clip and the warnings. Names come
 * from the file: their control characters are shown escaped (escapeControl).
 * @returns the text, ending with a newline
 */
export function formatAnimationInspection(report: AnimationInspection): string {
  const e = escapeControl;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const sections = [
    `${e(report.file)}: MD5 animation, ${report.upAxis.toUpperCase()} up, ${plural(report.joints.length, 'joint')}, `
      + `${plural(report.frameCount, 'frame')} at ${report.frameRate} fps, ${report.duration.toFixed(3)} s`,
    `joints (${report.joints.length}, ${plural(report.animatedComponentCount, 'animated component')} a frame)\n` + formatTable(
      [right('#'), left('name'), right('parent'), left('animated')],
      report.joints.map((joint, j) => [String(j), e(joint.name), joint.parent < 0 ? '-' : String(joint.parent), joint.channels.join(' ') || '-']),
    ),
    `clips (${report.clips.length})\n` + formatTable(
      [right('#'), left('name'), right('duration (s)'), right('channels'), left('interpolations')],
      report.clips.map((clip, i) => [String(i), e(clip.name), clip.duration.toFixed(3), String(clip.channelCount), clip.interpolations.join(' ')]),
    ),
  ];
  sections.push(`warnings (${report.warnings.length})${report.warnings.length > 0 ? '\n' + report.warnings.map((w) => `- ${e(w)}`).join('\n') : ''}`);
  return sections.join('\n\n') + '\n';
}
