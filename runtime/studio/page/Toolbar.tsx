import type { Source } from './saving';

/** The studio's commands: the file, + State, Undo, Redo, Save, Copy for n8n, Paste JSON, n8n. */
export function Toolbar(props: {
	files: string[];
	source: Source;
	dirty: boolean;
	status: string;
	canUndo: boolean;
	canRedo: boolean;
	onOpenFile(file: string): void;
	onAddState(): void;
	onHistory(type: 'undo' | 'redo'): void;
	onSave(): void;
	onCopy(): void;
	onDialog(dialog: 'paste' | 'n8n'): void;
}) {
	const { source } = props;
	return (
		<header className="toolbar">
			<strong>Scenario Studio</strong>
			{props.files.length > 0 && (
				<select
					data-testid="file-select"
					value={source.kind === 'file' ? source.path : ''}
					onChange={(e) => props.onOpenFile(e.target.value)}
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
			)}
			<button data-testid="add-state" onClick={props.onAddState}>
				+ State
			</button>
			<HistoryButton type="undo" enabled={props.canUndo} onHistory={props.onHistory} />
			<HistoryButton type="redo" enabled={props.canRedo} onHistory={props.onHistory} />
			<button
				className="primary"
				data-testid="save"
				disabled={source.kind === 'new' || !props.dirty}
				onClick={props.onSave}
			>
				{source.kind === 'n8n' ? 'Save to n8n' : 'Save'}
			</button>
			<button data-testid="copy-n8n" onClick={props.onCopy}>
				Copy for n8n
			</button>
			<button data-testid="paste-json" onClick={() => props.onDialog('paste')}>
				Paste JSON
			</button>
			<button data-testid="open-n8n" onClick={() => props.onDialog('n8n')}>
				Open from n8n
			</button>
			<span className="status" data-testid="status">
				{props.dirty ? '● unsaved · ' : ''}
				{props.status}
			</span>
		</header>
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
