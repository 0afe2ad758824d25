/**
 * SPEC §2 Dashboard: header (name, language, wallet, avatar, sign-out) and five tool cards; voice
 * only announces that it is coming soon.
 */
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ChatIcon, ImageIcon, MicIcon, PhoneIcon, PulseIcon, VideoIcon } from "../../components/toolIcons";
import { Avatar, SignOutButton } from "../../components/Layout";
import { GetCoinsLink } from "../../components/GetCoinsLink";
import { LanguageToggle } from "../../components/LanguageToggle";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useUser } from "../../hooks/useAuth";
import { PhoneProofNotice } from "../VerifyPhone/PhoneProofNotice";
import "./Dashboard.css";

interface Tool {
  key: "video" | "text" | "image" | "sms" | "voice";
  icon: ComponentType<{ size?: number }>;
  to: string | null;
  color: string;
}

const TOOLS: readonly Tool[] = [
  { key: "text", icon: ChatIcon, to: "/text-ai", color: "#4f46e5" },
  { key: "image", icon: ImageIcon, to: "/image-ai", color: "#be185d" },
  { key: "video", icon: VideoIcon, to: "/video-test", color: "#c2410c" },
  { key: "sms", icon: PhoneIcon, to: "/sms-ai", color: "#0e7490" },
  { key: "voice", icon: MicIcon, to: null, color: "#7c3aed" },
];

export default function Dashboard() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const navigate = useNavigate();

  const open = (tool: Tool) => {
    if (tool.to) navigate(tool.to);
    else toast.info(t("dashboard.comingSoon"));
  };

  return (
    <div className="dashboard">
      <header className="page-header dashboard__header">
        <div className="page-header__start">
          <span className="brand">
            <span className="brand__mark" aria-hidden="true">
              AI
            </span>
            <span className="dashboard__product">{t("app.name")}</span>
          </span>
        </div>
        <div className="page-header__end">
          <LanguageToggle />
          <WalletBadge />
          <Avatar phone={user.phone} />
          <SignOutButton />
        </div>
      </header>
      <main id="main" className="dashboard__main">
        <PhoneProofNotice />
        <h1 className="dashboard__title">{t("dashboard.title")}</h1>
        <p className="dashboard__subtitle">
          {t("dashboard.subtitle")} <GetCoinsLink />
        </p>
        <div className="dashboard__grid" data-testid="tool-grid">
          {TOOLS.map((tool) => (
            <article key={tool.key} className="card tool-card" style={{ ["--tool-color" as string]: tool.color }}>
              <div className="tool-card__icon" aria-hidden="true">
                <tool.icon size={28} />
              </div>
              <h2 className="tool-card__title">{t(`dashboard.tools.${tool.key}.title`)}</h2>
              <p className="tool-card__text">{t(`dashboard.tools.${tool.key}.text`)}</p>
              <div className="tool-card__actions">
                <button
                  type="button"
                  className="btn btn--primary tool-card__open"
                  onClick={() => open(tool)}
                  aria-label={t("dashboard.openTool", { tool: t(`dashboard.tools.${tool.key}.title`) })}
                >
                  {t("dashboard.open")}
                </button>
                {tool.key === "text" && (
                  <button type="button" className="btn btn--ghost" onClick={() => navigate("/doctor")}>
                    <PulseIcon size={18} /> {t("dashboard.doctorLink")}
                  </button>
                )}
                {tool.key === "voice" && <span className="tool-card__soon">{t("dashboard.soonBadge")}</span>}
              </div>
            </article>
          ))}
        </div>
      </main>
    </div>
  );
}
