import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';

import * as api from './api';
import { PasteDialog, SaveDialog } from './Dialogs';
import { NEW_SCENARIO, stateOfPath, type Draft } from './draft';
import { addState, connect, freeName, withVersionRaised } from './edits';
import { Canvas } from './Canvas';
import { historyReducer, startHistory } from './history';
import { N8nDialog } from './N8nDialog';
import { boxHeight, layoutGraph, scenarioGraph, validateScenario } from './runtime-bridge';
import { prepareSave, type Pending, type Source } from './saving';
import { useShortcuts } from './shortcuts';
import { SidePanel, type Tab } from './SidePanel';
import { Toolbar } from './Toolbar';
import { useTraffic } from './Traffic';

/** The screen: toolbar, graph and problems, the side panel, the dialogs. */
export function App() {
	const [history, dispatch] = useReducer(historyReducer, NEW_SCENARIO, startHistory);
	const draft = history.present;
	const [source, setSource] = useState<Source>({ kind: 'new' });
	const [saved, setSaved] = useState<Draft>(NEW_SCENARIO);
	const [selected, setSelected] = useState<string>();
	const [tab, setTab] = useState<Tab>('form');
	const [lit, setLit] = useState<{ current?: string; visited: Set<string> }>({
		visited: new Set(),
	});
	const [dialog, setDialog] = useState<'paste' | 'n8n'>();
	const [pending, setPending] = useState<Pending>();
	const [status, setStatus] = useState('');
	/** Counts scenarios opened, so the graph fits each one. */
	const [opened, setOpened] = useState(0);

	const change = useCallback(
		(next: Draft, key?: string) => dispatch({ type: 'change', draft: next, key, at: Date.now() }),
		[],
	);
	const load = useCallback((next: Draft, from: Source, baseline: Draft = next) => {
		dispatch({ type: 'reset', draft: next });
		setSaved(baseline);
		setSource(from);
		setSelected(undefined);
		setOpened((n) => n + 1);
	}, []);
	const { files, openFile } = useOpenedFiles(load, setStatus);

	const traffic = useTraffic(typeof draft.id === 'string' ? draft.id : '');
	const { issues, problemStates, graph, layout } = useDrawing(draft, traffic.available);
	const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

	useShortcuts(dispatch, dirty);

	const select = (name: string | undefined) => {
		setSelected(name);
		if (name) setTab('form');
	};

	const save = () =>
		saveTo(source, draft, saved, (next, done) => {
			change(next);
			setSaved(next);
			setStatus(done);
		}).then(setPending);
	const copy = async () => {
		await navigator.clipboard.writeText(JSON.stringify(draft, null, 2));
		setStatus("Copied: paste it into the Scenario node's Scenario field");
	};

	return (
		<div className="studio">
			<Toolbar
				files={files}
				source={source}
				dirty={dirty}
				status={status}
				canUndo={history.past.length > 0}
				canRedo={history.future.length > 0}
				onOpenFile={(file) =>
					(!dirty || confirm('Leave the unsaved changes?')) && void openFile(file)
				}
				onAddState={() => {
					const name = freeName(draft);
					change(addState(draft, name));
					select(name);
				}}
				onHistory={(type) => dispatch({ type })}
				onSave={() => void save().catch((e: Error) => setStatus(e.message))}
				onCopy={() => void copy().catch((e: Error) => setStatus(`Copy failed: ${e.message}`))}
				onDialog={setDialog}
			/>
			<main>
				<Canvas
					layout={layout}
					fitKey={`${source.kind === 'file' ? source.path : source.kind}:${opened}`}
					selected={selected}
					problems={problemStates}
					lit={lit}
					issues={issues}
					graph={graph}
					traffic={traffic}
					onSelect={select}
					onConnect={(from, to) => {
						change(connect(draft, from, to));
						select(from);
					}}
				/>
				<SidePanel
					draft={draft}
					selected={selected}
					tab={tab}
					valid={issues.length === 0}
					onTab={setTab}
					onSelect={select}
					onChange={change}
					onStates={(current, visited) => setLit({ current, visited: new Set(visited) })}
				/>
			</main>
			<StudioDialogs
				dialog={dialog}
				pending={pending}
				source={source}
				onClose={() => {
					setDialog(undefined);
					setPending(undefined);
				}}
				onStatus={setStatus}
				onPaste={(next) => {
					change(next);
					setSelected(undefined);
				}}
				onOpenN8n={(next, from) => load(next, from)}
			/>
		</div>
	);
}

