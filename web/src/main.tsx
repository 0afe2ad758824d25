import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { initI18n } from "./i18n";
import "./styles/base.css";
import { App } from "./App";
import { preloadRoute } from "./routes";

// The screen's chunk and the texts download side by side, not one after the other.
preloadRoute(window.location.pathname);
void initI18n().then(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
