/**
 * The header's persona button, and what it opens: the picker and, when a conversation is under way,
 * the change-agent confirm (a new persona starts a new chat). The first pick ever is taken silently.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Persona, PersonaId } from "@storefront/shared";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PersonaIcon } from "../../components/toolIcons";
import { PersonaPicker } from "./PersonaPicker";
import { usePersonaName } from "./personaName";

export function PersonaButton({ persona, onClick }: { persona: Persona; onClick(): void }) {
  const { t } = useTranslation();
  const personaName = usePersonaName();
  return (
    <button
      type="button"
      className="persona-button"
      style={{ ["--persona" as string]: persona.color }}
      onClick={onClick}
      // The persona's name it shows comes first (what a voice control user says, WCAG 2.5.3).
      aria-label={t("textAi.personaButton", { name: personaName(persona.id) })}
      data-testid="persona-button"
    >
      <span className="persona-dot" aria-hidden="true">
        <PersonaIcon id={persona.id} size={16} />
      </span>
      <span className="persona-button__name">{personaName(persona.id)}</span>
    </button>
  );
}

interface Props {
  /** The picker is shown. */
  open: boolean;
  onClose(): void;
  persona: Persona;
  /** Whether a persona was ever chosen (stored). */
  chosen: boolean;
  /** Whether the thread or the box holds anything a switch would clear. */
  busy: boolean;
  /** `announce`: the switch clears the conversation and says so. */
  onChoose(id: PersonaId, announce: boolean): void;
}

export function PersonaSwitch({ open, onClose, persona, chosen, busy, onChoose }: Props) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<PersonaId | null>(null);

  function confirmPicker(picked: PersonaId) {
    onClose();
    if (!chosen) return onChoose(picked, false);
    if (picked === persona.id) return;
    if (busy) setPending(picked);
    else onChoose(picked, false);
  }

  return (
    <>
      {open && <PersonaPicker current={persona.id} onConfirm={confirmPicker} onClose={onClose} />}
      <ConfirmDialog
        open={pending !== null}
        title={t("textAi.changeAgentTitle")}
        message={t("textAi.changeAgentMessage")}
        confirmLabel={t("common.yes")}
        cancelLabel={t("common.no")}
        onConfirm={() => {
          if (pending) onChoose(pending, true);
          setPending(null);
        }}
        onCancel={() => setPending(null)}
      />
    </>
  );
}
