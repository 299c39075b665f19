/** A real webhook receiver on 127.0.0.1 for the tests: records every request and answers as each path is told to. */
import { type Server, createServer } from 'node:http';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * The status codes a path (without its query) answers, in order, counted per full URL; the last one repeats.
 * Unknown paths answer 200.
 */
export type Script = Record<string, number[]>;

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly served = new Map<string, number>();
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly script: Script,
  ) {}

  static async start(script: Script = {}): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = receiver as WebhookReceiver;
        const path = req.url ?? '/';
        r.received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const n = r.served.get(path) ?? 0;
        r.served.set(path, n + 1);
        const codes = r.script[path.split('?')[0]] ?? [200];
        res.writeHead(codes[Math.min(n, codes.length - 1)], { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`, script);
    return receiver;
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits (bounded) until `pick` finds something among the received requests. */
  async waitFor<T>(pick: (all: ReceivedWebhook[]) => T | undefined | null | false, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = pick(this.received);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`webhook receiver: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
