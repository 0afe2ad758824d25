/**
 * The form parts every screen repeats: a form the screen submits itself, labelled fields (text,
 * text area, select, slider) in the `field` layout, the error line.
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

interface FormProps {
  /** Called on submit (the button or Enter); the page never reloads and the screen does its own checks. */
  onSubmit(): unknown;
  className?: string;
  children: ReactNode;
}

export function Form({ onSubmit, className, children }: FormProps) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
      noValidate
    >
      {children}
    </form>
  );
}

/** The form's error, announced when it appears; nothing when there is none. */
export function ErrorAlert({ message }: { message: string }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {message}
    </div>
  );
}

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  onChange(value: T): void;
  /** The choices; a plain string is its own label. */
  options: readonly (T | { value: T; label: string })[];
  /** Shown under the select (a hint, a price). */
  children?: ReactNode;
}

export function SelectField<T extends string>({ id, label, value, onChange, options, children }: SelectFieldProps<T>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => {
          const { value: key, label: text } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={key} value={key}>
              {text}
            </option>
          );
        })}
      </select>
      {children}
    </div>
  );
}

interface RangeFieldProps {
  id: string;
  /** Names the slider and shows its value. */
  label: string;
  min: number;
  max: number;
  step: number;
  value: number;
  onChange(value: number): void;
}

export function RangeField({ id, label, min, max, step, value, onChange }: RangeFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}

/** A control's own attributes, less what the field sets (its id, value, change handler and class). */
type ControlProps<A> = Omit<A, "id" | "value" | "onChange" | "className" | "children">;

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange?(value: string): void;
  /** Shown under the control (a hint, a counter). */
  children?: ReactNode;
}

export function InputField({
  id,
  label,
  value,
  onChange,
  children,
  ...input
}: TextFieldProps & ControlProps<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" value={value} onChange={(e) => onChange?.(e.target.value)} {...input} />
      {children}
    </div>
  );
}

export function TextAreaField({
  id,
  label,
  value,
  onChange,
  children,
  ...textarea
}: TextFieldProps & ControlProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="textarea" value={value} onChange={(e) => onChange?.(e.target.value)} {...textarea} />
      {children}
    </div>
  );
}
