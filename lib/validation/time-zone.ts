import { z } from "zod";
import { isTimeZone } from "@/core/time-zone";

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, { error: "Must be an IANA time zone, e.g. Europe/Paris" });
