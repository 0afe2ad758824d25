import { BrowserRouter } from "react-router-dom";
import { ToastProvider } from "./components/Toasts";
import { AuthProvider } from "./hooks/useAuth";
import { AppRoutes } from "./routes";

export function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
      </BrowserRouter>
    </ToastProvider>
  );
}
