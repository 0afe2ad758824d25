import type { z } from "zod";
import { badRequest } from "../errors";

/** First zod issue as "<field>: <message>", so every 400 names the field. */
export function describeZodError(error: z.ZodError): { message: string; field: string } {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "body";
  const text = issue?.message ?? "invalid";
  return { message: text.startsWith(field) ? text : `${field}: ${text}`, field };
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { message, field } = describeZodError(parsed.error);
    throw badRequest(message, field);
  }
  return parsed.data;
}
