/** The seam for embedding providers: text in, one vector per text out, in the same order. */
export interface EmbeddingsProvider {
  /** e.g. `openai:text-embedding-3-small`; stored next to a vector so vectors of different models are never compared. */
  readonly name: string;
  /** The vector length when known in advance (configured), else null until the first answer. */
  readonly dimensions: number | null;
  embed(texts: string[]): Promise<Float32Array[]>;
}
