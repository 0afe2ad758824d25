/** An on/off setting: a real checkbox (keyboard, screen readers, forms) drawn as a switch. */
import "./Switch.css";

interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  /** Shown beside the switch; without it `ariaLabel` names it (a switch in a table row). */
  label?: string;
  ariaLabel?: string;
  /** Id of the text that explains the setting. */
  describedBy?: string;
  disabled?: boolean;
  /** "success": on reads as "active" (green) rather than the brand colour. */
  tone?: "brand" | "success";
  testId?: string;
}

export function Switch({ checked, onChange, label, ariaLabel, describedBy, disabled, tone = "brand", testId }: SwitchProps) {
  const classes = ["switch", tone === "success" && "switch--success", !label && "switch--bare"].filter(Boolean).join(" ");
  return (
    <label className={classes}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-label={label ? undefined : ariaLabel}
        aria-describedby={describedBy}
        data-testid={testId}
      />
      <span className="switch__track" aria-hidden="true" />
      {label && <span>{label}</span>}
    </label>
  );
}
