/** Business constants of SPEC §3 and §9, the one place the API, workers and web read them from. */

export const LANGUAGES = ["en", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export const PERSONA_IDS = ["general", "chef", "advisor", "doctor", "gym-trainer", "tech-girl", "tech-boy"] as const;
export type PersonaId = (typeof PERSONA_IDS)[number];
export const DEFAULT_PERSONA: PersonaId = "general";

export interface Persona {
  id: PersonaId;
  name: string;
  description: string;
  color: string;
  /** The instruction an AI provider receives before the conversation. */
  systemPrompt: string;
}

export const MEDICAL_DISCLAIMER =
  "This assistant gives general health information only. It is not a diagnosis or a substitute for a doctor. In an emergency call your local emergency number.";

export const PERSONAS: readonly Persona[] = [
  {
    id: "general",
    name: "General Assistant",
    description: "Helpful answers on any topic",
    color: "#2563eb",
    systemPrompt: "You are a helpful, concise general assistant. Answer clearly in plain text.",
  },
  {
    id: "chef",
    name: "Chef",
    description: "Recipes, ingredients and cooking tips",
    color: "#ea580c",
    systemPrompt: "You are a friendly professional chef. Give practical recipes, substitutions and cooking techniques.",
  },
  {
    id: "advisor",
    name: "Advisor",
    description: "Thoughtful advice for work and life decisions",
    color: "#7c3aed",
    systemPrompt: "You are a calm, thoughtful advisor. Help the user weigh options and decide, without judging.",
  },
  {
    id: "doctor",
    name: "Doctor",
    description: "General health information with a medical disclaimer",
    color: "#059669",
    systemPrompt: `You are a careful medical information assistant. ${MEDICAL_DISCLAIMER} Encourage seeing a clinician for anything serious.`,
  },
  {
    id: "gym-trainer",
    name: "Gym Trainer",
    description: "Workouts, training plans and motivation",
    color: "#dc2626",
    systemPrompt: "You are an energetic gym trainer. Suggest safe workouts, sets, reps and recovery advice.",
  },
  {
    id: "tech-girl",
    name: "Tech Specialist",
    description: "Technology help from a female tech specialist",
    color: "#db2777",
    systemPrompt: "You are a female technology specialist. Explain devices, software and troubleshooting step by step.",
  },
  {
    id: "tech-boy",
    name: "Digital Assistant",
    description: "Technology help from a male digital assistant",
    color: "#0891b2",
    systemPrompt: "You are a male digital assistant. Help with apps, accounts, devices and online services.",
  },
];

export function personaById(id: string): Persona {
  return PERSONAS.find((p) => p.id === id) ?? PERSONAS[0]!;
}

export const IMAGE_SIZES = ["1024x1024", "1024x1792", "1792x1024", "1080x1920"] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
/** Sizes the image screen offers; the poster agent's own default 1080x1920 is also accepted. */
export const SELECTABLE_IMAGE_SIZES: readonly ImageSize[] = ["1024x1024", "1024x1792", "1792x1024"];

export const IMAGE_AGENT_IDS = ["picture-generator", "logo-maker", "whatsapp-poster", "picture-enhancer"] as const;
export type ImageAgentId = (typeof IMAGE_AGENT_IDS)[number];

export interface ImageAgent {
  id: ImageAgentId;
  name: string;
  description: string;
  icon: string;
  color: string;
  /** `{prompt}` is replaced by the user's prompt. */
  promptTemplate: string;
  defaultSize: ImageSize;
  /** The mode the agent works in: the enhancer edits an uploaded picture. */
  mode: "generate" | "edit";
}

export const IMAGE_AGENTS: readonly ImageAgent[] = [
  {
    id: "picture-generator",
    name: "Picture Generator",
    description: "Any picture from a description",
    icon: "🖼️",
    color: "#2563eb",
    promptTemplate: "{prompt}",
    defaultSize: "1024x1024",
    mode: "generate",
  },
  {
    id: "logo-maker",
    name: "Logo Maker",
    description: "Professional minimalist vector logos",
    icon: "✒️",
    color: "#7c3aed",
    promptTemplate: "Professional minimalist vector logo design for {prompt}, clean lines, flat colors, white background",
    defaultSize: "1024x1024",
    mode: "generate",
  },
  {
    id: "whatsapp-poster",
    name: "WhatsApp Poster",
    description: "Quote posters sized for status updates (9:16)",
    icon: "📱",
    color: "#16a34a",
    promptTemplate: 'Elegant vertical quote poster, 9:16, with the text "{prompt}" in beautiful typography',
    defaultSize: "1080x1920",
    mode: "generate",
  },
  {
    id: "picture-enhancer",
    name: "Picture Enhancer",
    description: "Improve an uploaded picture",
    icon: "✨",
    color: "#ea580c",
    promptTemplate: "Enhance this picture: {prompt}",
    defaultSize: "1024x1024",
    mode: "edit",
  },
];

export const DEFAULT_IMAGE_AGENT: ImageAgentId = "picture-generator";

export function imageAgentById(id: string): ImageAgent {
  return IMAGE_AGENTS.find((a) => a.id === id) ?? IMAGE_AGENTS[0]!;
}

export function applyAgentTemplate(agent: ImageAgent, prompt: string): string {
  return agent.promptTemplate.replace("{prompt}", prompt.trim());
}

export const VIDEO_MODEL_IDS = ["gen3a_turbo", "gen3a", "gen2"] as const;
export type VideoModelId = (typeof VIDEO_MODEL_IDS)[number];

export interface VideoModel {
  id: VideoModelId;
  name: string;
  provider: string;
  /** US dollars per second of video, as SPEC §9 states. */
  costPerSecond: number;
  description: string;
}

export const VIDEO_MODELS: readonly VideoModel[] = [
  { id: "gen3a_turbo", name: "Gen-3 Alpha Turbo", provider: "Runway", costPerSecond: 0.2, description: "Fast, good quality" },
  { id: "gen3a", name: "Gen-3 Alpha", provider: "Runway", costPerSecond: 0.3, description: "Highest quality" },
  { id: "gen2", name: "Gen-2", provider: "Runway", costPerSecond: 0.15, description: "Economical" },
];
export const DEFAULT_VIDEO_MODEL: VideoModelId = "gen3a_turbo";

export const LIMITS = {
  doctorMessageChars: 2000,
  doctorCounterThreshold: 0.8,
  smsCharsEnglish: 400,
  smsCharsArabic: 210,
  avatarBytes: 5 * 1024 * 1024,
  imageEditBytes: 10 * 1024 * 1024,
  conversationTitleChars: 50,
  textareaMaxHeightPx: 120,
  chatMessageChars: 8000,
  promptChars: 4000,
  videoMinSeconds: 5,
  videoMaxSeconds: 12,
  videoDefaultSeconds: 5,
  recentImages: 10,
  smsLocalContext: 5,
  smsBackendContext: 10,
  adminPageSize: 20,
  displayNameChars: 60,
} as const;

export const VIDEO_TIMING = {
  firstPollMs: 5000,
  pollIntervalMs: 5000,
  errorRetryMs: 10_000,
  defaultEstimatedSeconds: 360,
} as const;

export const IMAGE_EDIT_STRENGTH = { min: 0.1, max: 1, step: 0.1, screenDefault: 0.5, apiDefault: 0.8 } as const;

export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

export const TOAST_MS = {
  default: 4000,
  slideOut: 300,
  loginSuccess: 3000,
  error: 5000,
  imageSuccess: 3000,
  imageError: 5000,
  personaSwitch: 3000,
  signup: 5000,
  signupRedirect: 3000,
  logoutRedirect: 1000,
  adminLoginRedirect: 1000,
} as const;

export const FEATURES = ["text", "doctor", "image", "video", "sms", "audio"] as const;
export type Feature = (typeof FEATURES)[number];

export const SUBSCRIPTION_TYPES = ["daily", "weekly", "monthly"] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];
export const SUBSCRIPTION_PERIOD_MS: Record<SubscriptionType, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
  monthly: 30 * 24 * 3600_000,
};

