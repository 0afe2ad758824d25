/**
 * Every route of SPEC §2 in one table: each screen is its own lazily loaded chunk, so adding a
 * route is one line. `guard` wraps the screen (RequireUser, or an administrator guard).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";
import { matchPath, Navigate, Route, Routes } from "react-router-dom";
import { RequireUser, type GuardProps } from "./components/Guards";
import { PageLoading } from "./components/Spinner";
import { ensureFullCatalog, ensureSignInTexts, preloadSignInTexts } from "./i18n";

type ScreenModule = { default: ComponentType };

export interface AppRoute {
  path: string;
  /** Downloads the screen's chunk alone (the lazy screen also waits for the texts it needs). */
  chunk: () => Promise<ScreenModule>;
  screen: LazyExoticComponent<ComponentType>;
  /** Downloads the chunk and the texts the screen waits for; once done, the screen renders without suspending. */
  load: () => Promise<ScreenModule>;
  /** The texts the screen waits for besides its chunk. */
  texts: Texts;
  guard?: ComponentType<GuardProps>;
  /** Passed to the guard: where logged-out visitors go instead of Access Denied, and the notice shown. */
  redirectTo?: string;
  redirectNotice?: string;
}

/**
 * The texts a screen waits for besides its chunk: every screen's (`full`), or on a public page only
 * what the home page's catalog part lacks (`sign-in`), or nothing more (`public`: loaded at start).
 */
type Texts = "full" | "sign-in" | "public";
type RouteSpec = Omit<AppRoute, "screen" | "load" | "texts"> & { texts?: Texts };

const TEXTS: Record<Texts, () => Promise<void>> = {
  full: () => ensureFullCatalog(),
  "sign-in": () => ensureSignInTexts(),
  public: () => Promise.resolve(),
};

/** A route whose screen is its own chunk, downloaded beside the texts it waits for. */
function route({ texts = "full", ...spec }: RouteSpec): AppRoute {
  const download = () => Promise.all([spec.chunk(), TEXTS[texts]()]).then(([module]) => module);
  let loaded: ScreenModule | undefined;
  const load = () => download().then((module) => (loaded = module));
  // A screen already loaded is handed over at once (React.lazy takes a thenable that calls back
  // synchronously), so hydrating a page the build rendered never suspends on it: a boundary that
  // suspends while hydrating would lose the server's markup to the first state update (the session check).
  const ready = (): PromiseLike<ScreenModule> => (loaded ? { then: (resolve) => resolve!(loaded!) as never } : load());
  return { ...spec, texts, load, screen: lazy(ready as () => Promise<ScreenModule>) };
}

const ROUTES: AppRoute[] = [
  route({ path: "/", chunk: () => import("./screens/Home/Home"), texts: "public" }),
  route({ path: "/login", chunk: () => import("./screens/Login/Login"), texts: "sign-in" }),
  route({ path: "/signup", chunk: () => import("./screens/Signup/Signup"), texts: "sign-in" }),
  // Public: a visitor proves a number an unproven account holds from here (the screen sends others to /login).
  route({ path: "/verify-phone", chunk: () => import("./screens/VerifyPhone/VerifyPhone") }),
  route({ path: "/dashboard", guard: RequireUser, chunk: () => import("./screens/Dashboard/Dashboard") }),
  route({
    path: "/text-ai",
    guard: RequireUser,
    redirectTo: "/login",
    redirectNotice: "errors.textLoginRequired",
    chunk: () => import("./screens/TextAI/TextAI"),
  }),
  route({ path: "/doctor", guard: RequireUser, chunk: () => import("./screens/Doctor/Doctor") }),
  route({ path: "/image-ai", guard: RequireUser, chunk: () => import("./screens/ImageAI/ImageAI") }),
  route({ path: "/video-test", guard: RequireUser, chunk: () => import("./screens/Video/Video") }),
  route({ path: "/sms-ai", guard: RequireUser, chunk: () => import("./screens/SmsAI/SmsAI") }),
  route({ path: "/profile", guard: RequireUser, chunk: () => import("./screens/Profile/Profile") }),
  route({ path: "/get-coins", guard: RequireUser, chunk: () => import("./screens/GetCoins/GetCoins") }),
  route({ path: "/usage", guard: RequireUser, chunk: () => import("./screens/Usage/Usage") }),
  route({ path: "/admin-login", chunk: () => import("./screens/AdminLogin/AdminLogin") }),
  route({ path: "/admin-dashboard", chunk: () => import("./screens/AdminDashboard/AdminDashboard") }),
];

/**
 * Starts downloading the chunk of the screen at `pathname` (unknown paths show the home page) while
 * the texts load, so the first render does not wait for one more round trip. The browser keeps the
 * module; the lazy screen finds it there.
 */
export function preloadRoute(pathname: string): void {
  // Matched as <Routes> does (any case, a trailing slash allowed).
  const match = ROUTES.find((r) => matchPath(r.path, pathname)) ?? ROUTES[0]!;
  // A failed download surfaces where it would anyway: in the lazy screen.
  match.chunk().catch(() => undefined);
  if (match.texts === "sign-in") preloadSignInTexts();
}

/** The screen at `pathname` with its texts, ready to render at once (main.tsx waits for it before hydrating). */
export function loadRoute(pathname: string): Promise<unknown> {
  return (ROUTES.find((r) => matchPath(r.path, pathname)) ?? ROUTES[0]!).load();
}

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
