/**
 * A PostgreSQL cluster of a test's own (initdb + pg_ctl on a free port) for tests that stop and start the database:
 * never the shared PostgreSQL.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => path.join(root, v, 'bin')).find((b) => existsSync(path.join(b, 'pg_ctl')));
  if (!bin) throw new Error('initdb/pg_ctl not found under /usr/lib/postgresql (Debian postgresql package)');
  return bin;
}

/** A PostgreSQL cluster of the test's own; run as the postgres user when the test runs as root (initdb refuses root). */
export class ThrowawayCluster {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'memory-pg-'));
  private readonly bin = postgresBin();
  private readonly asRoot = process.getuid?.() === 0;
  constructor(readonly port: number) {
    if (this.asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(this.dir, uid, gid);
    }
  }

  private command(tool: string, args: string[]): [string, string[]] {
    const cmd = path.join(this.bin, tool);
    return this.asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  }

  private run(tool: string, args: string[]) {
    execFileSync(...this.command(tool, args), { stdio: 'pipe' });
  }

  init() {
    this.run('initdb', ['-D', path.join(this.dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  }

  start() {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-o', opts, '-l', path.join(this.dir, 'log'), '-w', 'start']);
  }

  stop(mode: 'fast' | 'immediate' = 'fast') {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', 'stop']);
  }

  /** A fast stop while this process goes on reading its sockets (`stop` blocks it until pg_ctl returns). */
  async stopAsync() {
    await promisify(execFile)(...this.command('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']));
  }

  url(db = 'postgres') {
    return `postgres://postgres@127.0.0.1:${this.port}/${db}`;
  }

  remove() {
    try {
      this.stop('immediate');
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

