import { basename } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { evalClipIndex, writeEvaluation } from './evaluate-model.ts';
import { formatInspection } from './format-inspection.ts';
import { inspectModelFile } from './inspect-model.ts';
import { formatAnimationInspection, inspectAnimationFile } from './inspect-animation.ts';
import { LoadError } from '../loaders/load-error.ts';
import { loadCommandModel } from './load-command-model.ts';
import { writeStandardOutput } from './standard-output.ts';
import { openTextOutput } from './text-output.ts';
import { escapeControl } from './escape-control.ts';
import { parseExpressionInput, parseLookAtPoint, type ExpressionInput } from './avatar-inputs.ts';
import { parseSpringHz, springStepCount } from './simulate-springs.ts';
import { graphSteps, parseParameterInput, readGraphForModel, resolveGraphParameters, writeGraphEvaluation, type ParameterInput } from './evaluate-graph.ts';
import { inspectGraphFile, formatGraphInspection } from './inspect-graph.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../node/load-model-from-path.ts';
import { addRenderCommand } from './render-command.ts';
import { parseMebibytes, parseSeconds } from './number-options.ts';
import { addBakeCommand } from './bake-command.ts';
import { addOptimizeCommand } from './optimize-command.ts';
import { parseSkinningMode, parseWeightPolicy, SKINNING_MODES, WEIGHT_POLICIES, type SkinningMode, type WeightPolicy } from '../skinning/skinning-method.ts';

/** `sinew eval` options as commander hands them over (absent when not given). */
interface EvalOptions {
  clip?: string;
  time?: number;
  anim?: string;
  out?: string;
  maxMemory?: number;
  weights?: WeightPolicy;
  skinning?: SkinningMode;
  joints?: boolean;
  expression?: ExpressionInput[];
  lookAt?: [number, number, number];
  springs?: number;
  graph?: string;
  param?: ParameterInput[];
}

/** `sinew inspect` options. */
interface InspectOptions {
  anim?: string;
  graph?: string;
  json?: boolean;
  maxMemory?: number;
}

/**
 * Builds the `sinew` program: its commands, options and help texts (docs/guide/cli.md). Parsing
 * it with `parseAsync(argv, { from: 'user' })` runs one command; nothing calls `process.exit`
 * (`exitOverride`): help, version and every usage mistake end in a thrown `CommanderError` whose `exitCode` is
 * 0 for help and version (commander has printed them through `writeOut`) and non-zero for a usage mistake
 * (printed to stderr as `sinew: problem` and a hint to run `--help`). A command's own failure (an unreadable
 * or invalid model, an I/O error) is thrown as the error its code raised, not printed. Results go to stdout
 * (writeStandardOutput) or `--out`; loader warnings to stderr.
 *
 * @param version printed by `--version`
 * @param writeOut where commander writes help and the version (stdout, normally)
 */
