/**
 * One statement across every user (a server-side sweep). Data-modifying WITH parts run whether or not the outer
 * query reads them; their NOT EXISTS sees the snapshot before the statement, as it should.
 */
import { sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";

export const INTERRUPTED_ERROR = "interrupted: the server stopped while this answer was being written";
export const MODEL_NEVER_CALLED = "interrupted before the model was called: the model received nothing";

export interface InterruptedAnswer {
  userId: string;
  conversationId: string;
  assistantMessageId: string;
  /** Null if the parent is not a user message. */
  userMessageId: string | null;
  memoryEnabled: boolean;
}

export async function markInterruptedAnswers(
  db: Db,
  { staleBefore }: { staleBefore: Date },
): Promise<InterruptedAnswer[]> {
  const rows = await selectRows<{
    user_id: string;
    conversation_id: string;
    id: string;
    user_message_id: string | null;
    memory_enabled: boolean;
  }>(
    db,
    sql`
      WITH marked AS (
        UPDATE messages
           SET status = 'error',
               error = ${INTERRUPTED_ERROR},
               parts = CASE WHEN content = '' THEN '[]'::jsonb
                            ELSE jsonb_build_array(jsonb_build_object('type', 'text', 'text', content)) END,
               updated_at = now()
         WHERE role = 'assistant' AND status = 'streaming' AND updated_at < ${staleBefore.toISOString()}::timestamptz
        RETURNING id, user_id, conversation_id, parent_message_id, model
      ), completed_debug AS (
        UPDATE prompt_debug
           SET error = ${INTERRUPTED_ERROR}, finish_reason = 'interrupted', updated_at = now()
         WHERE message_id IN (SELECT id FROM marked) AND finish_reason IS NULL
        RETURNING message_id
      ), model_never_called AS (
        INSERT INTO prompt_debug (user_id, conversation_id, message_id, model_input, trace, provider, model_id, mode,
                                  finish_reason, retrieval_status, retrieval_error, error)
        SELECT marked.user_id, marked.conversation_id, marked.id, '[]'::jsonb, NULL, 'none',
               coalesce(marked.model, 'unknown'), c.mode, 'interrupted', 'failed',
               ${MODEL_NEVER_CALLED}, ${INTERRUPTED_ERROR}
          FROM marked
          JOIN conversations c ON c.id = marked.conversation_id AND c.user_id = marked.user_id
         WHERE NOT EXISTS (SELECT 1 FROM prompt_debug d WHERE d.message_id = marked.id)
        ON CONFLICT (message_id) DO NOTHING
        RETURNING message_id
      )
      SELECT marked.id, marked.user_id, marked.conversation_id, c.memory_enabled,
             (SELECT u.id FROM messages u
               WHERE u.id = marked.parent_message_id AND u.user_id = marked.user_id
                 AND u.role = 'user') AS user_message_id
        FROM marked
        JOIN conversations c ON c.id = marked.conversation_id AND c.user_id = marked.user_id
    `,
  );
  return rows.map((row) => ({
    userId: row.user_id,
    conversationId: row.conversation_id,
    assistantMessageId: row.id,
    userMessageId: row.user_message_id,
    memoryEnabled: row.memory_enabled,
  }));
}
