import { z } from "zod";

/** Phone as typed: trimmed, spaces, dashes and brackets dropped, digits with an optional leading +. */
export const phoneSchema = z
  .string({ error: "phone is required" })
  .trim()
  .transform((v) => v.replace(/[\s\-().]/gu, ""))
  .pipe(z.string().regex(/^\+?\d{7,15}$/u, "phone must be 7 to 15 digits with an optional leading +"));

/** A user id as the client sends it (string or number); the server checks it against the session. */
export const clientUserIdSchema = z.union([z.string().trim().min(1).max(64), z.number().int().nonnegative()]).transform(String);

export const objectIdSchema = z.string().regex(/^[a-f0-9]{24}$/u, "must be a 24-character hex id");

export const languageSchema = z.enum(["en", "ar"]);

/** Integers sent as numbers or numeric strings (HTML forms send strings). */
export const intSchema = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/u, "must be an integer")
      .transform(Number),
  ])
  .pipe(z.number().int());

export const decimalSchema = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/u, "must be a number")
      .transform(Number),
  ])
  .pipe(z.number().finite());

export const booleanishSchema = z.union([
  z.boolean(),
  z.enum(["true", "false", "1", "0", "on", "off"]).transform((v) => v === "true" || v === "1" || v === "on"),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
]);

export const successSchema = z.object({ success: z.literal(true) });
export const errorResponseSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  field: z.string().optional(),
});

/**
 * Characters that are not seen but change what is: every control (Cc: NUL, newlines, escapes),
 * every format character (Cf: bidi marks, embeddings, overrides and isolates, the Arabic letter
 * mark, zero-width spaces and joiners, soft hyphens, the byte-order mark, U+180E, tag characters),
 * line and paragraph separators (Zl, Zp) and lone surrogates (Cs). A name shown to others must not
 * reorder, hide or break the text around it (docs/security.md).
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
/**
 * What scripts need of them, put back: a zero-width joiner inside an emoji sequence (👩‍💻), a
 * zero-width non-joiner between Arabic-script letters (Persian, Urdu: می‌خواهم).
 */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}(?:\u{FE0F}|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})/uy;
const ARABIC_NON_JOINER = /(?<=\p{Script=Arabic}\p{M}*)\u200C(?=\p{Script=Arabic})/uy;

/** Whether the sticky `pattern` matches `text` at `offset` (its lookbehind sees the text before). */
function matchesAt(pattern: RegExp, text: string, offset: number): boolean {
  pattern.lastIndex = offset;
  return pattern.test(text);
}

/** `text` without unseen characters, but for the joiners a script needs where it needs them. */
export const stripUnsafeText = (text: string): string =>
  text.replace(UNSEEN, (ch: string, offset: number, whole: string) =>
    (ch === "\u200D" && matchesAt(EMOJI_JOINER, whole, offset)) ||
    (ch === "\u200C" && matchesAt(ARABIC_NON_JOINER, whole, offset))
      ? ch
      : "",
  );

/** A name shown to people: unsafe characters dropped, then trimmed and capped at `max` characters. */
export const displayTextSchema = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    // overwrite, not transform: it stays a string schema, so the OpenAPI document keeps the limit.
    .overwrite(stripUnsafeText)
    .trim()
    .max(max, `${field} must be at most ${max} characters`);
/** A call that reads no input but still refuses a body that is not a JSON object. */
export const noInputSchema = z.object({}).passthrough();

/** `{success: true, message}`: a done action with the confirmation text the screens show. */
export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/** Pages of an admin list (total_pages is at least 1). */
export const pageInfoSchema = z.object({ total: z.number().int(), page: z.number().int(), total_pages: z.number().int() });
