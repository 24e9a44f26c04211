import { createNote, listNotes } from "@/db/queries/notes";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";
import { noteCreateBody } from "@/lib/validation/notes";

export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  notes: await listNotes(db, { userId, messageId: params.id }),
}));

export const POST = route(
  { params: idParams, body: noteCreateBody, status: 201 },
  async ({ db, userId, params, body }) => ({
    note: await createNote(db, { userId, messageId: params.id, content: body.content }),
  }),
);
