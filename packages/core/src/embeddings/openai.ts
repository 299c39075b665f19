/**
 * An embeddings client for any OpenAI-compatible server: `POST {base}/embeddings` with
 * `{ model, input: string[] }` (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp server with --embeddings,
 * LM Studio). Texts are sent in batches of `batchSize`, one batch after another; each request has a timeout
 * and is retried with backoff on 429, 5xx, timeouts and unusable answers (the same rules as extraction).
 *
 * Every answer is checked: one finite vector per input, in input order (by `index`), all of one length,
 * and of the configured length when `dimensions` is set. `dimensions` declares and checks the length; it is
 * not sent to the server, because not every server accepts it.
 */
import type { AppConfig } from '../config';
import {
  type OpenAICompatibleEndpoint,
  ProviderCallError,
  type TokenUsage,
  UsageMeter,
  withRetries,
} from '../llm/openai-compatible';
import type { EmbeddingsProvider } from './types';

export interface OpenAIEmbeddingsOptions extends OpenAICompatibleEndpoint {
  /** Expected vector length; null: taken from the first answer. */
  dimensions: number | null;
  /** Texts per request. */
  batchSize: number;
  retryBaseMs?: number;
}

export class OpenAIEmbeddings implements EmbeddingsProvider {
  readonly name: string;
  private learnedDimensions: number | null;

  constructor(private readonly opts: OpenAIEmbeddingsOptions) {
    this.name = `openai-embeddings:${opts.model}`;
    this.learnedDimensions = opts.dimensions;
  }

  get dimensions(): number | null {
    return this.learnedDimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.embedWithUsage(texts)).vectors;
  }

  /** Like `embed`, with the tokens spent (summed over the batches and their retries). */
  async embedWithUsage(texts: string[]): Promise<{ vectors: Float32Array[]; usage: TokenUsage }> {
    const meter = new UsageMeter();
    const vectors: Float32Array[] = [];
    const retry = { maxRetries: this.opts.maxRetries, baseDelayMs: this.opts.retryBaseMs ?? 500 };
    await meter.track(async () => {
      for (let start = 0; start < texts.length; start += this.opts.batchSize) {
        const batch = texts.slice(start, start + this.opts.batchSize);
        const out = await withRetries(retry, async () =>
          this.readVectors(await meter.post(this.opts, 'embeddings', { model: this.opts.model, input: batch }), batch.length),
        );
        vectors.push(...out);
      }
    });
    return { vectors, usage: meter.snapshot() };
  }

  private readVectors(response: unknown, expected: number): Float32Array[] {
    const data = (response as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new ProviderCallError('malformed_output', `expected ${expected} embeddings in the answer`);
    }
    const ordered = data.every((d) => Number.isInteger((d as { index?: unknown })?.index))
      ? [...data].sort((a, b) => a.index - b.index)
      : data;
    return ordered.map((d) => {
      const embedding = (d as { embedding?: unknown })?.embedding;
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new ProviderCallError('malformed_output', 'an embedding in the answer is not a list of numbers');
      }
      const want = this.learnedDimensions;
      if (want !== null && embedding.length !== want) {
        // Not retried: the model answers with a length other than the one configured.
        throw new ProviderCallError('dimension_mismatch', `expected ${want} dimensions, got ${embedding.length}`, { permanent: true });
      }
      this.learnedDimensions = embedding.length;
      return Float32Array.from(embedding);
    });
  }
}

/** The configured embeddings client, or null when MEMORY_EMBEDDINGS_BASE_URL/MODEL are not set. */
export function createEmbeddingsProvider(config: Pick<AppConfig, 'embeddings'>): OpenAIEmbeddings | null {
  return config.embeddings ? new OpenAIEmbeddings(config.embeddings) : null;
}
