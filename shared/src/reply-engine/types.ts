import type { Language, PersonaId } from "../constants";
import type { Token } from "./text";
import type { TripQuery } from "./trip";

/** What every skill sees: the message once normalised, plus the conversation around it. */
export interface SkillContext {
  /** Lower-cased, digits and Arabic letters normalised (see normalizeText). */
  text: string;
  tokens: Token[];
  language: Language;
  persona: PersonaId | undefined;
  now: Date;
  /** The distance or travel question, with follow-ups resolved from earlier messages. */
  trip: TripQuery | null;
}

export interface SkillAnswer {
  text: string;
  /** Health-related answers get the Doctor persona's disclaimer. */
  health?: boolean;
}

/** A skill answers when the message is for it, and returns null otherwise. */
export type Skill = (ctx: SkillContext) => SkillAnswer | null;
