import type { z } from "zod";

/** First issue per top-level field of a failed zod parse, e.g. { phone: "..." }. */
export function fieldIssues(error: z.ZodError): Record<string, z.core.$ZodIssue> {
  const out: Record<string, z.core.$ZodIssue> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!(field in out)) out[field] = issue;
  }
  return out;
}
