/**
 * Registers the service worker (src/sw.ts, built by vite-plugin-pwa) once the page has loaded, off
 * the first paint's path and outside the home page's first JavaScript. When a new version has been
 * installed, a notice of its own (UpdatePrompt, its own React root) says so; the page reloads into
 * the new version when the user chooses.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { registerSW } from "virtual:pwa-register";
import { UpdatePrompt } from "./components/UpdatePrompt";

export function startServiceWorker(): void {
  let container: HTMLElement | undefined;
  const update = registerSW({
    immediate: true,
    // vite-plugin-pwa reloads only when this page was already controlled when it registered; a page
    // that installed the first version must reload too, so the reload is ours (below) in every case.
    onNeedReload: () => undefined,
    onNeedRefresh() {
      if (container) return;
      container = document.body.appendChild(document.createElement("div"));
      createRoot(container).render(
        <StrictMode>
          <UpdatePrompt
            reload={() => {
              navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
              void update();
            }}
          />
        </StrictMode>,
      );
    },
  });
}
