import { z } from "zod";
import { text } from "./strings";

export const NOTE_MAX = 10_000;

export const noteCreateBody = z.strictObject({ content: text({ max: NOTE_MAX, multiline: true }) });
