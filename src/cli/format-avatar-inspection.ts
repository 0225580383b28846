import type { AvatarInspection, SecondaryMotionInspection } from './inspect-avatar.ts';
import { escapeControl } from './escape-control.ts';
import { formatTable, type TextColumn } from './text-table.ts';

const left = (heading: string): TextColumn => ({ heading, align: 'left' });
const right = (heading: string): TextColumn => ({ heading, align: 'right' });
const NONE = '-';

/**
 * The avatar's sections of `sinew inspect` as text: the licence and permissions first (a person must see them
 * before using the avatar), then the rest of the meta, the humanoid map and the bones it lacks, the expressions,
 * the look-at and the first-person annotations. Text from the file is shown with its control characters escaped (escapeControl).
 * @returns the sections, each without a trailing newline
 */
export function formatAvatarSections(avatar: AvatarInspection): string[] {
  const e = escapeControl;
  const m = avatar.meta;
  const yes = (allowed: boolean) => (allowed ? 'allowed' : 'not allowed');
  const text = (value: string) => (value === '' ? NONE : e(value));
  const sections: string[] = [];
  sections.push([
    `avatar: VRM ${avatar.specVersion}${avatar.specVersion === '0.x' ? ' (converted to 1.0, turned to face +Z)' : ''}`,
    `licence: ${text(m.licenseUrl)}`,
    `  avatar permission: ${m.avatarPermission}`,
    `  commercial usage: ${m.commercialUsage}`,
    `  excessively violent usage: ${yes(m.allowExcessivelyViolentUsage)}`,
    `  excessively sexual usage: ${yes(m.allowExcessivelySexualUsage)}`,
    `  political or religious usage: ${yes(m.allowPoliticalOrReligiousUsage)}`,
    `  antisocial or hate usage: ${yes(m.allowAntisocialOrHateUsage)}`,
    `  credit notation: ${m.creditNotation}`,
    `  redistribution: ${yes(m.allowRedistribution)}`,
    `  modification: ${m.modification}`,
    `  other licence: ${text(m.otherLicenseUrl)}`,
  ].join('\n'));
  sections.push([
    `meta: ${text(m.name)}${m.version ? ` ${e(m.version)}` : ''}`,
    `  authors: ${m.authors.length > 0 ? m.authors.map(e).join(', ') : NONE}`,
    `  copyright: ${text(m.copyrightInformation)}`,
    `  contact: ${text(m.contactInformation)}`,
    `  references: ${m.references.length > 0 ? m.references.map(e).join(', ') : NONE}`,
    `  third-party licences: ${text(m.thirdPartyLicenses)}`,
    `  thumbnail image: ${m.thumbnailImage < 0 ? NONE : m.thumbnailImage}`,
  ].join('\n'));

  const missing = avatar.missingRequiredBones.length > 0 ? `\nmissing required bones: ${avatar.missingRequiredBones.join(', ')}` : '';
  sections.push(`humanoid (${avatar.humanoid.length} bones)\n` + formatTable(
    [left('bone'), right('node'), left('name')],
    avatar.humanoid.map((b) => [b.bone, String(b.node), e(b.name)]),
  ) + missing + `\nbones the rig lacks (${avatar.missingBones.length})${avatar.missingBones.length > 0 ? ': ' + avatar.missingBones.join(', ') : ''}`);

  sections.push(`expressions (${avatar.expressions.length})` + (avatar.expressions.length === 0 ? '' : '\n' + formatTable(
    [right('#'), left('name'), left('preset'), left('binary'), right('morph binds'), right('colour binds'), right('texture binds'),
      left('blink'), left('look-at'), left('mouth')],
    avatar.expressions.map((x, i) => [
      String(i), e(x.name), x.preset ?? 'custom', x.isBinary ? 'yes' : 'no', String(x.morphTargetBinds), String(x.materialColorBinds),
      String(x.textureTransformBinds), x.overrideBlink, x.overrideLookAt, x.overrideMouth,
    ]),
  )));

  const l = avatar.lookAt;
  const range = (r: { inputMaxValue: number; outputScale: number }) => `${r.inputMaxValue}° → ${r.outputScale}${l?.type === 'bone' ? '°' : ''}`;
  sections.push(l === null ? 'look-at: none' : [
    `look-at: ${l.type}, from (${l.offsetFromHeadBone.join(', ')}) m in the head's space, face along (${l.faceFront.join(', ')})`,
    `  horizontal inner ${range(l.rangeMapHorizontalInner)}, horizontal outer ${range(l.rangeMapHorizontalOuter)}`,
    `  vertical down ${range(l.rangeMapVerticalDown)}, vertical up ${range(l.rangeMapVerticalUp)}`,
  ].join('\n'));

  sections.push(`first person (${avatar.firstPerson.length} annotated mesh nodes; others auto)` + (avatar.firstPerson.length === 0 ? '' : '\n' + formatTable(
    [right('node'), left('name'), left('type')],
    avatar.firstPerson.map((a) => [String(a.node), e(a.name), a.type]),
  )));

  return sections;
}

/**
 * The secondary motion's sections of `sinew inspect` as text: the spring bones (springs, simulated joints,
 * colliders by shape, collider groups, then one row per spring) and the node constraints by kind. Spring names
 * come from the file: their control characters are shown escaped (escapeControl).
 * @returns the two sections, each without a trailing newline
 */
export function formatSecondaryMotionSections(motion: SecondaryMotionInspection): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const bones = motion.springBones;
  const sections: string[] = [];
  if (bones === null) sections.push('spring bones: none');
  else {
    const c = bones.colliders;
    const shapes = ([[c.sphere, 'sphere'], [c.capsule, 'capsule'], [c.plane, 'plane'], [c.insideSphere, 'inside sphere'], [c.insideCapsule, 'inside capsule']] as const)
      .filter(([n]) => n > 0).map(([n, shape]) => plural(n, shape));
    const colliderCount = c.sphere + c.capsule + c.plane + c.insideSphere + c.insideCapsule;
    sections.push(
      `spring bones: ${plural(bones.springs.length, 'spring')}, ${plural(bones.joints, 'simulated joint')}, ` +
      `${plural(colliderCount, 'collider')}${shapes.length > 0 ? ` (${shapes.join(', ')})` : ''}, ${plural(bones.colliderGroups, 'collider group')}` +
      (bones.springs.length === 0 ? '' : '\n' + formatTable(
        [right('#'), left('name'), right('joints'), right('node'), left('node name'), right('center'), right('collider groups')],
        bones.springs.map((s, i) => [String(i), s.name === '' ? NONE : escapeControl(s.name), String(s.joints), String(s.node), escapeControl(s.nodeName), s.center === null ? NONE : String(s.center), String(s.colliderGroups)]),
      )),
    );
  }
  const k = motion.nodeConstraints;
  sections.push(`node constraints (${k.roll + k.aim + k.rotation}): ${k.roll} roll, ${k.aim} aim, ${k.rotation} rotation`);
  return sections;
}
