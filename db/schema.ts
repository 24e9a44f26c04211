/** Every table holding a user's data carries `user_id`, so every query can — and must — filter by it. */
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bit,
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
 * Stored as JSON text: jsonb refuses a string holding NUL or an unpaired surrogate, which a client may send,
 * while JSON.stringify escapes both and parses back to the same value.
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

/** Why an ended answer is not whole (null: it is); shown under the answer. */
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
    memoryEnabledDefault: boolean("memory_enabled_default").notNull().default(true),
    /** Copied into every session (JWT `sv`); a differing copy ends it. Bumped by lib/auth/revocation.ts. */
    sessionVersion: integer("session_version").notNull().default(0),
    /** IANA zone for dates and deadlines, detected in the browser on first visit; null means UTC until then. */
    timeZone: text("time_zone"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

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
    /** When Google refused the refresh token (`invalid_grant`) and its tokens were cleared; null after reconnecting. */
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

/** Signed-out sessions (JWT `sid`), kept until the JWT itself would have expired. */
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
 * Shared by every server instance (lib/limits/rate-limit.ts). Not user data: keys are opaque
 * ("signin:email:<sha256>", "chat:<user id>").
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

export const ACCESS_TOKEN_SCOPES = ["read", "read+write"] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];
export const accessTokenScopeEnum = pgEnum("access_token_scope", ACCESS_TOKEN_SCOPES);

