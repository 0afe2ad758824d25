/**
 * SPEC §2 Text AI's sidebar: the conversation history with its date and cost, search, "+ New", the
 * phone tail as the profile entry, and delete with a confirm.
 */
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DOCTOR_TITLE_PREFIX } from "@storefront/shared";
import { deleteConversation } from "../../api/conversations";
import { AppLink } from "../../components/AppLink";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ConversationCost, ConversationSidebar } from "../../components/ConversationSidebar";
import { initialOf } from "../../components/Layout";
import { useToast } from "../../components/Toasts";
import type { ConversationScreen } from "../../hooks/useConversationScreen";
import { useFormat } from "../../hooks/useFormat";

export function TextAISidebar({ screen, onNew }: { screen: ConversationScreen; onNew(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const format = useFormat();
  const { user, list } = screen;
  const [deleteTarget, setDeleteTarget] = useState<{ id: string; title: string } | null>(null);

  useEffect(() => {
    if (list.conversations.isError) toast.error(t("errors.historyLoadFailed"));
  }, [list.conversations.isError, toast, t]);

  const items = useMemo(
    () =>
      list.found
        .filter((c) => !c.title.startsWith(DOCTOR_TITLE_PREFIX))
        .map((c) => ({
          id: c.id,
          title: c.title,
          detail: (
            <>
              {c.created_at && format.date(c.updated_at ?? c.created_at)}
              {c.coinsSpent !== undefined && <ConversationCost coins={c.coinsSpent} />}
            </>
          ),
        })),
    [list.found, format],
  );

  async function confirmDelete() {
    const target = deleteTarget;
    setDeleteTarget(null);
    if (!target) return;
    try {
      await deleteConversation(target.id, user.id);
      if (target.id === screen.conversationId) onNew();
      list.refresh();
    } catch {
      toast.error(t("errors.conversationDeleteFailed"));
    }
  }

  return (
    <>
      <ConversationSidebar
        {...screen.sidebar}
        onNew={onNew}
        items={items}
        onDelete={(item) => setDeleteTarget({ id: item.id, title: item.title })}
        footer={
          <AppLink to="/profile" className="text-ai__profile">
            <span className="avatar avatar--small" aria-hidden="true">
              {initialOf(user.phone)}
            </span>
            <span dir="ltr">{t("textAi.profileEntry", { tail: user.phone.slice(-4) })}</span>
          </AppLink>
        }
      />
      <ConfirmDialog
        open={deleteTarget !== null}
        danger
        title={t("textAi.deleteTitle")}
        message={t("textAi.deleteMessage")}
        confirmLabel={t("common.delete")}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteTarget(null)}
      />
    </>
  );
}
