/**
 * Every route of SPEC §2 in one table: each screen is its own lazily loaded chunk, so adding a
 * route is one line. `guard` wraps the screen (RequireUser, or an administrator guard).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { RequireUser, type GuardProps } from "./components/Guards";
import { PageLoading } from "./components/Spinner";
import { ensureFullCatalog } from "./i18n";

export interface AppRoute {
  path: string;
  screen: LazyExoticComponent<ComponentType>;
  guard?: ComponentType<GuardProps>;
  /** Passed to the guard: where logged-out visitors go instead of Access Denied, and the notice shown. */
  redirectTo?: string;
  redirectNotice?: string;
}

/** A screen chunk plus the full text catalog it renders with (the public pages need only part of it). */
function screen(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(() => Promise.all([load(), ensureFullCatalog()]).then(([module]) => module));
}

export const ROUTES: AppRoute[] = [
  { path: "/", screen: lazy(() => import("./screens/Home/Home")) },
  { path: "/login", screen: lazy(() => import("./screens/Login/Login")) },
  { path: "/signup", screen: lazy(() => import("./screens/Signup/Signup")) },
  { path: "/dashboard", guard: RequireUser, screen: screen(() => import("./screens/Dashboard/Dashboard")) },
  {
    path: "/text-ai",
    guard: RequireUser,
    redirectTo: "/login",
    redirectNotice: "errors.textLoginRequired",
    screen: screen(() => import("./screens/TextAI/TextAI")),
  },
  { path: "/doctor", guard: RequireUser, screen: screen(() => import("./screens/Doctor/Doctor")) },
  { path: "/image-ai", guard: RequireUser, screen: screen(() => import("./screens/ImageAI/ImageAI")) },
  { path: "/video-test", guard: RequireUser, screen: screen(() => import("./screens/Video/Video")) },
  { path: "/sms-ai", guard: RequireUser, screen: screen(() => import("./screens/SmsAI/SmsAI")) },
  { path: "/profile", guard: RequireUser, screen: screen(() => import("./screens/Profile/Profile")) },
  { path: "/admin-login", screen: screen(() => import("./screens/AdminLogin/AdminLogin")) },
  { path: "/admin-dashboard", screen: screen(() => import("./screens/AdminDashboard/AdminDashboard")) },
];

/** The data cache is only needed behind a guard; loading it lazily keeps the home page light. */
const QueryProvider = lazy(() => import("./components/QueryProvider"));

function element({ screen: Screen, guard: Guard, redirectTo, redirectNotice }: AppRoute): ReactNode {
  if (!Guard) return <Screen />;
  return (
    <QueryProvider>
      <Guard {...(redirectTo ? { redirectTo } : {})} {...(redirectNotice ? { redirectNotice } : {})}>
        <Screen />
      </Guard>
    </QueryProvider>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        {ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={element(route)} />
        ))}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
