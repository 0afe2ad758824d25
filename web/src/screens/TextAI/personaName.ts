import { useTranslation } from "react-i18next";
import { personaById, type PersonaId } from "@storefront/shared";

/** A persona's name in the interface language. */
export function usePersonaName(): (id: PersonaId) => string {
  const { t } = useTranslation();
  return (id) => t(`personas.${id}.name`, { defaultValue: personaById(id).name });
}