/**
 * Only the SHA-256 of the secret is stored; the secret is shown once. A token is live while `session_version`
 * equals the account's, so a password change or "end all sessions" ends every token too.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    scope: accessTokenScopeEnum("scope").notNull(),
    sessionVersion: integer("session_version").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("access_tokens_hash_idx").on(t.tokenHash), index("access_tokens_user_idx").on(t.userId)],
);

/** Every MCP tool call; its memory text follows delete-means-gone (db/queries/mcp-calls.ts redacts it). */
export const mcpCalls = pgTable(
  "mcp_calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenId: uuid("token_id")
      .notNull()
      .references(() => accessTokens.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    /** SQL NULL is JSON `null` (drizzle passes a null through without this type's mapping); absent arguments `{}`. */
    arguments: clientJson("arguments"),
    /** Byte for byte what the client received. */
    result: text("result").notNull(),
    isError: boolean("is_error").notNull(),
    trace: jsonb("trace").$type<unknown>(),
    /** Every memory the record mentions (result, trace, arguments): what a delete redacts. */
    memoryIds: jsonb("memory_ids").$type<string[]>().notNull().default([]),
    /** The memories handed to the client: "read by ‹token›" on the memories page. */
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

/** paused: the job stops after the exchange in hand until resumed; cancelled: the rest is never read. */
export const IMPORT_STATUSES = ["receiving", "running", "paused", "cancelled", "done"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An import's progress, kept when its conversations (and their extractions) are deleted. */
export interface ImportSummary {
  conversations: number;
  /** `skipped` is absent from a summary saved before it was counted. */
  exchanges: { total: number; done: number; failed: number; skipped?: number };
  memoriesFound: number;
  failures: { extractionId: string; conversationTitle: string; error: string | null }[];
}

export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    source: text("source", { enum: IMPORT_SOURCE_KINDS }).notNull(),
    fileName: text("file_name").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("receiving"),
    /** false: its conversations are deleted once it is done or cancelled, and `summary` keeps its progress. */
    keepConversations: boolean("keep_conversations").notNull().default(true),
    summary: jsonb("summary").$type<ImportSummary>(),
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
    /** Null → the registry's default model. */
    model: text("model"),
    archived: boolean("archived").notNull().default(false),
    /** false = "temporary chat": no retrieval, no extraction. */
    memoryEnabled: boolean("memory_enabled").notNull().default(true),
    /**
     * The newest message of the shown branch, which the next message continues (lib/chat/branch.ts).
     * Null: the newest message.
     */
    currentMessageId: uuid("current_message_id").references((): AnyPgColumn => messages.id, {
      onDelete: "set null",
    }),
    importedFrom: text("imported_from", { enum: IMPORT_SOURCE_KINDS }),
    /** Importing the same export again adds only its new messages. */
    sourceId: text("source_id"),
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

/** The title outbox: written in the answer's transaction, deleted once the title job ran; the sweep runs stale rows. */
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
    /** Versions (an edited question, a regenerated answer) are siblings under one parent; deleting cascades below. */
    parentMessageId: uuid("parent_message_id").references((): AnyPgColumn => messages.id, { onDelete: "cascade" }),
    role: messageRoleEnum("role").notNull(),
    /** What history and extraction read. */
    content: text("content").notNull().default(""),
    /** Counted once at write time so a turn budgets history without re-tokenising; null while streaming. */
    contentTokens: integer("content_tokens"),
    parts: jsonb("parts").$type<unknown[]>().notNull().default([]),
    model: text("model"),
    status: messageStatusEnum("status").notNull().default("complete"),
    error: text("error"),
    notice: text("notice", { enum: MESSAGE_NOTICES }),
    sourceId: text("source_id"),
    /** An imported message's content hash (db/queries/content-hash.ts): found again without its export id. */
    contentHash: text("content_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english', ${messages.content})`,
    ),
  },
  (t) => [
    index("messages_conversation_created_idx").on(t.conversationId, t.createdAt),
    index("messages_parent_idx").on(t.parentMessageId),
    index("messages_user_idx").on(t.userId),
    index("messages_search_vector_idx").using("gin", t.searchVector),
    // The interrupted-answer sweep reads only these rows every minute, not every message.
    index("messages_streaming_idx").on(t.updatedAt).where(sql`${t.status} = 'streaming'`),
    uniqueIndex("messages_conversation_source_idx")
      .on(t.conversationId, t.sourceId)
      .where(sql`${t.sourceId} IS NOT NULL`),
    index("messages_user_content_hash_idx").on(t.userId, t.contentHash).where(sql`${t.contentHash} IS NOT NULL`),
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

/** At most one per answer. */
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

export interface ImportedSource {
  from: ImportSourceKind;
  conversationTitle: string;
  /** ISO 8601: when the user said it in the other assistant. */
  saidAt: string;
}

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
    confidence: real("confidence"),
    /**
     * Half precision: retrieval's distance pass reads half the pages. Stored in line, not TOASTed (migration 0006),
     * which drizzle cannot express.
     */
    embedding: halfvec("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    /**
     * One bit per dimension (its sign): retrieval's candidate pass ranks by Hamming distance over these, read from
     * memories_user_code_idx without touching the 3 KB rows (migration 0025, docs/performance.md).
     */
    embeddingCode: bit("embedding_code", { dimensions: EMBEDDING_DIMENSIONS }).generatedAlwaysAs(
      (): SQL => sql`binary_quantize(${memories.embedding})::bit(${sql.raw(String(EMBEDDING_DIMENSIONS))})`,
    ),
    embeddingModel: text("embedding_model"),
    sourceConversationId: uuid("source_conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    sourceUserMessageId: uuid("source_user_message_id").references(() => messages.id, { onDelete: "set null" }),
    sourceAssistantMessageId: uuid("source_assistant_message_id").references(() => messages.id, {
      onDelete: "set null",
    }),
    sourceAccessTokenId: uuid("source_access_token_id").references((): AnyPgColumn => accessTokens.id, {
      onDelete: "set null",
    }),
    examinedMessageIds: uuid("examined_message_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Why the extractor believed this. */
    evidence: jsonb("evidence").$type<{ role: "user" | "assistant"; quote: string }[]>().notNull().default([]),
    provenance: memoryProvenanceEnum("provenance").notNull(),
    status: memoryStatusEnum("status").notNull().default("active"),
    supersededById: uuid("superseded_by_id").references((): AnyPgColumn => memories.id, { onDelete: "set null" }),
    isActionable: boolean("is_actionable").notNull().default(false),
    deadline: date("deadline", { mode: "string" }),
    pinned: boolean("pinned").notNull().default(false),
    pastedAt: timestamp("pasted_at", { withTimezone: true, mode: "date" }),
    /** Where an imported memory was said, written when its import's conversations are deleted (not kept). */
    importedSource: jsonb("imported_source").$type<ImportedSource>(),
    /** Restored from a Lifeline export then; with the export's id and a hash of the content, a restore's key (db/queries/restore.ts). */
    restoredAt: timestamp("restored_at", { withTimezone: true, mode: "date" }),
    restoredFromId: text("restored_from_id"),
    restoredContentHash: text("restored_content_hash"),
    createdAt: createdAt(),
    /** Recency is computed from this column; reading a memory never touches it. */
    updatedAt: updatedAt(),
    editedAt: timestamp("edited_at", { withTimezone: true, mode: "date" }),
    /** Derived records keep a deleted memory's text until then, for undo; the sweep redacts it (redactDueDeletions). */
    redactAt: timestamp("redact_at", { withTimezone: true, mode: "date" }),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english', coalesce(${memories.title}, '') || ' ' || ${memories.content})`,
    ),
    /** BM25 length (migration 0005); generated columns cannot read each other, so it recomputes the tsvector. */
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
    uniqueIndex("memories_user_restored_idx")
      .on(t.userId, t.restoredFromId, t.restoredContentHash)
      .where(sql`${t.restoredFromId} IS NOT NULL`),
  ],
);

/**
 * Its own narrow table, not columns of `memories`: a memory's row holds its vector in line, so counting an access
 * there rewrote the row and every index entry on each turn; here it is a HOT update. Never read: no row.
 */
export const memoryUsage = pgTable("memory_usage", {
  memoryId: uuid("memory_id")
    .primaryKey()
    .references(() => memories.id, { onDelete: "cascade" }),
  accessCount: integer("access_count").notNull(),
  lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * Per user and vector space, what retrieval would otherwise count on every turn (migration 0032): the crossover
 * check reads one row instead of counting a user's memories, and the two-stage pass takes BM25's N and average
 * length and the count waiting for re-embedding from here, equal to what the exact statement computes from the
 * rows it scans. Kept by statement triggers on memories in the same transaction as each write (so a statement
 * sees counts and memories from one snapshot), never written by the app. A row whose counts all fall to 0 is
 * deleted, so a user's deletion leaves nothing. No foreign key: a cascaded delete's trigger runs after the user
 * row is gone.
 */
export const memoryStats = pgTable(
  "memory_stats",
  {
    userId: uuid("user_id").notNull(),
    /** The embedder of the vectors counted here; '' for the active memories with no vector (or no embedder). */
    vectorSpace: text("vector_space").notNull(),
    /** Active memories with a non-zero vector of this embedder: the rows the semantic statement compares (BM25's N). */
    comparable: integer("comparable").notNull(),
    /** The sum of their search_length: BM25's average length is comparableLength / comparable. */
    comparableLength: bigint("comparable_length", { mode: "number" }).notNull(),
    /** Active memories with text (awaitsEmbedder's second half): for any other embedder, these wait for re-embedding. */
    withText: integer("with_text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.vectorSpace] })],
);

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

/**
 * What an extraction's update or supersede replaced beyond the snapshot (which the history shows and an export
 * carries), so undoing an import can put the memory back as it was. The vector is not kept: undo re-embeds.
 */
export interface MemoryPrior {
  evidence: { role: "user" | "assistant"; quote: string }[];
  examinedMessageIds: string[];
  confidence: number | null;
  provenance: MemoryProvenance;
  /** ISO 8601. */
  updatedAt: string;
}

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
    /** Written by an extraction's update or supersede (older events have none). */
    prior: jsonb("prior").$type<MemoryPrior | null>(),
    reason: text("reason"),
    extractionId: uuid("extraction_id"),
    /** Written when the import's extractions are deleted with its conversations (not kept), so undo still finds it. */
    importId: uuid("import_id").references(() => imports.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("memory_events_memory_idx").on(t.memoryId, t.createdAt),
    index("memory_events_user_idx").on(t.userId),
    index("memory_events_import_idx").on(t.importId).where(sql`${t.importId} IS NOT NULL`),
  ],
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
    /** Empty on success: nothing worth keeping. */
    memoryIds: uuid("memory_ids").array().notNull().default(sql`'{}'::uuid[]`),
    decisions: jsonb("decisions").$type<unknown[]>().notNull().default([]),
    /**
     * Every model call of the attempt whose result the row shows (the extraction call, then consolidation's),
     * captured at the model boundary (lib/ai/capture.ts); a failed attempt's while it is the latest.
     */
    modelInput: jsonb("model_input").$type<unknown[]>().notNull().default([]),
    runner: text("runner"),
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    /** Null: a live exchange, which the runner and outbox sweep own; they never touch an import's rows. */
    importId: uuid("import_id").references(() => imports.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("memory_extractions_import_idx").on(t.importId, t.status).where(sql`${t.importId} IS NOT NULL`),
    // The exchanges of one page of an import's conversations (its page).
    index("memory_extractions_import_conversation_idx")
      .on(t.importId, t.conversationId)
      .where(sql`${t.importId} IS NOT NULL`),
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
    /** One record per assistant message. */
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** Captured at the model boundary, not rebuilt. */
    modelInput: jsonb("model_input").$type<unknown[]>().notNull().default([]),
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
    /** The transcription a dictated user message came from and whether it was edited; null when typed. */
    dictation: jsonb("dictation").$type<unknown>(),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("prompt_debug_message_idx").on(t.messageId), index("prompt_debug_user_idx").on(t.userId)],
);

// Dictation: the audio itself is never stored.
export const transcriptions = pgTable(
  "transcriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    provider: text("provider").notNull(),
    modelId: text("model_id").notNull(),
    mediaType: text("media_type").notNull(),
    bytes: integer("bytes").notNull(),
    /** Null when the model does not report it (gpt-4o-*-transcribe). */
    audioSeconds: real("audio_seconds"),
    recordedMs: integer("recorded_ms"),
    language: text("language"),
    latencyMs: integer("latency_ms").notNull(),
    text: text("text").notNull(),
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
    operation: text("operation").notNull(),
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

/** A labelled stand-in for Gmail (like PGlite for Postgres), seeded on first use so agent mode needs no Google account. */
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
    /** As Gmail threads (lib/agent/mailbox/threading.ts): a message starts its own thread unless a reply joined one. */
    threadId: uuid("thread_id").notNull().defaultRandom(),
    messageId: text("message_id").notNull().default(sql`'<' || gen_random_uuid() || '@demo.lifeline.example.com>'`),
    inReplyTo: text("in_reply_to"),
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    labels: text("labels").array().notNull().default(sql`'{}'::text[]`),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("demo_mail_messages_user_idx").on(t.userId, t.sentAt)],
);
