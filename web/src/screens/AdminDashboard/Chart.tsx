/**
 * The back office's bar and line charts, drawn as SVG: categories along the bottom (right to left in
 * Arabic, with the value axis on the right), a dashed grid at round values, a legend when asked, and
 * the hovered category's values in a tooltip; direction and numbers follow the page's language. Every
 * chart here counts things (coins, jobs), so the value axis steps by whole numbers. The numbers
 * themselves are in the section's table beside each chart; the chart is one image named `label` for
 * screen readers.
 */
import { useLayoutEffect, useRef, useState, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "./ui";

export interface ChartSeries {
  /** The field of each datum that holds this series' value. */
  key: string;
  name: string;
  color: string;
}

export interface ChartProps {
  kind: "bar" | "line";
  data: readonly Record<string, string | number>[];
  /** The field of each datum that names its category (the label under it). */
  category: string;
  series: readonly ChartSeries[];
  height: number;
  /** What the chart shows, for screen readers. */
  label: string;
  legend?: boolean;
  /**
   * Every category is a name to read (features), not a point on a scale (days): each bar keeps its
   * label, wrapped onto more lines where it is wider than its bar, instead of every second one.
   */
  nameEvery?: boolean;
}

const MARGIN = { top: 10, end: 12, bottom: 26 };
const MAX_BAR = 56;
/** About how wide a character of a 12 px label is, and the room kept between two labels. */
const CHAR_WIDTH = 7;
const LABEL_GAP = 12;
const LINE_HEIGHT = 14;

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

function valueOf(datum: Record<string, string | number>, key: string): number {
  const value = Number(datum[key]);
  return Number.isFinite(value) ? value : 0;
}

export function Chart({ kind, data, category, series, height, label, legend = false, nameEvery = false }: ChartProps) {
  const { i18n } = useTranslation();
  const rtl = i18n.dir() === "rtl";
  /** Numbers as the sections show them (Western digits in both languages). */
  const format = (value: number) => formatNumber(value, i18n.language);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState<number | null>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

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
  const svgHeight = height + extraLines * LINE_HEIGHT;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  /** Where category i's band starts: from the left in English, from the right in Arabic. */
  const bandStart = (i: number) => (rtl ? plotLeft + plotWidth - (i + 1) * band : plotLeft + i * band);
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  // Every label when they all fit side by side; otherwise every second, third… so none overlaps.
  const longest = Math.max(1, ...data.map((d) => String(d[category]).length));
  const labelsThatFit = Math.max(1, Math.floor(plotWidth / (longest * CHAR_WIDTH + LABEL_GAP)));
  const labelEvery = nameEvery ? 1 : Math.max(1, Math.ceil(data.length / labelsThatFit));

  const onPointer = (event: PointerEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left - plotLeft;
    const index = Math.floor(x / band);
    setActive(band > 0 && index >= 0 && index < data.length ? (rtl ? data.length - 1 - index : index) : null);
  };

  /** Bars fill 80% of their category, but no bar is wider than MAX_BAR (one category alone). */
  const barGroup = Math.min(band * 0.8, MAX_BAR * series.length);
  const barWidth = series.length ? barGroup / series.length : 0;
  // The data may have shrunk under a resting pointer.
  const shown = active !== null && active < data.length ? active : null;
  const hovered = shown === null ? undefined : data[shown];
  const hoveredCenter = shown === null ? 0 : bandStart(shown) + band / 2;

  return (
    <div className="admin-chart" role="img" aria-label={label}>
      <div className="chart" ref={box}>
        {width > 0 && (
          <svg
            width={width}
            height={svgHeight}
            className="chart__svg"
            onPointerMove={onPointer}
            // A tap on a phone sends no move: it shows the tapped category, and the tooltip stays.
            onPointerDown={onPointer}
            onPointerLeave={(event) => event.pointerType !== "touch" && setActive(null)}
            aria-hidden="true"
          >
            {ticks.map((tick) => (
              <g key={tick}>
                <line
                  x1={plotLeft}
                  x2={plotLeft + plotWidth}
                  y1={y(tick)}
                  y2={y(tick)}
                  className={tick === 0 ? "chart__axis" : "chart__grid"}
                />
                <text
                  x={rtl ? plotLeft + plotWidth + 6 : plotLeft - 6}
                  y={y(tick)}
                  dy="0.32em"
                  textAnchor={rtl ? "start" : "end"}
                  className="chart__label"
                >
                  {format(tick)}
                </text>
              </g>
            ))}
            {shown !== null && (
              <rect x={bandStart(shown)} y={MARGIN.top} width={band} height={plotHeight} className="chart__hover" />
            )}
            {kind === "bar"
              ? data.map((d, i) =>
                  series.map((s, j) => {
                    const value = valueOf(d, s.key);
                    const offset = rtl ? series.length - 1 - j : j;
                    return (
                      <rect
                        key={`${i}-${s.key}`}
                        x={bandStart(i) + (band - barGroup) / 2 + offset * barWidth}
                        y={y(value)}
                        width={Math.max(1, barWidth - 1)}
                        height={Math.max(0, y(0) - y(value))}
                        fill={s.color}
                      />
                    );
                  }),
                )
              : series.map((s) => (
                  <polyline
                    key={s.key}
                    points={data.map((d, i) => `${bandStart(i) + band / 2},${y(valueOf(d, s.key))}`).join(" ")}
                    fill="none"
                    stroke={s.color}
                    strokeWidth={2}
                    strokeLinejoin="round"
                  />
                ))}
            {data.map((d, i) =>
              i % labelEvery === 0 ? (
                <text
                  key={i}
                  x={bandStart(i) + band / 2}
                  y={MARGIN.top + plotHeight + 16}
                  textAnchor="middle"
                  className="chart__label"
                >
                  {labelLines[i]!.map((line, k) => (
                    <tspan key={k} x={bandStart(i) + band / 2} dy={k === 0 ? 0 : LINE_HEIGHT}>
                      {line}
                    </tspan>
                  ))}
                </text>
              ) : null,
            )}
          </svg>
        )}
        {hovered && (
          <div
            className="chart__tooltip"
            // Beside the hovered category, on the side with more room, so a long text stays inside.
            style={hoveredCenter < width / 2 ? { left: `${hoveredCenter + 8}px` } : { right: `${width - hoveredCenter + 8}px` }}
            dir={rtl ? "rtl" : "ltr"}
          >
            <strong>{String(hovered[category])}</strong>
            {series.map((s) => (
              <span key={s.key}>
                <i style={{ background: s.color }} />
                {s.name}: {format(valueOf(hovered, s.key))}
              </span>
            ))}
          </div>
        )}
        {legend && (
          <ul className="chart__legend" dir={rtl ? "rtl" : "ltr"}>
            {series.map((s) => (
              <li key={s.key}>
                <i style={{ background: s.color }} />
                {s.name}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
