// Summarises a V8 sampling heap profile (.heapprofile: the contracts-latency bench's BENCH_HEAP_PROFILE, garbage
// included) as cpu-profile-summary.ts does a CPU profile: the bytes the thread allocated by package, file and
// function (self), and by our functions on the stack, per domain.
//
//   npx tsx bench/heap-profile-summary.ts <file.heapprofile> [--domains N] [--top N]
//
// Sampled: V8 records an allocation about every 32 KiB and counts it for the bytes it stands for, so small
// entries are rough; what is allocated is what the collector must later find and free.
import { readFileSync } from 'node:fs';
import { type CallFrame, type CpuProfile, summarise, takeNumberFlag } from './cpu-profile-summary.js';

interface HeapNode {
  id: number;
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/** The heap profile's tree as a CPU profile whose one "sample" per node stands for its bytes, for `summarise`. */
export function asCpuProfile(head: HeapNode): CpuProfile {
  const profile: CpuProfile = { nodes: [], startTime: 0, endTime: 0, samples: [], timeDeltas: [] };
  const pending = [head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    profile.nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((c) => c.id) });
    if (node.selfSize > 0) {
      profile.samples.push(node.id);
      profile.timeDeltas.push(node.selfSize);
    }
    pending.push(...node.children);
  }
  return profile;
}

const args = process.argv.slice(2);
const flag = (name: string) => takeNumberFlag(args, name);
const domains = flag('--domains') ?? 1;
const top = flag('--top') ?? 20;
const file = args[0];
if (!file) {
  process.stderr.write(
    'usage: npx tsx bench/heap-profile-summary.ts <file.heapprofile> [--domains N] [--top N]\n',
  );
  process.exit(1);
}
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
// summarise() reads each "sample" as microseconds and answers in thousandths of them: here, kilobytes.
const summary = summarise(asCpuProfile(head));
const kb = (k: number) =>
  `${(k / 1000).toFixed(1).padStart(8)} MB ${(k / domains).toFixed(1).padStart(7)} KB/domain`;
const lines = [`allocated ${kb(summary.busyMs)} (${domains} domains)`];
for (const [title, map] of [
  ['by package', summary.byPackage],
  ['by file', summary.byFile],
  ['by function (self)', summary.byFunction],
  ['our functions (inclusive: on the stack)', summary.inclusive],
] as const) {
  lines.push('', `${title}:`);
  for (const [key, k] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${kb(k)} ${((k / summary.busyMs) * 100).toFixed(1).padStart(5)} %  ${key}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
