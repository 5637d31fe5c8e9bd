// Summarises a V8 CPU profile (.cpuprofile: `node --cpu-prof`, or the contracts-latency bench's
// BENCH_CPU_PROFILE) into the thread's busy time and its self time by function, by file and by package, so two
// runs can be set side by side.
//
//   npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--domains N | --per N --unit NAME] [--top N] [--callers REGEX]
//
// --domains N: times also per domain (the contracts benches); --per N --unit request: per any other unit (the
// health bench's requests, the pipeline's URLs).
//
// --callers: the stacks (callers first, eight deep) under which the functions whose `name file:line` matches
// REGEX spent their self time, e.g. `--callers '^writeLatin1String'`.
//
// Busy time is the sampled time less `(idle)` (the event loop waiting): what the thread spent on the CPU, garbage
// collection and `(program)` (V8 and native code outside JavaScript) included. Each sample's time is its
// `timeDeltas` entry, so a late sample counts for the time it stood for.
import { readFileSync } from 'node:fs';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time, idle included (ms). */
  totalMs: number;
  /** Sampled time less `(idle)` (ms). */
  busyMs: number;
  byFunction: Map<string, number>;
  byFile: Map<string, number>;
  byPackage: Map<string, number>;
  /** Time with the function anywhere on the stack (each sample counted once per function), our code only. */
  inclusive: Map<string, number>;
}

/** The file a frame belongs to, relative to the repository or node_modules; V8's pseudo-frames by name. */
function fileOf(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const url = frame.url.replace(/^file:\/\//, '');
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return url.slice(modules + '/node_modules/'.length);
  const repo = url.search(/\/(src|bench|test)\//);
  return repo !== -1 ? url.slice(repo + 1) : url;
}

/** A package (`undici`, `fast-xml-parser`), a folder of ours (`src/engine`) or Node itself (`node:internal`). */
function packageOf(file: string, url: string): string {
  if (url.includes('/node_modules/')) {
    const parts = file.split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
  }
  if (file.startsWith('node:')) return file.startsWith('node:internal') ? 'node:internal' : file;
  if (/^(src|bench|test)\//.test(file)) return file.split('/').slice(0, 2).join('/');
  return file;
}

const keyOf = (frame: CallFrame) =>
  `${frame.functionName || '(anonymous)'} ${fileOf(frame)}:${frame.lineNumber + 1}`;

/** Each node's parent, to walk a sample's stack from its leaf. */
function parents(profile: CpuProfile): Map<number, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  return parent;
}

/** Each node's self time: the sum of the time each of its samples stood for (`timeDeltas`). */
function selfTimeByNode(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return self;
}

export function summarise(profile: CpuProfile): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = parents(profile);
  const selfByNode = selfTimeByNode(profile);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfByNode) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const file = fileOf(frame);
    add(byFunction, keyOf(frame), us);
    add(byFile, file, us);
    add(byPackage, packageOf(file, frame.url), us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = (nodes.get(at) as ProfileNode).callFrame;
      if (!/\/(src)\//.test(f.url)) continue;
      const key = keyOf(f);
      if (!seen.has(key)) add(inclusive, key, us);
      seen.add(key);
    }
  }
  const toMs = (map: Map<string, number>) => new Map([...map].map(([k, us]) => [k, us / 1000]));
  return {
    totalMs: totalUs / 1000,
    busyMs: (totalUs - idleUs) / 1000,
    byFunction: toMs(byFunction),
    byFile: toMs(byFile),
    byPackage: toMs(byPackage),
    inclusive: toMs(inclusive),
  };
}

/** Self time of the functions matching `pattern`, by the stack above them (callers first, `depth` deep). */
export function callers(profile: CpuProfile, pattern: RegExp, depth = 8): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = parents(profile);
  const selfByNode = selfTimeByNode(profile);
  const stacks = new Map<string, number>();
  for (const [id, us] of selfByNode) {
    if (!pattern.test(keyOf((nodes.get(id) as ProfileNode).callFrame))) continue;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined && stack.length < depth; at = parent.get(at)) {
      const frame = (nodes.get(at) as ProfileNode).callFrame;
      if (frame.functionName !== '(root)') stack.unshift(keyOf(frame));
    }
    const key = stack.join('\n      < ');
    stacks.set(key, (stacks.get(key) ?? 0) + us / 1000);
  }
  return stacks;
}

/** The summary as text: busy time (per unit when given), then the top entries of each table. */
export function describe(
  summary: ProfileSummary,
  options: { domains?: number; unit?: string; top?: number } = {},
): string {
  const top = options.top ?? 25;
  const unit = options.unit ?? 'domain';
  const per = (ms: number) =>
    options.domains
      ? `${ms.toFixed(0).padStart(7)} ms ${(ms / options.domains).toFixed(2).padStart(6)} ms/${unit}`
      : `${ms.toFixed(0).padStart(7)} ms`;
  const table = (title: string, map: Map<string, number>) =>
    [
      `${title}:`,
      ...[...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, ms]) => `  ${per(ms)} ${((ms / summary.busyMs) * 100).toFixed(1).padStart(5)} %  ${k}`),
    ].join('\n');
  return [
    `sampled ${(summary.totalMs / 1000).toFixed(2)} s, busy ${(summary.busyMs / 1000).toFixed(2)} s` +
      (options.domains
        ? ` = ${(summary.busyMs / options.domains).toFixed(2)} ms per ${unit} (${options.domains} ${unit}s)`
        : ''),
    table('by package', summary.byPackage),
    table('by file', summary.byFile),
    table('by function (self time)', summary.byFunction),
    table('our functions (inclusive: on the stack)', summary.inclusive),
  ].join('\n\n');
}

/** A numeric `--name value` option, taken out of `args` (so what is left are the files); undefined when absent. */
export function takeNumberFlag(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = Number(args[i + 1]);
  args.splice(i, 2);
  return value;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name: string) => takeNumberFlag(args, name);
  const callerIndex = args.indexOf('--callers');
  const callerPattern = callerIndex === -1 ? undefined : new RegExp(args.splice(callerIndex, 2)[1] ?? '');
  const unitIndex = args.indexOf('--unit');
  const unit = unitIndex === -1 ? undefined : args.splice(unitIndex, 2)[1];
  const domains = flag('--domains') ?? flag('--per');
  const top = flag('--top');
  const file = args[0];
  if (!file) {
    process.stderr.write(
      'usage: npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--domains N | --per N --unit NAME] [--top N]\n',
    );
    process.exit(1);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  if (callerPattern) {
    const stacks = [...callers(profile, callerPattern)].sort((a, b) => b[1] - a[1]).slice(0, top ?? 25);
    for (const [stack, ms] of stacks)
      process.stdout.write(
        `${ms.toFixed(0).padStart(7)} ms  ${stack.split('\n      < ').reverse().join('\n      < ')}\n`,
      );
  } else {
    process.stdout.write(
      `${describe(summarise(profile), { ...(domains ? { domains } : {}), ...(unit ? { unit } : {}), ...(top ? { top } : {}) })}\n`,
    );
  }
}
