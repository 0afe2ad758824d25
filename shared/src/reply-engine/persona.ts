/** Persona flavour of local replies: Arabic names, fallback intros and the Doctor's disclaimer. */
import { personaById, type Language, type PersonaId } from "../constants";
import { say } from "./format";
import { cues, hasPhrase, type Token } from "./text";

const ARABIC_NAMES: Record<PersonaId, string> = {
  general: "المساعد العام",
  chef: "الشيف",
  advisor: "المستشار",
  doctor: "الطبيب",
  "gym-trainer": "المدرب الرياضي",
  "tech-girl": "خبيرة التقنية",
  "tech-boy": "المساعد الرقمي",
};

/** The persona's display name in the answer's language. */
export function personaName(id: PersonaId, language: Language): string {
  return say(language, personaById(id).name, ARABIC_NAMES[id]);
}

/** Intro put before the fallback for personas other than the Doctor. */
export function personaIntro(id: PersonaId, language: Language): string {
  const persona = personaById(id);
  return say(
    language,
    `${persona.name} here (${persona.description.toLowerCase()}), working offline right now.`,
    `معك ${ARABIC_NAMES[id]}، وأعمل الآن دون اتصال.`,
  );
}

/** The Doctor persona's short disclaimer sentence. */
export function medicalDisclaimer(language: Language): string {
  return say(
    language,
    "This is general information, not medical advice: please see a doctor about your own health.",
    "هذه معلومات عامة وليست نصيحة طبية، فيُرجى مراجعة الطبيب بشأن حالتك الصحية.",
  );
}

const HEALTH_WORDS = cues(
  "health",
  "healthy",
  "pain",
  "ache",
  "headache",
  "fever",
  "cough",
  "cold",
  "flu",
  "sick",
  "ill",
  "illness",
  "disease",
  "symptom",
  "medicine",
  "medication",
  "drug",
  "pill",
  "dose",
  "doctor",
  "hospital",
  "blood",
  "heart",
  "injury",
  "pregnant",
  "pregnancy",
  "allergy",
  "infection",
  "diet",
  "sleep",
  "stomach",
  "vomiting",
  "diarrhea",
  "rash",
  "صحه",
  "الم",
  "وجع",
  "صداع",
  "حمي",
  "سعال",
  "كحه",
  "زكام",
  "انفلونزا",
  "مرض",
  "مريض",
  "اعراض",
  "دواء",
  "علاج",
  "طبيب",
  "دكتور",
  "مستشفي",
  "دم",
  "قلب",
  "حامل",
  "حمل",
  "حساسيه",
  "عدوي",
  "التهاب",
  "رجيم",
  "نوم",
  "معده",
  "اسهال",
  "استفراغ",
);

/** True when the message talks about health, so the Doctor's answers carry the disclaimer. */
export function mentionsHealth(tokens: Token[]): boolean {
  return hasPhrase(tokens, HEALTH_WORDS);
}
