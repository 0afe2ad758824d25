import { BrowserRouter } from "react-router-dom";
import { ToastProvider } from "./components/Toasts";
import { AuthProvider } from "./hooks/useAuth";
import { AppRoutes } from "./routes";

/** The app inside its router: the browser's (below) or the build's static one (entry-server.tsx). */
export function AppContent() {
  return (
    <AuthProvider>
      <AppRoutes />
    </AuthProvider>
  );
}

export function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
        <AppContent />
      </BrowserRouter>
    </ToastProvider>
  );
}
