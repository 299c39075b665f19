/**
 * An extraction provider over any OpenAI-compatible chat-completions server: OpenAI, Azure OpenAI, Ollama,
 * vLLM, llama.cpp server, LM Studio (docs/llm-providers.md).
 *
 * One `extract` call sends the extraction contract (llm-prompt.ts) and the conversation, asks for a JSON
 * object, and validates the answer (llm-output.ts). 429, 5xx, timeouts, unreachable servers and unusable
 * answers are retried with backoff up to `maxRetries` times; 400/401/403/404 are not (permanent). When it
 * gives up it throws a ProviderCallError carrying the tokens already spent; the job decides whether to
 * retry later or fall back to the built-in extractor (packages/jobs/src/extraction.ts).
 *
 * Nothing here logs a prompt, a model answer, memory content or the API key: only reasons and counts.
 */
import type { Logger } from '../logger';
import {
  type OpenAICompatibleEndpoint,
  ProviderCallError,
  UsageMeter,
  withRetries,
} from '../llm/openai-compatible';
import { EXTRACTION_SYSTEM_PROMPT, extractionUserPrompt } from './llm-prompt';
import { parseModelJson, validateModelMemories } from './llm-output';
import { COMPOSITIONAL_NOT_RUN, type ExtractionInput, type ExtractionProvider, type ExtractionResult } from './types';

export interface OpenAIChatOptions extends OpenAICompatibleEndpoint {
  /** Sampling temperature; null leaves it to the server (some reasoning models accept only their default). */
  temperature: number | null;
  /** First retry delay within one call (doubles per retry, with jitter). */
  retryBaseMs?: number;
  log?: Logger;
}

export class OpenAIChatExtractor implements ExtractionProvider {
  readonly name: string;

  constructor(private readonly opts: OpenAIChatOptions) {
    this.name = `openai-chat:${opts.model}`;
  }

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const meter = new UsageMeter();
    const body = {
      model: this.opts.model,
      messages: [
        { role: 'system', content: EXTRACTION_SYSTEM_PROMPT },
        { role: 'user', content: extractionUserPrompt(input) },
      ],
      response_format: { type: 'json_object' },
      ...(this.opts.temperature === null ? {} : { temperature: this.opts.temperature }),
    };
    const retry = {
      maxRetries: this.opts.maxRetries,
      baseDelayMs: this.opts.retryBaseMs ?? 500,
      onRetry: (r: { attempt: number; reason: string; delayMs: number }) =>
        this.opts.log?.warn({ provider: this.name, reason: r.reason, attempt: r.attempt, delay_ms: r.delayMs }, 'extraction call failed, retrying'),
    };
    return meter.track(async () => {
      const validated = await withRetries(retry, async () => {
        const response = await meter.post(this.opts, 'chat/completions', body);
        return validateModelMemories(parseModelJson(answerText(response)), input.messages.length, input.messages);
      });
      return {
        memories: validated.memories,
        metadata: {
          provider: this.name,
          sentences_considered: 0,
          skipped: validated.skipped,
          memories_proposed: validated.proposed,
          ...COMPOSITIONAL_NOT_RUN,
        },
        usage: meter.snapshot(),
      };
    });
  }
}

/** The assistant message text of a chat-completions response. */
function answerText(response: unknown): string {
  const choice = (response as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content === 'string' && content.trim()) return content;
  throw new ProviderCallError('malformed_output', 'the model answer has no message content');
}
