import type { Language, PersonaId } from "../constants";
import { isArabic } from "../rules";

/** One message of the conversation so far, oldest first. */
export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

export interface LocalReplyInput {
  message: string;
  language: Language;
  persona?: PersonaId;
  /** Earlier turns, oldest first; only the last 5 are used (SPEC §9). */
  history?: ChatTurn[];
  /** The clock for time answers; defaults to now. */
  now?: Date;
}

/** The built-in offline reply engine (SPEC §9, DESIGN §5): deterministic, pure, browser-safe. */
export function localReply(input: LocalReplyInput): string {
  const ar = input.language === "ar" || isArabic(input.message);
  return ar
    ? "يمكنني الإجابة عن المسافات بين المدن وأوقات السفر وتحويل الوحدات والحساب والتعريفات والوقت."
    : "I can answer questions about distances between cities, travel times, unit conversions, arithmetic, definitions and the time.";
}
