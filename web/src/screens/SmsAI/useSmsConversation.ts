/**
 * SMS AI's conversation: kept per user in browser storage (with the backend AI on and nothing
 * stored, the server's SMS history is shown), and sending: the backend AI (charged), else an
 * earlier learned answer or the shared local engine when the backend fails; local mode answers in
 * the browser with that engine.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS, smsCharLimit, type SmsAiMessage } from "@storefront/shared";
import { localReply } from "@storefront/shared/reply-engine";
import { ApiError } from "../../api/client";
import { smsAiResponse, smsLearnedResponse, smsServerHistory } from "../../api/sms";
import { announceWalletUpdate } from "../../api/wallet";
import { useToast } from "../../components/Toasts";
import { useUser } from "../../hooks/useAuth";
import { useFormat } from "../../hooks/useFormat";
import { readStored, useStoredState, writeStored } from "../../hooks/useStoredState";

/** An SMS as the screen keeps it: the server's message without its id and language. */
export type SmsMessage = Pick<SmsAiMessage, "role" | "message" | "timestamp" | "sender" | "recipient">;

/** What the configuration panel sends. */
export interface SmsDraft {
  sender: string;
  recipient: string;
  text: string;
}

const BACKEND_KEY = "smsUseBackendAI";
const historyKey = (userId: string) => `smsConversation_${userId}`;
const asHistory = (messages: SmsMessage[]) => messages.map((m) => ({ role: m.role, content: m.message }));

export function useSmsConversation() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const { language } = useFormat();
  const [useBackend, setUseBackend] = useStoredState<boolean>(BACKEND_KEY, false);
  const [messages, setMessages] = useState<SmsMessage[]>(() => readStored<SmsMessage[]>(historyKey(user.id), []));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    writeStored(historyKey(user.id), messages);
  }, [messages, user.id]);
  // With the backend AI on and nothing stored in this browser, show the server's SMS history.
  useEffect(() => {
    if (!useBackend || messages.length > 0) return;
    let cancelled = false;
    smsServerHistory(user.id).then(
      (history) => {
        if (!cancelled && history.length > 0) setMessages((current) => (current.length > 0 ? current : history));
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // Only when the toggle or the user changes: later sends fill `messages` themselves.
  }, [useBackend, user.id]);

  /** Sends the draft; true once the reply is in the thread (the panel then empties the message box). */
  async function send({ sender, recipient, text }: SmsDraft): Promise<boolean> {
    if (sending) return false;
    const fail = (message: string) => {
      setError(message);
      return false;
    };
    if (!recipient.trim()) return fail(t("sms.required", { field: t("sms.recipient") }));
    if (!text.trim()) return fail(t("sms.required", { field: t("sms.message") }));
    if (Array.from(text).length > smsCharLimit(language)) return fail(t("sms.tooLong"));
    setError("");
    setSending(true);
    const body = text.trim();
    const mine: SmsMessage = { role: "user", message: body, timestamp: new Date().toISOString(), sender, recipient };
    const withMine = [...messages, mine];
    setMessages(withMine);
    const answer = (message: string): SmsMessage[] => [
      ...withMine,
      { role: "assistant", message, timestamp: new Date().toISOString(), sender: recipient, recipient: sender },
    ];
    const local = () => localReply({ message: body, language, history: asHistory(messages.slice(-LIMITS.smsLocalContext)) });
    try {
      let reply: string;
      if (useBackend) {
        try {
          reply = await smsAiResponse(body, asHistory(messages.slice(-LIMITS.smsBackendContext)), language);
          announceWalletUpdate();
        } catch (err) {
          if (err instanceof ApiError && err.status === 402) {
            setMessages(messages);
            const message = t("sms.insufficient", { needed: err.body.needed ?? 1, available: err.body.available ?? 0 });
            toast.error(message);
            return fail(message);
          }
          if (!(err instanceof ApiError)) throw err;
          // Another backend failure: an earlier learned answer if there is one, else the local engine.
          reply = (await smsLearnedResponse(body, language).catch(() => null)) ?? (await local());
        }
      } else {
        reply = await local();
      }
      setMessages(answer(reply));
      toast.success(t("sms.sent"));
      return true;
    } catch {
      setMessages(answer(t("sms.connectionError")));
      toast.error(t("sms.failed"));
      return false;
    } finally {
      setSending(false);
    }
  }

  return { useBackend, setUseBackend, messages, clear: () => setMessages([]), sending, error, send };
}

export type SmsConversation = ReturnType<typeof useSmsConversation>;
