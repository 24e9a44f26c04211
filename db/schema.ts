/**
 * Lifeline's whole data model. Every table that holds a user's data carries `user_id`
 * (the owner), so every query can — and must — filter by it (see db/queries/*).
 */
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  halfvec,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { DEFAULT_CONVERSATION_TITLE, EMBEDDING_DIMENSIONS } from "../core/config";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Any JSON value a client sent, kept as its JSON text (JSON.stringify): jsonb refuses a string
 * or key holding NUL (`\u0000`) or an unpaired surrogate (`\ud800`), which JSON carries and a
 * client may send, while JSON.stringify writes both as escapes — text that always fits and parses
 * back to the same value.
 */
const clientJson = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (text) => JSON.parse(text),
});

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const CHAT_MODES = ["conversational", "coaching", "therapeutic", "productivity", "creative", "agent"] as const;
export type ChatMode = (typeof CHAT_MODES)[number];
export const chatModeEnum = pgEnum("chat_mode", CHAT_MODES);

export const MESSAGE_ROLES = ["user", "assistant", "system"] as const;
export const messageRoleEnum = pgEnum("message_role", MESSAGE_ROLES);

/** streaming: the answer is being produced; complete | aborted (client stopped) | error (model failed). */
export const MESSAGE_STATUSES = ["streaming", "complete", "aborted", "error"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const messageStatusEnum = pgEnum("message_status", MESSAGE_STATUSES);

/**
 * Why an answer that ended is not a whole answer (null: it is): the model hit its output limit,
 * the provider's content filter stopped it, the model refused, or the stream closed without a
 * finish reason. Shown under the answer (components/chat/message.tsx).
 */
export const MESSAGE_NOTICES = ["length", "content-filter", "refusal", "no-finish"] as const;
export type MessageNotice = (typeof MESSAGE_NOTICES)[number];

export const MEMORY_TYPES = [
  "personal",
  "preference",
  "goal",
  "insight",
  "fact",
  "context",
  "actionable",
  "event",
  "decision",
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];
export const memoryTypeEnum = pgEnum("memory_type", MEMORY_TYPES);

/** Who the memory's content comes from: the user said it, the assistant suggested it, or the user typed it in. */
export const MEMORY_PROVENANCES = ["user_stated", "assistant_suggested", "user_created"] as const;
export type MemoryProvenance = (typeof MEMORY_PROVENANCES)[number];
export const memoryProvenanceEnum = pgEnum("memory_provenance", MEMORY_PROVENANCES);

/** Only `active` memories are ever retrieved into a prompt. */
export const MEMORY_STATUSES = ["active", "pending_confirmation", "superseded", "deleted"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];
export const memoryStatusEnum = pgEnum("memory_status", MEMORY_STATUSES);

export const MEMORY_EVENT_ACTIONS = [
  "create",
  "update",
  "supersede",
  "delete",
  "restore",
  "confirm",
  "discard",
] as const;
export type MemoryEventAction = (typeof MEMORY_EVENT_ACTIONS)[number];
export const memoryEventActionEnum = pgEnum("memory_event_action", MEMORY_EVENT_ACTIONS);

export const ACTORS = ["user", "extraction", "system"] as const;
export type Actor = (typeof ACTORS)[number];
export const actorEnum = pgEnum("actor", ACTORS);

export const RETRIEVAL_STATUSES = ["ok", "failed", "disabled"] as const;
export type RetrievalStatus = (typeof RETRIEVAL_STATUSES)[number];
export const retrievalStatusEnum = pgEnum("retrieval_status", RETRIEVAL_STATUSES);

export const EXTRACTION_STATUSES = ["queued", "running", "succeeded", "failed", "skipped"] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];
export const extractionStatusEnum = pgEnum("extraction_status", EXTRACTION_STATUSES);

/**
 * pending_confirmation: a send waiting for the user's approval; approved: claimed by an approval and
 * being sent (a crash here leaves it in doubt, never sent twice); then succeeded | failed;
 * cancelled: declined by the user.
 */
export const GMAIL_OPERATION_STATUSES = [
  "pending_confirmation",
  "approved",
  "succeeded",
  "failed",
  "cancelled",
] as const;
export type GmailOperationStatus = (typeof GMAIL_OPERATION_STATUSES)[number];
export const gmailOperationStatusEnum = pgEnum("gmail_operation_status", GMAIL_OPERATION_STATUSES);

