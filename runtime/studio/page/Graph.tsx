import {
	Background,
	Controls,
	Handle,
	MiniMap,
	Position,
	ReactFlow,
	applyNodeChanges,
	type Connection,
	type Node,
	type NodeChange,
	type NodeProps,
	useConnection,
	useReactFlow,
	useUpdateNodeInternals,
} from '@xyflow/react';
import { memo, useEffect, useMemo, useState, type CSSProperties } from 'react';

import { RouteEdge } from './Edges';
import { flowEdges, flowNodes, type BoxData, type BoxMarks } from './graph-elements';

import { ANY, END, START, type Layout } from './runtime-bridge';
import { Variants } from './SplitMarks';
import { StateCounts } from './TrafficMarks';

/**
 * The scenario drawn: React Flow for zoom, pan, selection, moving boxes (kept: positions.ts) and
 * connecting by dragging from a box's lower handle onto another box (anywhere on it: its upper
 * handle covers it while a connection is dragged); the rest of the positions and routes are dagre's.
 */

type MarkData = { kind: string };

export interface GraphProps extends BoxMarks {
	layout: Layout & { free: Set<string> };
	/** Changes when another scenario is opened, or states are added or pasted: the view fits again. */
	fitKey: string;
	onSelect(state: string | undefined): void;
	onConnect(from: string, to: string): void;
	onPlace(state: string, x: number, y: number): void;
	showMap: boolean;
}

export function ScenarioGraphView(props: GraphProps) {
	const { layout, selected, problems, current, visited, traffic, splits } = props;
	const nodes = useMemo(
		() => flowNodes(layout, { selected, problems, current, visited, traffic, splits }),
		[layout, selected, problems, current, visited, traffic, splits],
	);
	const edges = useMemo(() => flowEdges(layout, traffic), [layout, traffic]);
	// Shown while a box is dragged; the store has the position once it is dropped.
	const [shown, setShown] = useState(nodes);
	useEffect(() => setShown(nodes), [nodes]);
	const onNodesChange = (changes: NodeChange[]) =>
		setShown((now) =>
			applyNodeChanges(
				changes.filter((c) => c.type === 'position'),
				now,
			),
		);
	return (
		<ReactFlow
			nodes={shown}
			edges={edges}
			nodeTypes={NODE_TYPES}
			edgeTypes={EDGE_TYPES}
			onNodesChange={onNodesChange}
			onNodeDragStop={(_, node) =>
				node.type === 'state' && props.onPlace(node.id, node.position.x, node.position.y)
			}
			connectionRadius={40}
			fitView
			fitViewOptions={FIRST_FIT}
			minZoom={0.1}
			maxZoom={2}
			onNodeClick={(_, node) => props.onSelect(node.type === 'state' ? node.id : undefined)}
			onPaneClick={() => props.onSelect(undefined)}
			onConnect={(c: Connection) => {
				if (c.source && c.target && c.target !== START && c.target !== ANY && c.target !== END)
					props.onConnect(c.source, c.target);
			}}
			proOptions={{ hideAttribution: true }}
		>
			<Background gap={24} />
			<Controls showInteractive={false} />
			{props.showMap && (
				<MiniMap pannable zoomable position="bottom-right" style={{ width: 140, height: 100 }} />
			)}
			<FitOnOpen fitKey={props.fitKey} layout={layout} />
			<ReadableOnSelect selected={selected} />
			<MeasureOnLayout layout={layout} />
		</ReactFlow>
	);
}

/**
 * Has React Flow measure every box again once a new layout is drawn: the layout sets the boxes'
 * sizes itself, and React Flow draws no arrow from a box whose handles it has not measured (a
 * measurement it dropped while the page was busy is otherwise never taken again).
 */
function MeasureOnLayout({ layout }: { layout: Layout }) {
	const update = useUpdateNodeInternals();
	useEffect(() => {
		const frame = requestAnimationFrame(() => update(layout.nodes.map((n) => n.id)));
		return () => cancelAnimationFrame(frame);
	}, [layout, update]);
	return null;
}

/** States past which a whole scenario drawn at once is too small to read. */
const READABLE = 25;

