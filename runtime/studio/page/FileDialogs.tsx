import { useEffect, useState } from 'react';

import * as api from './api';
import { Dialog } from './Dialogs';
import { TEMPLATES, type Template } from './templates';

/** New (a blank scenario or a bot from the gallery), Open and Save As: files of the studio's folder. */

export function NewDialog(props: { onPick(template: Template): void; onClose(): void }) {
	return (
		<Dialog title="New scenario" onClose={props.onClose} testId="new-dialog">
			<div className="gallery">
				{TEMPLATES.map((t) => (
					<button
						key={t.key}
						className="template"
						data-testid={`template-${t.key}`}
						onClick={() => props.onPick(t)}
					>
						<strong>{t.title}</strong>
						<span>{t.about}</span>
					</button>
				))}
			</div>
		</Dialog>
	);
}

/** The folder's scenario files, and a path to type: an existing file or a new one. */
export function PathDialog(props: {
	mode: 'open' | 'saveAs';
	initial: string;
	onPick(path: string): void;
	onClose(): void;
}) {
	const [path, setPath] = useState(props.initial);
	const [listing, setListing] = useState<{ root?: string; files: string[] }>();
	const [error, setError] = useState('');
	useEffect(() => {
		api.folderFiles().then(setListing, (e: Error) => setError(e.message));
	}, []);
	const problem = pathProblem(path);
	const exists = listing?.files.includes(path.trim());
	const title = props.mode === 'open' ? 'Open a scenario' : 'Save as';
	const action =
		props.mode === 'open'
			? exists || !path.trim()
				? 'Open'
				: 'Start it (created on first save)'
			: exists
				? 'Replace it'
				: 'Save here';
	return (
		<Dialog title={title} onClose={props.onClose} testId="path-dialog">
			<p className="hint">
				Files inside <code>{listing?.root ?? 'the studio’s folder'}</code>; a path not there yet is
				created, with its folders, on the first save.
			</p>
			<ul className="file-list" data-testid="folder-files">
				{listing?.files.map((f) => (
					<li key={f}>
						<button
							className={f === path ? 'picked' : undefined}
							onClick={() => (props.mode === 'open' ? props.onPick(f) : setPath(f))}
						>
							{f}
						</button>
					</li>
				))}
				{listing?.files.length === 0 && <li className="hint">No .json files yet.</li>}
			</ul>
			<label className="row">
				<span className="row-label">path</span>
				<input
					value={path}
					data-testid="path-input"
					placeholder="bots/my-bot.json"
					autoFocus
					onChange={(e) => setPath(e.target.value)}
				/>
			</label>
			{(problem || error) && <div className="hint bad">{problem || error}</div>}
			<button
				className="primary"
				data-testid="path-confirm"
				disabled={Boolean(problem)}
				title={problem}
				onClick={() => props.onPick(path.trim())}
			>
				{action}
			</button>
		</Dialog>
	);
}

function pathProblem(path: string): string {
	const p = path.trim();
	if (!p) return 'Type a path, such as bots/my-bot.json';
	if (!p.endsWith('.json')) return 'A scenario file ends in .json';
	if (p.endsWith('.layout.json')) return '.layout.json files keep box positions; pick another name';
	return '';
}
