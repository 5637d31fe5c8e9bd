// Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: the functions with the most self
// time, and self time added up by package (node_modules/<name>, node:<module>, or this repository's file).
// `npx tsx bench/cpu-profile-summary.ts FILE.cpuprofile [count]` — with a count (requests, URLs), each line
// also says microseconds per unit. docs/profiles.md lists what it showed.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-summary.ts FILE.cpuprofile [count]');
const count = countArg ? Number(countArg) : 0;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

const place = (url: string) => url.replace(/.*node_modules\//, '').replace(`file://${process.cwd()}/`, '');
const pkg = (url: string, name: string) => {
  if (!url) return name || '(native)';
  if (url.includes('node_modules/')) return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
  if (url.startsWith('node:')) return url;
  return place(url);
};

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = nodes.get(id)?.callFrame;
  const us = profile.timeDeltas[i] ?? 0;
  if (!frame) return;
  total += us;
  const fn = `${frame.functionName || '(anonymous)'} ${place(frame.url)}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  const group = pkg(frame.url, frame.functionName);
  byPackage.set(group, (byPackage.get(group) ?? 0) + us);
});

const line = (name: string, us: number) => {
  const share = `${((us / total) * 100).toFixed(1)}%`.padStart(6);
  const per = count ? `${(us / count).toFixed(2)} µs/unit`.padStart(16) : '';
  return `${share} ${per}  ${name}`;
};
process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled\n\nself time by function:\n`);
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25))
  process.stdout.write(`${line(name, us)}\n`);
process.stdout.write('\nself time by package:\n');
for (const [name, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20))
  process.stdout.write(`${line(name, us)}\n`);
