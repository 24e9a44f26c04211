/**
 * One source of truth for every number that shapes what a model receives.
 * SQL retrieval, the reference scorer, the trace, the UI and docs all read from here.
 */

/** Dimensions of every stored embedding (memories.embedding is vector(EMBEDDING_DIMENSIONS)). */
export const EMBEDDING_DIMENSIONS = 1536;

/** What every retrieval strategy shares: the limits and the recency window. */
const retrievalLimits = {
  semanticLimit: 5,
  /** recency = 1 − min(1, whole days since updated_at / recencyWindowDays) */
  recencyWindowDays: 30,
  conversationLimit: 3,
  /**
   * Semantic branch: the query also returns the best above-threshold candidates that lost to
   * `semanticLimit`, up to this many rows in all, so the trace can show them as dropped by limit.
   */
  traceCandidateLimit: 20,
  /**
   * Semantic branch: the trace also lists this many of the most similar memories that did NOT pass
   * the similarity threshold (fate "below threshold"), so a miss can be explained. Never selected.
   */
  nearMissLimit: 10,
  /**
   * Pinned branch: at most this many pinned memories are always in context, whatever the message
   * (the most important first). They count in the formatter's `maxMemories` and go first there.
   */
  pinnedLimit: 3,
} as const;

/**
 * The retrieval strategies: each is a configuration of the one semantic query
 * (lib/memory/retrieval/retrieve.ts), compared side by side by `npm run eval` (docs/evaluation.md).
 *
 *   score = w.similarity·relevance + w.importance·importance + w.recency·recency
 *           [+ dateWindow.weight·dateMatch when the message names a month or day with its year]
 *   relevance = cosine similarity, or with `fusion` the normalised reciprocal rank fusion of the
 *   vector ranking and a BM25 ranking of the memories' full-text vectors.
 *
 * `similarityThreshold` applies to every embedder without an entry in `similarityThresholds`
 * (embedder id → threshold, measured per embedder: see `thresholdFor`).
 */
export const retrievalStrategies = {
  /** The nearest memories by cosine similarity: no threshold, nothing but similarity. */
  nearest: {
    ...retrievalLimits,
    strategy: "nearest",
    similarityThreshold: -1,
    weights: { similarity: 1, importance: 0, recency: 0 },
    fusion: null,
    dateWindow: null,
  },
  /** The original Lifeline's: threshold 0.3, then 0.6·similarity + 0.3·importance + 0.1·recency. */
  weighted: {
    ...retrievalLimits,
    strategy: "weighted",
    similarityThreshold: 0.3,
    weights: { similarity: 0.6, importance: 0.3, recency: 0.1 },
    fusion: null,
    dateWindow: null,
  },
  /** Vector and BM25 rankings fused (RRF), then importance and recency; the default. */
  hybrid: {
    ...retrievalLimits,
    strategy: "hybrid",
    similarityThreshold: 0.3,
    /**
     * Measured with `npm run eval` (docs/evaluation.md, "Thresholds per embedder"). The offline embedders'
     * similarities of related texts are low, so 0.3 loses answers: hash-ngram-v1 (0.1–0.4) left
     * 30% of the judged set's answerable questions with no memory; at 0.1 none is lost there.
     * wordvec-glove-v2 (the default) centres its word vectors, so unrelated texts sit near 0: at
     * 0.1, 9% of unrelated pairs pass (wordvec-glove-v1 at its 0.15: 61%), no hit of either judged
     * set is lost, and the issue's own case — an extracted "Allergy: Is allergic to peanuts" asked
     * "What should I avoid eating?" (0.125) — passes. OpenAI's scale is higher and unmeasured here
     * (no key): it keeps the original 0.3.
     */
    similarityThresholds: {
      "offline/wordvec-glove-v2": 0.1,
      "offline/wordvec-glove-v1": 0.15,
      "offline/hash-ngram-v1": 0.1,
    } as Readonly<Record<string, number>>,
    /**
     * The fusion's vector weight per embedder, measured like the thresholds (`vectorWeightFor`);
     * `fusion.vectorWeight` for the others. wordvec-glove-v2's ranking is worth 1.5 on LoCoMo
     * (+10 questions) and costs nothing on either judged set; 1 or 2 for the others.
     */
    vectorWeights: { "offline/wordvec-glove-v2": 1.5 } as Readonly<Record<string, number>>,
    weights: { similarity: 0.8, importance: 0.1, recency: 0.1 },
    fusion: { rrfK: 5, vectorWeight: 1, textWeight: 2, bm25K1: 1.2, bm25B: 0.75, textBypassesThreshold: false },
    /**
     * The date-window preference (lib/memory/retrieval/date-window.ts): when the message names a
     * month or a day with its year ("in May 2023", "on 7 May 2023"), memories created in that
     * period or up to `daysAfter` days after it score `weight` more. Without such a date the score
     * is the formula above. Measured in docs/evaluation.md ("The date window").
     */
    dateWindow: { weight: 0.5, daysAfter: 7 },
  },
} as const;

