import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';

import * as api from './api';
import { PasteDialog, SaveDialog } from './Dialogs';
import { NEW_SCENARIO, asObject, stateNames, stateOfPath, states, type Draft } from './draft';
import {
	addState,
	connect,
	deleteState,
	freeName,
	renameState,
	setState,
	withVersionRaised,
} from './edits';
import { ScenarioGraphView } from './Graph';
import { scenarioGraph } from './graph-model';
import { historyReducer, startHistory } from './history';
import { JsonView } from './JsonView';
import { N8nDialog } from './N8nDialog';
import { layoutGraph } from './layout';
import { Preview } from './Preview';
import { Problems } from './Problems';
import { scenarioJsonSchema, validateScenario } from './runtime-bridge';
import { StateForm } from './StateForm';
import { TopForm } from './TopForm';
import { prepareSave, type Pending, type Source } from './saving';
import { useShortcuts } from './shortcuts';
import { Toolbar } from './Toolbar';

const SCHEMA = scenarioJsonSchema();

export function App() {
	const [history, dispatch] = useReducer(historyReducer, NEW_SCENARIO, startHistory);
	const draft = history.present;
	const [files, setFiles] = useState<string[]>([]);
	const [source, setSource] = useState<Source>({ kind: 'new' });
	const [saved, setSaved] = useState<Draft>(NEW_SCENARIO);
	const [selected, setSelected] = useState<string>();
	const [tab, setTab] = useState<'form' | 'json' | 'chat'>('form');
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
		[load],
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
	}, [openFile]);

	const issues = useMemo(() => validateScenario(draft).issues, [draft]);
	const problemStates = useMemo(
		() => new Set(issues.map((i) => stateOfPath(i.path)).filter((s): s is string => !!s)),
		[issues],
	);
	const graph = useMemo(() => scenarioGraph(draft), [draft]);
	const graphKey = JSON.stringify(graph);
	const layout = useMemo(() => layoutGraph(graph), [graphKey]);
	studioTimings.layoutMs = layout.ms;
	const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

	useShortcuts(dispatch, dirty);

	const select = (name: string | undefined) => {
		setSelected(name);
		if (name) setTab('form');
	};

	const save = async () => {
		const next = withVersionRaised(draft, saved);
		const saving = await prepareSave(source, next, saved, draft.version);
		if (!saving) return;
		setPending({
			...saving,
			write: async () => {
				const said = await saving.write();
				change(next);
				setSaved(next);
				setStatus(said || saving.done);
			},
		});
	};

	const copy = async () => {
		await navigator.clipboard.writeText(JSON.stringify(draft, null, 2));
		setStatus("Copied: paste it into the Scenario node's Scenario field");
	};

	const state = selected ? asObject(states(draft)[selected]) : undefined;
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
				<section className="canvas">
					<ReactFlowProvider>
						<ScenarioGraphView
							layout={layout}
							fitKey={`${source.kind === 'file' ? source.path : source.kind}:${opened}`}
							selected={selected}
							problems={problemStates}
							current={lit.current}
							visited={lit.visited}
							onSelect={select}
							onConnect={(from, to) => {
								change(connect(draft, from, to));
								select(from);
							}}
						/>
					</ReactFlowProvider>
					<Problems issues={issues} onSelect={select} />
				</section>
				<aside className="panel">
					<nav className="tabs">
						{(['form', 'json', 'chat'] as const).map((t) => (
							<button
								key={t}
								className={tab === t ? 'active' : ''}
								data-testid={`tab-${t}`}
								onClick={() => setTab(t)}
							>
								{t === 'form'
									? selected
										? `State: ${selected}`
										: 'Scenario'
									: t === 'json'
										? 'JSON'
										: 'Preview chat'}
							</button>
						))}
					</nav>
					<div className={tab === 'form' ? 'pane' : 'pane hidden'}>
						{selected && state ? (
							<StateForm
								name={selected}
								state={state}
								states={stateNames(draft)}
								isStart={draft.start === selected}
								onChange={(next, field) =>
									change(setState(draft, selected, next), `${selected}.${field}`)
								}
								onRename={(to) => {
									change(renameState(draft, selected, to));
									setSelected(to);
								}}
								onDelete={() => {
									change(deleteState(draft, selected));
									setSelected(undefined);
								}}
								onMakeStart={() => change({ ...draft, start: selected })}
							/>
						) : (
							<TopForm draft={draft} onChange={(next, field) => change(next, `top.${field}`)} />
						)}
					</div>
					<div className={tab === 'json' ? 'pane' : 'pane hidden'}>
						<JsonView draft={draft} schema={SCHEMA} onChange={(next) => change(next, 'json')} />
					</div>
					<div className={tab === 'chat' ? 'pane' : 'pane hidden'}>
						<Preview
							draft={draft}
							valid={issues.length === 0}
							onStates={(current, visited) => setLit({ current, visited: new Set(visited) })}
						/>
					</div>
				</aside>
			</main>
			{pending && (
				<SaveDialog
					file={pending.title}
					before={pending.before}
					after={pending.after}
					note={pending.note}
					onClose={() => setPending(undefined)}
					onSave={() =>
						void pending.write().then(
							() => setPending(undefined),
							(e: Error) => {
								setPending(undefined);
								setStatus(`Not saved: ${e.message}`);
							},
						)
					}
				/>
			)}
			{dialog === 'paste' && (
				<PasteDialog
					onClose={() => setDialog(undefined)}
					onLoad={(next) => {
						change(next);
						setDialog(undefined);
						setSelected(undefined);
					}}
				/>
			)}
			{dialog === 'n8n' && (
				<N8nDialog
					initial={source.kind === 'n8n' ? source : undefined}
					onClose={() => setDialog(undefined)}
					onOpen={(from, text) => {
						try {
							load(JSON.parse(text) as Draft, { kind: 'n8n', ...from });
							setStatus(`Opened from n8n: ${from.workflowName} › ${from.nodeName}`);
						} catch (error) {
							setStatus(`The node's Scenario field is not JSON: ${(error as Error).message}`);
						}
						setDialog(undefined);
					}}
				/>
			)}
		</div>
	);
}

/** Read by the browser test: how long opening a file and laying the graph out took. */
export const studioTimings: { openedMs?: number; layoutMs?: number } = {};
(window as { studioTimings?: typeof studioTimings }).studioTimings = studioTimings;
