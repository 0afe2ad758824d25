/** Image AI's 320 px sidebar (a drawer on phones): the mode switch, the agents, the 10 recent images, the user. */
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { IMAGE_AGENTS } from "@storefront/shared";
import type { HistoryImage } from "../../api/images";
import { DrawerClose, initialOf } from "../../components/Layout";
import { ImageAgentIcon } from "../../components/toolIcons";
import { useUser } from "../../hooks/useAuth";
import { useDrawer } from "../../hooks/useDrawer";
import { useAgentName, type ImageGeneration } from "./useImageGeneration";

interface ImageSidebarProps {
  image: ImageGeneration;
  recent: HistoryImage[];
  onDelete(id: string): void;
  open: boolean;
  /** A wide screen shows the sidebar beside the page; a narrow one as a modal drawer. */
  wide: boolean;
  onClose(): void;
}

export function ImageSidebar({ image, recent, onDelete, open, wide, onClose }: ImageSidebarProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  useDrawer(ref, open, !wide, onClose);
  const user = useUser();
  const agentName = useAgentName();
  return (
    <aside
      ref={ref}
      className={`side-panel side-panel--wide image-ai__sidebar${wide ? "" : " drawer--modal"}`}
      hidden={!open}
      aria-label={t("image.agents")}
      aria-modal={wide ? undefined : true}
      role={wide ? undefined : "dialog"}
    >
      <DrawerClose onClose={onClose} />
      <div className="segmented" role="radiogroup" aria-label={t("image.mode")}>
        {(["generate", "edit"] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={image.mode === m}
            className={image.mode === m ? "segmented__on" : ""}
            onClick={() => image.setMode(m)}
          >
            {m === "generate" ? t("image.modeGenerate") : t("image.modeEdit")}
          </button>
        ))}
      </div>
      <h2 className="image-ai__heading">{t("image.agents")}</h2>
      <ul className="image-ai__agents">
        {IMAGE_AGENTS.map((a) => (
          <li key={a.id}>
            <button
              type="button"
              className={`agent${a.id === image.agent.id ? " agent--on" : ""}`}
              style={{ ["--agent" as string]: a.color }}
              onClick={() => image.chooseAgent(a.id)}
              aria-pressed={a.id === image.agent.id}
            >
              <span className="agent__icon" aria-hidden="true">
                <ImageAgentIcon id={a.id} size={20} />
              </span>
              <span>
                <span className="agent__name">{agentName(a.id)}</span>
                <span className="agent__description">
                  {t(`imageAgents.${a.id}.description`, { defaultValue: a.description })}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <h2 className="image-ai__heading">{t("image.recent")}</h2>
      <ul className="image-ai__recent">
        {recent.map((img) => (
          <li key={img.id}>
            <a href={img.url} target="_blank" rel="noreferrer" aria-label={t("image.openImage", { prompt: img.prompt ?? "" })}>
              <img src={img.url} alt="" loading="lazy" />
            </a>
            <button
              type="button"
              className="image-ai__delete"
              aria-label={t("image.deleteImage")}
              onClick={() => onDelete(img.id)}
            >
              ×
            </button>
          </li>
        ))}
        {recent.length === 0 && <li className="image-ai__none">{t("image.noRecent")}</li>}
      </ul>
      <div className="image-ai__user">
        <span className="avatar avatar--small" aria-hidden="true">
          {initialOf(user.phone)}
        </span>
        <span dir="ltr">{user.phone}</span>
      </div>
    </aside>
  );
}