/**
 * Fits the view to a scenario when it is opened: the whole of a small one; for a large one, its
 * start and the states it leads to, at a size that can be read (the mini-map shows the rest).
 */
function FitOnOpen({ fitKey, layout }: { fitKey: string; layout: Layout }) {
	const flow = useReactFlow();
	useEffect(() => {
		const frame = requestAnimationFrame(() => {
			if (layout.nodes.length <= READABLE)
				return void flow.fitView({ padding: 0.08, maxZoom: 1.2 });
			const start = layout.edges.find((e) => e.source === START)?.target;
			const first = new Set([START, ...(start ? [start] : [])]);
			for (const e of layout.edges) if (e.source === start) first.add(e.target);
			void flow.fitView({ nodes: [...first].map((id) => ({ id })), padding: 0.1, minZoom: 0.6 });
		});
		return () => cancelAnimationFrame(frame);
		// Only when another scenario is opened: editing does not move the view.
	}, [fitKey, flow]);
	return null;
}

/**
 * The first fit's options, one object for good: React Flow copies a new options object into its
 * store on every render, over the options of a fit still queued (a state picked in a small view
 * was then fitted whole again, not brought up to a readable size).
 */
const FIRST_FIT = { maxZoom: 1.2 };

/** A state selected while the view is too small to read is brought up to a size its text reads at. */
function ReadableOnSelect({ selected }: { selected?: string }) {
	const flow = useReactFlow();
	useEffect(() => {
		if (!selected || flow.getZoom() >= 0.7) return;
		void flow.fitView({ nodes: [{ id: selected }], minZoom: 0.9, maxZoom: 1, duration: 200 });
	}, [selected, flow]);
	return null;
}

const StateNode = memo(function StateNode({ id, data }: NodeProps<Node<BoxData>>) {
	const { box, problem, current, visited, traffic, variants } = data;
	// While an arrow is dragged from another box, this whole box takes it (and lights up under it).
	const dropZone = useConnection((c) => c.inProgress && c.fromNode.id !== id);
	const classes = [
		'state-box',
		traffic && 'traffic',
		problem && 'problem',
		current && 'current',
		visited && 'visited',
		box.end && 'end',
		variants && 'split',
	];
	return (
		<div
			className={classes.filter(Boolean).join(' ')}
			data-state={box.name}
			data-testid={`state-${box.name}`}
			style={traffic && ({ '--traffic-fill': traffic.fill } as CSSProperties)}
		>
			<Handle
				type="target"
				position={Position.Top}
				isConnectableStart={false}
				className={dropZone ? 'drop-zone' : undefined}
			/>
			<div className="state-name">
				{box.start && <span className="badge start">start</span>}
				{box.name}
				{box.end && <span className="badge end">end</span>}
				{variants && <span className="badge split">split</span>}
				{problem && <span className="badge problem">problem</span>}
			</div>
			{box.messages.slice(0, 3).map((m, i) => (
				<div className="state-message" key={i}>
					{m}
				</div>
			))}
			{box.messages.length > 3 && <div className="state-note">+{box.messages.length - 3} more</div>}
			{box.notes.slice(0, 3).map((note, i) => (
				<div className="state-note" key={i}>
					{note}
				</div>
			))}
			{variants && <Variants state={box.name} rows={variants} />}
			{traffic && <StateCounts name={box.name} traffic={traffic} />}
			<Handle type="source" position={Position.Bottom} />
		</div>
	);
});

const MarkNode = memo(function MarkNode({ data }: NodeProps<Node<MarkData>>) {
	const handle =
		data.kind === END ? (
			<Handle type="target" position={Position.Top} isConnectable={false} />
		) : (
			<Handle type="source" position={Position.Bottom} isConnectable={false} />
		);
	if (data.kind === ANY) return <div className="mark any">(any state){handle}</div>;
	return (
		<div
			className={`mark ${data.kind === START ? 'start' : 'end'}`}
			title={data.kind === START ? 'start' : 'end'}
		>
			{handle}
		</div>
	);
});

const NODE_TYPES = { state: StateNode, mark: MarkNode };
const EDGE_TYPES = { route: RouteEdge };
