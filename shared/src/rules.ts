/** Pure text rules of SPEC §5 and §9 shared by the API, the workers and the web app. */
import { LIMITS } from "./constants";

export const DEFAULT_CONVERSATION_TITLE = "New Conversation";

/** The first user message, cut to 50 characters plus "..." when longer. */
export function conversationTitle(firstUserMessage: string | undefined): string {
  const text = (firstUserMessage ?? "").trim().replace(/\s+/gu, " ");
  if (!text) return DEFAULT_CONVERSATION_TITLE;
  const chars = Array.from(text);
  return chars.length > LIMITS.conversationTitleChars ? `${chars.slice(0, LIMITS.conversationTitleChars).join("")}...` : text;
}

/**
 * The stored mark of a Doctor conversation's title. It is data, the same in every language (the
 * text chat list leaves these threads out by it); screens show it as their translated prefix.
 */
export const DOCTOR_TITLE_PREFIX = "[Doctor]";

/** Doctor conversations: "[Doctor]" plus the first four words. */
export function doctorConversationTitle(firstUserMessage: string | undefined): string {
  const words = (firstUserMessage ?? "").trim().split(/\s+/u).filter(Boolean).slice(0, 4);
  return `${DOCTOR_TITLE_PREFIX} ${words.length ? words.join(" ") : DEFAULT_CONVERSATION_TITLE}`;
}

/** A stored title as a screen shows it: the Doctor mark replaced by the screen's prefix ("[الطبيب]"). */
export function displayConversationTitle(title: string, doctorPrefix: string): string {
  return title.startsWith(DOCTOR_TITLE_PREFIX) ? `${doctorPrefix}${title.slice(DOCTOR_TITLE_PREFIX.length)}` : title;
}

/**
 * Strips markdown from an AI reply (bold, italic, headings, code, links, quotes, rules);
 * list items become "• " bullets.
 */
export function cleanMarkdown(reply: string): string {
  return reply
    .replace(/```[a-zA-Z0-9_-]*\n?([\s\S]*?)```/gu, "$1")
    .replace(/`([^`]+)`/gu, "$1")
    .replace(/!\[([^\]]*)\]\([^)]*\)/gu, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/gu, "$1")
    .replace(/^\s{0,3}#{1,6}\s+/gmu, "")
    .replace(/^\s{0,3}>\s?/gmu, "")
    .replace(/^\s{0,3}([-*_])(\s*\1){2,}\s*$/gmu, "")
    .replace(/^(\s*)[-*+]\s+/gmu, "$1• ")
    .replace(/^(\s*)\d+[.)]\s+/gmu, "$1• ")
    .replace(/(\*\*|__)(.+?)\1/gu, "$2")
    .replace(/(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])/gu, "$1")
    .replace(/(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])/gu, "$1")
    .replace(/~~(.+?)~~/gu, "$1")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
}

/** True when the text contains Arabic script, so replies should be in Arabic. */
export function isArabic(text: string): boolean {
  return /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF]/u.test(text);
}

/** Relative time of the Doctor list: 5m, 2h, 3d, then a short date after 7 days. */
export function relativeTime(then: Date, now: Date, language: "en" | "ar" = "en"): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 60_000));
  const units = language === "ar" ? { m: "د", h: "س", d: "ي" } : { m: "m", h: "h", d: "d" };
  if (minutes < 60) return `${minutes}${units.m}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}${units.h}`;
  if (hours < 168) return `${Math.floor(hours / 24)}${units.d}`;
  return then.toLocaleDateString(language === "ar" ? "ar" : "en", { month: "short", day: "numeric" });
}

/** Normalised key of a message for the learned-response cache. */
export function normaliseMessage(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}
