/**
 * SPEC §2/§4/§5 Image AI: a 320 px sidebar (mode switch, agents, the 10 recent images, the user),
 * prompt, upload with preview and strength in edit mode, sizes, generate/reset, and results with
 * view and download as ai-image-{timestamp}.png.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  applyAgentTemplate,
  DEFAULT_IMAGE_AGENT,
  IMAGE_AGENTS,
  IMAGE_EDIT_STRENGTH,
  IMAGE_MIME_TYPES,
  imageAgentById,
  LIMITS,
  priceOf,
  SELECTABLE_IMAGE_SIZES,
  TOAST_MS,
  type ImageAgentId,
} from "@storefront/shared";
import { errorMessage } from "../../api/errors";
import { deleteImage, editImage, generateImage, imageHistory, saveImage, type GeneratedImage } from "../../api/images";
import { announceWalletUpdate } from "../../api/wallet";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { BackButton, DrawerClose, DrawerOverlay, initialOf, PageHeader, SidebarToggle } from "../../components/Layout";
import { useToast } from "../../components/Toasts";
import { ImageAgentIcon } from "../../components/toolIcons";
import { useUser } from "../../hooks/useAuth";
import { useFormat } from "../../hooks/useFormat";
import { useDrawer } from "../../hooks/useDrawer";
import { useLateJobFailure } from "../../hooks/useLateJobFailure";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import "./ImageAI.css";

type Mode = "generate" | "edit";

/** Saves an image under SPEC's file name; cross-origin or blob URLs are fetched first. */
async function download(url: string) {
  const name = `ai-image-${Date.now()}.png`;
  let href = url;
  try {
    const blob = await (await fetch(url, { credentials: "include" })).blob();
    href = URL.createObjectURL(blob);
  } catch {
    // Fall back to the URL itself; the browser may still honour the download name.
  }
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (href !== url) setTimeout(() => URL.revokeObjectURL(href), 1000);
}