/**
 * The approximate path of the semantic branch (lib/memory/retrieval/retrieve.ts, docs/performance.md):
 * on Postgres, for a user with more than `minMemories` comparable memories, the candidates come from
 * the HNSW index on memories.embedding (migration memories_hnsw; PGlite has no such index and is
 * always exact) — the `indexCandidates` nearest, filtered to the user by pgvector's iterative scan —
 * together with every memory sharing a word with the message (the GIN index), and the strategy's
 * formula scores those. Below `minMemories` the exact statement answers, unchanged.
 */
export const approximateRetrievalConfig: ApproximateRetrievalConfig = {
  /**
   * The crossover, measured (`npm run bench`, 2026-12-02, docs/performance.md "Numbers"; hybrid,
   * p50 / p95 ms, exact against approximate in the same run): 1k 13.6 / 26.1 against 24.0 / 40.5,
   * 3k 24.5 / 42.0 against 29.0 / 50.7 — the exact statement is faster; 10k 96.5 / 186 against
   * 45.9 / 145; 100k 1,310 / 2,326 against 289 / 1,838. Above 10k the exact statement's cost keeps
   * growing with the count while the approximate one's barely does; at 10k the margin is small and
   * the exact statement's top 5 is exact, so 10k stays exact.
   */
  minMemories: 10_000,
  /** The nearest memories taken from the index (LIMIT): the vector ranks of these are exact when the index finds them. */
  indexCandidates: 200,
  /** hnsw.ef_search: the candidate list of each step of the scan (≥ indexCandidates, or the scan returns fewer). */
  efSearch: 200,
  /**
   * hnsw.iterative_scan: `relaxed_order` goes on scanning the graph until `indexCandidates` rows of
   * the user passed the filter (the index holds every user's memories); the candidates are re-sorted
   * by their exact distance, so the slightly relaxed order costs nothing.
   */
  iterativeScan: "relaxed_order",
  /**
   * hnsw.max_scan_tuples: where an iterative scan stops (pgvector's default). A user whose memories
   * are a small share of the table may reach it with fewer candidates than asked: then the exact
   * statement answers (the trace says so).
   */
  maxScanTuples: 20_000,
};

export type ApproximateRetrievalConfig = {
  readonly minMemories: number;
  readonly indexCandidates: number;
  readonly efSearch: number;
  /** "off": pgvector's default, one pass of ef_search candidates before the user filter (tests). */
  readonly iterativeScan: "relaxed_order" | "strict_order" | "off";
  readonly maxScanTuples: number;
};

export type RetrievalStrategyName = keyof typeof retrievalStrategies;

export const DEFAULT_RETRIEVAL_STRATEGY: RetrievalStrategyName = "hybrid";

export const retrievalConfig = retrievalStrategies[DEFAULT_RETRIEVAL_STRATEGY];

/** A strategy's similarity threshold for memories embedded by `embedderId` ("offline/wordvec-glove-v2"). */
export function thresholdFor(
  embedderId: string,
  strategy: { similarityThreshold: number; similarityThresholds?: Readonly<Record<string, number>> } = retrievalConfig,
): number {
  return strategy.similarityThresholds?.[embedderId] ?? strategy.similarityThreshold;
}

/** A fusing strategy's vector weight for memories embedded by `embedderId`; null without fusion. */
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

