/** A chat screen's stored conversations: the list, what its search matches, and reading it again. */
import { useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { listConversations, type ConversationSummary } from "../api/conversations";
import type { ConversationKind } from "../components/ConversationSidebar";
import { useUser } from "./useAuth";

const byTitle = (c: ConversationSummary) => [c.title];

/** `searchIn`: the texts of a conversation the search looks in (the title alone by default). */
export function useConversationList(
  kind: ConversationKind,
  searchIn: (c: ConversationSummary) => (string | undefined)[] = byTitle,
) {
  const user = useUser();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const listKey = ["conversations", kind, user.id];
  const conversations = useQuery({ queryKey: listKey, queryFn: () => listConversations(user.id, kind) });

  const found = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = conversations.data ?? [];
    return q ? list.filter((c) => searchIn(c).some((text) => text?.toLowerCase().includes(q))) : list;
  }, [conversations.data, search, searchIn]);

  /** Reads the list again (after a save or a delete); `listed`, a conversation just saved, tops it meanwhile. */
  function refresh(listed?: ConversationSummary) {
    if (listed)
      queryClient.setQueryData<ConversationSummary[]>(listKey, (list = []) => [
        listed,
        ...list.filter((c) => c.id !== listed.id),
      ]);
    void queryClient.invalidateQueries({ queryKey: listKey });
  }

  return { conversations, found, search, setSearch, refresh };
}
