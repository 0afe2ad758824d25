/** The Doctor's composer: why the last question failed, the quick-reply chips, the box and the price line. */
import { useTranslation } from "react-i18next";
import { ChatInput } from "../../components/ChatInput";
import { GetCoinsLink, isShortOfCoins } from "../../components/GetCoinsLink";
import { useChatErrors } from "../../hooks/useChatErrors";
import type { ConversationScreen } from "../../hooks/useConversationScreen";
import { DoctorPrice, isTooLong } from "./DoctorPrice";

const QUICK_REPLIES = ["headache", "fever", "sleep", "diet"] as const;

export function DoctorComposer({ screen, onSend }: { screen: ConversationScreen; onSend(): void }) {
  const { t } = useTranslation();
  const chatError = useChatErrors();
  const { input, setInput, failure, loading } = screen;
  const tooLong = isTooLong(input);
  return (
    <form
      className="doctor__composer"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      {failure !== null && (
        <p className="alert alert--error doctor__failure" role="alert" data-testid="doctor-failure">
          {chatError(failure, t("errors.doctorReplyFailed"))} {isShortOfCoins(failure) && <GetCoinsLink error={failure} />}
        </p>
      )}
      <div className="doctor__chips" role="group" aria-label={t("doctor.quickRepliesLabel")}>
        {QUICK_REPLIES.map((key) => (
          <button key={key} type="button" className="chip" onClick={() => setInput(t(`doctor.quickReplies.${key}`))}>
            {t(`doctor.quickReplies.${key}`)}
          </button>
        ))}
      </div>
      <div className="composer doctor__row">
        <ChatInput
          id="doctor-input"
          box={screen}
          label={t("doctor.inputLabel")}
          placeholder={t("doctor.placeholder")}
          aria-invalid={tooLong || undefined}
          aria-describedby="doctor-counter"
          onSend={onSend}
        />
        <button type="submit" className="btn btn--primary composer__send" disabled={loading || tooLong || !input.trim()}>
          {t("common.send")}
        </button>
      </div>
      <DoctorPrice input={input} />
    </form>
  );
}