/**
 * The memory tools of the text path (lib/memory/retrieval/tools.ts): the model may look memories
 * up when the injected context is not enough ("what do you remember about me?").
 */
export const memoryToolsConfig = {
  /**
   * Model calls per answer at most (AI SDK `stopWhen: isStepCount(maxSteps)`): a tool step and the
   * answer that reads its result is 2; 4 leaves room for a second look, and bounds the cost.
   */
  maxSteps: 4,
  /** list_memories: memories returned when the model gives no limit, and the most it may ask for. */
  listDefaultLimit: 10,
  listMaxLimit: 20,
  /** search_memories: query length accepted, in characters. */
  maxQueryChars: 500,
} as const;

export const formatterConfig = {
  /** At most this many memory lines reach the prompt. */
  maxMemories: 8,
  /** A line longer than this is cut to (maxLineChars − 3) characters + "...". */
  maxLineChars: 100,
  /** A title is used as a `title: content` prefix only when shorter than this. */
  maxTitleChars: 50,
  bullet: "• ",
} as const;

/**
 * The conversation history a turn sends (lib/memory/retrieval/prompt.ts, selectHistory), in content
 * tokens counted with Lifeline's tokenizer; the budget of a turn is core/model-capabilities.ts's
 * `historyTokenBudget` (docs/chat.md § History).
 */
export const promptConfig = {
  /**
   * The offline model's history budget, and that of previews (no model answers them): its answers
   * read the last few messages only.
   */
  historyTokenBudget: 2000,
  /**
   * A model's history budget is this share of its context window: the rest holds the system
   * message with its memories, the new message, the memory tools' results and the answer.
   */
  historyContextShare: 0.25,
  /**
   * …and at most this many tokens, which a 128k-token model reaches (gpt-4o, gpt-4o-mini): every
   * turn sends its history again, so the cap bounds a turn's price and the model's time to its
   * first token on the 200k–1M-token models.
   */
  maxHistoryTokens: 32_000,
  /**
   * The context window assumed for a model core/model-capabilities.ts does not know (an
   * OpenAI-compatible server's llama3.2, qwen2.5…) unless LIFELINE_MODEL_CONTEXT_TOKENS gives it:
   * a server such as Ollama runs a model with a window far below what the model supports unless
   * told otherwise, and a prompt longer than the window is cut by the server from its start —
   * the system message first.
   */
  defaultContextWindow: 8_192,
  /**
   * A chat turn reads at most this many of the conversation's latest messages as history (the
   * budget then picks from the newest back); the rest is never loaded. 300 messages of a hundred
   * tokens fill the largest budget.
   */
  historyWindow: 300,
  /**
   * An older history message may take at most this share of the budget: a longer one is sent cut
   * (its start and end), so one pasted document does not push the rest of the conversation out.
   * The newest exchange is not held to it (lib/memory/retrieval/prompt.ts, selectHistory).
   */
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
  /** Model temperature of extraction and consolidation calls. */
  temperature: 0.1,
  /**
   * Output limit of an extraction or consolidation call (ten memories with evidence fit in about
   * 2 000 tokens). An answer cut off at it is retried once with `retryMaxOutputTokens`, then fails
   * for good naming the cause (lib/memory/extraction/call.ts).
   */
  maxOutputTokens: 4_096,
  retryMaxOutputTokens: 16_384,
  /**
   * The outbox's bound: a `queued` row that neither started nor was retried for this long was
   * never handed to its runner (the process stopped between the answer's commit and the dispatch),
   * and the outbox sweep hands it over again (lib/jobs/extraction-queue.ts). Longer than a dispatch
   * takes; a second hand-over of a row already handed over is harmless (the in-process runner
   * joins the run it has, Inngest drops an event id it has seen).
   */
  redispatchAfterMs: 60_000,
  /** The most rows one outbox sweep hands over (the rest wait for the next sweep). */
  redispatchBatch: 200,
} as const;

/**
 * Time bounds of model calls: none waits longer than its budget, so no chat turn or background
 * step is held by a silent server. The chat route and the Inngest route may each run 300 s
 * (`maxDuration` in app/api/chat/route.ts and app/api/inngest/route.ts).
 */
