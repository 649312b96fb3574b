import { useMemo } from 'react';

import { stateOfPath, type Draft } from './draft';
import {
	boxHeight,
	layoutGraph,
	scenarioGraph,
	validateScenario,
	type Layout,
	type ScenarioGraph,
	type ScenarioIssue,
} from './runtime-bridge';
import { reachWarnings } from './reach';
import { VARIANT_LINE, splitsOf, type VariantRow } from './split-view';
import { withPositions, type Positions } from './positions';
import { draftOf, useStudio } from './store';

/** The room a box's traffic line takes. */
const TRAFFIC_LINE = 24;

export interface Drawing {
	issues: ScenarioIssue[];
	/** States nothing leads to, and dead ends. */
	warnings: ScenarioIssue[];
	/** The states the problems are in. */
	problemStates: Set<string>;
	graph: ScenarioGraph;
	/** Each split step's variants, drawn in its box. */
	splits: Map<string, VariantRow[]>;
	/** dagre's layout, with the boxes the designer placed where they were put. */
	layout: Layout & { free: Set<string> };
}

/** The last drawing (one, never more): the next draft with the same graph keeps its layout. */
let last:
	| {
			draft: Draft;
			withTraffic: boolean;
			positions: Positions;
			graphKey: string;
			laidOut: Layout;
			drawing: Drawing;
	  }
	| undefined;

/**
 * The draft's problems, and its graph laid out when the graph changed; with traffic, each box has
 * room for its counts. Computed once per draft for every part of the screen that shows it.
 */
function drawingOf(draft: Draft, withTraffic: boolean, positions: Positions): Drawing {
	if (last?.draft === draft && last.withTraffic === withTraffic && last.positions === positions)
		return last.drawing;
	const issues = validateScenario(draft).issues;
	const problemStates = new Set(
		issues.map((i) => stateOfPath(i.path)).filter((s): s is string => !!s),
	);
	const graph = scenarioGraph(draft);
	const splits = splitsOf(draft);
	const graphKey = JSON.stringify([graph, [...splits]]);
	const kept = last?.withTraffic === withTraffic && last.graphKey === graphKey;
	const laidOut =
		kept && last
			? last.laidOut
			: layoutGraph(graph, {
					height: (box) =>
						boxHeight(box) +
						(withTraffic ? TRAFFIC_LINE : 0) +
						(splits.get(box.name)?.length ?? 0) * VARIANT_LINE,
				});
	const layout =
		kept && last?.positions === positions ? last.drawing.layout : withPositions(laidOut, positions);
	const drawing = { issues, warnings: reachWarnings(draft), problemStates, graph, splits, layout };
	last = { draft, withTraffic, positions, graphKey, laidOut, drawing };
	return drawing;
}

/** The draft drawn, as the store holds it now. */
export function useDrawing(): Drawing {
	const draft = useStudio(draftOf);
	const withTraffic = useStudio((s) => s.traffic.available);
	const positions = useStudio((s) => s.positions);
	return useMemo(() => drawingOf(draft, withTraffic, positions), [draft, withTraffic, positions]);
}
