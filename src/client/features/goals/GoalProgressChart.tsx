import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Box, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { GoalView } from '../../../shared/schemas/goals';
import { goalTexts } from '../../../shared/texts';
import { chartRows, chartSeries, latestCheckIns, type ChartRow, type ChartSeries } from './goalChartData';
import { formatNumber, formatStamp } from './goalFormat';
import { goalHistoryOptions } from './goalsCache';

const chartHeight = 200;
// Beyond this many points the dots only crowd the line.
const maxPointsWithDots = 40;
// Screen readers get the latest check-ins as a table (the whole history of a long-lived goal
// would put thousands of rows on the page).
const tableRows = 10;

// A goal's progress over time, drawn from its check-ins (one line per key result, in percent).
// The chart's styles load with this file, so only /goals pays for them. A goal from the list holds
// only each key result's latest check-in: the whole history is read when the chart first comes
// into view, and nothing is drawn or computed for the cards off screen.
export function GoalProgressChart(props: { goal: GoalView }) {
  const { goal } = props;
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  if (inViewport && !seen) setSeen(true);
  if (!goal.keyResults.some((kr) => kr.checkIns.length > 0)) {
    return (
      <Text size="sm" c="dimmed">
        {goalTexts.noCheckIns}
      </Text>
    );
  }
  return (
    <Box ref={ref} mih={chartHeight}>
      {seen && <GoalHistory goal={goal} />}
    </Box>
  );
}

function GoalHistory(props: { goal: GoalView }) {
  const history = useQuery({ ...goalHistoryOptions(props.goal.id), placeholderData: props.goal.history === 'full' ? props.goal : undefined });
  const goal = history.data ?? props.goal;
  const rows = useMemo(() => chartRows(goal), [goal]);
  const series = useMemo(() => chartSeries(goal), [goal]);
  const latest = useMemo(() => latestCheckIns(goal, tableRows), [goal]);
  if (!history.data) return <Skeleton h={chartHeight} aria-label={goalTexts.historyOf(goal.title)} />;

  return (
    <figure aria-label={goalTexts.historyOf(goal.title)} style={{ margin: 0 }}>
      <ChartOnceSeen rows={rows} series={series} />
      <VisuallyHidden>
        <Table>
          <caption>{goalTexts.historyOf(goal.title)}</caption>
          <thead>
            <tr>
              <th>{goalTexts.historyWhen}</th>
              <th>{goalTexts.keyResultTitle}</th>
              <th>{goalTexts.historyValue}</th>
              <th>{goalTexts.progress}</th>
            </tr>
          </thead>
          <tbody>
            {latest.map((c) => (
              <tr key={c.key}>
                <td>{formatStamp(c.time)}</td>
                <td>{c.keyResult}</td>
                <td>{formatNumber(c.value)}</td>
                <td>{goalTexts.percent(c.percent)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </figure>
  );
}

/**
 * The chart itself, drawn when its place first scrolls into view: a page of many goals draws
 * only the few on screen at first (an SVG chart costs far more than the rest of a card).
 */
function ChartOnceSeen(props: { rows: ChartRow[]; series: ChartSeries[] }) {
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  if (inViewport && !seen) setSeen(true);
  return (
    <Box ref={ref} mih={chartHeight} aria-hidden>
      {seen && (
        <LineChart
          h={chartHeight}
          data={props.rows}
          dataKey="label"
          series={props.series}
          curveType="linear"
          connectNulls
          unit="%"
          withDots={props.rows.length <= maxPointsWithDots}
          withLegend={props.series.length > 1}
          yAxisProps={{ domain: [0, 100], width: 44 }}
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
          tooltipAnimationDuration={150}
        />
      )}
    </Box>
  );
}
