/**
 * The extraction provider a job uses, chosen by configuration (MEMORY_EXTRACTOR), and the provider it falls
 * back to when that one keeps failing: the built-in extractor, so a conversation is never lost to a model
 * server that is down or answers nonsense (packages/jobs/src/extraction.ts).
 */
import type { AppConfig } from '../config';
import type { Logger } from '../logger';
import { BuiltinExtractor } from './builtin';
import { OpenAIChatExtractor } from './openai-chat';
import type { ExtractionProvider } from './types';

export interface ExtractionProviders {
  extractor: ExtractionProvider;
  /** Null when the extractor is the built-in one: there is nothing simpler to fall back to. */
  fallback: ExtractionProvider | null;
}

export function createExtractionProviders(config: Pick<AppConfig, 'extraction'>, log?: Logger): ExtractionProviders {
  const { llm } = config.extraction;
  if (config.extraction.provider === 'openai-chat' && llm) {
    return { extractor: new OpenAIChatExtractor({ ...llm, log }), fallback: new BuiltinExtractor() };
  }
  return { extractor: new BuiltinExtractor(), fallback: null };
}
