// The npm registry mirror on our build machines does not serve the other-platform builds of some
// packages (e.g. @turbo/darwin-64, @next/swc-win32-x64-msvc), so npm 11 leaves them out of
// package-lock.json and `npm ci` then refuses the lockfile (npm/cli#9846). This adds each missing
// optional dependency with the os/cpu its name states, so npm skips it on other platforms.
// Run after every `npm install`: node scripts/fix-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [['darwin', 'darwin'], ['win32', 'win32'], ['windows', 'win32'], ['linux', 'linux'], ['android', 'android'], ['freebsd', 'freebsd'], ['openbsd', 'openbsd'], ['sunos', 'sunos'], ['aix', 'aix']];
const CPU = [['arm64', 'arm64'], ['aarch64', 'arm64'], ['x64', 'x64'], ['x86_64', 'x64'], ['64', 'x64'], ['ia32', 'ia32'], ['arm', 'arm'], ['ppc64', 'ppc64'], ['s390x', 's390x'], ['riscv64', 'riscv64'], ['loong64', 'loong64'], ['wasm32', 'wasm32']];

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const [key, meta] of Object.entries(pkgs)) {
  for (const [dep, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    const parent = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
    if (pkgs[parent]?.version || pkgs[`node_modules/${dep}`]?.version) continue;
    const parts = dep.split('/').pop().split('-');
    const os = OS.find(([token]) => parts.includes(token))?.[1];
    const cpu = CPU.find(([token]) => parts.includes(token))?.[1];
    if ((!os && cpu !== 'wasm32') || !cpu || !/^\d+\.\d+\.\d+/.test(spec)) {
      console.error(`fix-lockfile: cannot place ${dep}@${spec} (needed by ${key || 'root'}); add it by hand`);
      process.exitCode = 1;
      continue;
    }
    pkgs[`node_modules/${dep}`] = { version: spec, cpu: [cpu], dev: Boolean(meta.dev), optional: true, ...(os ? { os: [os] } : {}) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: added ${added} entries`);
