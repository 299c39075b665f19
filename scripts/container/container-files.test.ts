/**
 * The Dockerfile and docker-compose.yml, read as files: no Docker engine runs where this project is developed and
 * tested, so neither is ever executed here. What they run is scripts/container/build.sh and start.sh, which
 * tests/integration/container.test.ts runs outside Docker; this file holds the Dockerfile and the compose file to
 * those scripts and to the app's own settings, so the two cannot drift apart unnoticed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { configVariables } from '@memory/core';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { workspaces: string[]; packageManager: string; scripts: Record<string, string> };

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions with their stage (continuation lines joined, comments and the parser directive dropped). */
function parseDockerfile(text: string): { stages: { name: string; from: string }[]; instructions: Instruction[] } {
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: { name: string; from: string }[] = [];
  const instructions: Instruction[] = [];
  for (const line of logical) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ from: m[1], name: m[2] ?? String(stages.length) });
    }
    instructions.push({ stage: stages.at(-1)?.name ?? '', keyword: upper, args });
  }
  return { stages, instructions };
}

const WORKSPACES = pkg.workspaces
  .flatMap((pattern) => {
    const [dir, star] = pattern.split('/');
    return star === '*' ? readdirSync(path.join(ROOT, dir)).map((d) => `${dir}/${d}`) : [pattern];
  })
  .filter((d) => existsSync(path.join(ROOT, d, 'package.json')));

describe('Dockerfile', () => {
  const { stages, instructions } = parseDockerfile(read('Dockerfile'));
  const of = (stage: string, keyword: string) => instructions.filter((i) => i.stage === stage && i.keyword === keyword).map((i) => i.args);

  it('has a dependency stage, a build stage on top of it, and a runtime stage from the plain Node.js image', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    expect(stages[1].from).toBe('deps');
    expect(stages[2].from).toBe(stages[0].from);
    expect(instructions.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='))?.args).toMatch(/^NODE_IMAGE=node:\d+-bookworm-slim$/);
  });

  it('caches the dependency layer: it copies only the manifests of every workspace and the lockfile, then runs `build.sh deps`', () => {
    const deps = instructions.filter((i) => i.stage === 'deps');
    const install = deps.findIndex((i) => i.keyword === 'RUN' && i.args.endsWith('scripts/container/build.sh deps'));
    expect(install).toBeGreaterThan(-1);
    const copied = deps.slice(0, install).filter((i) => i.keyword === 'COPY').map((i) => i.args.split(/\s+/).slice(0, -1)).flat();
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', ...WORKSPACES.map((w) => `${w}/package.json`)]));
    // nothing else than manifests, the bin a workspace declares, and the script itself: source changes keep the layer
    for (const file of copied) expect(file).toMatch(/(^|\/)package(-lock)?\.json$|^packages\/mcp\/bin$|^scripts\/container\/build\.sh$/);
    expect(deps.slice(install + 1)).toEqual([]);
  });

  it('installs the npm that made the lockfile (package.json "packageManager")', () => {
    const arg = instructions.find((i) => i.keyword === 'ARG' && i.args.startsWith('NPM_VERSION='));
    expect(arg?.args).toBe(`NPM_VERSION=${pkg.packageManager.replace(/^npm@/, '')}`);
    expect(of('deps', 'RUN')).toContain('npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund');
  });

  it('builds and prunes with build.sh, and the runtime stage copies exactly what `prune` made', () => {
    expect(of('build', 'COPY')).toEqual(['. .']);
    expect(of('build', 'RUN')).toEqual(['scripts/container/build.sh build && scripts/container/build.sh prune /runtime']);
    expect(of('runtime', 'COPY')).toEqual(['--from=build /runtime /app']);
  });

  it("build.sh's build is the build `npm test` makes before the integration tests run the pruned tree", () => {
    const build = /^\s*build\) npx (turbo run build [^;]+?) ;;$/m.exec(read('scripts/container/build.sh'));
    expect(build?.[1]).toBe('turbo run build --filter=@memory/web --output-logs=errors-only');
    const steps = pkg.scripts.test.split(' && ');
    expect(steps.indexOf(build![1])).toBeGreaterThan(-1);
    expect(steps.indexOf(build![1])).toBeLessThan(steps.indexOf('vitest run --project integration'));
  });

  it('runs as the unprivileged node user with start.sh as entry point, health check and default command', () => {
    const user = of('runtime', 'USER');
    expect(user).toEqual(['node']);
    // every instruction after USER runs as node: nothing may switch back to root
    expect(instructions.filter((i) => i.keyword === 'USER')).toHaveLength(1);
    expect(JSON.parse(of('runtime', 'ENTRYPOINT')[0])).toEqual(['/app/scripts/container/start.sh']);
    expect(JSON.parse(of('runtime', 'CMD')[0])).toEqual(['web']);
    const health = of('runtime', 'HEALTHCHECK')[0];
    expect(JSON.parse(health.slice(health.indexOf(' CMD ') + 5))).toEqual(['/app/scripts/container/start.sh', 'healthcheck']);
    expect(of('runtime', 'EXPOSE')).toEqual(['3000']);
  });

  it('keeps the embedded database in the /data volume, the only directory the node user may write besides the Next.js cache', () => {
    const env = of('runtime', 'ENV').join(' ');
    expect(env).toMatch(/\bMEMORY_DATA_DIR=\/data\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
    expect(of('runtime', 'VOLUME')).toEqual(['["/data"]']);
    expect(of('runtime', 'RUN')).toEqual(['mkdir -p /data /app/apps/web/.next/cache && chown node:node /data /app/apps/web/.next/cache']);
  });

  it('sends no installed, built or local data into the build context, but every workspace manifest', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/.next', '**/.data', '.git', '.env', 'packages/core/generated']) expect(ignored).toContain(entry);
    expect(ignored).toContain('!e2e/package.json');
  });
});

