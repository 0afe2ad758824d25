/**
 * SPEC §2 Admin dashboard: a collapsible side menu of sections, a header naming the current one,
 * a home button and Logout. Allowed only when the admin_session flag is present and the server
 * confirms the session (SPEC §6); otherwise the Access Denied screen.
 */
import { Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import type { AdminRecord } from "@storefront/shared";
import { AppLink } from "../../components/AppLink";
import { AccessDenied } from "../../components/Guards";
import { MenuIcon } from "../../components/icons";
import { HomeIcon } from "../../components/toolIcons";
import { DrawerOverlay } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import QueryProvider from "../../components/QueryProvider";
import { PageLoading } from "../../components/Spinner";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { adminApi } from "./adminApi";
import { clearAdminSession, hasAdminSessionFlag, storeAdminSession } from "./adminSession";
import { AdminMenu, sectionsFor } from "./AdminMenu";
import { AdminContext } from "./context";
import { adminKeys } from "./queries";
import "./AdminDashboard.css";

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
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useEffect(() => setMenuOpen(wide), [wide]);
  const visible = sectionsFor(admin);
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
        <AdminMenu
          admin={admin}
          sections={visible}
          current={current}
          wide={wide}
          open={menuOpen}
          onSelect={(id) => {
            setParams({ section: id });
            if (!wide) setMenuOpen(false);
          }}
          onClose={closeMenu}
        />
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
