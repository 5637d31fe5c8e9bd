// The measured process's main thread: its own CPU time, and a V8 CPU profile of a stretch of it.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) of this process's main thread alone, from /proc (its task id is the process
 * id); null where there is no /proc. process.cpuUsage() counts every thread: worker threads, libuv's pool and
 * V8's background compiler and collector.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from the closing parenthesis: state is field 3,
    // utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU time (ms) of each of this process's threads, summed by thread name (/proc's `comm`); empty without /proc. */
export function threadsCpuMs(): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return byName;
  }
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name =
        task === String(process.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

/** Starts V8's sampling profiler on this thread; the returned function stops it and writes the .cpuprofile. */
export async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  };
}

/**
 * Starts V8's sampling heap profiler on this thread, counting the objects the collector has already freed too (so
 * it shows what was allocated, garbage included, not what is still alive); the returned function stops it and
 * writes the .heapprofile (bench/heap-profile-summary.ts reads it).
 */
export async function startHeapSampling(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // The two include flags are V8's (Node 20's inspector types do not list them yet).
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as { samplingInterval: number });
  return async (file) => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  };
}