/**
 * The draft's problems (and the states they are in), and its graph laid out when it changed;
 * with traffic, each box has room for its counts.
 */
function useDrawing(draft: Draft, withTraffic: boolean) {
	const issues = useMemo(() => validateScenario(draft).issues, [draft]);
	const problemStates = useMemo(
		() => new Set(issues.map((i) => stateOfPath(i.path)).filter((s): s is string => !!s)),
		[issues],
	);
	const graph = useMemo(() => scenarioGraph(draft), [draft]);
	const graphKey = JSON.stringify(graph);
	const layout = useMemo(
		() => layoutGraph(graph, withTraffic ? { height: (box) => boxHeight(box) + TRAFFIC_LINE } : {}),
		[graphKey, withTraffic],
	);
	studioTimings.layoutMs = layout.ms;
	return { issues, problemStates, graph, layout };
}

/**
 * What Save would write (the version raised when anything else changed), as a pending save whose
 * write, once done, reports the draft written and what to say.
 */
async function saveTo(
	source: Source,
	draft: Draft,
	saved: Draft,
	onWritten: (next: Draft, done: string) => void,
): Promise<Pending | undefined> {
	const next = withVersionRaised(draft, saved);
	const saving = await prepareSave(source, next, saved, draft.version);
	if (!saving) return undefined;
	return {
		...saving,
		write: async () => {
			const said = await saving.write();
			onWritten(next, said || saving.done);
		},
	};
}

/** The files the studio was opened on, the first one opened at start. */
function useOpenedFiles(
	load: (next: Draft, from: Source) => void,
	setStatus: (status: string) => void,
) {
	const [files, setFiles] = useState<string[]>([]);
	const openFile = useCallback(
		async (path: string) => {
			const began = performance.now();
			const text = await api.readScenarioFile(path);
			try {
				load(JSON.parse(text) as Draft, { kind: 'file', path });
				setStatus('');
			} catch (error) {
				setStatus(`${path} is not JSON: ${(error as Error).message}`);
			}
			requestAnimationFrame(() =>
				Object.assign(studioTimings, { openedMs: performance.now() - began }),
			);
		},
		[load, setStatus],
	);
	useEffect(() => {
		if (!api.hasToken())
			return setStatus('No token in the address: open the address the studio command printed.');
		api.session().then(
			(s) => {
				setFiles(s.files);
				if (s.files[0]) void openFile(s.files[0]);
			},
			(error: Error) => setStatus(error.message),
		);
	}, [openFile, setStatus]);
	return { files, openFile };
}

/** The save's diff, Paste JSON, Open from n8n: one at a time. */
function StudioDialogs(props: {
	dialog?: 'paste' | 'n8n';
	pending?: Pending;
	source: Source;
	onClose(): void;
	onStatus(status: string): void;
	onPaste(next: Draft): void;
	onOpenN8n(next: Draft, from: Source): void;
}) {
	const { pending, source, onClose, onStatus } = props;
	if (pending)
		return (
			<SaveDialog
				file={pending.title}
				before={pending.before}
				after={pending.after}
				note={pending.note}
				onClose={onClose}
				onSave={() =>
					void pending.write().then(onClose, (e: Error) => {
						onClose();
						onStatus(`Not saved: ${e.message}`);
					})
				}
			/>
		);
	if (props.dialog === 'paste')
		return (
			<PasteDialog
				onClose={onClose}
				onLoad={(next) => {
					props.onPaste(next);
					onClose();
				}}
			/>
		);
	if (props.dialog !== 'n8n') return null;
	return (
		<N8nDialog
			initial={source.kind === 'n8n' ? source : undefined}
			onClose={onClose}
			onOpen={(from, text) => {
				try {
					props.onOpenN8n(JSON.parse(text) as Draft, { kind: 'n8n', ...from });
					onStatus(`Opened from n8n: ${from.workflowName} › ${from.nodeName}`);
				} catch (error) {
					onStatus(`The node's Scenario field is not JSON: ${(error as Error).message}`);
				}
				onClose();
			}}
		/>
	);
}

/** The room a box's traffic line takes. */
const TRAFFIC_LINE = 24;

/** Read by the browser test: how long opening a file and laying the graph out took. */
export const studioTimings: { openedMs?: number; layoutMs?: number } = {};
(window as { studioTimings?: typeof studioTimings }).studioTimings = studioTimings;