export function createProgram(version: string, writeOut: (text: string) => void): Command {
  const program = new Command('sinew')
    .description('Evaluate, inspect and render skinned models (.glb, .gltf, .vrm, .md5mesh); inspect animations (.md5anim).')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    .helpCommand('help [command]', 'print help for a command')
    .configureOutput({
      writeOut,
      writeErr: (text) => process.stderr.write(text),
      // Commander says `error: unknown option '--foo'`; every sinew message starts `sinew: `.
      outputError: (text, write) => write(`sinew: ${text.replace(/^error: /, '')}`),
    })
    .exitOverride()
    .showHelpAfterError("run 'sinew --help' for usage")
    .addHelpText('after', '\nExit status: 0 success, 1 an unreadable or invalid model or an I/O error,\n2 a usage error.');

  program
    .command('eval')
    .description('print the skinned vertices of a model at a time of a clip or of an animation graph\'s run, as JSON')
    .argument('<model>', 'a .glb, .gltf, .vrm or .md5mesh file')
    .option('--clip <name|index>', 'clip to apply, by name or 0-based index; rest or -1: the rest pose (default: 0, or the rest pose for a model without clips)')
    .option('--time <seconds>', 'seconds into the clip, clamped to its keys; with --graph, the seconds the graph runs from t = 0 (default: 0)', parseSeconds)
    .option('--anim <file>', 'clips to play: an .md5anim for an .md5mesh (default: <name>.md5anim next to it, if present; else the bind pose); a .glb/.gltf/.vrma (or an .md5anim for a glTF) whose clips are retargeted onto the model by joint name (a .vrma by humanoid bone)')
    .option('--out <file>', 'write the JSON to this file instead of standard output')
    .option('--max-memory <MiB>', 'the memory budget: largest file read and most memory a file\'s data may decode to; eval stays within twice it (default: 512)', parseMebibytes)
    .option('--weights <policy>', `how weights are read: ${WEIGHT_POLICIES.join(', ')} (default: normalize)`, parseWeights)
    .option('--skinning <mode>', 'lbs (linear blend) or dqs (dual quaternion) (default: lbs)', parseSkinning)
    .option('--joints', "also print every skin joint's model-space matrix (node, name, 16 numbers column-major)")
    .option('--expression <name=weight>', "an avatar's expression weight in [0, 1], e.g. blink=1; repeat for more; replaces the clip's track of that expression (default: as the clip sets them, else 0)", parseExpressionInput)
    .option('--look-at <x,y,z>', "an avatar's eyes look at this point: model space, metres, e.g. 0,1.5,2 (default: as the clip poses them)", parseLookAtPoint)
    .option('--springs <hz>', 'simulate the spring bones (VRM hair, tails) from t = 0 to --time at this fixed rate, steps per second, as three-vrm\'s vrm.update orders it: reset at the pose of t = 0, then for k = 1..round(T*HZ) the clip posed at k/HZ and the springs advanced by 1/HZ (default: no simulation; the spring joints as the clip poses them, at rest where it does not animate them)', parseSpringHz)
    .addOption(new Option('--graph <file>', 'an animation graph (JSON, PlayCanvas\'s AnimStateGraph form; docs/guide/animation-graph.md) to run from t = 0 to --time at 60 updates per second (the last one shortened to end at --time exactly), the --param values held; prints the pose it reaches, and what each layer plays under "graph". Its states name the model\'s clips (or --anim\'s)')
      .conflicts(['clip', 'springs', 'expression', 'lookAt']))
    .option('--param <name=value>', 'with --graph: a graph parameter\'s value, held through the run, e.g. speed=1.5 or grounded=true (FLOAT: a number, INTEGER: a whole number, BOOLEAN and TRIGGER: true or false; a trigger fires once); repeat for more (default: the values the graph declares)', parseParameterInput)
    .helpOption('-h, --help', 'print this help')
    .showHelpAfterError("run 'sinew eval --help' for usage")
    .action((model: string, options: EvalOptions) => runEval(model, options));

  program
    .command('inspect')
    .description("print a model's scenes, skins, meshes, clips, avatar (a .vrm's meta, licence, humanoid, expressions, look-at) and loader warnings; or an animation's frames, frame rate, duration, joints and channels; or check an animation graph against a model")
    .argument('<file>', 'a .glb, .gltf, .vrm or .md5mesh model, or an .md5anim animation')
    .option('--anim <file>', 'for an .md5mesh: an .md5anim whose clip to include (default: <name>.md5anim next to it, if present); a .glb/.gltf/.vrma (or an .md5anim for a glTF): list the model\'s skin joints its clips drive and those they do not (as many as the eval warning counts)')
    .option('--graph <file>', 'validate an animation graph (JSON) against the model instead: its clips, parameters and transitions (errors, exit 1), then unreachable states, unused parameters and layers that never leave START (warnings); prints its layers, states, parameters and transitions')
    .option('--json', 'print JSON instead of tables')
    .option('--max-memory <MiB>', 'the memory budget: largest file read and most memory a file\'s data may decode to; eval stays within twice it (default: 512)', parseMebibytes)
    .helpOption('-h, --help', 'print this help')
    .showHelpAfterError("run 'sinew inspect --help' for usage")
    .action((model: string, options: InspectOptions) => runInspect(model, options));

  addRenderCommand(program);
  addBakeCommand(program);
  addOptimizeCommand(program);
  return program;
}

/** `--weights`: a weight policy name (skinning-method.ts). */
function parseWeights(value: string): WeightPolicy {
  const policy = parseWeightPolicy(value.trim());
  if (!policy) throw new InvalidArgumentError(`It must be one of ${WEIGHT_POLICIES.join(', ')}.`);
  return policy;
}

/** `--skinning`: `lbs` or `dqs`. */
function parseSkinning(value: string): SkinningMode {
  const mode = parseSkinningMode(value.trim());
  if (!mode) throw new InvalidArgumentError(`It must be one of ${SKINNING_MODES.join(', ')}.`);
  return mode;
}

