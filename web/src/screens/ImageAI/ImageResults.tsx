/** This visit's results, newest first, each with View and Download (saved as ai-image-{timestamp}.png). */
import { useTranslation } from "react-i18next";
import type { GeneratedImage } from "../../api/images";

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

export function ImageResults({ results }: { results: GeneratedImage[] }) {
  const { t } = useTranslation();
  return (
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
  );
}
