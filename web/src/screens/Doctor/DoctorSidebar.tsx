/** SPEC §2 the Doctor's consultations: searched by title and last message, with relative times and cost. */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { displayConversationTitle } from "@storefront/shared";
import { ConversationCost, ConversationSidebar } from "../../components/ConversationSidebar";
import type { ConversationScreen } from "../../hooks/useConversationScreen";
import { useFormat } from "../../hooks/useFormat";

export function DoctorSidebar({ screen, onNew }: { screen: ConversationScreen; onNew(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { found } = screen.list;
  const items = useMemo(
    () =>
      found.map((c) => ({
        id: c.id,
        title: displayConversationTitle(c.title, t("doctor.titlePrefix")),
        detail: (
          <>
            {format.relative(c.timestamp ?? c.updated_at ?? c.created_at ?? "")}
            {c.coinsSpent !== undefined && <ConversationCost coins={c.coinsSpent} />}
            {c.lastMessage && <span dir="auto"> · {c.lastMessage}</span>}
          </>
        ),
      })),
    [found, format, t],
  );

  return <ConversationSidebar {...screen.sidebar} className="doctor__sidebar" onNew={onNew} items={items} />;
}
