import type { Request } from "express";
import type { Language } from "@storefront/shared";

/** The user's language for texts the server writes: the web app sends its own in Accept-Language. */
export function requestLanguage(req: Request): Language {
  return req.acceptsLanguages("en", "ar") === "ar" ? "ar" : "en";
}
