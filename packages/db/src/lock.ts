/**
 * PGlite is a single-process database: two processes opening one data directory would corrupt it.
 * The server holds a lock file with its pid; the CLI refuses to open a directory a live process holds.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is held by a running process (pid ${pid}); stop it, use POST /v1/admin/tenants, or set DATABASE_URL`,
    );
  }
}

const lockPath = (dataDir: string) => path.join(dataDir, 'memory-service.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readDataDirLock(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath(dataDir), 'utf8'), 10);
    return Number.isFinite(pid) && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const holder = readDataDirLock(dataDir);
  if (holder) throw new DataDirLockedError(dataDir, holder);
  writeFileSync(lockPath(dataDir), String(process.pid));
}

export function releaseDataDirLock(dataDir: string): void {
  try {
    if (readFileSync(lockPath(dataDir), 'utf8').trim() === String(process.pid)) rmSync(lockPath(dataDir));
  } catch {
    // already gone
  }
}
