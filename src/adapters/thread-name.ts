// Names the calling thread for the operating system (Linux: /proc/thread-self/comm, at most 15 bytes), so `top -H`,
// `ps -L` and a bench's CPU per thread (/proc/self/task/*/stat) tell the fetch thread and the feed worker from
// the threads Node leaves named "node". Elsewhere, or where /proc is read-only, the thread keeps its name.
import { writeFileSync } from 'node:fs';

export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or no /proc: a name is only a convenience
  }
}
