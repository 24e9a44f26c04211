import { z } from "zod";
import { JSON_MAX_BYTES_PER_CHAR, MESSAGE_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from "@/core/config";
import { CHAT_MODES } from "@/db/schema";
import { uuid } from "./common";
import { requestString, text } from "./strings";

/**
 * The body limit holds a maximal message in its worst JSON escaping (12 bytes per code point, an
 * escaped surrogate pair) plus CHAT_ENVELOPE_MAX; lib/validation/chat.test.ts checks it.
 */
export const MESSAGE_MAX = MESSAGE_MAX_CHARS;
export const CHAT_ENVELOPE_MAX = REQUEST_BODY_MAX_BYTES - MESSAGE_MAX * JSON_MAX_BYTES_PER_CHAR;
export const TITLE_MAX = 100;
export const TEMPERATURE_MAX = 2;

const messageText = text({ max: MESSAGE_MAX, multiline: true });

/** Text parts only: files are not supported. */
const uiUserMessage = z.object({
  id: requestString().max(200).optional(),
  role: z.literal("user", { error: "Only user messages can be sent" }),
  parts: z
    .array(
      z.object({
        type: z.literal("text", { error: "Only text parts are supported" }),
        // Checked once joined, as the message text: see chatMessage.
        text: z.string(),
        // useChat may add these; they carry nothing the server reads.
        state: requestString().max(20).optional(),
        providerMetadata: z.unknown().optional(),
      }),
    )
    .min(1, { error: "A message needs at least one text part" })
    .max(20),
  metadata: z.unknown().optional(),
});

export const chatMessage = z
  .union([z.strictObject({ text: z.string() }), uiUserMessage], {
    error: "Must be { text } or a user UI message with text parts",
  })
  .transform((message) => ("text" in message ? message.text : message.parts.map((p) => p.text).join("\n")))
  .pipe(messageText);

export const chatModeSchema = z.enum(CHAT_MODES);
export const modelIdSchema = requestString().trim().min(1).max(100);
export const temperatureSchema = z.number().min(0).max(TEMPERATURE_MAX);

export const chatBody = z
  .strictObject({
    conversationId: uuid.optional(),
    message: chatMessage.optional(),
    retryOf: uuid.optional(),
    /** Forks the conversation there; nothing is deleted. */
    editOf: uuid.optional(),
    /** Another tab may show another version than the conversation's current one. */
    parentMessageId: uuid.optional(),
    model: modelIdSchema.optional(),
    mode: chatModeSchema.optional(),
    temperature: temperatureSchema.optional(),
    /** Another user's transcript is a 404; one a message was already sent from is a 409. */
    dictationId: uuid.optional(),
  })
  .refine((body) => (body.message === undefined) !== (body.retryOf === undefined), {
    error: "Send either a message or retryOf (the answer to replace)",
    path: ["message"],
  })
  .refine((body) => body.retryOf === undefined || body.conversationId !== undefined, {
    error: "retryOf needs the conversationId",
    path: ["conversationId"],
  })
  .refine((body) => body.editOf === undefined || body.message !== undefined, {
    error: "editOf needs the new message",
    path: ["message"],
  })
  .refine((body) => body.editOf === undefined || body.conversationId !== undefined, {
    error: "editOf needs the conversationId",
    path: ["conversationId"],
  })
  .refine((body) => body.parentMessageId === undefined || body.conversationId !== undefined, {
    error: "parentMessageId needs the conversationId",
    path: ["conversationId"],
  })
  .refine((body) => body.parentMessageId === undefined || (body.retryOf ?? body.editOf) === undefined, {
    error: "parentMessageId is for a new message: a retry or an edit keeps the parent of what it changes",
    path: ["parentMessageId"],
  })
  .refine((body) => body.dictationId === undefined || body.message !== undefined, {
    error: "dictationId needs the message sent from it",
    path: ["dictationId"],
  });
export type ChatBody = z.infer<typeof chatBody>;

export const conversationCreateBody = z.strictObject({
  title: text({ max: TITLE_MAX }).optional(),
  mode: chatModeSchema.optional(),
  model: modelIdSchema.optional(),
  memoryEnabled: z.boolean().optional(),
});

export const conversationPatchBody = z
  .strictObject({
    title: text({ max: TITLE_MAX }).optional(),
    archived: z.boolean().optional(),
    mode: chatModeSchema.optional(),
    model: modelIdSchema.nullable().optional(),
    memoryEnabled: z.boolean().optional(),
    currentMessageId: uuid.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Provide at least one of title, archived, mode, model, memoryEnabled, currentMessageId",
  });

const booleanString = z.enum(["true", "false"]).transform((v) => v === "true");

export const conversationListQuery = z.strictObject({
  archived: booleanString.optional(),
  q: requestString().trim().max(TITLE_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: requestString().max(200).optional(),
});
