/** SPEC §2 the avatar picker: every persona with its description; Confirm is disabled until one is picked. */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PERSONAS, type PersonaId } from "@storefront/shared";
import { PersonaIcon } from "../../components/toolIcons";
import { usePersonaName } from "./personaName";

interface Props {
  current: PersonaId;
  onConfirm(picked: PersonaId): void;
  onClose(): void;
}

export function PersonaPicker({ current, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const name = usePersonaName();
  const [picked, setPicked] = useState<PersonaId | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog persona-picker"
      aria-labelledby="persona-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="persona-title" className="dialog__title">
        {t("textAi.personaTitle")}
      </h2>
      <div className="persona-picker__grid" role="radiogroup" aria-labelledby="persona-title">
        {PERSONAS.map((p) => (
          <button
            key={p.id}
            type="button"
            role="radio"
            aria-checked={picked === p.id}
            className={`persona-option${picked === p.id ? " persona-option--picked" : ""}${current === p.id ? " persona-option--current" : ""}`}
            style={{ ["--persona" as string]: p.color }}
            onClick={() => setPicked(p.id)}
          >
            <span className="persona-dot" aria-hidden="true">
              <PersonaIcon id={p.id} size={16} />
            </span>
            <span className="persona-option__name">{name(p.id)}</span>
            <span className="persona-option__description">
              {t(`personas.${p.id}.description`, { defaultValue: p.description })}
            </span>
          </button>
        ))}
      </div>
      <div className="dialog__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="button" className="btn btn--primary" onClick={() => picked && onConfirm(picked)} disabled={!picked}>
          {t("common.confirm")}
        </button>
      </div>
    </dialog>
  );
}
