/** Every number that shapes what a model receives: SQL, the reference scorer, the trace, the UI and docs read it here. */

export const EMBEDDING_DIMENSIONS = 1536;

const retrievalLimits = {
  semanticLimit: 5,
  /** recency = 1 − min(1, whole days since updated_at / recencyWindowDays) */
  recencyWindowDays: 30,
  conversationLimit: 3,
  /** Above-threshold candidates that lost to semanticLimit are returned too, so the trace can show them dropped. */
  traceCandidateLimit: 20,
  /** Below-threshold memories the trace lists so a miss can be explained; never selected. */
  nearMissLimit: 10,
  /** Pinned memories always in context; they count in formatterConfig.maxMemories and go first. */
  pinnedLimit: 3,
} as const;

/**
 * Compared side by side by `npm run eval` (docs/evaluation.md):
 *   score = w.similarity·relevance + w.importance·importance + w.recency·recency [+ dateWindow.weight·dateMatch]
 * where relevance is cosine similarity, or with `fusion` the RRF of the vector and BM25 rankings.
 */
export const retrievalStrategies = {
  nearest: {
    ...retrievalLimits,
    strategy: "nearest",
    similarityThreshold: -1,
    weights: { similarity: 1, importance: 0, recency: 0 },
    fusion: null,
    dateWindow: null,
  },
  /** The original Lifeline's formula. */
  weighted: {
    ...retrievalLimits,
    strategy: "weighted",
    similarityThreshold: 0.3,
    weights: { similarity: 0.6, importance: 0.3, recency: 0.1 },
    fusion: null,
    dateWindow: null,
  },
  hybrid: {
    ...retrievalLimits,
    strategy: "hybrid",
    similarityThreshold: 0.3,
    /**
     * Measured per embedder (docs/evaluation.md, "Thresholds per embedder"): offline similarities run low, so 0.3
     * lost answers. OpenAI's scale is higher and unmeasured here, so it keeps 0.3.
     */
    similarityThresholds: {
      "offline/wordvec-glove-v3": 0.1,
      "offline/wordvec-glove-v2": 0.1,
      "offline/wordvec-glove-v1": 0.15,
      "offline/hash-ngram-v1": 0.1,
    } as Readonly<Record<string, number>>,
    /** Measured like the thresholds: 1.5 gains 10 LoCoMo questions for wordvec-glove-v2 and costs neither judged set. */
    vectorWeights: { "offline/wordvec-glove-v3": 1.5, "offline/wordvec-glove-v2": 1.5 } as Readonly<
      Record<string, number>
    >,
    weights: { similarity: 0.8, importance: 0.1, recency: 0.1 },
    fusion: { rrfK: 5, vectorWeight: 1, textWeight: 2, bm25K1: 1.2, bm25B: 0.75, textBypassesThreshold: false },
    /** A message naming a month or day with its year favours memories from then (docs/evaluation.md, "The date window"). */
    dateWindow: { weight: 0.5, daysAfter: 7 },
  },
} as const;

/**
 * The semantic branch's two-stage pass (docs/retrieval.md, numbers in docs/performance.md): above minMemories
 * comparable memories, K candidates by Hamming distance between sign codes, then the exact formula over them and
 * every memory sharing a word with the message.
 */
export const approximateRetrievalConfig: ApproximateRetrievalConfig = {
  /** From the sweep in docs/performance.md: two-stage p95 was 133–142% of exact at 1k–3k, 56–88% at 10k. */
  minMemories: 5_000,
  /** K, measured on the dense corpus at 10k: the exact top 5 on 100% of questions at 1,000, 90% at 200 and 400. */
  candidates: 1_000,
  /**
   * K for the offline embedder, whose rotated codes rank less sharply than the dense corpus's: at 100k (2 other
   * users) the exact top 5 on 98% of questions, recall@5 0.996, at K 2,000 (p95 529 ms against exact's 906), 88% /
   * 0.976 at 1,000 (536 ms), 76% / 0.916 at 200; at 10k 100% at 1,000, 90% at 200 (docs/performance.md).
   */
  candidatesFor: { "offline/wordvec-glove-v3": 2_000 },
  /**
   * The older offline embedders' vectors are mostly zeros (100 dense dimensions, sparse hashed words), so their sign
   * codes hold ~100 set bits of 1,536 and rank poorly: at 10k, K = 200 kept the exact top 5 on 76% of questions,
   * K = 2,000 on 98%; at 100k 74% even at 4,000. Their memories stay exact at any size. wordvec-glove-v3 is v2
   * rotated (dense codes, ~half their bits set) and takes the two-stage pass.
   */
  exactFor: ["offline/wordvec-glove-v2", "offline/wordvec-glove-v1", "offline/hash-ngram-v1"],
};

