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
import { chartLayout, LINE_HEIGHT, MARGIN, valueOf, type ChartLayout } from "./chartLayout";
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

export function Chart(props: ChartProps) {
  const { kind, data, category, series, label, legend = false } = props;
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

  const layout = chartLayout(props, width, rtl, format);
  const { plotLeft, plotHeight, band, bandStart } = layout;
  const onPointer = (event: PointerEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left - plotLeft;
    const index = Math.floor(x / band);
    setActive(band > 0 && index >= 0 && index < data.length ? (rtl ? data.length - 1 - index : index) : null);
  };
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
            height={layout.svgHeight}
            className="chart__svg"
            onPointerMove={onPointer}
            // A tap on a phone sends no move: it shows the tapped category, and the tooltip stays.
            onPointerDown={onPointer}
            onPointerLeave={(event) => event.pointerType !== "touch" && setActive(null)}
            aria-hidden="true"
          >
            <ValueAxis layout={layout} rtl={rtl} format={format} />
            {shown !== null && (
              <rect x={bandStart(shown)} y={MARGIN.top} width={band} height={plotHeight} className="chart__hover" />
            )}
            {kind === "bar" ? <Bars {...props} layout={layout} rtl={rtl} /> : <Lines {...props} layout={layout} />}
            <CategoryLabels data={data} layout={layout} />
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

/** The grid lines at round values, each with its number on the value axis' side. */
function ValueAxis({ layout, rtl, format }: { layout: ChartLayout; rtl: boolean; format(value: number): string }) {
  const { ticks, plotLeft, plotWidth, y } = layout;
  return ticks.map((tick) => (
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
  ));
}

function Bars({ data, series, layout, rtl }: ChartProps & { layout: ChartLayout; rtl: boolean }) {
  const { band, barGroup, barWidth, bandStart, y } = layout;
  return data.map((d, i) =>
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
  );
}

function Lines({ data, series, layout }: ChartProps & { layout: ChartLayout }) {
  const { band, bandStart, y } = layout;
  return series.map((s) => (
    <polyline
      key={s.key}
      points={data.map((d, i) => `${bandStart(i) + band / 2},${y(valueOf(d, s.key))}`).join(" ")}
      fill="none"
      stroke={s.color}
      strokeWidth={2}
      strokeLinejoin="round"
    />
  ));
}

/** The categories' names under the plot (every one, or every n-th where they would overlap). */
function CategoryLabels({ data, layout }: { data: ChartProps["data"]; layout: ChartLayout }) {
  const { band, bandStart, plotHeight, labelLines, labelEvery } = layout;
  return data.map((_, i) =>
    i % labelEvery === 0 ? (
      <text key={i} x={bandStart(i) + band / 2} y={MARGIN.top + plotHeight + 16} textAnchor="middle" className="chart__label">
        {labelLines[i]!.map((line, k) => (
          <tspan key={k} x={bandStart(i) + band / 2} dy={k === 0 ? 0 : LINE_HEIGHT}>
            {line}
          </tspan>
        ))}
      </text>
    ) : null,
  );
}
