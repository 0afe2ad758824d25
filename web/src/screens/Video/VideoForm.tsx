/** The Generate tab's form: model with its cost in coins (3-decimal dollars beside), prompt, resolution, ratio, duration. */
import { useTranslation } from "react-i18next";
import { LIMITS, priceOf, VIDEO_MODELS } from "@storefront/shared";
import { Form, RangeField, SelectField, TextAreaField } from "../../components/Form";
import { GetCoinsLink } from "../../components/GetCoinsLink";
import { useFormat } from "../../hooks/useFormat";
import { useWallet } from "../../hooks/useWallet";
import { ASPECT_RATIOS, RESOLUTIONS, type VideoChoice } from "./videoChoice";

interface VideoFormProps {
  choice: VideoChoice;
  onChange(patch: Partial<VideoChoice>): void;
  onSubmit(): void;
  onReset(): void;
  starting: boolean;
  /** A video is being made: Generate waits for it. */
  running: boolean;
}

export function VideoForm({ choice, onChange, onSubmit, onReset, starting, running }: VideoFormProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const wallet = useWallet();
  const { model, duration } = choice;
  // Charged in coins (shared priceOf, as the API does); the provider's dollar price is secondary.
  const dollars = (VIDEO_MODELS.find((m) => m.id === model)?.costPerSecond ?? 0) * duration;
  const coins = priceOf({ feature: "video", model, seconds: duration });
  const balance = wallet.data?.wallet.coins;
  const short = balance !== undefined && balance < coins;
  const models = VIDEO_MODELS.map((m) => ({
    value: m.id,
    label: `${t("video.modelOption", { name: m.name, price: format.money(m.costPerSecond, "USD", 2) })} · ${t(
      `videoModels.${m.id}.description`,
      { defaultValue: m.description },
    )}`,
  }));

  return (
    <Form className="card" onSubmit={onSubmit}>
      <SelectField
        id="video-model"
        label={t("video.model")}
        value={model}
        options={models}
        onChange={(m) => onChange({ model: m })}
      >
        <span className="video-page__cost" data-testid="video-cost">
          {t("video.costCoins", { coins: format.number(coins), price: format.money(dollars, "USD", 3) })}
        </span>
        {balance !== undefined && (
          <span className={short ? "field-error" : "field-hint"} data-testid="video-balance">
            {short ? (
              <>
                {t("errors.insufficientCoins", { needed: format.number(coins), available: format.number(balance) })}{" "}
                <GetCoinsLink />
              </>
            ) : (
              t("video.balance", { coins: format.number(balance) })
            )}
          </span>
        )}
      </SelectField>
      <TextAreaField
        id="video-prompt"
        label={t("video.prompt")}
        value={choice.prompt}
        placeholder={t("video.promptPlaceholder")}
        onChange={(prompt) => onChange({ prompt })}
        maxLength={LIMITS.promptChars}
      />
      <div className="video-page__row">
        <SelectField
          id="video-resolution"
          label={t("video.resolution")}
          value={choice.resolution}
          options={RESOLUTIONS}
          onChange={(resolution) => onChange({ resolution })}
        />
        <SelectField
          id="video-aspect"
          label={t("video.aspectRatio")}
          value={choice.aspectRatio}
          options={ASPECT_RATIOS}
          onChange={(aspectRatio) => onChange({ aspectRatio })}
        />
      </div>
      <RangeField
        id="video-duration"
        label={t("video.duration", { n: format.number(duration) })}
        min={LIMITS.videoMinSeconds}
        max={LIMITS.videoMaxSeconds}
        step={1}
        value={duration}
        onChange={(seconds) => onChange({ duration: seconds })}
      />
      <div className="video-page__actions">
        <button type="button" className="btn btn--secondary" onClick={onReset}>
          {t("video.reset")}
        </button>
        <button type="submit" className="btn btn--primary" disabled={starting || running}>
          {starting ? t("video.generating") : t("video.generate")}
        </button>
      </div>
    </Form>
  );
}
