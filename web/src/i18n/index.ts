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
const FULL_CATALOGS: Record<Language, () => Promise<{ default: Catalog }>> = {
  en: () => import("@storefront/shared/i18n/en.json"),
  ar: () => import("@storefront/shared/i18n/ar.json"),
};
const fullLoads = new Map<Language, Promise<void>>();

/** The whole catalog of a language (every screen's texts); screens await it before rendering. */
export function ensureFullCatalog(language: Language = currentLanguage()): Promise<void> {
  let load = fullLoads.get(language);
  if (!load) {
    load = FULL_CATALOGS[language]().then((catalog) => {
      i18n.addResourceBundle(language, "translation", catalog.default, true, true);
    });
    fullLoads.set(language, load);
  }
  return load;
}

async function ensureCatalog(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, "translation")) {
    const catalog = await PUBLIC_CATALOGS[language]();
    i18n.addResourceBundle(language, "translation", catalog.default, true, true);
  }
  // A screen beyond the public ones may be open: switching language must not leave it untranslated.
  await ensureFullCatalog(language);
}

export const LANGUAGE_STORAGE_KEY = "language";

function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

function applyToDocument(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = language === "ar" ? "rtl" : "ltr";
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export async function setLanguage(language: Language): Promise<void> {
  await ensureCatalog(language);
  await i18n.changeLanguage(language);
}

export function toggleLanguage(): Promise<void> {
  return setLanguage(currentLanguage() === "en" ? "ar" : "en");
}

i18n.on("languageChanged", (language: string) => {
  if (!isLanguage(language)) return;
  applyToDocument(language);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
});

/** Loads the stored language's catalog and starts i18next; the app renders after it. */
export async function initI18n(): Promise<void> {
  const initial = storedLanguage();
  applyToDocument(initial);
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
  void ensureFullCatalog(initial);
}

export default i18n;
