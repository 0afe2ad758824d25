/** Text AI's composer: the growing box, Send or Stop, and a 402 kept above it with the way on. */
import { useTranslation } from "react-i18next";
import { ChatInput } from "../../components/ChatInput";
import { GetCoinsLink, isShortOfCoins } from "../../components/GetCoinsLink";
import { StopIcon } from "../../components/toolIcons";
import { useChatErrors } from "../../hooks/useChatErrors";
import type { ConversationScreen } from "../../hooks/useConversationScreen";

export function TextAIComposer({ screen, onSend }: { screen: ConversationScreen; onSend(): void }) {
  const { t } = useTranslation();
  const chatError = useChatErrors();
  const { input, failure, loading } = screen;
  return (
    <>
      {/* Other failures are toasts; this one stays, with its link (a toast would vanish with it). */}
      {isShortOfCoins(failure) && (
        <p className="alert alert--error text-ai__short" role="alert" data-testid="text-ai-short">
          {chatError(failure, t("errors.sendFailed"))} <GetCoinsLink error={failure} />
        </p>
      )}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          onSend();
        }}
      >
        <ChatInput
          id="text-ai-input"
          box={screen}
          label={t("textAi.inputLabel")}
          placeholder={t("textAi.inputPlaceholder")}
          onSend={onSend}
        />
        {loading ? (
          <button type="button" className="btn btn--secondary composer__send" onClick={screen.stop}>
            <StopIcon size={16} /> {t("doctor.stop")}
          </button>
        ) : (
          <button type="submit" className="btn btn--primary composer__send" disabled={!input.trim()}>
            {t("common.send")}
          </button>
        )}
      </form>
    </>
  );
}
