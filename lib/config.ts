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

export const extractionConfig = {
  /** Messages before the user message that the extractor reads as context (never re-extracted). */
  previousMessages: 4,
  /** Retries after a failed attempt: Inngest's `retries` and the in-process runner's, the same number. */
  retries: 4,
  /** In-process runner: the n-th retry waits min(backoffMaxMs, backoffBaseMs · 2^(n−1)). */
  backoffBaseMs: 2_000,
  backoffMaxMs: 60_000,
  /** Model temperature of extraction and consolidation calls. */
  temperature: 0.1,
} as const;

export const consolidationConfig = {
  /**
   * A stored memory (active or pending) at least this similar to a new candidate is "near" and is
   * shown to the consolidation decision (add / update / supersede / skip); below it, the candidate
   * is added without a model call. Measured with the offline embedder on "title: content" texts
   * (docs/extraction.md): same-subject contradictions mostly 0.75–0.89 (Maya/Mia 0.89, Berlin/Paris
   * 0.75; New York/Boston 0.68 falls below), refinements 0.82–0.90, paraphrases 0.71–0.88,
   * unrelated facts of one template up to 0.84 (the decision tells those apart).
   */
  nearSimilarity: 0.75,
  /** At most this many near memories are shown to the decision. */
  nearLimit: 5,
} as const;

export type ConsolidationConfig = typeof consolidationConfig;
