import type { EntityKind } from '@memory/db';
import type { MemoryCategory } from '../categories';
import type { TokenUsage } from '../llm/openai-compatible';
import type { ConversationMessage } from '../messages';

export type { TokenUsage };

/** One durable fact found in a conversation, before it is stored. */
export interface ExtractedMemory {
  /** A standalone third-person statement, e.g. "The user is vegetarian." */
  content: string;
  category: MemoryCategory;
  /** 0..1: how much this matters for future conversations. */
  importance: number;
  /** 0..1: how sure the extractor is that the user really said this about themselves. */
  confidence: number;
  /** 0-based indices into the add call's `messages` that this memory came from. */
  messageIndices: number[];
  /**
   * The single-valued subject this memory states, for conflict detection. A provider that knows it (an LLM)
   * sets it; otherwise the built-in rules of conflicts/claims.ts are applied to `content`.
   */
  claim?: {
    /** The slot (claims.ts `normaliseSlot`): `residence`, `favourite:drink`, `count:egg`, `mother/residence`. */
    subject: string;
    value: string;
    display?: string;
    /** A negated or ended claim ("is not vegetarian anymore", "quit smoking"). */
    negated?: boolean;
    /** When the claim holds, as the provider stated it ("since March 2026"); kept for the record, not compared. */
    time?: string;
  };
}

export interface ExtractionInput {
  messages: ConversationMessage[];
  /** When the conversation happened (source `observed_at`); used to resolve relative dates. */
  observedAt: Date;
  /**
   * The tenant's domain schema (docs/domain-schemas.md). Under `customer_support` problem and resolution
   * reports are kept although they do not speak about the user ("The export keeps failing.").
   */
  domain?: string;
}

/** The compositional fields of a result's metadata before the compositional pass ran (the store step fills them). */
export const COMPOSITIONAL_NOT_RUN = {
  compositional_pass_attempted: false,
  compositional_pass_used: false,
  compositional_entities: 0,
  compositional_relationships: 0,
  compositional_error: null,
} as const;

export interface ExtractionResult {
  memories: ExtractedMemory[];
  /** Entities and relationships, when the provider found them itself; else the compositional pass reads the memories. */
  composition?: Composition;
  /** What really happened, reported in the job's `extraction_metadata`. */
  metadata: {
    provider: string;
    /** Sentences looked at, and why the others were skipped. */
    sentences_considered: number;
    skipped: Record<string, number>;
    compositional_pass_attempted: boolean;
    compositional_pass_used: boolean;
    compositional_entities: number;
    compositional_relationships: number;
    compositional_error: string | null;
    /** LLM providers: the memories the model proposed, before validation dropped any (counted in `skipped`). */
    memories_proposed?: number;
    /** Set when the configured provider failed and the built-in extractor produced these memories instead. */
    fallback_from?: string;
    /** Why the fallback happened: `malformed_output`, `timeout`, `http_503`, … (never content). */
    fallback_reason?: string;
  };
  /** Model tokens spent producing this result, summed over the provider's calls (absent: no model was called). */
  usage?: TokenUsage;
}

/** The seam for extraction providers: the built-in rule-based one now, LLM providers later. */
export interface ExtractionProvider {
  readonly name: string;
  extract(input: ExtractionInput): Promise<ExtractionResult>;
}

/** The compositional pass's reading of a job's memories (compose.ts): its entities and relationships. */
export type { EntityKind };

export interface ComposedEntity {
  name: string;
  normalized: string;
  kind: EntityKind;
  /** Indices into the memories array of the memories that mention it. */
  memoryIndices: number[];
}

export interface ComposedRelationship {
  subject: string;
  predicate: string;
  object: string;
  memoryIndex: number;
}

export interface Composition {
  entities: ComposedEntity[];
  relationships: ComposedRelationship[];
}
