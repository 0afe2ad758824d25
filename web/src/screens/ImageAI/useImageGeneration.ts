/**
 * The Image AI form's state and its one action: the mode and agent (an agent brings its size and
 * mode), prompt, size, the uploaded picture (useImageUpload, edit mode), and the results of this
 * visit, newest first. Each result is saved to the user's history.
 */
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import {
  applyAgentTemplate,
  DEFAULT_IMAGE_AGENT,
  imageAgentById,
  priceOf,
  TOAST_MS,
  type ImageAgentId,
  type ImageSize,
} from "@storefront/shared";
import { errorMessage } from "../../api/errors";
import { editImage, generateImage, saveImage, type GeneratedImage } from "../../api/images";
import { queryClient as appQueries } from "../../api/queryClient";
import { announceWalletUpdate } from "../../api/wallet";
import { useToast } from "../../components/Toasts";
import { useUser } from "../../hooks/useAuth";
import { useLateJob } from "../../hooks/useLateJob";
import { useImageUpload } from "./useImageUpload";

export type Mode = "generate" | "edit";

export function useImageGeneration() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>("generate");
  const [agentId, setAgentId] = useState<ImageAgentId>(DEFAULT_IMAGE_AGENT);
  const [prompt, setPrompt] = useState("");
  const [size, setSize] = useState<ImageSize>(imageAgentById(DEFAULT_IMAGE_AGENT).defaultSize);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [results, setResults] = useState<GeneratedImage[]>([]);
  const upload = useImageUpload(setError);
  const { file, strength } = upload;
  /** The toast of the last failure, taken back when the image it was about arrives late after all. */
  const notice = useRef<number | null>(null);
  const agent = imageAgentById(agentId);

  function chooseAgent(id: ImageAgentId) {
    const next = imageAgentById(id);
    setAgentId(id);
    setSize(next.defaultSize);
    setMode(next.mode);
  }

  function reset() {
    setPrompt("");
    upload.clear();
    setError("");
  }

  function showFailure(err: unknown) {
    const message = errorMessage(err, t("image.failed"), { needed: priceOf({ feature: "image" }) });
    setError(message);
    notice.current = toast.error(message, TOAST_MS.imageError);
  }
  /**
   * A request still queued or running when its call ended: its failure shows here too, and its
   * image as if the call had answered, the 503/504 notice gone. The worker already put it in the
   * user's history (recordMadeImage), so it is not saved again; a screen left meanwhile finds it
   * there when the history is read again.
   */
  const watchLate = useLateJob("image", {
    failed: showFailure,
    completed: ({ image }) => {
      setResults((all) => [image, ...all.filter((r) => r.id !== image.id)]);
      setError("");
      if (notice.current !== null) toast.dismiss(notice.current);
      toast.success(t("image.success"), TOAST_MS.imageSuccess);
      announceWalletUpdate();
      void queryClient.invalidateQueries({ queryKey: ["images"] });
    },
    away: () => {
      announceWalletUpdate();
      void appQueries.invalidateQueries({ queryKey: ["images"] });
    },
  });

  async function generate() {
    if (busy) return;
    if (!prompt.trim()) return setError(t("image.promptRequired"));
    if (mode === "edit" && !file) return setError(t("image.imageRequired"));
    setError("");
    setBusy(true);
    try {
      const fullPrompt = applyAgentTemplate(agent, prompt);
      const made =
        mode === "edit" && file
          ? await editImage({ image: file, prompt: fullPrompt, strength, size, userId: user.id })
          : await generateImage({ prompt: fullPrompt, size, userId: user.id, agent: agentId });
      const record: GeneratedImage = {
        id: made.id ?? `img_${Date.now()}`,
        url: made.url,
        prompt: prompt.trim(),
        size,
        mode,
        timestamp: new Date().toISOString(),
      };
      setResults((all) => [record, ...all]);
      toast.success(t("image.success"), TOAST_MS.imageSuccess);
      announceWalletUpdate();
      await saveImage(user.id, record).catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: ["images"] });
    } catch (err) {
      showFailure(err);
      watchLate(err, null);
    } finally {
      setBusy(false);
    }
  }

  const canGenerate = !busy && prompt.trim().length > 0 && (mode === "generate" || file !== null);
  return {
    mode,
    setMode,
    agent,
    chooseAgent,
    prompt,
    setPrompt,
    size,
    setSize,
    fileRef: upload.fileRef,
    pickFile: upload.pickFile,
    preview: upload.preview,
    strength,
    setStrength: upload.setStrength,
    busy,
    error,
    results,
    canGenerate,
    generate,
    reset,
  };
}

export type ImageGeneration = ReturnType<typeof useImageGeneration>;

/** An agent's name in the reader's language. */
export function useAgentName() {
  const { t } = useTranslation();
  return (id: ImageAgentId) => t(`imageAgents.${id}.name`, { defaultValue: imageAgentById(id).name });
}