async function runEval(model: string, options: EvalOptions): Promise<void> {
  if (options.graph !== undefined || options.param !== undefined) {
    await runGraphEval(model, options);
    return;
  }
  // The folder is checked before the model is loaded, so a mistyped --out costs nothing; the JSON is written as
  // it is evaluated, so its size never has to fit in memory.
  if (options.springs !== undefined) {
    // Too many steps: a usage error (exit 2) before any work; commander prints only its own parse errors.
    try { springStepCount(options.springs, options.time ?? 0); } catch (error) { process.stderr.write(`sinew: ${(error as Error).message}\n`); throw error; }
  }
  const output = openTextOutput(options.out);
  const asset = await loadCommandModel(model, { anim: options.anim, maxMemoryBytes: options.maxMemory });
  for (const warning of asset.warnings) process.stderr.write(`sinew: warning: ${escapeControl(warning)}\n`);
  const method = { skinning: options.skinning ?? 'lbs', weights: options.weights ?? 'normalize' } as const;
  const clipIndex = evalClipIndex(asset, options.clip);
  if (options.springs !== undefined) {
    if (!asset.secondaryMotion?.springBone?.springs.length) process.stderr.write(`sinew: note: ${escapeControl(basename(model))} has no spring bones; --springs changes nothing\n`);
  }
  try {
    await writeEvaluation(asset, clipIndex, options.time ?? 0, method, { joints: options.joints === true, avatar: { expressions: options.expression, lookAt: options.lookAt }, springHz: options.springs }, output.write);
  } catch (error) {
    await output.discard();
    throw error;
  }
  await output.close();
}

/** `sinew eval --graph`: the graph read and checked against the model, run to --time, the pose it reaches printed. */
async function runGraphEval(model: string, options: EvalOptions): Promise<void> {
  // Usage errors (exit 2) before any work; commander prints only its own parse errors.
  const usage = (message: string): never => {
    process.stderr.write(`sinew: ${message}\nrun 'sinew eval --help' for usage\n`);
    throw new InvalidArgumentError(message);
  };
  if (options.graph === undefined) usage('--param needs --graph (the graph whose parameter it sets)');
  try { graphSteps(options.time ?? 0); } catch (error) { usage((error as Error).message); }
  const output = openTextOutput(options.out);
  const asset = await loadCommandModel(model, { anim: options.anim, maxMemoryBytes: options.maxMemory });
  for (const warning of asset.warnings) process.stderr.write(`sinew: warning: ${escapeControl(warning)}\n`);
  const graphFile = options.graph!;
  const { graph, warnings } = await readGraphForModel(graphFile, asset, options.maxMemory ?? DEFAULT_MAX_FILE_BYTES);
  for (const warning of warnings) process.stderr.write(`sinew: warning: ${escapeControl(warning)}\n`);
  const parameters = resolveGraphParameters(graph, options.param ?? [], graphFile);
  const method = { skinning: options.skinning ?? 'lbs', weights: options.weights ?? 'normalize' } as const;
  try {
    await writeGraphEvaluation(asset, { graph, file: basename(graphFile), parameters, timeSeconds: options.time ?? 0, method, joints: options.joints === true }, output.write);
  } catch (error) {
    await output.discard();
    throw error;
  }
  await output.close();
}

async function runInspect(model: string, options: InspectOptions): Promise<void> {
  if (options.graph !== undefined) {
    if (/\.md5anim$/i.test(model)) throw new Error(`${model}: --graph applies to a model; ${basename(model)} is an animation`);
    const inspection = await inspectGraphFile(model, options.graph, { anim: options.anim, maxMemoryBytes: options.maxMemory });
    await writeStandardOutput(options.json ? JSON.stringify(inspection, null, 2) + '\n' : formatGraphInspection(inspection));
    return;
  }
  if (/\.md5anim$/i.test(model)) {
    if (options.anim !== undefined) throw new LoadError(options.anim, null, 'ANIM_NOT_APPLICABLE', `--anim applies to a model; ${basename(model)} is an animation`);
    const animation = await inspectAnimationFile(model, { maxMemoryBytes: options.maxMemory });
    await writeStandardOutput(options.json ? JSON.stringify(animation, null, 2) + '\n' : formatAnimationInspection(animation));
    return;
  }
  const report = await inspectModelFile(model, { anim: options.anim, maxMemoryBytes: options.maxMemory });
  await writeStandardOutput(options.json ? JSON.stringify(report, null, 2) + '\n' : formatInspection(report));
}
