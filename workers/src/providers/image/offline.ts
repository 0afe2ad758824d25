/**
 * The built-in offline image provider (DESIGN §5): deterministic, no network. Generate draws a
 * picture whose colours and shapes come from a hash of the prompt, with the prompt written on
 * it; edit really transforms the upload (hue, saturation, effects named in the prompt), blended
 * with the original by strength.
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import { blend, parseSize, rawRgba, type Dimensions } from "./pixels";
import type { ImageEditRequest, ImageGenerateRequest, ImageProvider } from "./types";

function hashBytes(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

/** Greedy word wrap to at most `maxLines` lines of `perLine` characters (ellipsis when cut). */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const words = text.replace(/\s+/gu, " ").trim().split(" ").filter(Boolean);
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    const piece = word.length > perLine ? `${word.slice(0, perLine - 1)}…` : word;
    if (current && `${current} ${piece}`.length > perLine) {
      lines.push(current);
      current = piece;
    } else {
      current = current ? `${current} ${piece}` : piece;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, perLine - 1)}…`;
    return kept;
  }
  return lines;
}

/** The SVG the offline generator renders: a prompt-seeded gradient, shapes and the prompt text. */
function promptSvg(prompt: string, { width, height }: Dimensions): string {
  const h = hashBytes(prompt);
  const hue1 = (h[0]! * 360) / 256;
  const hue2 = (hue1 + 60 + (h[1]! * 180) / 256) % 360;
  const angle = (h[2]! * 360) / 256;
  const shapes: string[] = [];
  for (let i = 0; i < 7; i++) {
    const cx = (h[3 + i * 4]! / 255) * width;
    const cy = (h[4 + i * 4]! / 255) * height;
    const r = (0.05 + (h[5 + i * 4]! / 255) * 0.25) * Math.min(width, height);
    const hue = (hue1 + (h[6 + i * 4]! * 360) / 256) % 360;
    shapes.push(
      i % 2 === 0
        ? `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="hsl(${hue.toFixed(0)},70%,60%)" fill-opacity="0.45"/>`
        : `<rect x="${(cx - r).toFixed(1)}" y="${(cy - r).toFixed(1)}" width="${(2 * r).toFixed(1)}" height="${(2 * r).toFixed(1)}" rx="${(r / 4).toFixed(1)}" transform="rotate(${h[7 + i * 4]! % 90} ${cx.toFixed(1)} ${cy.toFixed(1)})" fill="hsl(${hue.toFixed(0)},65%,50%)" fill-opacity="0.35"/>`,
    );
  }
  const fontSize = Math.round(Math.min(width, height) / 16);
  const perLine = Math.max(8, Math.floor((width * 0.84) / (fontSize * 0.55)));
  const lines = wrapText(prompt, perLine, 8);
  const lineHeight = Math.round(fontSize * 1.3);
  const boxHeight = lines.length * lineHeight + fontSize;
  const boxY = Math.round(height - boxHeight - height * 0.06);
  const text = lines
    .map(
      (line, i) =>
        `<text x="${width / 2}" y="${boxY + fontSize * 0.5 + (i + 1) * lineHeight - lineHeight * 0.25}" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="bg" gradientTransform="rotate(${angle.toFixed(0)} 0.5 0.5)">
<stop offset="0" stop-color="hsl(${hue1.toFixed(0)},70%,45%)"/><stop offset="1" stop-color="hsl(${hue2.toFixed(0)},70%,30%)"/>
</linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/>${shapes.join("")}
<rect x="${width * 0.05}" y="${boxY}" width="${width * 0.9}" height="${boxHeight}" rx="${fontSize / 2}" fill="#000" fill-opacity="0.45"/>
<g font-family="DejaVu Sans, Noto Sans, Noto Sans Arabic, sans-serif" font-size="${fontSize}" fill="#fff">${text}</g>
</svg>`;
}

/** Effects the offline editor recognises in a prompt; anything else is a prompt-seeded recolour. */
async function editedVersion(image: Buffer, prompt: string, size: Dimensions): Promise<Buffer> {
  const raw = await rawRgba(image, size, "the uploaded image");
  const h = hashBytes(prompt);
  const lower = prompt.toLowerCase();
  let pipeline = sharp(raw, { raw: { width: size.width, height: size.height, channels: 4 } });
  if (/\b(gr[ae]y|black and white|monochrome|b&w)\b/u.test(lower)) pipeline = pipeline.greyscale();
  else pipeline = pipeline.modulate({ hue: Math.round((h[0]! * 360) / 256), saturation: 1.4, brightness: 1.05 });
  if (/\b(blur|soft|dream)/u.test(lower)) pipeline = pipeline.blur(Math.max(1, Math.min(size.width, size.height) / 200));
  if (/\b(sharp|enhanc|detail|clear)/u.test(lower)) pipeline = pipeline.sharpen({ sigma: 2 });
  if (/\b(bright|light)/u.test(lower)) pipeline = pipeline.linear(1.2, 10);
  if (/\b(dark|night)/u.test(lower)) pipeline = pipeline.linear(0.6, 0);
  if (/\b(invert|negative)\b/u.test(lower)) pipeline = pipeline.negate({ alpha: false });
  if (/\b(sepia|vintage|old)\b/u.test(lower)) pipeline = pipeline.greyscale().tint({ r: 112, g: 66, b: 20 });
  return pipeline.png().toBuffer();
}

export function offlineImageProvider(): ImageProvider {
  return {
    name: "offline",
    async generate(req: ImageGenerateRequest) {
      const size = parseSize(req.size);
      return sharp(Buffer.from(promptSvg(req.prompt, size)))
        .resize(size.width, size.height, { fit: "fill" })
        .png()
        .toBuffer();
    },
    async edit(req: ImageEditRequest) {
      const size = parseSize(req.size);
      const edited = await editedVersion(req.image, req.prompt, size);
      return blend(req.image, edited, req.strength, size);
    },
  };
}
