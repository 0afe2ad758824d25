/**
 * SPEC §2 Admin dashboard: a collapsible side menu of sections, a header naming the current one,
 * a home button and Logout. Allowed only when the admin_session flag is present and the server
 * confirms the session (SPEC §6); otherwise the Access Denied screen.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { roleAllows, type AdminPermission, type AdminRecord } from "@storefront/shared";
import { AppLink } from "../../components/AppLink";
import { AccessDenied } from "../../components/Guards";
import { MenuIcon } from "../../components/icons";
import {
  AntennaIcon,
  ChartIcon,
  CoinIcon,
  ClockIcon,
  HomeIcon,
  ListIcon,
  MailIcon,
  PackageIcon,
  ShieldIcon,
  SlidersIcon,
  UsersIcon,
} from "../../components/toolIcons";
import { DrawerClose, DrawerOverlay } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import QueryProvider from "../../components/QueryProvider";
import { PageLoading } from "../../components/Spinner";
import { useDrawer } from "../../hooks/useDrawer";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { adminApi } from "./adminApi";
import { clearAdminSession, hasAdminSessionFlag, storeAdminSession } from "./adminSession";
import { AdminContext } from "./context";
import { adminKeys } from "./queries";
import "./AdminDashboard.css";

export interface SectionProps {
  admin: AdminRecord;
}

interface SectionDef {
  id: string;
  icon: ComponentType<{ size?: number }>;
  /** Shown only to roles holding it; SPEC's sections without one are for every administrator. */
  permission?: AdminPermission;
  component: ComponentType<SectionProps>;
}

const SECTIONS: SectionDef[] = [
  { id: "dashboard", icon: ChartIcon, component: lazy(() => import("./sections/Overview")) },
  { id: "analytics", icon: ChartIcon, permission: "stats:view", component: lazy(() => import("./sections/Analytics")) },
  { id: "users", icon: UsersIcon, permission: "users:view", component: lazy(() => import("./sections/Users")) },
  { id: "packages", icon: PackageIcon, permission: "packages:view", component: lazy(() => import("./sections/Packages")) },
  {
    id: "walletConfig",
    icon: SlidersIcon,
    permission: "wallet_config:view",
    component: lazy(() => import("./sections/WalletConfig")),
  },
  {
    id: "redemption",
    icon: CoinIcon,
    permission: "coins:grant",
    component: lazy(() => import("./sections/Redemption")),
  },
  { id: "smsConfig", icon: AntennaIcon, permission: "sms:view", component: lazy(() => import("./sections/SmsConfig")) },
  { id: "smsIntegration", icon: MailIcon, permission: "sms:view", component: lazy(() => import("./sections/SmsIntegration")) },
  { id: "queues", icon: ClockIcon, permission: "queues:view", component: lazy(() => import("./sections/Queues")) },
  { id: "audit", icon: ListIcon, permission: "audit:view", component: lazy(() => import("./sections/AuditLog")) },
  { id: "admins", icon: ShieldIcon, permission: "admins:manage", component: lazy(() => import("./sections/Admins")) },
];

type Check = { state: "checking" } | { state: "denied" } | { state: "ok"; admin: AdminRecord };

function useAdminCheck(): Check {
  const [check, setCheck] = useState<Check>(() => (hasAdminSessionFlag() ? { state: "checking" } : { state: "denied" }));
  useEffect(() => {
    if (check.state !== "checking") return;
    let live = true;
    adminApi.session().then(
      (res) => {
        if (!live) return;
        storeAdminSession(res.admin);
        setCheck({ state: "ok", admin: res.admin });
      },
      () => {
        if (!live) return;
        clearAdminSession();
        setCheck({ state: "denied" });
      },
    );
    return () => {
      live = false;
    };
  }, [check.state]);
  return check;
}

export default function AdminDashboard() {
  const { t } = useTranslation();
  const check = useAdminCheck();
  if (check.state === "checking") return <PageLoading label={t("admin.guard.verifying")} />;
  if (check.state === "denied") return <AccessDenied />;
  return (
    <QueryProvider>
      <BackOffice admin={check.admin} />
    </QueryProvider>
  );
}

