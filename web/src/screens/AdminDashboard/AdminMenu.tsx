/** The back office's side menu: the sections the role may see; on a phone a drawer over the content. */
import { lazy, useRef, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { roleAllows, type AdminPermission, type AdminRecord } from "@storefront/shared";
import {
  AntennaIcon,
  ChartIcon,
  CoinIcon,
  ClockIcon,
  ListIcon,
  MailIcon,
  PackageIcon,
  ShieldIcon,
  SlidersIcon,
  UsersIcon,
} from "../../components/toolIcons";
import { DrawerClose } from "../../components/Layout";
import { useDrawer } from "../../hooks/useDrawer";

interface SectionProps {
  admin: AdminRecord;
}

export interface SectionDef {
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

/** The sections `admin`'s role may see, in the menu's order. */
export function sectionsFor(admin: AdminRecord): SectionDef[] {
  return SECTIONS.filter((s) => !s.permission || roleAllows(admin.role, s.permission));
}

export function AdminMenu({
  admin,
  sections: visible,
  current,
  wide,
  open,
  onSelect,
  onClose,
}: {
  admin: AdminRecord;
  sections: SectionDef[];
  current: SectionDef;
  /** A wide screen keeps the menu beside the content; a phone shows it as a modal drawer. */
  wide: boolean;
  open: boolean;
  onSelect(id: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const menuRef = useRef<HTMLElement>(null);
  useDrawer(menuRef, open, !wide, onClose);
  return (
    <nav
      ref={menuRef}
      className={`admin__menu${wide ? "" : " drawer--modal"}`}
      aria-label={t("admin.menu.label")}
      id="admin-menu"
    >
      <DrawerClose onClose={onClose} />
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
              onClick={() => onSelect(section.id)}
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
  );
}
