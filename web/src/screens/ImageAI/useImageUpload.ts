/**
 * The picture an edit starts from: the chosen file (refused, with the reason on the form's error
 * line, `showError`, when it is not one of SPEC's types or is too large), its preview, and the
 * edit's strength. A new choice clears the error line first.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { IMAGE_EDIT_STRENGTH, IMAGE_MIME_TYPES, LIMITS } from "@storefront/shared";

export function useImageUpload(showError: (message: string) => void) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [strength, setStrength] = useState<number>(IMAGE_EDIT_STRENGTH.screenDefault);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function pickFile(picked: File | undefined) {
    showError("");
    if (!picked) return;
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(picked.type)) return showError(t("image.invalidFile"));
    if (picked.size >= LIMITS.imageEditBytes) return showError(t("image.fileTooLarge"));
    setFile(picked);
    setPreview(URL.createObjectURL(picked));
  }

  /** No picture, the strength back to its default, the file input emptied. */
  function clear() {
    setFile(null);
    setPreview(null);
    setStrength(IMAGE_EDIT_STRENGTH.screenDefault);
    if (fileRef.current) fileRef.current.value = "";
  }

  return { file, preview, strength, setStrength, fileRef, pickFile, clear };
}
