/**
 * The built-in offline reply engine (SPEC §9, DESIGN §5): the offline provider's answers
 * for text chat, Doctor and SMS, and the SMS AI screen's local mode in the browser. Pure,
 * deterministic TypeScript with no Node-only imports. It answers what its skills know and
 * says honestly what it cannot do; it never pretends to be a language model.
 */
import { LIMITS, PERSONA_IDS, type Language, type PersonaId } from "../constants";
import { isArabic } from "../rules";
import { distanceSkill } from "./cities";
import { dictionarySkill } from "./dictionary";
import { say } from "./format";
import { mathSkill } from "./math";
import { medicalDisclaimer, mentionsHealth, personaIntro } from "./persona";
import { capabilities, examples, smalltalkSkill } from "./smalltalk";
import { normalizeText, tokenize } from "./text";
import { timeSkill } from "./time";
import { travelSkill } from "./travel";
import { resolveTrip } from "./trip";
import type { Skill, SkillAnswer, SkillContext } from "./types";
import { unitsSkill } from "./units";

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

/**
 * Order matters: units before travel ("10 km to miles" is a conversion, "walk 10 km" a trip),
 * trips and arithmetic before time and definitions (which match looser cue words), small
 * talk last so "hello, what is 2+2" is answered as arithmetic.
 */
const SKILLS: readonly Skill[] = [unitsSkill, travelSkill, distanceSkill, mathSkill, timeSkill, dictionarySkill, smalltalkSkill];

/** Longer input only slows matching down; no skill needs more than this. */
const MAX_CHARS = 4000;

function previousUserTexts(history: readonly ChatTurn[], message: string): string[] {
  const turns = history.filter((t) => typeof t?.content === "string");
  // Callers may already have appended the current message to the history.
  const last = turns.at(-1);
  if (last?.role === "user" && last.content.trim() === message) turns.pop();
  return turns
    .slice(-LIMITS.smsLocalContext)
    .filter((t) => t.role === "user")
    .map((t) => normalizeText(t.content.slice(0, MAX_CHARS)));
}

function fallback(ctx: SkillContext): string {
  const sorry = say(
    ctx.language,
    "I'm the built-in offline assistant, not a language model, so I can't answer that one.",
    "أنا المساعد المدمج الذي يعمل دون اتصال ولست نموذجًا لغويًا، لذلك لا أستطيع الإجابة عن هذا السؤال.",
  );
  return [capabilities(ctx.language), sorry, examples(ctx.language)].join(" ");
}

/** The built-in offline reply engine (SPEC §9, DESIGN §5): deterministic, pure, browser-safe. */
export function localReply(input: LocalReplyInput): string {
  // Callers pass request data straight through; tolerate odd values rather than throw.
  const message = typeof input.message === "string" ? input.message.trim() : "";
  const raw = message.slice(0, MAX_CHARS);
  const persona = PERSONA_IDS.find((id) => id === input.persona);
  const language: Language = input.language === "ar" || isArabic(raw) ? "ar" : "en";
  const text = normalizeText(raw);
  const tokens = tokenize(text);
  const previous = previousUserTexts(Array.isArray(input.history) ? input.history : [], message);
  const ctx: SkillContext = {
    text,
    tokens,
    language,
    persona,
    now: input.now ?? new Date(),
    trip: resolveTrip(text, tokens, previous),
  };

  let answer: SkillAnswer | null = null;
  for (const skill of SKILLS) {
    answer = skill(ctx);
    if (answer) break;
  }
  const doctor = ctx.persona === "doctor";
  if (!answer) {
    const intro = ctx.persona && !doctor ? `${personaIntro(ctx.persona, language)} ` : "";
    const disclaimer = doctor ? ` ${medicalDisclaimer(language)}` : "";
    return `${intro}${fallback(ctx)}${disclaimer}`;
  }
  const health = answer.health === true || mentionsHealth(tokens);
  return doctor && health ? `${answer.text} ${medicalDisclaimer(language)}` : answer.text;
}
