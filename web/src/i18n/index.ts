/**
 * i18next over the shared catalogs (SPEC §1): the language is stored in the browser, defaults to
 * en, and sets <html dir lang> so the whole layout mirrors for Arabic.
 */
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@storefront/shared";

type Catalog = Record<string, unknown>;
/**
 * Each catalog is its own chunk, so a visitor downloads only the language they read; the public
 * pages' sections come first (a small chunk), the rest of the catalog right after.
 */
const PUBLIC_CATALOGS: Record<Language, () => Promise<{ default: Catalog }>> = {
  en: () => import("virtual:i18n-public/en"),
  ar: () => import("virtual:i18n-public/ar"),
};
/** The sign-in and sign-up pages' texts, which the home page does without. */
const SIGN_IN_CATALOGS: Record<Language, () => Promise<{ default: Catalog }>> = {
  en: () => import("virtual:i18n-sign-in/en"),
  ar: () => import("virtual:i18n-sign-in/ar"),
};
const FULL_CATALOGS: Record<Language, () => Promise<{ default: Catalog }>> = {
  en: () => import("@storefront/shared/i18n/en.json"),
  ar: () => import("@storefront/shared/i18n/ar.json"),
};
const fullLoads = new Map<Language, Promise<void>>();
const signInLoads = new Map<Language, Promise<void>>();

/** Adds a catalog part to the language's texts, once per language and part. */
function loadOnce(
  loads: Map<Language, Promise<void>>,
  parts: Record<Language, () => Promise<{ default: Catalog }>>,
  language: Language,
): Promise<void> {
  let load = loads.get(language);
  if (!load) {
    load = parts[language]().then((catalog) => {
      i18n.addResourceBundle(language, "translation", catalog.default, true, true);
    });
    loads.set(language, load);
  }
  return load;
}

/** The whole catalog of a language (every screen's texts); screens await it before rendering. */
export function ensureFullCatalog(language: Language = currentLanguage()): Promise<void> {
  return loadOnce(fullLoads, FULL_CATALOGS, language);
}

/** The sign-in and sign-up forms' texts (also in the full catalog); those two pages await them before rendering. */
export function ensureSignInTexts(language: Language = currentLanguage()): Promise<void> {
  return loadOnce(signInLoads, SIGN_IN_CATALOGS, language);
}

/**
 * Starts downloading the sign-in texts of the language the page will start in, before i18next is
 * up (main.tsx), so they come beside the public texts; `ensureSignInTexts` adds them once it is.
 */
export function preloadSignInTexts(): void {
  SIGN_IN_CATALOGS[storedLanguage()]().catch(() => undefined);
}

async function ensureCatalog(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, "translation")) {
    const catalog = await PUBLIC_CATALOGS[language]();
    i18n.addResourceBundle(language, "translation", catalog.default, true, true);
  }
  // A screen beyond the public ones may be open: switching language must not leave it untranslated.
  await ensureFullCatalog(language);
}

const LANGUAGE_STORAGE_KEY = "language";

function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language stored in this browser; else the page's own (a page the server rendered in the
 * language its cookie names), else the default.
 */
function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(value)) return value;
  } catch {
    // Private mode without storage: the page's language stands.
  }
  const pageLanguage = document.documentElement.lang;
  return isLanguage(pageLanguage) ? pageLanguage : DEFAULT_LANGUAGE;
}

/**
 * The cookie the server reads to send the public pages already rendered in this language
 * (api/src/middleware/web-app.ts); a year, like the stored choice.
 */
const LANGUAGE_COOKIE = "language";

function applyToDocument(language: Language): void {
  // The build renders the public pages in Node (entry-server.tsx), where there is no document.
  if (typeof document === "undefined") return;
  document.documentElement.lang = language;
  document.documentElement.dir = language === "ar" ? "rtl" : "ltr";
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

async function setLanguage(language: Language): Promise<void> {
  await ensureCatalog(language);
  await i18n.changeLanguage(language);
}

export function toggleLanguage(): Promise<void> {
  return setLanguage(currentLanguage() === "en" ? "ar" : "en");
}

i18n.on("languageChanged", (language: string) => {
  if (!isLanguage(language)) return;
  applyToDocument(language);
  if (typeof document === "undefined") return;
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
});

/** Loads the stored language's catalog and starts i18next; the app renders after it. */
export function initI18n(): Promise<void> {
  const initial = storedLanguage();
  applyToDocument(initial);
  return startI18n(initial).then(() => void ensureFullCatalog(initial));
}

/** i18next in `initial` with the public texts loaded (the browser at start, the build's rendering). */
export async function startI18n(initial: Language): Promise<void> {
  if (!i18n.isInitialized)
    await i18n.use(initReactI18next).init({
      resources: {},
      lng: initial,
      fallbackLng: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { bindI18nStore: "added" },
    });
  if (!i18n.hasResourceBundle(initial, "translation")) {
    const catalog = await PUBLIC_CATALOGS[initial]();
    i18n.addResourceBundle(initial, "translation", catalog.default, true, true);
  }
  await i18n.changeLanguage(initial);
}
