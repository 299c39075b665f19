#!/usr/bin/env node
// The stdio launcher's entry (src/launcher.ts): the workspace ships TypeScript sources, run through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/launcher.ts');
await main(process.argv.slice(2));
