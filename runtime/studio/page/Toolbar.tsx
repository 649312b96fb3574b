import type { Source } from './saving';
import { isDirty, useStudio } from './store';

/**
 * The studio's commands: New, Open, the file, + State, Undo, Redo, Save, Save As, Copy for n8n,
 * Paste JSON, n8n. Save is closed only when there is nothing to save, and says so.
 */
export function Toolbar() {
	const files = useStudio((s) => s.files);
	const source = useStudio((s) => s.source);
	const dirty = useStudio(isDirty);
	const status = useStudio((s) => s.status);
	const canUndo = useStudio((s) => s.history.past.length > 0);
	const canRedo = useStudio((s) => s.history.future.length > 0);
	const studio = useStudio.getState();
	const listed =
		source.kind === 'file' && !files.includes(source.path) ? [...files, source.path] : files;
	const leave = () => !dirty || confirm('Leave the unsaved changes?');
	const onOpenFile = (file: string) => leave() && void studio.openFile(file);
	const onSave = () => void studio.save().catch((e: Error) => studio.say(e.message));
	const onCopy = () =>
		void studio.copy().catch((e: Error) => studio.say(`Copy failed: ${e.message}`));
	return (
		<header className="toolbar">
			<strong>Scenario Studio</strong>
			<button data-testid="new" onClick={() => leave() && studio.openDialog('new')}>
				New
			</button>
			<button data-testid="open" onClick={() => leave() && studio.openDialog('open')}>
				Open
			</button>
			{listed.length > 0 && <FileSelect files={listed} source={source} onOpen={onOpenFile} />}
			<button data-testid="add-state" onClick={studio.addState}>
				+ State
			</button>
			<HistoryButton type="undo" enabled={canUndo} onHistory={studio.historyStep} />
			<HistoryButton type="redo" enabled={canRedo} onHistory={studio.historyStep} />
			<button
				className="primary"
				data-testid="save"
				disabled={!dirty}
				title={dirty ? undefined : 'Nothing to save: no change since it was opened or saved'}
				onClick={onSave}
			>
				{source.kind === 'n8n' ? 'Save to n8n' : source.kind === 'new' ? 'Save…' : 'Save'}
			</button>
			<button data-testid="save-as" onClick={() => studio.openDialog('saveAs')}>
				Save As…
			</button>
			<button data-testid="copy-n8n" onClick={onCopy}>
				Copy for n8n
			</button>
			<button data-testid="paste-json" onClick={() => studio.openDialog('paste')}>
				Paste JSON
			</button>
			<button data-testid="open-n8n" onClick={() => studio.openDialog('n8n')}>
				Open from n8n
			</button>
			<span className="status" data-testid="status">
				{dirty ? '● unsaved · ' : 'no changes to save · '}
				{status}
			</span>
		</header>
	);
}

/** The files the studio was opened on, and the scenario open now when it is not one of them. */
function FileSelect(props: { files: string[]; source: Source; onOpen(file: string): void }) {
	const { source } = props;
	return (
		<select
			data-testid="file-select"
			value={source.kind === 'file' ? source.path : ''}
			onChange={(e) => props.onOpen(e.target.value)}
		>
			{source.kind !== 'file' && (
				<option value="">
					{source.kind === 'n8n' ? `n8n: ${source.workflowName}` : '(new scenario)'}
				</option>
			)}
			{props.files.map((f) => (
				<option key={f} value={f}>
					{f.split('/').pop()}
				</option>
			))}
		</select>
	);
}

const HISTORY = {
	undo: { label: 'Undo', keys: 'Ctrl+Z' },
	redo: { label: 'Redo', keys: 'Ctrl+Shift+Z' },
};

function HistoryButton(props: {
	type: 'undo' | 'redo';
	enabled: boolean;
	onHistory(type: 'undo' | 'redo'): void;
}) {
	const { label, keys } = HISTORY[props.type];
	return (
		<button
			data-testid={props.type}
			disabled={!props.enabled}
			onClick={() => props.onHistory(props.type)}
			title={keys}
		>
			{label}
		</button>
	);
}
