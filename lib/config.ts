/**
 * One source of truth for every number that shapes what a model receives.
 * SQL retrieval, the reference scorer, the trace, the UI and docs all read from here.
 */

/** Dimensions of every stored embedding (memories.embedding is vector(EMBEDDING_DIMENSIONS)). */
export const EMBEDDING_DIMENSIONS = 1536;

export const retrievalConfig = {
  /** Semantic branch: at most this many memories. */
  semanticLimit: 5,
  /** Semantic branch: cosine similarity below this is never selected, whatever its importance. */
  similarityThreshold: 0.3,
  /** score = similarity·w.similarity + importance·w.importance + recency·w.recency */
  weights: { similarity: 0.6, importance: 0.3, recency: 0.1 },
  /** recency = 1 − min(1, whole days since updated_at / recencyWindowDays) */
  recencyWindowDays: 30,
  /** Conversation branch: at most this many memories of the current conversation. */
  conversationLimit: 3,
  /**
   * Semantic branch: the query also returns the best above-threshold candidates that lost to
   * `semanticLimit`, up to this many rows in all, so the trace can show them as dropped by limit.
   */
  traceCandidateLimit: 20,
} as const;

export const formatterConfig = {
  /** At most this many memory lines reach the prompt. */
  maxMemories: 8,
  /** A line longer than this is cut to (maxLineChars − 3) characters + "...". */
  maxLineChars: 100,
  /** A title is used as a `title: content` prefix only when shorter than this. */
  maxTitleChars: 50,
  /** Each memory line in the prompt starts with this bullet. */
  bullet: "• ",
} as const;

export const promptConfig = {
  /** Token budget for recent conversation history (counted with a real tokenizer). */
  historyTokenBudget: 2000,
} as const;

export type RetrievalConfig = typeof retrievalConfig;
export type FormatterConfig = typeof formatterConfig;
