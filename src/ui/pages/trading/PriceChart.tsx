import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dexCopy } from '../../../copy/dex.ts';
import { chartTimeRange, priceText, type ChartSeries } from '../../../machines/trading/market-figures.ts';
import { useChildSelector } from '../../portal-context.tsx';
import { theme } from '../../theme.ts';

type Props = {
  points: ChartSeries['points'];
  /** The chart's accessible name; `describedBy` names the element with its text alternative (the last price). */
  label: string;
  describedBy: string;
};

const HEIGHT = 240;
const AXIS_ID = 'chart-time-axis';

/** The time axis's two ends as drawn, in seconds. */
type Span = { from: number; to: number };

/**
 * The pool's mid price over time, drawn on canvas by uPlot (a chunk of its own, loaded with the
 * market card; uPlot rather than a trading-chart library because the tab's code must stay within
 * 70 kB). uPlot reads colours only when a plot is made, so a theme change makes a new one. The time
 * axis spans the points, at least CHART_MIN_WINDOW_S up to the last one (`chartTimeRange`); its two
 * ends, as the plot drew them, are also in the chart's description, for whoever cannot see the canvas.
 */
export default function PriceChart({ points, label, describedBy }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(points);
  const [span, setSpan] = useState<Span | null>(null);
  const mode = useChildSelector('theme', (snapshot) => (snapshot.matches('dark') ? 'dark' : 'light'));

  // Before the effect that makes the plot, so a plot made for a theme change draws the latest points.
  useEffect(() => {
    latest.current = points;
    plot.current?.setData(plotData(points));
  }, [points]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const color = (name: string) => getComputedStyle(element).getPropertyValue(`--color-${name}`).trim();
    const axis = {
      stroke: color('textMuted'),
      grid: { stroke: color('border') },
      ticks: { stroke: color('border') },
    };
    const instance = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // From the points themselves: uPlot hands a lone point's range function a guess of years.
        scales: { x: { time: true, range: (self) => chartTimeRange(self.data[0]) } },
        axes: [axis, { ...axis, size: 90, values: (_, ticks) => ticks.map(priceText) }],
        series: [{}, { stroke: color('accent'), width: 2 }],
        hooks: {
          setScale: [
            (self, key) => {
              const { min, max } = self.scales[key] ?? {};
              if (key !== 'x' || min === undefined || max === undefined) return;
              setSpan((shown) => (shown?.from === min && shown.to === max ? shown : { from: min, to: max }));
            },
          ],
        },
      },
      plotData(latest.current),
      element,
    );
    plot.current = instance;
    const resize = new ResizeObserver(() => instance.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.current = null;
      instance.destroy();
    };
  }, [mode]);

  return (
    <>
      <Box ref={box} role="img" aria-label={label} aria-describedby={`${describedBy} ${AXIS_ID}`} />
      <p id={AXIS_ID} hidden>
        {span ? <TimeAxis span={span} /> : null}
      </p>
    </>
  );
}

const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/** 'Time axis: from Jan 17, 2026, 5:40 PM to 5:50 PM', the date said again only when it changes. */
function TimeAxis({ span }: { span: Span }) {
  const from = new Date(span.from * 1000);
  const to = new Date(span.to * 1000);
  return (
    <>
      {dexCopy.timeAxis.from} <time dateTime={from.toISOString()}>{dateAndTime.format(from)}</time>{' '}
      {dexCopy.timeAxis.to}{' '}
      <time dateTime={to.toISOString()}>{(sameDay(from, to) ? timeOnly : dateAndTime).format(to)}</time>
    </>
  );
}

/** The points as uPlot's columns: seconds, one per second (the last of several in it), ascending. */
function plotData(points: ChartSeries['points']): uPlot.AlignedData {
  const times: number[] = [];
  const prices: number[] = [];
  for (const point of points) {
    const time = Math.floor(point.time / 1000);
    if (times.length > 0 && (times.at(-1) ?? 0) >= time) prices[prices.length - 1] = point.price;
    else {
      times.push(time);
      prices.push(point.price);
    }
  }
  return [times, prices];
}

const Box = styled.div`
  min-height: ${HEIGHT}px;
  margin-bottom: ${theme.space(2)};
`;
