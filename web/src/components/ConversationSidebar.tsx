/**
 * The conversation list of the chat screens (Text AI, Doctor): a side column on wide screens and a
 * modal drawer on phones (close button, tap-outside overlay, Escape, focus kept inside and given
 * back), with "new", search, the list and an optional delete per conversation.
 */
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useDrawer } from "../hooks/useDrawer";
import { useFormat } from "../hooks/useFormat";
import { DrawerClose, DrawerOverlay } from "./Layout";
import { TrashIcon } from "./toolIcons";
import "./ChatScreen.css";

export interface SidebarItem {
  id: string;
  title: string;
  /** A second line: date, last message, cost. */
  detail?: ReactNode;
}

/** Each chat screen's sidebar texts (i18n keys); `noMatches` replaces `empty` while searching. */
const TEXTS = {
  text: {
    heading: "textAi.history",
    newLabel: "textAi.newChat",
    newTitle: "textAi.newChatLabel",
    searchPlaceholder: "textAi.search",
    searchLabel: "textAi.searchLabel",
    empty: "textAi.noConversations",
    noMatches: "textAi.noMatches",
  },
  doctor: {
    heading: "doctor.conversations",
    newLabel: "doctor.newConsultation",
    newTitle: undefined,
    searchPlaceholder: "doctor.search",
    searchLabel: "doctor.searchLabel",
    empty: "doctor.noConversations",
    noMatches: "doctor.noConversations",
  },
} as const;

/** Which stored conversations a screen lists: the persona chats or the Doctor's consultations. */
export type ConversationKind = keyof typeof TEXTS;

interface Props {
  wide: boolean;
  open: boolean;
  onClose(): void;
  kind: ConversationKind;
  className?: string;
  onNew(): void;
  search: string;
  onSearch(value: string): void;
  items: SidebarItem[];
  /** The list is still on its way (no "empty" line yet). */
  loading: boolean;
  activeId: string | null;
  onOpen(id: string): void;
  onDelete?: (item: SidebarItem) => void;
  footer?: ReactNode;
}

export function ConversationSidebar(props: Props) {
  const { t } = useTranslation();
  const { wide, open, onClose, items, activeId, onDelete } = props;
  const texts = TEXTS[props.kind];
  const heading = t(texts.heading);
  const ref = useRef<HTMLElement>(null);
  useDrawer(ref, open, !wide, onClose);
  return (
    <>
      <aside
        ref={ref}
        className={`side-panel conversation-sidebar${props.className ? ` ${props.className}` : ""}${wide ? "" : " drawer--modal"}`}
        aria-label={heading}
        hidden={!open}
        role={wide ? undefined : "dialog"}
        aria-modal={wide ? undefined : true}
      >
        <DrawerClose onClose={onClose} />
        <div className="conversation-sidebar__top">
          <h2 className="conversation-sidebar__title">{heading}</h2>
          <button
            type="button"
            className="btn btn--primary btn--small"
            onClick={props.onNew}
            title={texts.newTitle && t(texts.newTitle)}
          >
            {t(texts.newLabel)}
          </button>
        </div>
        <input
          type="search"
          className="input conversation-sidebar__search"
          placeholder={t(texts.searchPlaceholder)}
          aria-label={t(texts.searchLabel)}
          value={props.search}
          onChange={(e) => props.onSearch(e.target.value)}
        />
        <ul className="conversation-sidebar__list">
          {items.map((item) => (
            <li
              key={item.id}
              className={
                item.id === activeId
                  ? "conversation-sidebar__item conversation-sidebar__item--active"
                  : "conversation-sidebar__item"
              }
            >
              <button
                type="button"
                className="conversation-sidebar__item-open"
                onClick={() => props.onOpen(item.id)}
                aria-current={item.id === activeId}
              >
                <span className="conversation-sidebar__item-title" dir="auto">
                  {item.title}
                </span>
                {item.detail && <span className="conversation-sidebar__item-detail">{item.detail}</span>}
              </button>
              {onDelete && (
                <button
                  type="button"
                  className="icon-button conversation-sidebar__item-delete"
                  aria-label={t("textAi.deleteLabel", { title: item.title })}
                  onClick={() => onDelete(item)}
                >
                  <TrashIcon size={16} />
                </button>
              )}
            </li>
          ))}
          {items.length === 0 && !props.loading && (
            <li className="conversation-sidebar__none">{t(props.search ? texts.noMatches : texts.empty)}</li>
          )}
        </ul>
        {props.footer}
      </aside>
      {open && !wide && <DrawerOverlay onClose={onClose} />}
    </>
  );
}

/** What a conversation has cost so far (the server's figure, from the ledger), for a list entry's second line. */
export function ConversationCost({ coins }: { coins: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  return <span className="conversation-cost"> · {t("textAi.cost", { coins: format.number(coins) })}</span>;
}
