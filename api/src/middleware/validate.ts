import type { Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { MESSAGES } from "@storefront/shared";
import { AppError, badRequest } from "../errors";

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

type Source = "body" | "query";

/**
 * A route handler whose input is validated by a shared zod schema. What the handler returns is
 * sent as JSON; returning undefined means it answered itself.
 */
export function handle<S extends z.ZodType>(
  schema: S,
  source: Source,
  fn: (input: z.output<S>, req: Request, res: Response) => Promise<unknown> | unknown,
): RequestHandler {
  return async (req, res) => {
    // Multipart is parsed only by the routes that take a file; anywhere else it is refused, not ignored.
    if (source === "body" && req.is("multipart/form-data")) {
      throw new AppError(415, "unsupported_media_type", MESSAGES.jsonRequired, { field: "body" });
    }
    const raw = source === "body" ? (req.body ?? {}) : req.query;
    if (source === "body" && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
      throw badRequest("body: must be a JSON object", "body");
    }
    const result = await fn(parseOrThrow(schema, raw), req, res);
    if (result !== undefined && !res.headersSent) res.json(result);
  };
}
