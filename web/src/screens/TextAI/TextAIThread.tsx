/** Text AI's messages: the empty state with the persona, or the thread, kept scrolled to its end. */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { Persona } from "@storefront/shared";
import { ChatMessages, TypingDots } from "../../components/ChatMessages";
import { PersonaIcon } from "../../components/toolIcons";
import type { ConversationScreen } from "../../hooks/useConversationScreen";
import { usePersonaName } from "./personaName";

interface Props {
  screen: ConversationScreen;
  persona: Persona;
  onRegenerate(): void;
}

export function TextAIThread({ screen, persona, onRegenerate }: Props) {
  const { t } = useTranslation();
  const personaName = usePersonaName();
  const { messages, loading, streamed } = screen;
  const endRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "end" });
  }, [messages, streamed, loading]);

  return (
    <main id="main" className="chat-screen__thread" aria-live="polite">
      {messages.length === 0 && !loading ? (
        <div className="chat-screen__empty">
          <span className="persona-dot persona-dot--large" style={{ ["--persona" as string]: persona.color }} aria-hidden="true">
            <PersonaIcon id={persona.id} size={28} />
          </span>
          <h2>{t("textAi.emptyState")}</h2>
          <p>{t("textAi.emptyHint", { persona: personaName(persona.id) })}</p>
        </div>
      ) : (
        <ChatMessages
          thread={screen}
          onRegenerate={onRegenerate}
          speaker={personaName(persona.id)}
          pending={{ className: "bubble--pending", waiting: <TypingDots label={t("textAi.thinking")} /> }}
        />
      )}
      <div ref={endRef} />
    </main>
  );
}