// Auth.js tables (shape required by @auth/drizzle-adapter) + password hash
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name"),
    email: text("email").notNull(),
    emailVerified: timestamp("email_verified", { withTimezone: true, mode: "date" }),
    image: text("image"),
    /** bcrypt hash for email + password sign-in; null for OAuth-only users. */
    passwordHash: text("password_hash"),
    /** Default of conversations.memory_enabled for this user's new chats. */
    memoryEnabledDefault: boolean("memory_enabled_default").notNull().default(true),
    /**
     * Copied into every session (JWT claim `sv`) at sign-in; a session whose copy differs is ended.
     * Bumped by a password change and "sign out everywhere" (lib/auth/revocation.ts).
     */
    sessionVersion: integer("session_version").notNull().default(0),
    /**
     * IANA time zone ("Europe/Paris") in which dates are shown and deadlines resolve; detected in
     * the browser on the first visit, editable in settings. Null until then (UTC is used).
     */
    timeZone: text("time_zone"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/** The owner column of every owned table: its rows go when the user goes. */
const ownerId = () =>
  uuid("user_id")
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: "cascade" });

export const accounts = pgTable(
  "accounts",
  {
    userId: ownerId(),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
    /**
     * When Google refused the refresh token (`invalid_grant`: the user revoked Lifeline's access, or
     * the grant expired): its tokens were cleared then. Null again after the user reconnects.
     */
    tokensRevokedAt: timestamp("tokens_revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index("accounts_user_idx").on(t.userId)],
);

export const sessions = pgTable(
  "sessions",
  {
    sessionToken: text("session_token").primaryKey(),
    userId: ownerId(),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/**
 * Sessions ended by signing out (JWT claim `sid`), kept until the JWT itself would have expired.
 * Other sessions of the user are unaffected; a user's rows go with the user.
 */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    userId: ownerId(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("revoked_sessions_user_idx").on(t.userId), index("revoked_sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Rate-limit counters shared by every server instance (lib/limits/rate-limit.ts): one row per key,
 * a fixed window that starts at the key's first hit. Not user data: keys are opaque strings
 * ("signin:email:<sha256>", "chat:<user id>"), and expired rows are deleted opportunistically.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [index("rate_limits_expires_idx").on(t.expiresAt)],
);

/** read: the read routes and tools; read+write: also the memory writes (lib/auth/access-tokens.ts). */
export const ACCESS_TOKEN_SCOPES = ["read", "read+write"] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];
export const accessTokenScopeEnum = pgEnum("access_token_scope", ACCESS_TOKEN_SCOPES);

/**
 * Personal access tokens (lib/auth/access-tokens.ts): a bearer secret the user hands to another
 * program. Only the SHA-256 of the secret is stored; the secret is shown once, at creation.
 * A token is live while it is not revoked, not expired, and `session_version` still equals the
 * account's: a password change or "end all sessions" (which bump it) ends every token too.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole secret ("llt_…"). */
    tokenHash: text("token_hash").notNull(),
    scope: accessTokenScopeEnum("scope").notNull(),
    /** users.session_version when the token was created. */
    sessionVersion: integer("session_version").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("access_tokens_hash_idx").on(t.tokenHash), index("access_tokens_user_idx").on(t.userId)],
);

/**
 * Every MCP tool call (app/api/mcp, lib/mcp/): which token, which tool, the arguments as given and
 * the exact text the client received. Memory text in it follows delete-means-gone
 * (db/queries/mcp-calls.ts redacts it with the debug records).
 */
export const mcpCalls = pgTable(
  "mcp_calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenId: uuid("token_id")
      .notNull()
      .references(() => accessTokens.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    /**
     * As the client sent them, whatever their strings hold (a refused call's too); SQL NULL is
     * JSON `null` (drizzle passes a null through without its type's mapping), absent arguments `{}`.
     */
    arguments: clientJson("arguments"),
    /** The text of the result's one content block, byte for byte what the client received. */
    result: text("result").notNull(),
    isError: boolean("is_error").notNull(),
    /** How the result was made: the assembly trace (get_memory_context), the tool trace (search/list). */
    trace: jsonb("trace").$type<unknown>(),
    /** Every memory the record mentions (result, trace, arguments): what a delete redacts. */
    memoryIds: jsonb("memory_ids").$type<string[]>().notNull().default([]),
    /** The memories the result handed to the client: "read by ‹token›" on the memories page. */
    returnedMemoryIds: jsonb("returned_memory_ids").$type<string[]>().notNull().default([]),
    latencyMs: real("latency_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("mcp_calls_user_created_idx").on(t.userId, t.createdAt),
    index("mcp_calls_memory_ids_idx").using("gin", t.memoryIds),
    index("mcp_calls_returned_memory_ids_idx").using("gin", t.returnedMemoryIds),
  ],
);

export const IMPORT_SOURCE_KINDS = ["chatgpt", "claude"] as const;
export type ImportSourceKind = (typeof IMPORT_SOURCE_KINDS)[number];

/**
 * receiving: batches arrive; running: its job extracts; paused: its job stops after the exchange in
 * hand until resumed; cancelled: the rest is never read; done: nothing left to run.
 */
export const IMPORT_STATUSES = ["receiving", "running", "paused", "cancelled", "done"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * One import of a ChatGPT or Claude export (lib/jobs/import-job.ts): the conversations it brought
 * in point at it, and so do the extractions of their exchanges, which its job runs.
 */
export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    source: text("source", { enum: IMPORT_SOURCE_KINDS }).notNull(),
    /** The name of the file the user chose (shown in the list of imports). */
    fileName: text("file_name").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("receiving"),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("imports_user_created_idx").on(t.userId, t.createdAt), index("imports_status_idx").on(t.status)],
);

export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    title: text("title").notNull().default(DEFAULT_CONVERSATION_TITLE),
    mode: chatModeEnum("mode").notNull().default("conversational"),
    /** Model id from the registry (lib/ai); null → the registry's default. */
    model: text("model"),
    archived: boolean("archived").notNull().default(false),
    /** false = "temporary chat": no retrieval, no extraction. */
    memoryEnabled: boolean("memory_enabled").notNull().default(true),
    /**
     * The newest message of the branch the chat shows and the next message continues (lib/chat/branch.ts):
     * a turn sets it to its answer, stepping to another version to the newest message below it.
     * Null when there is none (no message yet, or its message was deleted): the newest message then.
     */
    currentMessageId: uuid("current_message_id").references((): AnyPgColumn => messages.id, {
      onDelete: "set null",
    }),
    /** Where an imported conversation came from (read-only, shown "Imported from …"); null for Lifeline's own. */
    importedFrom: text("imported_from", { enum: IMPORT_SOURCE_KINDS }),
    /** The export's id of an imported conversation: importing it again adds only its new messages. */
    sourceId: text("source_id"),
    /** The import that first brought it in. */
    importId: uuid("import_id").references(() => imports.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("conversations_user_updated_idx").on(t.userId, t.archived, t.updatedAt),
    uniqueIndex("conversations_user_source_idx")
      .on(t.userId, t.importedFrom, t.sourceId)
      .where(sql`${t.sourceId} IS NOT NULL`),
  ],
);

/**
 * The title outbox: a conversation whose first answer was saved while it still had the default
 * title, waiting for its auto-title (lib/chat/title.ts). Written in the answer's transaction,
 * deleted once the title job has run (titled or not); a row older than
 * titleConfig.retryAfterMs was left by a stopped process, and the sweep runs its job.
 */
export const conversationTitleJobs = pgTable(
  "conversation_title_jobs",
  {
    conversationId: uuid("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: ownerId(),
    dueAt: timestamp("due_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("conversation_title_jobs_due_idx").on(t.dueAt)],
);

export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /**
     * The message this one follows (null for a conversation's first): messages form a tree, and its
     * versions — an edited question, a regenerated answer — are siblings under one parent. Deleting
     * a message deletes every message below it.
     */
    parentMessageId: uuid("parent_message_id").references((): AnyPgColumn => messages.id, { onDelete: "cascade" }),
    role: messageRoleEnum("role").notNull(),
    /** Plain text of the message (what history and extraction read). */
    content: text("content").notNull().default(""),
    /**
     * The content's tokens (lib/memory/tokens.ts), counted once when the text is written, so a
     * turn budgets its history without tokenising it again. Null while an answer streams, and for
     * rows written before the column: a turn counts those itself.
     */
    contentTokens: integer("content_tokens"),
    /** AI SDK UIMessage parts, as streamed to the client. */
    parts: jsonb("parts").$type<unknown[]>().notNull().default([]),
    model: text("model"),
    status: messageStatusEnum("status").notNull().default("complete"),
    error: text("error"),
    notice: text("notice", { enum: MESSAGE_NOTICES }),
    /** The export's id of an imported message: one row per id in its conversation. */
    sourceId: text("source_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Full-text search vector over the text (chat search: db/queries/conversations.ts). */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english', ${messages.content})`,
    ),
  },
  (t) => [
    index("messages_conversation_created_idx").on(t.conversationId, t.createdAt),
    index("messages_parent_idx").on(t.parentMessageId),
    index("messages_user_idx").on(t.userId),
    index("messages_search_vector_idx").using("gin", t.searchVector),
    // The sweep for answers a stopped server left streaming (db/queries/interrupted-answers.ts) reads
    // only these: a few rows, not every message, every minute.
    index("messages_streaming_idx").on(t.updatedAt).where(sql`${t.status} = 'streaming'`),
    uniqueIndex("messages_conversation_source_idx")
      .on(t.conversationId, t.sourceId)
      .where(sql`${t.sourceId} IS NOT NULL`),
  ],
);

export const messageNotes = pgTable(
  "message_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("message_notes_user_idx").on(t.userId), index("message_notes_message_idx").on(t.messageId)],
);

export const ANSWER_RATINGS = ["up", "down"] as const;
export type AnswerRating = (typeof ANSWER_RATINGS)[number];
export const answerRatingEnum = pgEnum("answer_rating", ANSWER_RATINGS);

/** The user's thumbs up or down on one answer (at most one per answer), with an optional reason. */
export const answerRatings = pgTable(
  "answer_ratings",
  {
    messageId: uuid("message_id")
      .primaryKey()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: ownerId(),
    rating: answerRatingEnum("rating").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("answer_ratings_user_idx").on(t.userId, t.updatedAt)],
);

export const memories = pgTable(
  "memories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    content: text("content").notNull(),
    title: text("title"),
    type: memoryTypeEnum("type").notNull().default("personal"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    importance: real("importance").notNull().default(0.5),
    /** The extractor's confidence (0–1); null for memories the user typed in. */
    confidence: real("confidence"),
    /**
     * Half precision (migration `halfvec_embeddings`): a 3 KB value, so retrieval's distance pass reads
     * half the pages; a component beyond ±65504 is refused at write time (db/queries/vectors.ts).
     * Stored in the row (migration 0006: toast_tuple_target 8160, STORAGE MAIN), not TOASTed. Neither
     * setting is expressed here (drizzle has no syntax). On Postgres only, migration memories_hnsw
     * adds an HNSW index over it (and memories_user_model_idx) for retrieval's approximate path above
     * a per-user count (docs/performance.md); not declared here, as drizzle cannot say "not on PGlite".
     */
    embedding: halfvec("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    /** Which embedder produced `embedding` ("offline/hash-ngram-v1", "openai/text-embedding-3-small"…). */
    embeddingModel: text("embedding_model"),
    sourceConversationId: uuid("source_conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    sourceUserMessageId: uuid("source_user_message_id").references(() => messages.id, { onDelete: "set null" }),
    sourceAssistantMessageId: uuid("source_assistant_message_id").references(() => messages.id, {
      onDelete: "set null",
    }),
    /** The access token a memory was remembered through (MCP `remember`): its provenance "from ‹token›". */
    sourceAccessTokenId: uuid("source_access_token_id").references((): AnyPgColumn => accessTokens.id, {
      onDelete: "set null",
    }),
    /** Every message the extractor read when it produced this memory. */
    examinedMessageIds: uuid("examined_message_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Short quotes, each tagged with the role it came from: why the extractor believed this. */
    evidence: jsonb("evidence").$type<{ role: "user" | "assistant"; quote: string }[]>().notNull().default([]),
    provenance: memoryProvenanceEnum("provenance").notNull(),
    status: memoryStatusEnum("status").notNull().default("active"),
    supersededById: uuid("superseded_by_id").references((): AnyPgColumn => memories.id, { onDelete: "set null" }),
    isActionable: boolean("is_actionable").notNull().default(false),
    deadline: date("deadline", { mode: "string" }),
    pinned: boolean("pinned").notNull().default(false),
    /** When the user pasted it from another assistant's memory list (Settings → Import): its provenance. */
    pastedAt: timestamp("pasted_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    /** Recency is computed from this column; reading a memory never touches it. */
    updatedAt: updatedAt(),
    editedAt: timestamp("edited_at", { withTimezone: true, mode: "date" }),
    /**
     * A deleted memory whose text the records derived from it (debug records, extraction decisions,
     * event reasons, MCP calls) still keep, for undo: when the undo window closes and the sweep
     * redacts it (db/queries/redaction.ts, redactDueDeletions). Null otherwise.
     */
    redactAt: timestamp("redact_at", { withTimezone: true, mode: "date" }),
    /** Full-text search vector over title + content (text search, hybrid retrieval). */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english', coalesce(${memories.title}, '') || ' ' || ${memories.content})`,
    ),
    /**
     * The BM25 length of search_vector: the sum over its lexemes of their number of positions
     * (`tsvector_bm25_length`, migration 0005). Generated columns cannot read each other, so it
     * recomputes the same tsvector.
     */
    searchLength: integer("search_length").generatedAlwaysAs(
      (): SQL =>
        sql`tsvector_bm25_length(to_tsvector('english', coalesce(${memories.title}, '') || ' ' || ${memories.content}))`,
    ),
  },
  (t) => [
    check("memories_importance_range", sql`${t.importance} >= 0 AND ${t.importance} <= 1`),
    check("memories_confidence_range", sql`${t.confidence} IS NULL OR (${t.confidence} >= 0 AND ${t.confidence} <= 1)`),
    index("memories_user_status_idx").on(t.userId, t.status),
    index("memories_source_conversation_idx").on(t.sourceConversationId),
    index("memories_search_vector_idx").using("gin", t.searchVector),
    index("memories_redact_at_idx").on(t.redactAt).where(sql`${t.redactAt} IS NOT NULL`),
  ],
);

/**
 * How often, and when last, each memory went into a prompt or a tool's answer (lib/memory/retrieval/access.ts).
 * Its own narrow table (migration 0009), not columns of `memories`: a memory's row holds its vector in line,
 * so counting an access there rewrote the whole row and every index entry of it (GIN included) on every chat
 * turn; here it is a small in-place (HOT) update. A memory never read has no row (count 0, never).
 */
export const memoryUsage = pgTable("memory_usage", {
  memoryId: uuid("memory_id")
    .primaryKey()
    .references(() => memories.id, { onDelete: "cascade" }),
  accessCount: integer("access_count").notNull(),
  lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** The fields of a memory that its history (memory_events before/after) records. */
export const MEMORY_SNAPSHOT_FIELDS = [
  "content",
  "title",
  "type",
  "tags",
  "importance",
  "status",
  "pinned",
  "supersededById",
  "deadline",
  "isActionable",
] as const;
type MemorySnapshotField = (typeof MEMORY_SNAPSHOT_FIELDS)[number];

export type MemorySnapshot = Partial<Pick<typeof memories.$inferSelect, MemorySnapshotField>>;

export const memoryEvents = pgTable(
  "memory_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    memoryId: uuid("memory_id")
      .notNull()
      .references(() => memories.id, { onDelete: "cascade" }),
    action: memoryEventActionEnum("action").notNull(),
    actor: actorEnum("actor").notNull(),
    before: jsonb("before").$type<MemorySnapshot | null>(),
    after: jsonb("after").$type<MemorySnapshot | null>(),
    /** Why (e.g. the consolidation decision), free text. */
    reason: text("reason"),
    extractionId: uuid("extraction_id"),
    createdAt: createdAt(),
  },
  (t) => [index("memory_events_memory_idx").on(t.memoryId, t.createdAt), index("memory_events_user_idx").on(t.userId)],
);

export const memoryExtractions = pgTable(
  "memory_extractions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userMessageId: uuid("user_message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    assistantMessageId: uuid("assistant_message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    status: extractionStatusEnum("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Memories created or updated by this extraction (empty on success = nothing worth keeping). */
    memoryIds: uuid("memory_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** The consolidation decisions (add/update/supersede/skip), for the debug view. */
    decisions: jsonb("decisions").$type<unknown[]>().notNull().default([]),
    /** "inngest" | "in-process". */
    runner: text("runner"),
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    /**
     * The import whose job runs this extraction (null: a live exchange, run by the extraction
     * runner and the outbox sweep, which never touch an import's rows).
     */
    importId: uuid("import_id").references(() => imports.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("memory_extractions_import_idx").on(t.importId, t.status).where(sql`${t.importId} IS NOT NULL`),
    uniqueIndex("memory_extractions_pair_idx").on(t.userMessageId, t.assistantMessageId),
    index("memory_extractions_user_idx").on(t.userId),
    index("memory_extractions_status_idx").on(t.status),
  ],
);

export const promptDebug = pgTable(
  "prompt_debug",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The assistant message this record explains (one record per assistant message). */
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** The params each model call received, captured at the model boundary (not rebuilt). */
    modelInput: jsonb("model_input").$type<unknown[]>().notNull().default([]),
    /** The assembly trace: every candidate memory and its fate, token counts per section. */
    trace: jsonb("trace").$type<unknown>(),
    provider: text("provider").notNull(),
    modelId: text("model_id").notNull(),
    mode: chatModeEnum("mode").notNull(),
    temperature: real("temperature"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    totalTokens: integer("total_tokens"),
    timeToFirstTokenMs: integer("time_to_first_token_ms"),
    latencyMs: integer("latency_ms"),
    finishReason: text("finish_reason"),
    retrievalStatus: retrievalStatusEnum("retrieval_status").notNull(),
    retrievalError: text("retrieval_error"),
    /**
     * The user message came from dictation: the transcription it was made from (a copy of its row
     * in `transcriptions`) and whether the user edited the transcript before sending. Null when typed.
     */
    dictation: jsonb("dictation").$type<unknown>(),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("prompt_debug_message_idx").on(t.messageId), index("prompt_debug_user_idx").on(t.userId)],
);

// Dictation: every transcription call (the audio itself is never stored)
export const transcriptions = pgTable(
  "transcriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    provider: text("provider").notNull(),
    modelId: text("model_id").notNull(),
    /** The uploaded file's type (e.g. audio/webm;codecs=opus) and size; the bytes are not kept. */
    mediaType: text("media_type").notNull(),
    bytes: integer("bytes").notNull(),
    /** Seconds of audio as the model reported them (null when it does not: gpt-4o-*-transcribe). */
    audioSeconds: real("audio_seconds"),
    /** How long the browser recorded, as it said (null for an upload that did not say). */
    recordedMs: integer("recorded_ms"),
    language: text("language"),
    /** The call to the transcription model, from request to response. */
    latencyMs: integer("latency_ms").notNull(),
    text: text("text").notNull(),
    /** The user message sent from this transcript, once sent; deleting the message deletes this row. */
    messageId: uuid("message_id").references(() => messages.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("transcriptions_user_created_idx").on(t.userId, t.createdAt)],
);

export const gmailOperations = pgTable(
  "gmail_operations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    conversationId: uuid("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    messageId: uuid("message_id").references(() => messages.id, { onDelete: "set null" }),
    /** search_emails | read_email | list_labels | create_draft | modify_labels | send_email */
    operation: text("operation").notNull(),
    /** Which mailbox served it: "gmail" or "demo" (the local demo mailbox). */
    mailbox: text("mailbox").notNull().default("gmail"),
    params: jsonb("params").$type<Record<string, unknown>>().notNull().default({}),
    status: gmailOperationStatusEnum("status").notNull(),
    result: jsonb("result").$type<unknown>(),
    error: text("error"),
    latencyMs: integer("latency_ms"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("gmail_operations_user_idx").on(t.userId, t.createdAt)],
);

/**
 * The local demo mailbox: a labelled stand-in for Gmail (like PGlite for Postgres), one per user,
 * seeded with a small inbox on first use so agent mode works with no Google account.
 */
export const demoMailboxes = pgTable("demo_mailboxes", {
  userId: ownerId().primaryKey(),
  createdAt: createdAt(),
});

export const demoMailMessages = pgTable(
  "demo_mail_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    fromAddress: text("from_address").notNull(),
    toAddresses: text("to_addresses").array().notNull().default(sql`'{}'::text[]`),
    ccAddresses: text("cc_addresses").array().notNull().default(sql`'{}'::text[]`),
    bccAddresses: text("bcc_addresses").array().notNull().default(sql`'{}'::text[]`),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /**
     * The conversation, as Gmail threads one (lib/agent/mailbox/threading.ts): a message starts its
     * own thread unless it is a reply that joined one. Existing rows each get a thread of their own.
     */
    threadId: uuid("thread_id").notNull().defaultRandom(),
    /** RFC 5322 Message-ID, as the demo mailbox's "server" assigns it. */
    messageId: text("message_id").notNull().default(sql`'<' || gen_random_uuid() || '@demo.lifeline.example.com>'`),
    inReplyTo: text("in_reply_to"),
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    /** Gmail-style labels: INBOX, SENT, DRAFT, UNREAD, STARRED, IMPORTANT or the user's own. */
    labels: text("labels").array().notNull().default(sql`'{}'::text[]`),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("demo_mail_messages_user_idx").on(t.userId, t.sentAt)],
);
