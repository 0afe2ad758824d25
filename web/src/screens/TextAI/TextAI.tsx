/**
 * SPEC §2/§4 Text AI: persona chat with a conversation sidebar, the persona picker and its
 * change-agent confirm, Enter / Shift+Enter / Ctrl+N, a 120 px growing textarea, messages that
 * revert on failure, the open conversation restored from storage, and replies streamed by push.
 * The conversation state is useConversationScreen's; each part of the screen has its own file.
 */
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { conversationTitle, DEFAULT_PERSONA, personaById, TOAST_MS, type PersonaId } from "@storefront/shared";
import type { ChatMessage } from "../../api/chat";
import { isShortOfCoins } from "../../components/GetCoinsLink";
import { Avatar, BackButton, PageHeader, SidebarToggle } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useConversationScreen } from "../../hooks/useConversationScreen";
import { useStoredString } from "../../hooks/useStoredState";
import { PersonaButton, PersonaSwitch } from "./PersonaSwitch";
import { usePersonaName } from "./personaName";
import { TextAIComposer } from "./TextAIComposer";
import { TextAISidebar } from "./TextAISidebar";
import { TextAIThread } from "./TextAIThread";
import "./TextAI.css";

const PERSONA_KEY = "selectedAvatarType";
const CONVERSATION_KEY = "currentConversationId";

export default function TextAI() {
  const { t } = useTranslation();
  const toast = useToast();
  const chatError = useChatErrors();
  const personaName = usePersonaName();
  // A 402 stays above the box (TextAIComposer); other failures are toasts, the last one taken back
  // when the reply it was about arrives late after all.
  const notice = useRef<number | null>(null);
  const tell = (error: unknown) => {
    if (!isShortOfCoins(error)) notice.current = toast.error(chatError(error, t("errors.sendFailed")));
  };
  const screen = useConversationScreen({
    kind: "text",
    storageKey: CONVERSATION_KEY,
    titleOf: conversationTitle,
    onLateFailure: tell,
    onLateReply: () => notice.current !== null && toast.dismiss(notice.current),
  });
  const { messages, input, setInput, inputRef, user } = screen;
  const [storedPersona, setStoredPersona] = useStoredString(PERSONA_KEY, null);
  const persona = personaById(storedPersona ?? DEFAULT_PERSONA);
  const [pickerOpen, setPickerOpen] = useState(false);

  function newChat() {
    screen.newChat();
    setInput("");
  }
  // Ctrl+N (⌘N) starts a new chat.
  const onKey = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "n") {
      event.preventDefault();
      newChat();
    }
  });
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => onKey(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  /** Sends the box's text, or (regenerate) an earlier question again over the history before it. */
  async function send(again?: { text: string; history: ChatMessage[] }) {
    const text = (again?.text ?? input).trim();
    if (!text || screen.loading) return;
    if (!again) setInput("");
    // Answered, it is filed by the screen's hook.
    const result = await screen.ask(text, again?.history ?? messages, persona.id);
    if (!result.ok && "error" in result) tell(result.error);
  }

  function regenerate() {
    const last = screen.lastQuestion();
    if (last) void send(last);
  }

  function choosePersona(id: PersonaId, announce: boolean) {
    setStoredPersona(id);
    if (announce) {
      newChat();
      toast.success(t("textAi.switched", { agent: personaName(id) }), TOAST_MS.personaSwitch);
    }
    setTimeout(() => inputRef.current?.focus(), 0);
  }

  const { open: sidebarOpen } = screen.sidebar;
  return (
    <div className={`text-ai ${sidebarOpen ? "text-ai--sidebar-open" : ""}`}>
      <TextAISidebar screen={screen} onNew={newChat} />
      <div className="chat-screen__main">
        <PageHeader
          title={t("textAi.title")}
          start={
            <>
              <SidebarToggle
                open={sidebarOpen}
                onToggle={screen.toggleSidebar}
                label={sidebarOpen ? t("textAi.closeSidebar") : t("textAi.openSidebar")}
              />
              <BackButton />
            </>
          }
          end={
            <>
              <LanguageToggle />
              <WalletBadge />
              <PersonaButton persona={persona} onClick={() => setPickerOpen(true)} />
              <Avatar phone={user.phone} />
            </>
          }
        />
        <TextAIThread screen={screen} persona={persona} onRegenerate={regenerate} />
        <TextAIComposer screen={screen} onSend={() => void send()} />
      </div>
      <PersonaSwitch
        open={pickerOpen}
        onClose={() => setPickerOpen(false)}
        persona={persona}
        chosen={storedPersona !== null}
        busy={messages.length > 0 || input.trim() !== ""}
        onChoose={choosePersona}
      />
    </div>
  );
}
