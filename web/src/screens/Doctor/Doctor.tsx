/**
 * SPEC §2/§4/§5 Doctor: dark theme and skip link, disclaimer card, consultations with search and
 * relative times, the reply streamed as it is written (typing indicator before the first words),
 * Stop, Retry, scroll-to-bottom, progress bar, quick replies and the 2000-character counter. The
 * conversation state is useConversationScreen's; each part of the screen has its own file.
 */
import { useTranslation } from "react-i18next";
import { doctorConversationTitle } from "@storefront/shared";
import type { ChatMessage } from "../../api/chat";
import type { ConversationSummary } from "../../api/conversations";
import { BackButton, PageHeader, SidebarToggle } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { StethoscopeIcon } from "../../components/toolIcons";
import { WalletBadge } from "../../components/WalletBadge";
import { useConversationScreen } from "../../hooks/useConversationScreen";
import { DoctorComposer } from "./DoctorComposer";
import { isTooLong } from "./DoctorPrice";
import { DoctorSidebar } from "./DoctorSidebar";
import { DoctorThread } from "./DoctorThread";
import "./Doctor.css";

const newConversationId = () => `conv_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const titleAndLastMessage = (c: ConversationSummary) => [c.title, c.lastMessage];

export default function Doctor() {
  const { t } = useTranslation();
  // A new consultation's id is the client's from its first question, so its charges are filed under it.
  const screen = useConversationScreen({
    kind: "doctor",
    searchIn: titleAndLastMessage,
    titleOf: doctorConversationTitle,
    newId: newConversationId,
  });

  /**
   * Answered, the consultation is filed and listed at once (the server's figures, its cost among
   * them, replace the entry). A failed attempt is not a consultation: nothing is saved, the
   * question goes back in the box and the reason (with the price and the balance on a 402) shows above it.
   */
  function consult(text: string, history: ChatMessage[]) {
    void screen.ask(text, history, "doctor");
  }

  function send() {
    const text = screen.input.trim();
    if (!text || screen.loading || isTooLong(screen.input)) return;
    screen.setInput("");
    consult(text, screen.messages);
  }

  function retry() {
    const last = screen.lastQuestion();
    if (last && !screen.loading) consult(last.text, last.history);
  }

  const { open: sidebarOpen } = screen.sidebar;
  return (
    <div className="doctor theme-dark">
      <a href="#doctor-input" className="skip-link">
        {t("doctor.skipLink")}
      </a>
      <DoctorSidebar screen={screen} onNew={screen.newChat} />
      <div className="chat-screen__main">
        <PageHeader
          title={
            <>
              <StethoscopeIcon size={20} className="page-header__icon" />
              {t("doctor.title")}
            </>
          }
          start={
            <>
              <SidebarToggle open={sidebarOpen} onToggle={screen.toggleSidebar} label={t("doctor.sidebarToggle")} />
              <BackButton />
            </>
          }
          end={
            <>
              <LanguageToggle />
              <WalletBadge />
            </>
          }
        />
        <DoctorThread screen={screen} onRetry={retry} />
        <DoctorComposer screen={screen} onSend={send} />
      </div>
    </div>
  );
}
