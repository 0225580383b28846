/**
 * The site's reference pages that are generated from the code at build time, so they cannot drift from it
 * (listed on docs/reference/index.md). Each function returns one Markdown page;
 * build-site.ts writes them into docs/reference/ (git-ignored) before VitePress builds.
 *
 * - {@link elementReferencePage}: `<sinew-viewer>`'s attributes (`ELEMENT_ATTRIBUTES`), its properties and methods
 *   (the members of `SinewViewerElement`, `SinewViewerCore` and `AnimationApiProperties`, read from their
 *   sources with the TypeScript parser), its events (the `HTMLElementEventMap` the element declares, and the
 *   detail types of element-events.ts), slots and shadow parts (the `part` names its sources set).
 * - {@link cliReferencePage}: every command, argument and option of `createProgram` (src/cli/commands.ts).
 * - {@link loadErrorCodesPage}: `LOAD_ERROR_CODES`.
 * - {@link shortcutsPage}: the viewer's `SHORTCUTS` (src/viewer/help-overlay.ts).
 * - {@link performancePage}: every figure of bench/results.json with its date and machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Command } from 'commander';
import type { AttributeSpec } from '../../src/element/element-attributes.ts';

/**
 * The tables the pages are made from, imported from src/ by the caller through Vite's module runner (src/ imports
 * shaders with `?raw` and Vite's virtual modules, which plain node cannot load).
 */
export interface SourceTables {
  /** `ELEMENT_ATTRIBUTES` of src/element/element-attributes.ts. */
  readonly elementAttributes: Readonly<Record<string, AttributeSpec>>;
  /** `propertyName` of the same module: an attribute's property name. */
  readonly propertyName: (attribute: string) => string;
  /** `LOAD_ERROR_CODES` of src/loaders/load-error-codes.ts. */
  readonly loadErrorCodes: Readonly<Record<string, string>>;
  /** `SHORTCUTS` of src/viewer/help-overlay.ts. */
  readonly shortcuts: readonly (readonly [string, string])[];
}

/** Markdown table cell: pipes escaped, line breaks folded, `<` outside code spans kept from Vue's template parser. */
function cell(text: string): string {
  return escapeHtmlOutsideCode(text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim());
}

/** A Markdown table cell holding code: pipes escaped, line breaks folded (VitePress escapes the rest). */
function code(text: string): string {
  return `\`${text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim()}\``;
}

/**
 * VitePress compiles Markdown to Vue templates: a bare `<sinew-viewer>` or `{{` in prose would be read as markup.
 * Code spans are safe (VitePress escapes them); elsewhere `<` becomes `&lt;` and `{{` is broken up.
 */
function escapeHtmlOutsideCode(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/\{\{/g, '{&#8203;{')))
    .join('');
}

/** The first paragraph of a JSDoc comment, with `{@link X}` reduced to `X` in code. */
function docSummary(node: ts.Node): string {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
  if (!docs?.length) return '';
  const comment = docs[docs.length - 1].comment;
  const text = typeof comment === 'string' ? comment : (comment ?? []).map((c) => (c.kind === ts.SyntaxKind.JSDocText ? c.text : `\`${c.name?.getText() ?? c.text}\``)).join('');
  return text.split(/\n\s*\n/)[0].trim();
}

/** Read one source file with the TypeScript parser (syntax only: no type checking, so it is fast). */
function parse(root: string, path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.ES2022, true);
}

interface Member {
  readonly name: string;
  readonly kind: 'property' | 'method';
  readonly signature: string;
  readonly doc: string;
  readonly source: string;
}

function isPublic(node: ts.ClassElement | ts.TypeElement): boolean {
  const mods = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  if (mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword || m.kind === ts.SyntaxKind.StaticKeyword)) return false;
  const name = node.name;
  return !!name && !ts.isPrivateIdentifier(name) && !/Callback$/.test(name.getText()) && name.getText() !== 'constructor';
}

