/**
 * Shared by the benchmarks: percentiles, latency summaries and Markdown tables; and the flags of
 * `npm run bench:api`. The other helpers live beside it: bench-synthetic.ts (deterministic memories, queries and
 * conversations), bench-seed.ts (database seeding) and bench-http.ts (the plumbing of the benchmarks that drive
 * the public HTTP API: server, tenant, writer, job waiting, flags and result files).
 */
/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted: number[] | Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function fmt(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function markdownTable(header: string[], body: string[][], rightAlign: boolean[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const sep = `|${rightAlign.map((r) => (r ? '---:' : ':---')).join('|')}|`;
  return [line(header), sep, ...body.map(line)].join('\n');
}

export interface Flags {
  sizes: number[];
  engines: Array<'pglite' | 'postgres'>;
  duration: number;
  connections: number;
  out: string;
  warmup: number;
  build: boolean;
  pgUrl: string;
  /** Worker-process counts for the extraction-throughput runs on PostgreSQL (empty: none). */
  workers: number[];
}

export function parseFlags(argv: string[]): Flags {
  const f: Flags = {
    sizes: [1000, 10000],
    engines: ['pglite', 'postgres'],
    duration: 10,
    connections: 20,
    out: 'bench/results',
    warmup: 200,
    build: false,
    pgUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    workers: [1, 2],
  };
  const need = (i: number, name: string) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    const [name, inline] = raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = need(i, name);
      i++;
      return v;
    };
    const posInt = (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}: "${v}" is not a positive integer`);
      return n;
    };
    switch (name) {
      case '--sizes':
        f.sizes = value().split(',').filter(Boolean).map(posInt);
        break;
      case '--engines': {
        const es = value().split(',').filter(Boolean);
        for (const e of es) if (e !== 'pglite' && e !== 'postgres') throw new Error(`--engines: unknown engine "${e}"`);
        f.engines = es as Flags['engines'];
        break;
      }
      case '--duration':
        f.duration = posInt(value());
        break;
      case '--connections':
        f.connections = posInt(value());
        break;
      case '--warmup':
        f.warmup = posInt(value());
        break;
      case '--out':
        f.out = value();
        break;
      case '--pg-url':
        f.pgUrl = value();
        break;
      case '--build':
        f.build = true;
        break;
      case '--workers': {
        const v = value();
        f.workers = v === 'none' ? [] : v.split(',').filter(Boolean).map(posInt);
        break;
      }
      case '--help':
      case '-h':
        throw new HelpRequested();
      default:
        throw new Error(`unknown flag "${raw}"`);
    }
  }
  if (f.sizes.length === 0 || f.engines.length === 0) throw new Error('--sizes and --engines must not be empty');
  return f;
}

export class HelpRequested extends Error {}

export const USAGE = `Usage: npm run bench:api -- [flags]

  --sizes 1000,10000        memories seeded for the benchmark user (one server run per size)
  --engines pglite,postgres storage engines to measure
  --duration 10             seconds per scenario (bare, retrieve, add)
  --connections 20          concurrent connections (autocannon)
  --warmup 200              warm-up requests before each scenario
  --out bench/results       where api-<timestamp>.json and .md are written
  --pg-url URL              admin URL of the local PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres,
                            or BENCH_PG_ADMIN_URL); must point at 127.0.0.1/localhost
  --workers 1,2             extraction throughput on PostgreSQL with this many worker processes (npm run worker)
                            next to a web server that runs no jobs, one run per count; \`none\` to skip
  --build                   build the app first (npx turbo run build --filter=@memory/web) if it is not built
`;

export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
}

/** p50 and p95 of a list of latencies (ms), with how many there were. */
export function latencyStats(ms: number[]): LatencyStats {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}