export type ApproximateRetrievalConfig = {
  readonly minMemories: number;
  readonly candidates: number;
  /** K per embedder id, where its codes need another than `candidates`. */
  readonly candidatesFor?: Readonly<Record<string, number>>;
  /** Embedders whose memories always get the exact statement. */
  readonly exactFor?: readonly string[];
};

export type RetrievalStrategyName = keyof typeof retrievalStrategies;

export const DEFAULT_RETRIEVAL_STRATEGY: RetrievalStrategyName = "hybrid";

export const retrievalConfig = retrievalStrategies[DEFAULT_RETRIEVAL_STRATEGY];

export function thresholdFor(
  embedderId: string,
  strategy: { similarityThreshold: number; similarityThresholds?: Readonly<Record<string, number>> } = retrievalConfig,
): number {
  return strategy.similarityThresholds?.[embedderId] ?? strategy.similarityThreshold;
}

export function vectorWeightFor(
  embedderId: string,
  strategy: {
    fusion?: { vectorWeight: number } | null;
    vectorWeights?: Readonly<Record<string, number>>;
  } = retrievalConfig,
): number | null {
  if (!strategy.fusion) return null;
  return strategy.vectorWeights?.[embedderId] ?? strategy.fusion.vectorWeight;
}

export const memoryToolsConfig = {
  /** A tool step plus the answer reading it is 2; 4 leaves room for a second look and bounds the cost. */
  maxSteps: 4,
  listDefaultLimit: 10,
  listMaxLimit: 20,
  maxQueryChars: 500,
} as const;

export const formatterConfig = {
  maxMemories: 8,
  /** A line longer than this is cut to (maxLineChars − 3) characters + "...". */
  maxLineChars: 100,
  /** A title is used as a `title: content` prefix only when shorter than this. */
  maxTitleChars: 50,
  bullet: "• ",
} as const;

/** History a turn sends, in content tokens (docs/chat.md § History; per-model budget in core/model-capabilities.ts). */
export const promptConfig = {
  /** The offline model and previews: their answers read the last few messages only. */
  historyTokenBudget: 2000,
  /** The rest of the window holds the system message, the new message, tool results and the answer. */
  historyContextShare: 0.25,
  /** Every turn resends its history, so this bounds a turn's price and time to first token on 200k–1M models. */
  maxHistoryTokens: 32_000,
  /**
   * For a model core/model-capabilities.ts does not know: servers such as Ollama run far below the model's window
   * and cut an over-long prompt from its start, the system message first.
   */
  defaultContextWindow: 8_192,
  /** 300 messages of a hundred tokens fill the largest budget; older ones are never loaded. */
  historyWindow: 300,
  /** One pasted document must not push out the rest: an older message past this share is sent cut. */
  maxMessageShare: 0.5,
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
  temperature: 0.1,
  /** Ten memories with evidence fit in ~2,000 tokens; an answer cut off at it is retried once with the larger limit. */
  maxOutputTokens: 4_096,
  retryMaxOutputTokens: 16_384,
  /**
   * A queued row untouched this long was never handed to its runner (the process stopped after the commit).
   * A second hand-over is harmless: the in-process runner joins its run, Inngest drops a seen event id.
   */
  redispatchAfterMs: 60_000,
  redispatchBatch: 200,
} as const;

