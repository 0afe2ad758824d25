/**
 * Renders the public pages (home, login, signup, admin login) to HTML at build time, once per
 * language, with React's server rendering of the same components the browser then hydrates
 * (src/entry-server.tsx, src/main.tsx). Each page carries its language and direction, the CSS of
 * its first screen inline (the stylesheet links go: nothing blocks the first paint but the HTML) and
 * the manifest of its language. The API sends the page of the language the `language` cookie
 * names (api/src/middleware/web-app.ts). Also writes the two web app manifests.
 * docs/performance.md ("First paint on slow 4G") has the figures.
 */
import { readFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createServer, type Plugin, type PluginOption, type ResolvedConfig } from "vite";
import { closure, readManifest, type Manifest } from "../scripts/lib/manifest";
import { LANGUAGES, type Language } from "../shared/src/constants/languages";
import { PRERENDERED_PAGES, prerenderedFile, webManifestFile } from "../shared/src/web-assets";

interface EntryServer {
  render(url: string, language: Language): Promise<string>;
}

const THEME_COLOR = "#4f46e5";
const BACKGROUND_COLOR = "#f8fafc";

/** The CSS files a page's first screen needs: the entry's and its screen chunk's, in load order. */
function cssOf(manifest: Manifest, screenKey: string | undefined): string[] {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const keys = [entry, ...(screenKey ? [screenKey] : [])];
  const files: string[] = [];
  for (const key of keys) {
    const chunks = [...closure(manifest, key)];
    for (const chunk of Object.values(manifest).filter((c) => chunks.includes(c.file))) {
      for (const css of (chunk as { css?: string[] }).css ?? []) if (!files.includes(css)) files.push(css);
    }
  }
  return files;
}

/** The page the service worker shows for a page asked for with no network: both languages, each in its direction. */
export const OFFLINE_PAGE = "offline.html";

async function offlinePage(catalogDir: string): Promise<string> {
  const sections: string[] = [];
  for (const language of LANGUAGES) {
    const { pwa } = JSON.parse(await readFile(path.join(catalogDir, `${language}.json`), "utf8")) as {
      pwa: { offlineTitle: string; offlineText: string; retry: string };
    };
    sections.push(
      `<section lang="${language}" dir="${language === "ar" ? "rtl" : "ltr"}"><h1>${escapeAttribute(pwa.offlineTitle)}</h1>` +
        `<p>${escapeAttribute(pwa.offlineText)}</p><a href="">${escapeAttribute(pwa.retry)}</a></section>`,
    );
  }
  return [
    "<!doctype html>",
    '<html lang="en" dir="ltr">',
    '<head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />',
    `<meta name="theme-color" content="${THEME_COLOR}" /><title>Offline · غير متصل</title>`,
    '<link rel="stylesheet" href="/offline.css" /></head>',
    `<body>${sections.join("")}</body>`,
    "</html>",
  ].join("\n");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/gu, "&amp;").replace(/"/gu, "&quot;").replace(/</gu, "&lt;");
}

/** The page's HTML from the build's index.html: language, direction, title, CSS inline, markup in #root. */
function pageHtml(template: string, language: Language, title: string, css: string, markup: string): string {
  const dir = language === "ar" ? "rtl" : "ltr";
  const withoutLinks = template.replace(/\s*<link rel="stylesheet"[^>]*>/gu, "");
  if (withoutLinks === template && css) throw new Error("index.html has no stylesheet link to inline");
  return withoutLinks
    .replace(/<html lang="[^"]*" dir="[^"]*">/u, `<html lang="${language}" dir="${dir}">`)
    .replace(/<title>[^<]*<\/title>/u, `<title>${escapeAttribute(title)}</title>`)
    .replace(/href="\/manifest\.[a-z]+\.webmanifest"/u, `href="/${webManifestFile(language)}"`)
    .replace("</head>", `    <style>${css}</style>\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root" data-prerendered="${language}">${markup}</div>`);
}

export function prerender(catalogDir: string, plugins: PluginOption[]): Plugin {
  let config: ResolvedConfig;
  return {
    name: "storefront-prerender",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle() {
      // The two manifests: names, direction and language of each; the page links its own.
      for (const language of LANGUAGES) {
        const catalog = JSON.parse(await readFile(path.join(catalogDir, `${language}.json`), "utf8")) as {
          app: { name: string };
          pwa: { shortName: string; description: string };
        };
        const manifest = {
          id: "/",
          name: catalog.app.name,
          short_name: catalog.pwa.shortName,
          description: catalog.pwa.description,
          lang: language,
          dir: language === "ar" ? "rtl" : "ltr",
          start_url: "/",
          scope: "/",
          display: "standalone",
          theme_color: THEME_COLOR,
          background_color: BACKGROUND_COLOR,
          icons: [
            { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
            { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
            { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
            { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
          ],
        };
        this.emitFile({ type: "asset", fileName: webManifestFile(language), source: JSON.stringify(manifest, null, 2) });
      }
      this.emitFile({ type: "asset", fileName: OFFLINE_PAGE, source: await offlinePage(catalogDir) });
    },
    // Before the service worker's precache list is made and before the files are compressed
    // (vite-plugin-pwa's and precompress's closeBundle run after this one).
    closeBundle: {
      sequential: true,
      order: "pre",
      async handler() {
        if (config.build.ssr) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const manifest = readManifest(outDir);
        const template = await readFile(path.join(outDir, "index.html"), "utf8");
        const server = await createServer({
          configFile: false,
          root: config.root,
          mode: "production",
          logLevel: "warn",
          plugins,
          resolve: { alias: config.resolve.alias },
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          appType: "custom",
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const entry = (await server.ssrLoadModule("/src/entry-server.tsx")) as EntryServer;
          for (const language of LANGUAGES) {
            const catalog = JSON.parse(await readFile(path.join(catalogDir, `${language}.json`), "utf8")) as {
              app: { name: string };
            };
            for (const page of PRERENDERED_PAGES) {
              const markup = await entry.render(page, language);
              const screen = Object.keys(manifest).find((k) => k.endsWith(`screens/${screenOf(page)}/${screenOf(page)}.tsx`));
              const css = (
                await Promise.all(cssOf(manifest, screen).map((file) => readFile(path.join(outDir, file), "utf8")))
              ).join("\n");
              const file = path.join(outDir, prerenderedFile(language, page));
              await mkdir(path.dirname(file), { recursive: true });
              await writeFile(file, pageHtml(template, language, catalog.app.name, css, markup));
            }
          }
        } finally {
          await server.close();
        }
      },
    },
  };
}

/** The screen folder of a public page's path ("/" is Home, "/admin-login" is AdminLogin). */
function screenOf(page: string): string {
  if (page === "/") return "Home";
  return page
    .slice(1)
    .split("-")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}