function BackOffice({ admin }: { admin: AdminRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  // On a phone the menu is a drawer over the content, closed until asked for.
  const wide = useMediaQuery("(min-width: 769px)");
  const [menuOpen, setMenuOpen] = useState(wide);
  const menuRef = useRef<HTMLElement>(null);
  useDrawer(menuRef, menuOpen, !wide, () => setMenuOpen(false));
  useEffect(() => setMenuOpen(wide), [wide]);
  const visible = SECTIONS.filter((s) => !s.permission || roleAllows(admin.role, s.permission));
  const current = visible.find((s) => s.id === params.get("section")) ?? visible[0]!;
  const Section = current.component;

  // Signed out, nothing the back office read stays in the page's cache for the next person.
  const sessionExpired = useCallback(() => {
    clearAdminSession();
    queryClient.removeQueries({ queryKey: adminKeys.all });
    navigate("/admin-login", { replace: true });
  }, [navigate, queryClient]);

  async function logout() {
    try {
      await adminApi.logout();
    } catch {
      // The flag is cleared whatever the server says (SPEC §2).
    }
    sessionExpired();
  }
  const context = useMemo(() => ({ admin, sessionExpired }), [admin, sessionExpired]);

  return (
    <AdminContext.Provider value={context}>
      <div className={`admin ${menuOpen ? "admin--menu-open" : "admin--menu-closed"}`}>
        <nav
          ref={menuRef}
          className={`admin__menu${wide ? "" : " drawer--modal"}`}
          aria-label={t("admin.menu.label")}
          id="admin-menu"
        >
          <DrawerClose onClose={() => setMenuOpen(false)} />
          <div className="admin__brand">
            <span className="brand__mark" aria-hidden="true">
              AI
            </span>
            <span className="admin__brand-text">{t("admin.menu.title")}</span>
          </div>
          {/* On a phone the header keeps to one row: who is signed in is said here, in the menu. */}
          <p className="admin__menu-who">
            <span dir="auto">{admin.username}</span> · {t(`admin.roles.${admin.role}`)}
          </p>
          <ul>
            {visible.map((section) => (
              <li key={section.id}>
                <button
                  type="button"
                  className={`admin__menu-item${section.id === current.id ? " is-current" : ""}`}
                  aria-current={section.id === current.id ? "page" : undefined}
                  onClick={() => {
                    setParams({ section: section.id });
                    if (!wide) setMenuOpen(false);
                  }}
                  title={t(`admin.menu.${section.id}`)}
                >
                  <span aria-hidden="true" className="admin__menu-icon">
                    <section.icon size={18} />
                  </span>
                  <span className="admin__menu-text">{t(`admin.menu.${section.id}`)}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {menuOpen && !wide && <DrawerOverlay onClose={() => setMenuOpen(false)} />}
        <div className="admin__main">
          <header className="page-header admin__header">
            <div className="page-header__start">
              <button
                type="button"
                className="btn btn--ghost"
                aria-expanded={menuOpen}
                aria-controls="admin-menu"
                onClick={() => setMenuOpen((open) => !open)}
              >
                <MenuIcon />
                <span className="visually-hidden">{t("admin.menu.toggle")}</span>
              </button>
              <h1 className="page-header__title">{t(`admin.menu.${current.id}`)}</h1>
            </div>
            <div className="page-header__end">
              <span className="admin__who" data-testid="admin-who">
                <span dir="auto">{admin.username}</span> · {t(`admin.roles.${admin.role}`)}
              </span>
              <LanguageToggle />
              <AppLink to="/dashboard" className="btn btn--secondary">
                <HomeIcon size={18} /> <span className="admin__header-label">{t("admin.menu.home")}</span>
              </AppLink>
              <button type="button" className="btn btn--secondary" onClick={() => void logout()}>
                {t("admin.menu.logout")}
              </button>
            </div>
          </header>
          <main className="admin__content" id="main">
            <Suspense fallback={<PageLoading />}>
              <Section key={current.id} admin={admin} />
            </Suspense>
          </main>
        </div>
      </div>
    </AdminContext.Provider>
  );
}
