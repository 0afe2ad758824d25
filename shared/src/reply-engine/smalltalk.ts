/** Greetings, thanks, "who are you", "what can you do" and goodbyes. */
import type { Language } from "../constants";
import { say } from "./format";
import { personaName } from "./persona";
import { cues, findPhrases, phraseTable } from "./text";
import type { Skill } from "./types";
import smalltalkData from "./data/smalltalk.json";

type Intent = "salam" | "morning" | "evening" | "hello" | "how-are-you" | "thanks" | "who" | "help" | "bye";

/** What the engine can do, one sentence (also the start of the fallback). */
export function capabilities(language: Language): string {
  return say(
    language,
    "I can answer questions about distances between cities, travel times, unit conversions, arithmetic, definitions and the time.",
    "يمكنني الإجابة عن أسئلة المسافات بين المدن وأوقات السفر وتحويل الوحدات والحساب والتعريفات والوقت.",
  );
}

/** Example questions, one sentence. */
export function examples(language: Language): string {
  return say(
    language,
    'For example: "distance from Cairo to Riyadh", "how long to walk 25 km", "convert 10 km to miles", "what is 15% of 200", "define inflation" or "what time is it".',
    'مثلًا: "كم المسافة بين القاهرة والرياض"، "كم يستغرق المشي 25 كم"، "حوّل 10 كم إلى ميل"، "احسب 15% من 200"، "ما معنى التضخم" أو "كم الساعة".',
  );
}

const INTENTS = phraseTable(smalltalkData as { value: Intent; phrases: string[] }[]);

/** Words that may surround a greeting without making it a real question. */
const FILLERS = cues(
  "there",
  "everyone",
  "all",
  "friend",
  "bot",
  "assistant",
  "again",
  "so",
  "much",
  "very",
  "lot",
  "a",
  "please",
  "ok",
  "okay",
  "dear",
  "sir",
  "and",
  "too",
  "also",
  "guys",
  "you",
  "for",
  "your",
  "the",
  "today",
  "يا",
  "صديقي",
  "جزيلا",
  "كثيرا",
  "لك",
  "اخي",
  "اختي",
  "حبيبي",
  "جدا",
  "الف",
  "ايضا",
  "و",
);

function greetingText(intent: Intent, language: Language): string {
  switch (intent) {
    case "salam":
      return say(language, "Wa alaikum assalam!", "وعليكم السلام ورحمة الله!");
    case "morning":
      return say(language, "Good morning!", "صباح النور!");
    case "evening":
      return say(language, "Good evening!", "مساء النور!");
    default:
      return say(language, "Hello!", "أهلًا وسهلًا!");
  }
}

export const smalltalkSkill: Skill = (ctx) => {
  const matches = findPhrases(ctx.tokens, INTENTS);
  if (matches.length === 0) return null;
  const covered = matches.reduce((n, m) => n + m.end - m.start, 0);
  const fillers = ctx.tokens.filter(
    (t, i) => !matches.some((m) => i >= m.start && i < m.end) && findPhrases([t], FILLERS).length > 0,
  );
  // A greeting in front of a real question is not small talk; the fallback answers those.
  if (ctx.tokens.length - covered - fillers.length > 1) return null;

  const intents = new Set(matches.map((m) => m.value));
  if (intents.has("thanks")) intents.delete("help");
  const lang = ctx.language;
  const parts: string[] = [];
  const greeting = matches.find((m) => ["salam", "morning", "evening", "hello"].includes(m.value));
  if (greeting) parts.push(greetingText(greeting.value, lang));
  if (intents.has("how-are-you")) parts.push(say(lang, "I'm doing well, thank you for asking.", "أنا بخير، شكرًا لسؤالك."));
  if (intents.has("thanks")) parts.push(say(lang, "You're welcome! Happy to help.", "عفوًا! يسعدني أن أساعدك."));
  if (intents.has("who")) {
    parts.push(
      say(
        lang,
        "I'm the built-in offline assistant of this app. I'm not a language model: I answer with built-in rules and data.",
        "أنا المساعد المدمج في هذا التطبيق وأعمل دون اتصال. لست نموذجًا لغويًا، بل أجيب بقواعد وبيانات مدمجة.",
      ),
    );
    if (ctx.persona)
      parts.push(
        say(
          lang,
          `You are talking to the ${personaName(ctx.persona, lang)} persona.`,
          `أنت تتحدث الآن مع شخصية ${personaName(ctx.persona, lang)}.`,
        ),
      );
  }
  if (intents.has("who") || intents.has("help") || (greeting && !intents.has("thanks"))) {
    parts.push(capabilities(lang));
    if (intents.has("help")) parts.push(examples(lang));
  }
  if (intents.has("bye")) parts.push(say(lang, "Goodbye! Have a great day.", "مع السلامة! أتمنى لك يومًا سعيدًا."));
  return { text: parts.join(" ") };
};
