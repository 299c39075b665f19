// The npm registry mirror on our build machines serves no @turbo/darwin-* or @turbo/windows-* packages,
// so npm 11 leaves them out of package-lock.json and `npm ci` then refuses the lockfile
// (npm/cli#9846). This adds the missing optional entries; they are never fetched on Linux.
// Run after `npm install` whenever the lockfile is regenerated: node scripts/fix-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const turbo = lock.packages['node_modules/turbo'];
const platforms = { 'darwin-64': ['darwin', 'x64'], 'darwin-arm64': ['darwin', 'arm64'], 'windows-64': ['win32', 'x64'], 'windows-arm64': ['win32', 'arm64'] };
let added = 0;
for (const [name, [os, cpu]] of Object.entries(platforms)) {
  const key = `node_modules/@turbo/${name}`;
  if (lock.packages[key]?.version) continue;
  lock.packages[key] = { version: turbo.version, cpu: [cpu], dev: true, license: 'MIT', optional: true, os: [os] };
  added++;
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
lock.packages = sorted;
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: added ${added} entries`);
