/**
 * The Python client (clients/python) and examples/python/quickstart.py against the shared servers on both engines:
 * pytest runs the package's unit and live tests (MEMORY_REQUIRE_LIVE=1, so a missing setting fails instead of
 * skipping) with a fresh tenant's key, an agent key and an approved user's X-Service-UUI token in the environment;
 * then the quickstart and README's example run as a newcomer would. Needs python3 with pytest (Debian: apt-get install -y python3-pytest).
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Api, servers } from './client';
import { connectAgent, rand, signInPassport } from './passport-flow';
import { ROOT } from './server';

const PYTHON = process.env.PYTHON ?? 'python3';

/** The first python block of README's "## Python client" section. */
function readmeExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Python client\n'));
  const block = /```python\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no python example under "## Python client"');
  return block;
}

interface Run {
  code: number | null;
  output: string;
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(PYTHON, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : (child.exitCode ?? -1)) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(() => {
  const probe = spawnSync(PYTHON, ['-c', 'import sys, pytest; print(sys.version.split()[0], pytest.__version__)'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `the Python client tests need ${PYTHON} with pytest (Debian: apt-get install -y python3-pytest): ${probe.error?.message ?? probe.stderr}`,
    );
  }
});

describe.each(servers())('the Python client on $name', (server) => {
  it('passes its pytest suite against the live server, universal store included', { timeout: 240_000 }, async () => {
    const tenant = await new Api(server).createTenant();
    const passport = await signInPassport(server);
    const connected = await connectAgent(passport, { categories: ['fact'], access: 'read_write' }, { tenant: new Api(server).withKey(tenant.api_key) });
    const result = await run(['-m', 'pytest', path.join('clients', 'python', 'tests'), '-q', '-p', 'no:cacheprovider'], {
      MEMORY_URL: server.baseUrl,
      MEMORY_API_KEY: tenant.api_key,
      MEMORY_AGENT_KEY: connected.agentKey,
      MEMORY_UUI: connected.uuiToken,
      MEMORY_REQUIRE_LIVE: '1',
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/\d+ passed/);
    expect(result.output, result.output).not.toMatch(/\b\d+ (skipped|failed|errors?|xfailed)\b/);
  });

  it('runs examples/python/quickstart.py: adds, waits, retrieves and prints the block', { timeout: 120_000 }, async () => {
    const tenant = await new Api(server).createTenant();
    const user = `quickstart-${rand()}`;
    const result = await run([path.join('examples', 'python', 'quickstart.py')], {
      PYTHONPATH: path.join(ROOT, 'clients', 'python'),
      MEMORY_URL: server.baseUrl,
      MEMORY_API_KEY: tenant.api_key,
      MEMORY_USER: user,
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('add: queued, job: completed');
    expect(result.output).toContain('Lisbon');
    const listed = await new Api(server).withKey(tenant.api_key).get(`/v1/memories?external_user_id=${user}`);
    expect(listed.body.data.items.length, JSON.stringify(listed.body)).toBeGreaterThan(0);
  });

  it("runs README's Python example", { timeout: 120_000 }, async () => {
    const tenant = await new Api(server).createTenant();
    const result = await run(['-c', readmeExample()], {
      PYTHONPATH: path.join(ROOT, 'clients', 'python'),
      MEMORY_URL: server.baseUrl,
      MEMORY_API_KEY: tenant.api_key,
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('queued completed');
    expect(result.output).toContain('Lisbon');
    expect(result.output).toContain('404 not_found');
  });
});
