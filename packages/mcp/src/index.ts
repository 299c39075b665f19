// The app's /mcp route uses the server factory; the stdio launcher (bin/memory-mcp.mjs → src/launcher.ts) stands apart.
export * from './server';
