import { readFileSync, writeFileSync } from "node:fs";

/** Replaces the lines between `<!-- name -->` and `<!-- /name -->` in a document (figures a script records). */
export function writeDocSection(doc: string, name: string, lines: string[]): void {
  const current = readFileSync(doc, "utf8");
  const pattern = new RegExp(`(<!-- ${name} -->\\n)(?:[\\s\\S]*?\\n)?(<!-- /${name} -->)`, "u");
  if (!pattern.test(current)) throw new Error(`${doc} has no <!-- ${name} --> section`);
  writeFileSync(
    doc,
    current.replace(pattern, (_all, open: string, close: string) => `${open}${lines.join("\n")}\n${close}`),
  );
}