export const modelCallConfig = {
  /** A structured call (extraction, consolidation, title): the whole call. */
  structuredTimeoutMs: 60_000,
  /** A chat answer on the text path: the whole answer, every memory-tool step included. */
  answerTimeoutMs: 240_000,
  /**
   * A chat answer: the most the model may stay silent between two chunks. The AI SDK starts this
   * clock at the first chunk; before it, only answerTimeoutMs bounds the wait
   * (tests/contracts/openai-timeouts.int.test.ts).
   */
  answerChunkTimeoutMs: 60_000,
  /** One model call of the Gmail agent (LangChain's request timeout). */
  agentCallTimeoutMs: 60_000,
  /** One embedding request (a message, a search query, a batch of memories). */
  embeddingTimeoutMs: 30_000,
} as const;

export const consolidationConfig = {
  /**
   * A stored memory (active or pending) at least this similar to a new candidate is "near" and is
   * shown to the consolidation decision (add / update / supersede / skip); below it, the candidate
   * is added without a model call. Measured with the offline embedder on "title: content" texts
   * (docs/extraction.md, docs/evaluation.md § Extraction): a new value for the same subject is
   * 0.48–0.76 when only the value differs ("Home: Lives in A" vs "… B" over 24 cities: median
   * 0.68, 97% ≥ 0.55 but only 27% ≥ 0.75, the old threshold; workplaces 93% ≥ 0.55, occupations
   * 100%), 0.79–0.89 for names, ages and favourites, refinements 0.70–0.90, negations 0.82–0.89;
   * different subjects of one template up to 0.548 (sister's / brother's name), which stays below.
   * Memories about other people ("Sister Maya lives in Lisbon") are ≤ 0.35 from the user's own.
   * This is one of two ways a memory is near: one that shares a word with the candidate (full-text
   * match over memories.search_vector) is near whatever its similarity — "Is no longer a teacher"
   * vs "Works as a teacher" is 0.20 — for every embedder (findNearMemories, db/queries/memories.ts).
   */
  nearSimilarity: 0.55,
  /**
   * At most this many near memories are shown to the decision: vector neighbours and text matches
   * share it, taken alternately from the two rankings (so each way keeps a place).
   */
  nearLimit: 5,
  /**
   * Decisions asked of the model at once (lib/memory/extraction/consolidate.ts): with at most 10
   * candidates, the consolidate step makes at most ceil(10 / 4) = 3 rounds of calls, each bounded by
   * modelCallConfig.structuredTimeoutMs — within the Inngest route's 300 s.
   */
  parallelCalls: 4,
} as const;

export type ConsolidationConfig = typeof consolidationConfig;

export const answerConfig = {
  /** While an answer streams, its text so far is saved at most this often: a crash keeps the partial answer. */
  progressIntervalMs: 1_000,
  /**
   * An assistant message still `streaming` this long after its last saved progress was cut off by
   * a crash or a killed function: it is marked `error` ("interrupted") with its partial text, and
   * its extraction runs. Longer than any live turn (the chat route's maxDuration is 300 s).
   */
  interruptedAfterMs: 5 * 60_000,
  /**
   * The answer's final save (its message, extraction row and title job, one transaction) is tried
   * again after each of these delays when it fails with a transient database error (a connection
   * lost, a failover): a whole answer must not be left as its last progress snapshot.
   */
  finalSaveRetryDelaysMs: [200, 1_000, 5_000],
  /**
   * How often a long-lived server runs its sweeps — interrupted answers, interrupted email sends,
   * the extraction outbox — (it also runs them once at start); with Inngest, the `sweeps` function
   * runs them on this schedule too (inngest/functions/sweeps.ts: SWEEPS_CRON says the same minute).
   */
  sweepIntervalMs: 60_000,
} as const;

/**
 * CPU bounds of the text readers, so that one message's cost grows linearly with its length
 * (15,000 emoji once took ~9 s of event-loop time; docs/performance.md § One message's CPU).
 */