export const FALLBACK_PACKAGES = [
  { name: "Daily", coins: 500, price: 0.5, subscription_type: "daily", auto_renew: true, description: "500 coins every day" },
  {
    name: "Weekly",
    coins: 4000,
    price: 3,
    subscription_type: "weekly",
    auto_renew: true,
    description: "4000 coins every week (14% savings)",
  },
  {
    name: "Monthly",
    coins: 20000,
    price: 10,
    subscription_type: "monthly",
    auto_renew: true,
    description: "20000 coins every month (33% savings)",
  },
] as const;

export const SMS_INTEGRATION_DEFAULTS = {
  enabled: false,
  auto_reply_enabled: true,
  rate_limit_per_minute: 10,
  welcome_message: "Welcome! Sign up on our website to chat with our AI assistant by SMS.",
  insufficient_funds_message: "You do not have enough coins for an AI reply. Please top up your wallet.",
} as const;

export const SMS_LOG_ACTIONS = [
  "webhook_received",
  "sms_reply_sent",
  "unknown_user_sms",
  "sms_processed",
  "webhook_error",
] as const;
export type SmsLogAction = (typeof SMS_LOG_ACTIONS)[number];

export const ADMIN_ROLES = ["super_admin", "admin", "manager", "support"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Two-letter country codes offered on the profile screen (SPEC §3: about 60, Western, Arab and African). */
export const COUNTRIES = [
  "US",
  "CA",
  "GB",
  "IE",
  "FR",
  "DE",
  "IT",
  "ES",
  "PT",
  "NL",
  "BE",
  "CH",
  "AT",
  "SE",
  "NO",
  "DK",
  "FI",
  "PL",
  "GR",
  "TR",
  "AU",
  "NZ",
  "SA",
  "AE",
  "QA",
  "KW",
  "BH",
  "OM",
  "YE",
  "IQ",
  "SY",
  "JO",
  "LB",
  "PS",
  "EG",
  "LY",
  "TN",
  "DZ",
  "MA",
  "SD",
  "MR",
  "SO",
  "DJ",
  "KM",
  "NG",
  "GH",
  "KE",
  "ET",
  "TZ",
  "UG",
  "ZA",
  "SN",
  "CI",
  "CM",
  "RW",
  "ZW",
  "ZM",
  "AO",
  "IN",
  "PK",
] as const;
export type CountryCode = (typeof COUNTRIES)[number];
