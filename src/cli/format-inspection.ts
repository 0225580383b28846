import type { ModelInspection } from './inspect-model.ts';
import { escapeControl } from './escape-control.ts';
import { formatTable, type TextColumn } from './text-table.ts';
import { formatAvatarSections, formatSecondaryMotionSections } from './format-avatar-inspection.ts';

const FORMAT_NAMES = { glb: 'binary glTF', gltf: 'glTF', md5mesh: 'MD5 mesh' } as const;

/** Shown in a table cell for a value the file does not give. */
const NONE = '-';

const left = (heading: string): TextColumn => ({ heading, align: 'left' });
const right = (heading: string): TextColumn => ({ heading, align: 'right' });

/**
 * `sinew inspect` without `--json`: the report as text for a person: a summary line, a VRM avatar's sections
 * (formatAvatarSections: licence and permissions first), its spring bones and node constraints
 * (formatSecondaryMotionSections), then one aligned table each for scenes, skins, mesh
 * primitives (their influences: the most any vertex uses), materials (MToon or glTF, and the MToon outline) and clips,
 * then the warnings. Durations are rounded to milliseconds;
 * `--json` has the exact values. Names and warnings come from the file: their control characters are shown
 * escaped (escapeControl), never sent to the terminal.
 * @returns the text, ending with a newline
 */
export function formatInspection(report: ModelInspection): string {
  const e = escapeControl;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const primitiveCount = report.meshes.reduce((sum, mesh) => sum + mesh.primitives.length, 0);
  const sections: string[] = [
    // MD5 has joints, not nodes; nodeCount counts them.
    `${e(report.file)}: ${FORMAT_NAMES[report.format]}, ${report.upAxis.toUpperCase()} up, ${plural(report.nodeCount, report.format === 'md5mesh' ? 'joint' : 'node')}`,
  ];
  // An avatar's licence and permissions come before anything else about the model.
  if (report.avatar) sections.push(...formatAvatarSections(report.avatar));
  if (report.secondaryMotion) sections.push(...formatSecondaryMotionSections(report.secondaryMotion));
  // A title with its count, then the table unless there is nothing to list.
  const section = (title: string, count: number, detail: string, body: () => string) =>
    sections.push(`${title} (${count}${detail})${count > 0 ? '\n' + body() : ''}`);

  section('scenes', report.scenes.length, report.scene === null ? '' : `, default ${report.scene}`, () => formatTable(
    [right('#'), left('name'), left('root nodes')],
    report.scenes.map((scene, i) => [String(i), e(scene.name), abbreviate(scene.nodes)]),
  ));

  section('skins', report.skins.length, '', () => formatTable(
    [right('#'), left('name'), right('joints'), left('root'), right('skeleton')],
    report.skins.map((skin, i) => [
      String(i),
      e(skin.name),
      String(skin.jointCount),
      skin.root === null ? NONE : `${skin.root}${skin.rootName ? ` ${e(skin.rootName)}` : ''}`,
      skin.skeleton === null ? NONE : String(skin.skeleton),
    ]),
  ));

  section('meshes', report.meshes.length, `, ${plural(primitiveCount, 'primitive')}`, () => formatTable(
    [right('mesh'), left('name'), right('prim'), left('mode'), right('vertices'), right('indices'), right('triangles'),
      right('influences'), right('morph targets'), left('material')],
    report.meshes.flatMap((mesh, m) => mesh.primitives.map((primitive, p) => [
      String(m),
      p === 0 ? e(mesh.name) : '',
      String(p),
      primitive.mode,
      String(primitive.vertexCount),
      primitive.indexCount === null ? NONE : String(primitive.indexCount),
      String(primitive.triangleCount),
      String(primitive.influencesPerVertex),
      String(primitive.morphTargetCount),
      primitive.material === null ? NONE : e(primitive.material),
    ])),
  ));

  const mtoonCount = report.materials.filter((m) => m.mtoon).length;
  section('materials', report.materials.length, mtoonCount > 0 ? `, ${mtoonCount} MToon` : '', () => formatTable(
    [right('#'), left('name'), left('shading'), left('outline')],
    report.materials.map((material, i) => [
      String(i), e(material.name), material.mtoon ? 'MToon' : 'glTF', material.outlineWidthMode ?? NONE,
    ]),
  ));

  section('clips', report.clips.length, '', () => formatTable(
    [right('#'), left('name'), right('duration (s)'), right('channels'), left('interpolations')],
    report.clips.map((clip, i) => [String(i), e(clip.name), clip.duration.toFixed(3), String(clip.channelCount), clip.interpolations.join(' ')]),
  ));

  const retarget = report.retarget;
  if (retarget) {
    const names = (list: readonly string[]) => (list.length > 0 ? '\n' + list.map(e).join(', ') : '');
    sections.push(`retargeted from ${e(retarget.file)}: ${plural(retarget.matched.length, 'joint')} matched${names(retarget.matched)}`);
    sections.push(`unmatched (${retarget.unmatched.length}, keep their rest pose)${names(retarget.unmatched)}`);
    section(`clips from ${e(retarget.file)}`, retarget.clips.length, '', () => formatTable(
      [right('#'), left('name'), right('duration (s)'), right('channels'), left('interpolations')],
      retarget.clips.map((clip, i) => [String(i), e(clip.name), clip.duration.toFixed(3), String(clip.channelCount), clip.interpolations.join(' ')]),
    ));
  }

  section('warnings', report.warnings.length, '', () => report.warnings.map((warning) => `- ${e(warning)}`).join('\n'));
  // Every line break above is Sinew's own; the file's text had its control characters escaped on the way in.
  return sections.join('\n\n') + '\n';
}

/** Node indices for a table cell: all of them, or the first few and how many more when a long list would swamp the table. */
function abbreviate(nodes: readonly number[]): string {
  const shown = 12;
  if (nodes.length <= shown) return nodes.join(' ');
  return `${nodes.slice(0, shown).join(' ')} … (${nodes.length - shown} more)`;
}