/** No model call outwaits its budget; the chat and Inngest routes may run 300 s (maxDuration). */
export const modelCallConfig = {
  structuredTimeoutMs: 60_000,
  /** The whole answer, every memory-tool step included. */
  answerTimeoutMs: 240_000,
  /** Silence between two chunks; the AI SDK starts this clock at the first chunk (tests/contracts/openai-timeouts.int.test.ts). */
  answerChunkTimeoutMs: 60_000,
  agentCallTimeoutMs: 60_000,
  embeddingTimeoutMs: 30_000,
} as const;

export const consolidationConfig = {
  /**
   * Measured with the offline embedder (docs/extraction.md): a new value for the same subject is 0.48–0.76 (97% ≥ 0.55),
   * different subjects of one template at most 0.548. A memory sharing a word with the candidate is near whatever its
   * similarity (findNearMemories).
   */
  nearSimilarity: 0.55,
  /** Vector neighbours and text matches are taken alternately, so each way keeps a place. */
  nearLimit: 5,
  /** At most 10 candidates make at most 3 rounds of structuredTimeoutMs calls, within the Inngest route's 300 s. */
  parallelCalls: 4,
} as const;

export type ConsolidationConfig = typeof consolidationConfig;

export const answerConfig = {
  /** While an answer streams, its text so far is saved at most this often: a crash keeps the partial answer. */
  progressIntervalMs: 1_000,
  /** Longer than any live turn (maxDuration 300 s): a message still streaming this long was cut off by a crash. */
  interruptedAfterMs: 5 * 60_000,
  /** Retried on transient database errors: a whole answer must not be left as its last progress snapshot. */
  finalSaveRetryDelaysMs: [200, 1_000, 5_000],
  /** Inngest runs the sweeps on the same schedule: SWEEPS_CRON in inngest/functions/sweeps.ts must agree. */
  sweepIntervalMs: 60_000,
} as const;

/** Keeps one message's CPU cost linear in its length (docs/performance.md § One message's CPU). */
export const textCostConfig = {
  /** BPE merging is quadratic in one pre-token (a run of emoji or CJK), so longer ones are encoded in pieces. */
  maxPretokenChars: 64,
  /** Several offline-extractor rules are regular expressions quadratic in the sentence: longer ones are read in pieces. */
  maxSentenceChars: 400,
} as const;

export const titleConfig = {
  /** A title job still waiting this long was left by a stopped process. */
  retryAfterMs: 60_000,
  /** Longer than a title call with its retries, so the sweep never runs a job that is still running. */
  leaseMs: 5 * 60_000,
  sweepBatch: 20,
} as const;

/** Deleting one memory (or discarding a suggestion): docs/retrieval.md#deleting-a-memory. */
export const deletionConfig = {
  /** Derived records keep the memory's text this long so Undo restores them; "Delete now", "Delete all" and account deletion do not wait. */
  undoWindowMs: 60_000,
  /** Per transaction; the sweep runs batches until none is due. */
  sweepBatch: 50,
} as const;

/** The longest chat message, in characters: lib/validation/chat.ts explains the number; the composer caps input with it. */
export const MESSAGE_MAX_CHARS = 15_000;

/** An astral character as an escaped surrogate pair, `\uD83D\uDE00`: what Python's `json.dumps` sends by default. */
export const JSON_MAX_BYTES_PER_CHAR = 12;

/** Fits the worst escaped largest message (180,000 bytes) and agent email draft (240,000); lib/validation/chat.test.ts checks. */
export const REQUEST_BODY_MAX_BYTES = 256 * 1024;

/** Real bodies nest under 10 levels; 1,750 nested arrays (3.5 KB) took zod's `z.json()` past the call stack. */
export const JSON_MAX_DEPTH = 64;

export const agentConfig = {
  /** The most model calls one agent turn may make before it stops and says so. */
  maxModelCalls: 6,
  /** A send takes seconds but its route may run 300 s: one still approved after this was cut off. */
  sendInterruptedAfterMs: 10 * 60_000,
  /** Gmail's error guide: exponential backoff with jitter; a Retry-After past gmailMaxRetryWaitMs is reported, not waited out. */
  gmailRetries: 3,
  gmailBackoffBaseMs: 1000,
  gmailMaxRetryWaitMs: 10_000,
} as const;

/** The UI waits for the automatic title while a conversation has this one. */
export const DEFAULT_CONVERSATION_TITLE = "New chat";

