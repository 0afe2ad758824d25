/** Where everything of a chart goes: a pure function of its data, its width and the page's direction. */
import type { ChartProps } from "./Chart";

export const MARGIN = { top: 10, end: 12, bottom: 26 };
const MAX_BAR = 56;
/** About how wide a character of a 12 px label is, and the room kept between two labels. */
const CHAR_WIDTH = 7;
const LABEL_GAP = 12;
export const LINE_HEIGHT = 14;

/** Words of `text` on lines of at most `fit` characters (a longer word keeps its own line). */
function wrapLabel(text: string, fit: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/u).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= fit) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [text];
}

/** A whole round step (1, 2 or 5 times a power of ten) that divides 0..max into about four parts. */
function niceStep(max: number): number {
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  return Math.max(1, Math.round(step));
}

export function valueOf(datum: Record<string, string | number>, key: string): number {
  const value = Number(datum[key]);
  return Number.isFinite(value) ? value : 0;
}

export type ChartLayout = ReturnType<typeof chartLayout>;

export function chartLayout(
  {
    data,
    category,
    series,
    height,
    nameEvery = false,
  }: Pick<ChartProps, "data" | "category" | "series" | "height" | "nameEvery">,
  width: number,
  rtl: boolean,
  format: (value: number) => string,
) {
  const max = Math.max(0, ...data.flatMap((d) => series.map((s) => valueOf(d, s.key))));
  const step = niceStep(max || 1);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);

  // The value axis is as wide as its longest label ("1,500,000" needs more room than "10").
  const axis = Math.max(30, ...ticks.map((tick) => format(tick).length * CHAR_WIDTH + 10));
  const plotLeft = rtl ? MARGIN.end : axis;
  const plotWidth = Math.max(0, width - axis - MARGIN.end);
  const band = data.length ? plotWidth / data.length : 0;
  const labelLines = data.map((d) =>
    nameEvery ? wrapLabel(String(d[category]), Math.max(1, Math.floor((band - 4) / CHAR_WIDTH))) : [String(d[category])],
  );
  // Wrapped labels take more room under the plot; the plot keeps its height.
  const extraLines = Math.max(0, ...labelLines.map((lines) => lines.length - 1));
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  // Every label when they all fit side by side; otherwise every second, third… so none overlaps.
  const longest = Math.max(1, ...data.map((d) => String(d[category]).length));
  const labelsThatFit = Math.max(1, Math.floor(plotWidth / (longest * CHAR_WIDTH + LABEL_GAP)));
  /** Bars fill 80% of their category, but no bar is wider than MAX_BAR (one category alone). */
  const barGroup = Math.min(band * 0.8, MAX_BAR * series.length);
  return {
    ticks,
    plotLeft,
    plotWidth,
    plotHeight,
    band,
    labelLines,
    svgHeight: height + extraLines * LINE_HEIGHT,
    labelEvery: nameEvery ? 1 : Math.max(1, Math.ceil(data.length / labelsThatFit)),
    barGroup,
    barWidth: series.length ? barGroup / series.length : 0,
    /** Where category i's band starts: from the left in English, from the right in Arabic. */
    bandStart: (i: number) => (rtl ? plotLeft + plotWidth - (i + 1) * band : plotLeft + i * band),
    y: (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight,
  };
}
