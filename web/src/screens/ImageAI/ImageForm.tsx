/** The Image AI form: the agent and price, prompt, the picture and strength in edit mode, size, Generate and Reset. */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  IMAGE_EDIT_STRENGTH,
  IMAGE_MIME_TYPES,
  LIMITS,
  priceOf,
  SELECTABLE_IMAGE_SIZES,
  type ImageSize,
} from "@storefront/shared";
import { ErrorAlert, Form, RangeField, SelectField, TextAreaField } from "../../components/Form";
import { ImageAgentIcon } from "../../components/toolIcons";
import { useFormat } from "../../hooks/useFormat";
import { useAgentName, type ImageGeneration } from "./useImageGeneration";

export function ImageForm({ image }: { image: ImageGeneration }) {
  const { t } = useTranslation();
  const format = useFormat();
  const agentName = useAgentName();
  const { agent, mode } = image;
  const sizes = useMemo(
    () =>
      SELECTABLE_IMAGE_SIZES.includes(agent.defaultSize)
        ? SELECTABLE_IMAGE_SIZES
        : [agent.defaultSize, ...SELECTABLE_IMAGE_SIZES],
    [agent.defaultSize],
  );

  return (
    <Form className="card image-ai__form" onSubmit={image.generate}>
      <div className="image-ai__agent-line">
        <ImageAgentIcon id={agent.id} size={18} className="page-header__icon" /> <strong>{agentName(agent.id)}</strong>
        <span className="field-hint">{t("image.cost", { coins: format.number(priceOf({ feature: "image" })) })}</span>
      </div>
      <TextAreaField
        id="image-prompt"
        label={t("image.prompt")}
        value={image.prompt}
        onChange={image.setPrompt}
        placeholder={mode === "edit" ? t("image.editPromptPlaceholder") : t("image.promptPlaceholder")}
        maxLength={LIMITS.promptChars}
      />
      {mode === "edit" && (
        <div className="image-ai__edit">
          <div className="field">
            <label htmlFor="image-file">{t("image.upload")}</label>
            <input
              id="image-file"
              ref={image.fileRef}
              type="file"
              accept={IMAGE_MIME_TYPES.join(",")}
              className="input"
              onChange={(e) => image.pickFile(e.target.files?.[0])}
            />
            <span className="field-hint">{t("image.uploadHint")}</span>
          </div>
          {image.preview && <img className="image-ai__preview" src={image.preview} alt={t("image.previewAlt")} />}
          <RangeField
            id="image-strength"
            label={t("image.strength", { value: format.decimal(image.strength, 1) })}
            min={IMAGE_EDIT_STRENGTH.min}
            max={IMAGE_EDIT_STRENGTH.max}
            step={IMAGE_EDIT_STRENGTH.step}
            value={image.strength}
            onChange={image.setStrength}
          />
        </div>
      )}
      <SelectField<ImageSize>
        id="image-size"
        label={t("image.size")}
        value={image.size}
        options={sizes}
        onChange={image.setSize}
      />
      <ErrorAlert message={image.error} />
      <div className="image-ai__actions">
        <button type="submit" className="btn btn--primary" disabled={!image.canGenerate}>
          {image.busy ? t("image.generating") : mode === "edit" ? t("image.edit") : t("image.generate")}
        </button>
        <button type="button" className="btn btn--secondary" onClick={image.reset}>
          {t("image.reset")}
        </button>
      </div>
    </Form>
  );
}