/** Marks around matched words in a chat search snippet (private-use characters: never in real text). */
export const SNIPPET_START = "\uE000";
export const SNIPPET_END = "\uE001";

export const accessTokenConfig = {
  nameMaxChars: 100,
  /** Revoked tokens do not count. */
  maxPerUser: 25,
  /** The expiries offered, in days; null is "never". */
  expiryDays: [7, 30, 90, 365] as const,
};

export const mcpCallsConfig = {
  listLimit: 50,
};

/** Dictation (docs/chat.md § Dictation): audio is never stored. */
export const dictationConfig = {
  maxRecordingSeconds: 300,
  /** The OpenAI transcription API's own file limit; checked on Content-Length before the body is read. */
  maxUploadBytes: 25 * 1024 * 1024,
  /** One more is a 503 before its body is read: four hold at most ~100 MB in memory. */
  maxConcurrentUploads: 4,
  /** What MediaRecorder produces (webm/opus, Safari's mp4) and WAV uploads; compared without codec parameters. */
  audioTypes: [
    "audio/webm",
    "audio/ogg",
    "audio/mp4",
    "audio/mpeg",
    "audio/m4a",
    "audio/x-m4a",
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/flac",
  ],
  /** Sniffed from the bytes, so an image or page sent as audio/* is refused before it reaches the model. */
  audioContainers: ["webm", "ogg", "oga", "opus", "mp4", "m4a", "mp3", "wav", "flac"],
  defaultModel: "gpt-4o-mini-transcribe",
} as const;

/** Imports (docs/import.md): the server checks every batch the browser posts against these same numbers. */
export const importConfig = {
  /** Checked before anything is inflated. */
  maxZipEntries: 10_000,
  /** Declared, then checked while inflating. */
  maxUncompressedBytes: 512 * 1024 * 1024,
  /** An entry that inflates to more than this many times its compressed size is a zip bomb. */
  maxCompressionRatio: 100,
  /** A longer message is skipped and named in the preview. */
  maxMessageChars: MESSAGE_MAX_CHARS,
  maxMessagesPerConversation: 2_000,
  maxTitleChars: 300,
  /** Far under Vercel's 4.5 MB per request; the browser splits batches before one of the user's messages to fit. */
  maxBatchBytes: REQUEST_BODY_MAX_BYTES,
  maxBatchConversations: 200,
  maxPastedMemories: 200,
  /** How often an import's progress is read again while its job runs and its page is visible (useVisibleTimeout). */
  pollMs: 1_500,
  /** The memories page's list is read again at most this often while an import only finds more (lib/ui/list-refresh). */
  listRefreshMs: 6_000,
  maxPastedChars: 100_000,
  /** A Lifeline export is restored in batches of at most this many memories (and maxBatchBytes). */
  maxRestoreMemories: 200,
  /** Events kept per restored memory; a longer history is refused, not cut. */
  maxRestoreHistory: 500,
  maxRestoreEvidence: 50,
  maxRestoreReasonChars: 2_000,
  /** Inngest counts steps per run; a fresh run also lets other users' imports through. */
  pairsPerRun: 50,
  /** Live extraction is not throttled. */
  throttle: { limit: 30, period: "1m" },
  /** The import's page: conversations a page, exchanges shown per conversation, characters of each question shown. */
  page: { conversations: 20, exchanges: 50, excerptChars: 240 },
  /** GET /api/imports and Settings → Import list this many, newest first (each costs three small reads). */
  listed: 10,
  /**
   * In-process runner: the longest one imported exchange waits, before it and between its steps, for chat turns in
   * flight; past it the exchange goes on, so an import under continuous chat slows and never starves.
   */
  maxChatWaitMs: 5_000,
  /**
   * A running import with nothing done this long (its row and every exchange untouched) lost its job's hand-over:
   * the start's event never reached Inngest, or the process stopped, or its run failed. The sweeps hand it over
   * again. Longer than an exchange with its retries' backoff; a second hand-over is harmless (one run a user at a
   * time, and Inngest drops an event id it has seen; the in-process runner joins its run).
   */
  redispatchAfterMs: 10 * 60_000,
  redispatchBatch: 100,
} as const;