describe('start.sh and build.sh', () => {
  it('answer an unknown command with a usage error', () => {
    for (const script of ['start.sh', 'build.sh']) {
      let status = 0;
      let stderr = '';
      try {
        execFileSync(path.join(ROOT, 'scripts/container', script), ['nonsense'], { stdio: 'pipe' });
      } catch (err) {
        ({ status, stderr } = err as { status: number; stderr: string });
      }
      expect(status, script).toBeGreaterThan(0);
      expect(String(stderr), script).toMatch(/usage|unknown command/);
    }
  });
});

describe('docker-compose.yml', () => {
  const compose = parseYaml(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, Record<string, any>>;
    volumes: Record<string, unknown>;
  };
  const { app, worker, postgres, inngest, mailpit } = compose.services;
  const startCommands = [...read('scripts/container/start.sh').matchAll(/^ {2}(\w+)\)$/gm)].map((m) => m[1]);
  /** `${NAME:-default}` as the value compose gives it when NAME is unset. */
  const defaulted = (v: string) => String(v).replace(/\$\{\w+:-([^}]*)\}/g, '$1');

  it('has the app, a worker, PostgreSQL, the Inngest dev server and a mail catcher', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'inngest', 'mailpit', 'postgres', 'worker']);
    expect(postgres.image).toBe('postgres:15');
    expect(inngest.image).toMatch(/^inngest\/inngest:/);
    expect(mailpit.image).toMatch(/^axllent\/mailpit:/);
  });

  it('builds one image for the app and the worker, and runs start.sh commands in it', () => {
    for (const service of [app, worker]) {
      expect(service.build).toBe('.');
      expect(service.image).toBe(app.image);
      expect(startCommands).toContain(service.command[0]);
    }
    expect(app.command).toEqual(['web']);
    expect(worker.command).toEqual(['worker']);
    expect(worker.profiles).toEqual(['workers']);
    expect(worker.healthcheck).toEqual({ disable: true });
    expect(app.ports).toEqual(['3000:3000']);
  });

  it('sets only variables the app reads (README, Configuration) or the Inngest SDK reads', () => {
    const known = new Set([...configVariables().map((v) => v.name), 'INNGEST_DEV']);
    for (const service of [app, worker]) for (const name of Object.keys(service.environment)) expect(known, name).toContain(name);
  });

  it('points the app at the postgres service, with its user, password and database, once it is healthy', () => {
    for (const service of [app, worker]) {
      const url = new URL(defaulted(service.environment.DATABASE_URL));
      expect(url.hostname).toBe('postgres');
      expect(url.port).toBe('5432');
      expect(url.username).toBe(postgres.environment.POSTGRES_USER);
      expect(url.password).toBe(defaulted(postgres.environment.POSTGRES_PASSWORD));
      expect(url.pathname).toBe(`/${postgres.environment.POSTGRES_DB}`);
      expect(service.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    }
    expect(postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    const [volume, mount] = postgres.volumes[0].split(':');
    expect(mount).toBe('/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty(volume);
  });

  it('connects the app and the Inngest dev server both ways, through the app\'s /api/inngest route', () => {
    expect(existsSync(path.join(ROOT, 'apps/web/app/api/inngest/route.ts'))).toBe(true);
    expect(inngest.command.slice(0, 4)).toEqual(['inngest', 'dev', '-u', 'http://app:3000/api/inngest']);
    expect(app.environment.INNGEST_DEV).toBe('http://inngest:8288');
    expect(inngest.ports).toEqual(['8288:8288']);
    expect(defaulted(app.environment.MEMORY_JOB_MODE)).toBe('inngest');
  });

  it("sends the app's sign-in mail to the mail catcher", () => {
    const smtp = new URL(app.environment.SMTP_URL);
    expect(smtp.protocol).toBe('smtp:');
    expect(smtp.hostname).toBe('mailpit');
    expect(smtp.port).toBe('1025');
    expect(mailpit.ports).toEqual(['8025:8025']);
  });

  /** `docker compose` (the plugin) or the standalone `docker-compose`, whichever this machine has. */
  const composeCli = [['docker', 'compose'], ['docker-compose']].find(([file, ...args]) => {
    try {
      execFileSync(file, [...args, 'version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  const composeCheck = composeCli
    ? `is accepted by \`${composeCli.join(' ')} config\``
    : 'is accepted by `docker compose config` — skipped: neither the docker compose plugin nor docker-compose is installed here';
  it.skipIf(!composeCli)(composeCheck, () => {
    const [file, ...args] = composeCli!;
    execFileSync(file, [...args, '-f', path.join(ROOT, 'docker-compose.yml'), 'config', '--quiet'], { stdio: 'pipe' });
  });
});

describe('the web server\'s Node flags', () => {
  it('are the same for npm start, the container and the tests and benchmarks that start it', async () => {
    const { SERVER_NODE_FLAGS } = await import('../../tests/integration/server');
    const web = JSON.parse(read('apps/web/package.json')) as { scripts: Record<string, string> };
    const flagsOf = (command: string) => command.match(/\bnode ((?:--[\w-]+(?:=\S+)? )*)--import tsx server\.ts\b/)?.[1].trim().split(/\s+/) ?? null;
    expect(flagsOf(web.scripts.start)).toEqual(SERVER_NODE_FLAGS);
    const container = read('scripts/container/start.sh').split('\n').find((l) => l.includes('server.ts "$@"')) ?? '';
    expect(flagsOf(container)).toEqual(SERVER_NODE_FLAGS);
  });
});