/** The public members of `className` (a class or an interface) in `path`. */
function membersOf(root: string, path: string, className: string): Member[] {
  const file = parse(root, path);
  const out: Member[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name?.text === className) {
      for (const m of node.members) {
        if (!isPublic(m) || !m.name) continue;
        const name = m.name.getText();
        const doc = docSummary(m);
        if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) {
          const params = m.parameters.map((p) => p.getText()).join(', ');
          const ret = m.type ? `: ${m.type.getText()}` : '';
          out.push({ name, kind: 'method', signature: `${name}(${params})${ret}`, doc, source: path });
        } else if (ts.isGetAccessorDeclaration(m) || ts.isPropertyDeclaration(m) || ts.isPropertySignature(m)) {
          if (out.some((o) => o.name === name)) continue;
          const readonly = ts.isGetAccessorDeclaration(m)
            ? !node.members.some((o) => ts.isSetAccessorDeclaration(o) && o.name.getText() === name)
            : (ts.getModifiers(m) ?? []).some((mod) => mod.kind === ts.SyntaxKind.ReadonlyKeyword);
          const type = m.type ? m.type.getText() : 'unknown';
          out.push({ name, kind: 'property', signature: `${readonly ? 'readonly ' : ''}${name}: ${type}`, doc, source: path });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The names the element declares on `HTMLElementEventMap`, with the event type text of each. */
function declaredEvents(root: string, path: string): Array<{ name: string; type: string }> {
  const file = parse(root, path);
  const out: Array<{ name: string; type: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'HTMLElementEventMap') {
      for (const m of node.members) if (ts.isPropertySignature(m) && m.name) out.push({ name: m.name.getText().replace(/^'|'$/g, ''), type: m.type?.getText() ?? '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Every exported interface of element-events.ts: name → its doc and its fields' docs. */
function detailTypes(root: string, path: string): Map<string, { doc: string; fields: Array<{ name: string; type: string; doc: string }> }> {
  const file = parse(root, path);
  const out = new Map<string, { doc: string; fields: Array<{ name: string; type: string; doc: string }> }>();
  for (const s of file.statements) {
    if (!ts.isInterfaceDeclaration(s)) continue;
    out.set(s.name.text, {
      doc: docSummary(s),
      fields: s.members.filter(ts.isPropertySignature).map((m) => ({ name: m.name.getText(), type: m.type?.getText() ?? '', doc: docSummary(m) })),
    });
  }
  return out;
}

/** The names a source sets with `setAttribute('part', NAME)`, in order of appearance over `paths`. */
function shadowParts(root: string, paths: readonly string[]): string[] {
  const names: string[] = [];
  for (const path of paths) {
    for (const m of readFileSync(join(root, path), 'utf8').matchAll(/setAttribute\('part', '([a-z-]+)'\)/g)) if (!names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

/** The event names the element's sources fire (`emit('x'`, `new CustomEvent('x'`), in order of appearance. */
function firedEvents(root: string, paths: readonly string[]): string[] {
  const names: string[] = [];
  for (const path of paths) {
    for (const m of readFileSync(join(root, path), 'utf8').matchAll(/(?:emit|new CustomEvent)\(\s*'([a-z-]+)'/g)) if (!names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

/** Names that are kept for one release only (docs/reference/deprecated.md explains each). */
const DEPRECATED_EVENTS = new Set(['sinew-load', 'sinew-progress']);
const isDeprecatedAttribute = (spec: AttributeSpec): boolean => /deprecated|kept for one release/i.test(spec.doc);

/** `<sinew-viewer>`'s reference page. `root` is the repository's folder. */
export function elementReferencePage(root: string, elementFiles: readonly string[], tables: SourceTables): string {
  const lines: string[] = [
    '# `<sinew-viewer>` reference',
    '',
    'Generated from the code at build time (build/docs/reference-pages.ts): the attribute table `ELEMENT_ATTRIBUTES`',
    '(src/element/element-attributes.ts), the members of `SinewViewerElement` and its core, the events it declares and',
    'their detail types (src/element/element-events.ts), and the shadow parts its sources set. Each attribute is told in',
    'more detail on [attributes in detail](element-attributes.md); the how-to is [Embed a character](../guide/embedding.md).',
    'Names marked *deprecated* are kept for one release: see [deprecated names](deprecated.md).',
    '',
    '## Attributes',
    '',
    '| attribute | property | kind | when absent | meaning |',
    '|---|---|---|---|---|',
  ];
  for (const [name, spec] of Object.entries(tables.elementAttributes)) {
    const flag = isDeprecatedAttribute(spec) ? ' *deprecated*' : '';
    lines.push(`| \`${name}\`${flag} | \`${tables.propertyName(name)}\` | ${spec.kind} | ${spec.absent === null ? 'off' : cell(spec.absent)} | ${cell(spec.doc)} |`);
  }

  const members = [
    ...membersOf(root, 'src/element/sinew-viewer-core.ts', 'SinewViewerCore'),
    ...membersOf(root, 'src/element/element-animation-api.ts', 'AnimationApiProperties'),
    ...membersOf(root, 'src/element/sinew-viewer-element.ts', 'SinewViewerElement'),
  ];
  for (const kind of ['property', 'method'] as const) {
    lines.push('', kind === 'property' ? '## Properties' : '## Methods', '');
    lines.push(kind === 'property'
      ? 'Beyond the attributes\' reflected properties above:'
      : 'See the API reference\'s `SinewViewerElement` for parameter types.', '');
    lines.push(`| ${kind} | meaning | source |`, '|---|---|---|');
    for (const m of members.filter((x) => x.kind === kind)) lines.push(`| ${code(m.signature)} | ${cell(m.doc) || '—'} | ${m.source} |`);
  }

  const details = detailTypes(root, 'src/element/element-events.ts');
  lines.push('', '## Events', '', 'Each is a `CustomEvent` that bubbles and is `composed`. The detail type is the one the element declares on',
    '`HTMLElementEventMap` (src/element/sinew-viewer-element.ts); when it is one of element-events.ts\'s interfaces its fields follow.', '',
    '| event | detail type | detail fields |', '|---|---|---|');
  for (const { name, type } of declaredEvents(root, 'src/element/sinew-viewer-element.ts')) {
    const detailName = type.match(/CustomEvent<(\w+)>/)?.[1] ?? type.match(/SinewEventDetails\['([^']+)'\]/)?.[1];
    let fields = '';
    const direct = detailName ? details.get(detailName) : undefined;
    const viaMap = !direct && detailName ? findDetailByEvent(root, detailName, details) : undefined;
    const info = direct ?? viaMap;
    if (info) fields = info.fields.map((f) => `\`${f.name}\`${f.doc ? `: ${f.doc}` : ''}`).join('; ');
    lines.push(`| \`${name}\`${DEPRECATED_EVENTS.has(name) ? ' *deprecated*' : ''} | ${code(type)} | ${cell(fields) || '—'} |`);
  }
  const declared = new Set(declaredEvents(root, 'src/element/sinew-viewer-element.ts').map((e) => e.name));
  const undeclared = firedEvents(root, elementFiles).filter((name) => !declared.has(name));
  if (undeclared.length) {
    lines.push('', 'Fired by the element but not (yet) declared on its event map, so without a typed `detail` here; each is told in',
      `[Listen to events](../guide/events.md): ${undeclared.map((n) => `\`${n}\`${DEPRECATED_EVENTS.has(n) ? ' (*deprecated*)' : ''}`).join(', ')}.`);
  }

  lines.push('', '## Slots', '', '| slot | what |', '|---|---|',
    '| `hotspot-NAME` (any name beginning with `hotspot`) | a hotspot: the child is placed over the canvas on a joint, the skinned surface or a model-space point ([hotspots](../guide/hotspots.md)) |',
    '', 'Children `<sinew-attachment>` are props on joints ([attachments](../guide/attachments.md)); they are not slotted.');

  lines.push('', '## Shadow parts', '', 'Style them with `sinew-viewer::part(NAME)`.', '', '| part |', '|---|');
  for (const part of shadowParts(root, elementFiles)) lines.push(`| \`${part}\` |`);
  return lines.join('\n') + '\n';
}

/** The interface `SinewEventDetails[event]` names, when element-events.ts maps events to detail interfaces. */
function findDetailByEvent(root: string, event: string, details: ReturnType<typeof detailTypes>) {
  const file = parse(root, 'src/element/element-events.ts');
  for (const s of file.statements) {
    if (!ts.isInterfaceDeclaration(s) || s.name.text !== 'SinewEventDetails') continue;
    for (const m of s.members) {
      if (ts.isPropertySignature(m) && m.name.getText().replace(/^'|'$/g, '') === event && m.type) return details.get(m.type.getText());
    }
  }
  return undefined;
}

/** The `sinew` command's reference page, walking the commander program as it is built for a run. */
export function cliReferencePage(program: Command): string {
  const lines: string[] = [
    '# `sinew` command reference',
    '',
    'Generated at build time from the commander definitions (`createProgram` in src/cli/commands.ts). The recipes',
    'are on [the command line](../guide/cli.md).',
    '',
    '```text',
    `${program.name()} ${program.usage()}`,
    '```',
    '',
    program.description(),
  ];
  const options = (cmd: Command): void => {
    if (!cmd.options.length) return;
    lines.push('', '| option | meaning | default |', '|---|---|---|');
    for (const o of cmd.options) {
      const def = o.defaultValue === undefined ? '' : `\`${JSON.stringify(o.defaultValue)}\``;
      const choices = o.argChoices ? ` (one of ${o.argChoices.map((c) => `\`${c}\``).join(', ')})` : '';
      lines.push(`| ${code(o.flags)} | ${cell(o.description + choices)} | ${def} |`);
    }
  };
  options(program);
  for (const cmd of program.commands) {
    lines.push('', `## \`sinew ${cmd.name()}\``, '', '```text', `sinew ${cmd.name()} ${cmd.usage()}`, '```', '', cell(cmd.description()));
    const args = cmd.registeredArguments;
    if (args.length) {
      lines.push('', '| argument | meaning | required |', '|---|---|---|');
      for (const a of args) lines.push(`| ${code(a.name())} | ${cell(a.description || '—')} | ${a.required ? 'yes' : 'no'} |`);
    }
    options(cmd);
  }
  return lines.join('\n') + '\n';
}

/** Every `LoadError` code and its meaning, in the registry's order. */
export function loadErrorCodesPage(tables: SourceTables): string {
  const lines = [
    '# Load-error codes',
    '',
    'Generated at build time from `LOAD_ERROR_CODES` (src/loaders/load-error-codes.ts), exported from `sinew-gl` with the',
    'type `LoadErrorCode`. Every failure to load is one `LoadError { file, where, code, problem }`; what each group of',
    'codes means and how they are chosen is explained in [load errors](../explanation/load-errors.md).',
    '',
    '| code | meaning |',
    '|---|---|',
  ];
  for (const [code, meaning] of Object.entries(tables.loadErrorCodes)) lines.push(`| \`${code}\` | ${cell(meaning)} |`);
  return lines.join('\n') + '\n';
}

/** The viewer app's keyboard shortcuts, as its help dialog lists them. */
export function shortcutsPage(tables: SourceTables): string {
  const lines = [
    '# Viewer keyboard shortcuts',
    '',
    'Generated at build time from `SHORTCUTS` (src/viewer/help-overlay.ts), the list the viewer\'s help (`?`) shows.',
    'The viewer is described in [Inspect a rig in the viewer app](../guide/viewer-app.md).',
    '',
    '| key | does |',
    '|---|---|',
  ];
  for (const [key, what] of tables.shortcuts) lines.push(`| <kbd>${cell(key)}</kbd> | ${cell(what)} |`);
  return lines.join('\n') + '\n';
}

/** The shape of bench/results.json that this page reads (bench/run-bench.ts writes it with `--save`). */
interface BenchResults {
  readonly machine: { readonly cpu: string; readonly cores: number; readonly memoryGiB?: number; readonly platform?: string; readonly node?: string; readonly v8?: string; readonly loadAverage?: readonly number[] };
  readonly date: string;
  readonly seconds?: number;
  readonly figures: Readonly<Record<string, number>>;
}

/**
 * Every figure of bench/results.json, grouped by the key's first segment, with the run's date and machine. Each
 * group's heading is anchored by that segment as written (`performance.md#skin_once`), so prose that names a key
 * links to its group.
 */
export function performancePage(resultsJson: string): string {
  const results = JSON.parse(resultsJson) as BenchResults;
  const m = results.machine;
  const lines = [
    '# Performance figures',
    '',
    'Generated at build time from `bench/results.json`, written by `npm run bench -- --save`. How each figure is',
    'measured is explained in [performance method](../explanation/performance.md); the keys are the names to quote.',
    '',
    '| run | |',
    '|---|---|',
    `| date | ${results.date} |`,
    `| machine | ${cell(`${m.cpu}, ${m.cores} cores${m.memoryGiB ? `, ${m.memoryGiB} GiB` : ''}`)} |`,
    ...(m.platform ? [`| platform | ${cell(m.platform)} |`] : []),
    ...(m.node ? [`| node | ${cell(`${m.node}${m.v8 ? ` (V8 ${m.v8})` : ''}`)} |`] : []),
    ...(m.loadAverage ? [`| load average when it ended | ${m.loadAverage.join(' / ')} |`] : []),
    ...(results.seconds ? [`| run time | ${results.seconds} s |`] : []),
  ];
  const groups = new Map<string, Array<[string, number]>>();
  for (const [key, value] of Object.entries(results.figures)) {
    const group = key.split('.')[0];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push([key, value]);
  }
  for (const [group, entries] of groups) {
    lines.push('', `## ${group} {#${group}}`, '', '| key | value |', '|---|---|');
    for (const [key, value] of entries) lines.push(`| \`${key}\` | ${value} |`);
  }
  return lines.join('\n') + '\n';
}
