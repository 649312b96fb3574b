import { diffLines, type Change } from 'diff';
import { useState, type ReactNode } from 'react';

import { isObject, type Draft } from './draft';

/** The studio's dialogs: the diff before a save, and pasting JSON (n8n's workflows: N8nDialog). */

export function Dialog(props: {
	title: string;
	children: ReactNode;
	onClose(): void;
	testId?: string;
}) {
	return (
		<div className="backdrop">
			<div className="dialog" role="dialog" aria-label={props.title} data-testid={props.testId}>
				<div className="dialog-title">
					{props.title}
					<button className="close" onClick={props.onClose}>
						✕
					</button>
				</div>
				{props.children}
			</div>
		</div>
	);
}

/** What a save changes, line by line, before anything is written. */
export function SaveDialog(props: {
	file: string;
	before: string;
	after: string;
	note?: string;
	/** The confirm button's words: what saving does there. */
	confirm: string;
	onSave(): void;
	onClose(): void;
}) {
	const parts = diffLines(props.before, props.after);
	const changed = parts.some((p) => p.added || p.removed);
	return (
		<Dialog title={`Save ${props.file}`} onClose={props.onClose} testId="save-dialog">
			{props.note && <p className="hint">{props.note}</p>}
			<pre className="diff" data-testid="diff">
				{changed
					? parts.map((p, i) => (
							<span key={i} className={p.added ? 'added' : p.removed ? 'removed' : 'same'}>
								{diffText(p, i === 0, i === parts.length - 1)}
							</span>
						))
					: 'No changes.'}
			</pre>
			<div className="inline">
				<button
					className="primary"
					disabled={!changed}
					data-testid="confirm-save"
					onClick={props.onSave}
				>
					{props.confirm}
				</button>
				<button onClick={props.onClose}>Cancel</button>
			</div>
		</Dialog>
	);
}

const CONTEXT = 3;

/** A part of the diff as lines marked + or -; unchanged runs keep 3 lines of context each side. */
function diffText(part: Change, first: boolean, last: boolean): string {
	const mark = part.added ? '+' : part.removed ? '-' : ' ';
	let lines = part.value.replace(/\n$/, '').split('\n');
	if (!part.added && !part.removed && lines.length > 2 * CONTEXT + 1) {
		const head = first ? [] : lines.slice(0, CONTEXT);
		const tail = last ? [] : lines.slice(-CONTEXT);
		const hidden = lines.length - head.length - tail.length;
		lines = [...head, `… ${hidden} unchanged lines`, ...tail];
	}
	return `${lines.map((line) => `${mark} ${line}`).join('\n')}\n`;
}

export function PasteDialog(props: { onLoad(draft: Draft): void; onClose(): void }) {
	const [text, setText] = useState('');
	let error = '';
	let parsed: unknown;
	try {
		parsed = text.trim() ? JSON.parse(text) : undefined;
		if (parsed !== undefined && !isObject(parsed)) error = 'A scenario is a JSON object ({ … })';
	} catch (e) {
		error = (e as Error).message;
	}
	return (
		<Dialog
			title="Paste JSON (from the Scenario node's field)"
			onClose={props.onClose}
			testId="paste-dialog"
		>
			<textarea
				rows={14}
				value={text}
				onChange={(e) => setText(e.target.value)}
				data-testid="paste-text"
				autoFocus
			/>
			{error && <div className="hint bad">{error}</div>}
			<button
				className="primary"
				disabled={!isObject(parsed)}
				data-testid="paste-load"
				onClick={() => isObject(parsed) && props.onLoad(parsed as Draft)}
			>
				Load it
			</button>
		</Dialog>
	);
}
