/**
 * Background work yields to requests: an extraction thread lowers its own scheduling priority (a nice value) when
 * it starts, so that on a busy machine the HTTP thread, the embedded database's thread and PostgreSQL's backends
 * get the CPU first and the thread takes what is left (docs/workers.md). On an idle machine nice changes nothing.
 *
 * Only on Linux: there `setpriority(PRIO_PROCESS, 0, …)` (Node's `os.setPriority(n)`) sets the calling thread's
 * nice value alone. On macOS and the BSDs the same call applies to the whole process, which would slow the
 * requests too, and Windows has no nice value: there the thread keeps the process's priority.
 */
import { setPriority } from 'node:os';

export type PriorityOutcome = 'lowered' | 'unchanged' | 'not-linux' | 'refused';

export function lowerThreadPriority(
  nice: number,
  platform: NodeJS.Platform = process.platform,
  set: (priority: number) => void = setPriority,
): PriorityOutcome {
  if (!Number.isInteger(nice) || nice <= 0) return 'unchanged';
  if (platform !== 'linux') return 'not-linux';
  try {
    // raising one's own nice value needs no privilege; a sandbox may still refuse it
    set(Math.min(nice, 19));
    return 'lowered';
  } catch {
    return 'refused';
  }
}
