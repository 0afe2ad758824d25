/**
 * SPEC §5 the Doctor's price preview and counter under the box: what the message will cost (the
 * server's own `priceOf`, at the default table like the other tools' hints), the character count
 * past 80% of the limit, and "too long" past it.
 */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS, priceOf } from "@storefront/shared";
import { useFormat } from "../../hooks/useFormat";

/** Characters as SPEC §5 counts them (code points). */
const lengthOf = (text: string) => Array.from(text).length;

export const isTooLong = (text: string) => lengthOf(text) > LIMITS.doctorMessageChars;

export function DoctorPrice({ input }: { input: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const length = lengthOf(input);
  const cost = useMemo(() => priceOf({ feature: "doctor", message: input }), [input]);
  const tooLong = isTooLong(input);
  const showCounter = length > LIMITS.doctorMessageChars * LIMITS.doctorCounterThreshold;
  return (
    <div id="doctor-counter" className="doctor__counter" aria-live="polite">
      {input.trim() && !tooLong && <span data-testid="doctor-cost">{t("doctor.cost", { count: cost })}</span>}
      {showCounter && (
        <span className={tooLong ? "doctor__counter--over" : ""}>
          {t("doctor.counter", { n: format.number(length), max: format.number(LIMITS.doctorMessageChars) })}
        </span>
      )}
      {tooLong && <span className="doctor__too-long">{t("doctor.tooLong")}</span>}
    </div>
  );
}