export default function ImageAI() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const wide = useMediaQuery("(min-width: 901px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [mode, setMode] = useState<Mode>("generate");
  const [agentId, setAgentId] = useState<ImageAgentId>(DEFAULT_IMAGE_AGENT);
  const [prompt, setPrompt] = useState("");
  const [size, setSize] = useState<string>(imageAgentById(DEFAULT_IMAGE_AGENT).defaultSize);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [strength, setStrength] = useState<number>(IMAGE_EDIT_STRENGTH.screenDefault);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [results, setResults] = useState<GeneratedImage[]>([]);
  const [deleteId, setDeleteId] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);
  const closeSidebar = () => setSidebarOpen(false);
  useDrawer(sidebarRef, sidebarOpen, !wide, closeSidebar);
  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const history = useQuery({ queryKey: ["images", user.id], queryFn: () => imageHistory(user.id) });
  const recent = useMemo(() => (history.data ?? []).slice(0, LIMITS.recentImages), [history.data]);
  const agent = imageAgentById(agentId);
  const sizes = useMemo(
    () =>
      SELECTABLE_IMAGE_SIZES.includes(agent.defaultSize)
        ? SELECTABLE_IMAGE_SIZES
        : [agent.defaultSize, ...SELECTABLE_IMAGE_SIZES],
    [agent.defaultSize],
  );
  const agentName = (id: ImageAgentId) => t(`imageAgents.${id}.name`, { defaultValue: imageAgentById(id).name });

  function chooseAgent(id: ImageAgentId) {
    const next = imageAgentById(id);
    setAgentId(id);
    setSize(next.defaultSize);
    setMode(next.mode);
  }

  function pickFile(picked: File | undefined) {
    setError("");
    if (!picked) return;
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(picked.type)) {
      setError(t("image.invalidFile"));
      return;
    }
    if (picked.size >= LIMITS.imageEditBytes) {
      setError(t("image.fileTooLarge"));
      return;
    }
    setFile(picked);
    setPreview(URL.createObjectURL(picked));
  }

  function reset() {
    setPrompt("");
    setFile(null);
    setPreview(null);
    setStrength(IMAGE_EDIT_STRENGTH.screenDefault);
    setError("");
    if (fileRef.current) fileRef.current.value = "";
  }

  function showFailure(err: unknown) {
    const message = errorMessage(err, t("image.failed"), { needed: priceOf({ feature: "image" }) });
    setError(message);
    toast.error(message, TOAST_MS.imageError);
  }
  // A request still queued or running when its call ended: its failure, if it fails, shows here too.
  const watchLate = useLateJobFailure(showFailure);

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
      watchLate(err);
    } finally {
      setBusy(false);
    }
  }

  async function confirmDelete() {
    const id = deleteId;
    setDeleteId(null);
    if (!id) return;
    try {
      await deleteImage(id);
      void queryClient.invalidateQueries({ queryKey: ["images"] });
    } catch {
      toast.error(t("image.deleteFailed"));
    }
  }

  const canGenerate = !busy && prompt.trim().length > 0 && (mode === "generate" || file !== null);

  return (
    <div className="image-ai">
      <aside
        ref={sidebarRef}
        className={`image-ai__sidebar${wide ? "" : " drawer--modal"}`}
        hidden={!sidebarOpen}
        aria-label={t("image.agents")}
        aria-modal={wide ? undefined : true}
        role={wide ? undefined : "dialog"}
      >
        <DrawerClose onClose={closeSidebar} />
        <div className="segmented" role="radiogroup" aria-label={t("image.mode")}>
          {(["generate", "edit"] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={mode === m}
              className={mode === m ? "segmented__on" : ""}
              onClick={() => setMode(m)}
            >
              {m === "generate" ? t("image.modeGenerate") : t("image.modeEdit")}
            </button>
          ))}
        </div>
        <h2 className="image-ai__heading">{t("image.agents")}</h2>
        <ul className="image-ai__agents">
          {IMAGE_AGENTS.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className={`agent${a.id === agentId ? " agent--on" : ""}`}
                style={{ ["--agent" as string]: a.color }}
                onClick={() => chooseAgent(a.id)}
                aria-pressed={a.id === agentId}
              >
                <span className="agent__icon" aria-hidden="true">
                  <ImageAgentIcon id={a.id} size={20} />
                </span>
                <span>
                  <span className="agent__name">{agentName(a.id)}</span>
                  <span className="agent__description">
                    {t(`imageAgents.${a.id}.description`, { defaultValue: a.description })}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
        <h2 className="image-ai__heading">{t("image.recent")}</h2>
        <ul className="image-ai__recent">
          {recent.map((img) => (
            <li key={img.id}>
              <a href={img.url} target="_blank" rel="noreferrer" aria-label={t("image.openImage", { prompt: img.prompt ?? "" })}>
                <img src={img.url} alt="" loading="lazy" />
              </a>
              <button
                type="button"
                className="image-ai__delete"
                aria-label={t("image.deleteImage")}
                onClick={() => setDeleteId(img.id)}
              >
                ×
              </button>
            </li>
          ))}
          {recent.length === 0 && <li className="image-ai__none">{t("image.noRecent")}</li>}
        </ul>
        <div className="image-ai__user">
          <span className="avatar avatar--small" aria-hidden="true">
            {initialOf(user.phone)}
          </span>
          <span dir="ltr">{user.phone}</span>
        </div>
      </aside>
      {sidebarOpen && !wide && <DrawerOverlay onClose={closeSidebar} />}
      <div className="image-ai__main">
        <PageHeader
          title={t("image.title")}
          start={
            <>
              <SidebarToggle open={sidebarOpen} onToggle={() => setSidebarOpen((o) => !o)} label={t("image.toggleSidebar")} />
              <BackButton />
            </>
          }
        />
        <main id="main" className="image-ai__content">
          <form
            className="card image-ai__form"
            onSubmit={(e) => {
              e.preventDefault();
              void generate();
            }}
            noValidate
          >
            <div className="image-ai__agent-line">
              <ImageAgentIcon id={agent.id} size={18} className="page-header__icon" /> <strong>{agentName(agentId)}</strong>
              <span className="field-hint">{t("image.cost", { coins: format.number(priceOf({ feature: "image" })) })}</span>
            </div>
            <div className="field">
              <label htmlFor="image-prompt">{t("image.prompt")}</label>
              <textarea
                id="image-prompt"
                className="textarea"
                value={prompt}
                onChange={(e) => setPrompt(e.target.value)}
                placeholder={mode === "edit" ? t("image.editPromptPlaceholder") : t("image.promptPlaceholder")}
                maxLength={LIMITS.promptChars}
              />
            </div>
            {mode === "edit" && (
              <div className="image-ai__edit">
                <div className="field">
                  <label htmlFor="image-file">{t("image.upload")}</label>
                  <input
                    id="image-file"
                    ref={fileRef}
                    type="file"
                    accept={IMAGE_MIME_TYPES.join(",")}
                    className="input"
                    onChange={(e) => pickFile(e.target.files?.[0])}
                  />
                  <span className="field-hint">{t("image.uploadHint")}</span>
                </div>
                {preview && <img className="image-ai__preview" src={preview} alt={t("image.previewAlt")} />}
                <div className="field">
                  <label htmlFor="image-strength">{t("image.strength", { value: format.decimal(strength, 1) })}</label>
                  <input
                    id="image-strength"
                    type="range"
                    min={IMAGE_EDIT_STRENGTH.min}
                    max={IMAGE_EDIT_STRENGTH.max}
                    step={IMAGE_EDIT_STRENGTH.step}
                    value={strength}
                    onChange={(e) => setStrength(Number(e.target.value))}
                  />
                </div>
              </div>
            )}
            <div className="field">
              <label htmlFor="image-size">{t("image.size")}</label>
              <select id="image-size" className="select" value={size} onChange={(e) => setSize(e.target.value)}>
                {sizes.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            {error && (
              <div className="alert alert--error" role="alert">
                {error}
              </div>
            )}
            <div className="image-ai__actions">
              <button type="submit" className="btn btn--primary" disabled={!canGenerate}>
                {busy ? t("image.generating") : mode === "edit" ? t("image.edit") : t("image.generate")}
              </button>
              <button type="button" className="btn btn--secondary" onClick={reset}>
                {t("image.reset")}
              </button>
            </div>
          </form>
          <section className="image-ai__results" aria-labelledby="results-title">
            <h2 id="results-title">{t("image.results")}</h2>
            {results.length === 0 ? (
              <p className="empty-state">{t("image.noResults")}</p>
            ) : (
              <ul className="image-ai__grid">
                {results.map((img) => (
                  <li key={img.id} className="card image-ai__result">
                    <img src={img.url} alt={t("image.resultAlt", { prompt: img.prompt })} />
                    <p className="image-ai__result-prompt">{img.prompt}</p>
                    <div className="image-ai__actions">
                      <a className="btn btn--secondary btn--small" href={img.url} target="_blank" rel="noreferrer">
                        {t("image.view")}
                      </a>
                      <button type="button" className="btn btn--primary btn--small" onClick={() => void download(img.url)}>
                        {t("image.download")}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </main>
      </div>
      <ConfirmDialog
        open={deleteId !== null}
        danger
        title={t("image.deleteTitle")}
        message={t("image.deleteMessage")}
        confirmLabel={t("common.delete")}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteId(null)}
      />
    </div>
  );
}
