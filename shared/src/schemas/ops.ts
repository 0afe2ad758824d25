import { z } from "zod";

/** GET /api/health: the process lives. */
export const healthResponseSchema = z.object({ status: z.literal("ok"), uptime: z.number() });

/** GET /api/ready: 200 "ready", or 503 "unavailable" naming what is missing. */
export const readyResponseSchema = z.object({
  status: z.enum(["ready", "unavailable"]),
  missing: z.array(z.string()),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

/** GET /api/openapi.json: an OpenAPI 3.1 document. */
export const openApiDocumentSchema = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });
