/**
 * A local stand-in for an OpenAI-compatible server, for tests: `POST …/chat/completions` and
 * `POST …/embeddings` (OpenAI paths and Azure deployment paths alike) on 127.0.0.1, port 0. Nothing in a
 * test ever calls the internet.
 *
 * Each operation answers from a script: queued replies first, in order, then `whenEmpty` (by default an
 * empty memory list, or hash-derived vectors). A reply can be a good answer, any text (malformed JSON,
 * fenced JSON), an HTTP error, a slow answer, or a dropped connection. Every request is recorded.
 *
 *   const fake = await startFakeOpenAI();
 *   fake.chat.push({ status: 429, headers: { 'retry-after': '0' } }, { answer: { memories: [...] } });
 *   … point a client at fake.url (http://127.0.0.1:<port>/v1) …
 *   await fake.close();
 */
import { createHash } from 'node:crypto';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens?: number;
  total_tokens: number;
}

export type FakeReply =
  /** A chat completion whose message content is `answer` (an object is sent as its JSON text). */
  | { answer: string | object; usage?: FakeUsage | null; finishReason?: string }
  /** An embeddings answer with these vectors (`index` in order unless `shuffle`). */
  | { vectors: number[][]; usage?: FakeUsage | null; shuffle?: boolean }
  /** An HTTP error (or any status) with a JSON body. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A 200 with a body that is sent as it is (e.g. not JSON at all). */
  | { rawBody: string }
  /** Waits before replying; the client may give up first. */
  | { delayMs: number; then: FakeReply }
  /** Closes the connection without an answer. */
  | { hangUp: true };

export interface FakeRequest {
  operation: 'chat' | 'embeddings';
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
}

/** Where a request went and how it authenticated: what a test checks about the API style. */
export function routeOf(req: FakeRequest) {
  return {
    path: req.path,
    apiVersion: req.query.get('api-version'),
    apiKey: (req.headers['api-key'] as string | undefined) ?? null,
    authorization: req.headers.authorization ?? null,
  };
}

export class FakeScript {
  private readonly queue: FakeReply[] = [];

  constructor(private fallback: (req: FakeRequest) => FakeReply) {}

  /** Replies for the next requests, in order. */
  push(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** The reply once the queue is empty (for every later request). */
  whenEmpty(reply: FakeReply | ((req: FakeRequest) => FakeReply)): this {
    this.fallback = typeof reply === 'function' ? reply : () => reply;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  next(req: FakeRequest): FakeReply {
    return this.queue.shift() ?? this.fallback(req);
  }
}

export interface FakeOpenAI {
  /** Base URL in the OpenAI style, `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** `http://127.0.0.1:<port>`, e.g. as an Azure resource endpoint. */
  origin: string;
  chat: FakeScript;
  embeddings: FakeScript;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export const FAKE_CHAT_USAGE: FakeUsage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };

/** A deterministic unit-free vector for a text, so equal texts embed equally. */
export function fakeVector(text: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: dimensions }, (_, i) => (digest[i % digest.length] - 128) / 128);
}

const defaultEmbeddings = (dimensions: number) => (req: FakeRequest): FakeReply => {
  const input: string[] = Array.isArray(req.body?.input) ? req.body.input : [String(req.body?.input ?? '')];
  const tokens = input.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
  return { vectors: input.map((t) => fakeVector(t, dimensions)), usage: { prompt_tokens: tokens, total_tokens: tokens } };
};

export async function startFakeOpenAI(opts: { dimensions?: number } = {}): Promise<FakeOpenAI> {
  const chat = new FakeScript(() => ({ answer: { memories: [] }, usage: FAKE_CHAT_USAGE }));
  const embeddings = new FakeScript(defaultEmbeddings(opts.dimensions ?? 8));
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, req: FakeRequest, reply: FakeReply): void => {
    if (res.destroyed || res.writableEnded) return;
    if ('delayMs' in reply) {
      const t = setTimeout(() => {
        timers.delete(t);
        send(res, req, reply.then);
      }, reply.delayMs);
      timers.add(t);
      return;
    }
    if ('hangUp' in reply) {
      res.socket?.destroy();
      return;
    }
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if ('rawBody' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.rawBody);
    } else if ('status' in reply) {
      json(reply.status, reply.body ?? { error: { message: `fake error ${reply.status}`, type: 'fake_error' } }, reply.headers);
    } else if ('answer' in reply) {
      json(200, {
        id: `chatcmpl-fake-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: req.body?.model ?? 'fake',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: typeof reply.answer === 'string' ? reply.answer : JSON.stringify(reply.answer) },
            finish_reason: reply.finishReason ?? 'stop',
          },
        ],
        ...(reply.usage === null ? {} : { usage: reply.usage ?? FAKE_CHAT_USAGE }),
      });
    } else {
      const data = reply.vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
      json(200, {
        object: 'list',
        model: req.body?.model ?? 'fake',
        data: reply.shuffle ? data.reverse() : data,
        ...(reply.usage ? { usage: reply.usage } : {}),
      });
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const operation = url.pathname.endsWith('/chat/completions') ? 'chat' : url.pathname.endsWith('/embeddings') ? 'embeddings' : null;
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // recorded as null
      }
      if (!operation || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const recorded: FakeRequest = { operation, method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers, body };
      requests.push(recorded);
      send(res, recorded, (operation === 'chat' ? chat : embeddings).next(recorded));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    chat,
    embeddings,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
