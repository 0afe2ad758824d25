import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { currentLanguage, initI18n } from "./i18n";
import "./styles/base.css";
import { App } from "./App";
import { loadRoute, preloadRoute } from "./routes";

// The screen's chunk and the texts download side by side, not one after the other.
preloadRoute(window.location.pathname);
// The texts first (the screen's own wait for every text needs the language), then the screen, so
// the first render has it at hand.
void initI18n().then(async () => {
  await loadRoute(window.location.pathname).catch(() => undefined);
  const container = document.getElementById("root")!;
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A public page the build rendered (entry-server.tsx) in the language this browser reads is
  // hydrated: its markup is already on screen. Any other page is rendered here.
  if (container.dataset.prerendered === currentLanguage()) hydrateRoot(container, app);
  else createRoot(container).render(app);
});

// The service worker (offline page, updates, notifications) once the page is up.
if ("serviceWorker" in navigator) {
  const start = () => void import("./pwa").then(({ startServiceWorker }) => startServiceWorker());
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