export const textCostConfig = {
  /**
   * The tokenizer's byte-pair merge is quadratic in the length of one pre-token (a run of emoji or
   * CJK, one long "word" is one pre-token): a longer one is encoded in pieces of this many UTF-16
   * units. Ordinary words are far shorter, so their counts are exact; a cut can cost a few tokens
   * per piece against the provider's own count, which only budgets use.
   */
  maxPretokenChars: 64,
  /**
   * The offline extractor reads a sentence of at most this many characters: a longer one is read
   * in pieces of at most this length cut at whitespace (several of its rules are regular
   * expressions whose cost is quadratic in the sentence). A statement about the user is far shorter.
   */
  maxSentenceChars: 400,
} as const;

/** Auto-titles (lib/chat/title.ts) and their outbox (db/queries/title-jobs.ts). */
export const titleConfig = {
  /**
   * A title job still waiting this long after its answer was saved was left by a stopped process
   * (it runs right after the response, one model call): the sweep runs it.
   */
  retryAfterMs: 60_000,
  /**
   * A run holds its title job this long (its due time moves ahead): longer than the title call
   * may take (modelCallConfig.structuredTimeoutMs per call, with the AI SDK's retries), so the sweep
   * never runs a job that is still running; a job whose run stopped is swept this long plus
   * retryAfterMs after it was taken.
   */
  leaseMs: 5 * 60_000,
  /** The most title jobs one sweep runs, one after another (the rest wait for the next sweep). */
  sweepBatch: 20,
} as const;

/** Deleting one memory (or discarding a suggestion): docs/retrieval.md#deleting-a-memory. */
export const deletionConfig = {
  /**
   * The undo window: for this long after a delete, the records derived from the memory (debug
   * records, extraction decisions, event reasons, MCP calls) keep its text, so that Undo restores
   * all of them; then the sweep redacts it (within one more sweep interval). "Delete now", "Delete
   * all" and deleting the account do not wait.
   */
  undoWindowMs: 60_000,
  /** The most deleted memories one sweep redacts per transaction (it runs batches until none is due). */
  sweepBatch: 50,
} as const;

/** The longest chat message, in characters: lib/validation/chat.ts explains the number; the composer caps input with it. */
export const MESSAGE_MAX_CHARS = 15_000;

/**
 * The most bytes JSON can spend on one character: a character outside the BMP (an emoji) written
 * as an escaped surrogate pair, `\uD83D\uDE00` — what Python's `json.dumps` sends by default.
 */
export const JSON_MAX_BYTES_PER_CHAR = 12;

/**
 * The largest JSON body any route reads (lib/api/body.ts): 256 KB, sized for the worst escaped form
 * of the largest valid message — 15,000 emoji each as a 12-byte `\u` pair are 180,000 bytes, and the
 * agent's email draft (20,000 characters) is 240,000 — with room for everything around it.
 * lib/validation/chat.test.ts checks both.
 */
export const REQUEST_BODY_MAX_BYTES = 256 * 1024;

/**
 * The deepest nesting of arrays and objects a JSON body may have (lib/api/body.ts; the body itself
 * is level 1). Every body a route accepts is a few levels deep (an MCP message with its `_meta`,
 * a chat UI message with provider metadata: under 10); a recursive schema or walker meets what a
 * client sent only after this check, and a 3.5 KB body of 1,750 nested arrays took zod's
 * `z.json()` past the call stack.
 */
export const JSON_MAX_DEPTH = 64;

export const agentConfig = {
  /** The most model calls one agent turn may make before it stops and says so. */
  maxModelCalls: 6,
  /**
   * An approved send still `approved` after this long was cut off by a stopped process (a send takes
   * seconds; the approve route's function may run 300 s): the sweep marks it interrupted.
   */
  sendInterruptedAfterMs: 10 * 60_000,
  /**
   * Gmail rate limits (403 rateLimitExceeded / userRateLimitExceeded, 429) and, for calls that change
   * nothing, 5xx: retried this many times with exponential backoff (base · 2^attempt plus up to one
   * base of jitter: ~1, 2, 4 s), as Gmail's error guide asks. A Retry-After longer than the most a
   * tool call should wait is not waited out: the user is told to try again.
   */
  gmailRetries: 3,
  gmailBackoffBaseMs: 1000,
  gmailMaxRetryWaitMs: 10_000,
} as const;

/** A conversation's title until it is named (db default; the UI waits for the automatic title while it is this). */
export const DEFAULT_CONVERSATION_TITLE = "New chat";

