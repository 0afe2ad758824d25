/**
 * The build's server rendering of the public pages (web/vite.prerender.ts): the same components the
 * browser hydrates (main.tsx), rendered once per page and language at build time, so the first
 * paint needs no JavaScript.
 */
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router-dom";
import type { Language } from "@storefront/shared";
import { AppContent } from "./App";
import { ToastProvider } from "./components/Toasts";
import { ensureFullCatalog, startI18n } from "./i18n";

/** The markup of `url` in `language`, with every lazy screen and text it needs resolved. */
export async function render(url: string, language: Language): Promise<string> {
  await startI18n(language);
  // The screens that wait for every text (admin login) are lazy, resolved once for both languages:
  // the second language's texts must be there before its render, as the browser has them before its
  // own. The public sections are the same words in either catalog.
  await ensureFullCatalog(language);
  const { prelude } = await prerender(
    <StrictMode>
      <ToastProvider>
        <StaticRouter location={url}>
          <AppContent />
        </StaticRouter>
      </ToastProvider>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
