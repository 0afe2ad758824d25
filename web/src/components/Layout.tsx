/**
 * Page chrome shared by the subscriber (and administrator) screens, and the side panel's parts (its
 * stylesheet, SidePanel.css, rides in this module's chunk, which every such screen loads anyway).
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { AppLink } from "./AppLink";
import { useAuth } from "../hooks/useAuth";
import { useSignOut } from "../hooks/useSignOut";
import { CloseIcon, MenuIcon, SignOutIcon } from "./icons";
import { LanguageToggle } from "./LanguageToggle";
import { WalletBadge } from "./WalletBadge";
import "./SidePanel.css";

/** The first letter or digit of the phone (not its "+"), shown in the round avatar (SPEC §2). */
export function initialOf(phone: string | undefined): string {
  return /[\p{L}\p{N}]/u.exec(phone ?? "")?.[0]?.toUpperCase() ?? "?";
}

/** The link's name holds the letter it shows, so a voice control user can say what they see (WCAG 2.5.3). */
export function Avatar({ phone, to = "/profile" }: { phone: string; to?: string }) {
  const { t } = useTranslation();
  const initial = initialOf(phone);
  return (
    <AppLink
      to={to}
      className="avatar"
      aria-label={t("nav.profileOf", { initial })}
      title={t("nav.profile")}
      data-testid="avatar"
    >
      {initial}
    </AppLink>
  );
}

/** On a phone the icon alone (its words kept for screen readers), so the header's controls share one row. */
export function SignOutButton({ className = "btn btn--secondary" }: { className?: string }) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  return (
    <button type="button" className={`${className} sign-out`} onClick={() => void signOut()} title={t("nav.signOut")}>
      <SignOutIcon size={18} className="flip-rtl" /> <span className="sign-out__text">{t("nav.signOut")}</span>
    </button>
  );
}

/** Back to the dashboard, or one step back in history when `history` is set (Profile). */
export function BackButton({ history = false, to = "/dashboard" }: { history?: boolean; to?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (history) {
    return (
      <button type="button" className="btn btn--ghost back-button" onClick={() => navigate(-1)}>
        <span aria-hidden="true" className="flip-rtl">
          ←
        </span>{" "}
        <span className="back-button__text">{t("nav.back")}</span>
      </button>
    );
  }
  return (
    <AppLink to={to} className="btn btn--ghost back-button">
      <span aria-hidden="true" className="flip-rtl">
        ←
      </span>{" "}
      <span className="back-button__text">{t("nav.backToDashboard")}</span>
    </AppLink>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  /** Left (start) side before the title, e.g. a back button or a menu toggle. */
  start?: ReactNode;
  /** Right (end) side; defaults to language toggle, wallet badge and avatar. */
  end?: ReactNode;
  className?: string;
}

export function PageHeader({ title, start, end, className = "" }: PageHeaderProps) {
  const { user } = useAuth();
  return (
    <header className={`page-header ${className}`}>
      <div className="page-header__start">
        {start}
        <h1 className="page-header__title">{title}</h1>
      </div>
      <div className="page-header__end">
        {end ?? (
          <>
            <LanguageToggle />
            {user && <WalletBadge />}
            {user && <Avatar phone={user.phone} />}
          </>
        )}
      </div>
    </header>
  );
}

/** The ☰ button of the screens with a history sidebar (Text AI, Doctor, Image AI). */
export function SidebarToggle({ open, onToggle, label }: { open: boolean; onToggle(): void; label: string }) {
  return (
    <button type="button" className="icon-button" onClick={onToggle} aria-expanded={open} aria-label={label}>
      <MenuIcon />
    </button>
  );
}

/** The ✕ of a drawer (a side panel covering the page on narrow screens). */
export function DrawerClose({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="icon-button drawer-close" onClick={onClose} aria-label={t("nav.closePanel")}>
      <CloseIcon />
    </button>
  );
}

/** The dimmed page behind an open drawer; a tap on it closes the drawer. */
export function DrawerOverlay({ onClose }: { onClose(): void }) {
  return <div className="drawer-overlay" onClick={onClose} aria-hidden="true" data-testid="drawer-overlay" />;
}