/** Marks around matched words in a chat search snippet (private-use characters: never in real text). */
export const SNIPPET_START = "\uE000";
export const SNIPPET_END = "\uE001";

/** Personal access tokens (lib/auth/access-tokens.ts, Settings → Access tokens). */
export const accessTokenConfig = {
  nameMaxChars: 100,
  /** The most tokens an account may hold at once (revoked ones do not count). */
  maxPerUser: 25,
  /** The expiries offered, in days; null is "never". */
  expiryDays: [7, 30, 90, 365] as const,
};

/** The record of MCP tool calls (db/queries/mcp-calls.ts; Settings → External calls). */
export const mcpCallsConfig = {
  /** How many recent calls the External calls page lists. */
  listLimit: 50,
};

/**
 * Dictation (docs/chat.md § Dictation): the composer records, POST /api/transcribe transcribes, the
 * transcript goes into the composer for review. Audio is never stored.
 */
export const dictationConfig = {
  /** A recording stops by itself after this many seconds (the composer says so while recording). */
  maxRecordingSeconds: 300,
  /**
   * The largest upload POST /api/transcribe accepts, in bytes: the OpenAI transcription API's own
   * file limit (25 MB). Checked on Content-Length before the body is read.
   */
  maxUploadBytes: 25 * 1024 * 1024,
  /**
   * Uploads one server process reads and holds at once (each up to maxUploadBytes, in memory until
   * its transcription returns); one more is a 503 with Retry-After before its body is read. Four
   * hold at most ~100 MB of request bodies.
   */
  maxConcurrentUploads: 4,
  /**
   * Audio containers the transcription API reads (OpenAI documents flac, mp3, mp4, mpeg, mpga, m4a,
   * ogg, wav, webm): what MediaRecorder produces (webm/opus in Chromium and Firefox, mp4 in Safari)
   * and uploaded WAV files. The file's type is checked without its codec parameters.
   */
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
  /**
   * The containers an upload's bytes must be, whatever type it claims: the file-type library's
   * names for what the transcription API reads (OpenAI: flac, mp3, mp4, m4a, ogg, wav, webm), so
   * an image, text or HTML page sent as audio/* is refused before it reaches the model.
   */
  audioContainers: ["webm", "ogg", "oga", "opus", "mp4", "m4a", "mp3", "wav", "flac"],
  /** Default transcription model (LIFELINE_TRANSCRIPTION_MODEL overrides it). */
  defaultModel: "gpt-4o-mini-transcribe",
} as const;

/**
 * Importing a ChatGPT or Claude export, a pasted memory list or a Lifeline export (docs/import.md).
 * The browser reads the file (lib/import/) and posts normalised conversations in batches; the
 * server checks every batch against the same numbers.
 */
export const importConfig = {
  /** A zip with more entries than this is refused before anything is inflated. */
  maxZipEntries: 10_000,
  /** The most bytes the conversations file may inflate to (declared, then checked while inflating). */
  maxUncompressedBytes: 512 * 1024 * 1024,
  /** An entry that inflates to more than this many times its compressed size is a zip bomb. */
  maxCompressionRatio: 100,
  /** A message longer than this is skipped (and named in the preview), never sent or extracted. */
  maxMessageChars: MESSAGE_MAX_CHARS,
  /** The most messages one imported conversation may carry. */
  maxMessagesPerConversation: 2_000,
  maxTitleChars: 300,
  /**
   * The largest batch body, in bytes: every JSON body's limit, far under Vercel's 4.5 MB per
   * request, so one batch's JSON is all the server holds per request. The browser packs its
   * batches under it, splitting a long conversation before one of the user's messages.
   */
  maxBatchBytes: REQUEST_BODY_MAX_BYTES,
  /** The most conversations in one batch. */
  maxBatchConversations: 200,
  /** A pasted memory list: the most lines kept, and each memory's length. */
  maxPastedMemories: 200,
  maxPastedChars: 100_000,
  /**
   * Import extractions one run of the job handles before it hands over to the next run (Inngest
   * counts steps per run; a fresh run also lets other users' imports through).
   */
  pairsPerRun: 50,
  /** Inngest: the most import runs started per user per period (live extraction is not throttled). */
  throttle: { limit: 30, period: "1m" },
} as const;
