import { useEffect } from 'react';

import * as api from './api';
import { PasteDialog, SaveDialog } from './Dialogs';
import { NewDialog, PathDialog } from './FileDialogs';
import type { Draft } from './draft';
import { Canvas } from './Canvas';
import { N8nDialog } from './N8nDialog';
import { useShortcuts } from './shortcuts';
import { SidePanel } from './SidePanel';
import { isDirty, useStudio } from './store';
import { Toolbar } from './Toolbar';
import { useTraffic } from './Traffic';

/** The screen: toolbar, graph and problems, the side panel, the dialogs. */
export function App() {
	const historyStep = useStudio((s) => s.historyStep);
	const dirty = useStudio(isDirty);
	useShortcuts(historyStep, dirty);
	useOpenedFiles();
	useTraffic();
	return (
		<div className="studio">
			<Toolbar />
			<main>
				<Canvas />
				<SidePanel />
			</main>
			<StudioDialogs />
		</div>
	);
}

/** The files the studio was opened on, the first one opened at start. */
function useOpenedFiles() {
	useEffect(() => {
		const { say, setFiles, openFile } = useStudio.getState();
		if (!api.hasToken())
			return say('No token in the address: open the address the studio command printed.');
		api.session().then(
			(s) => {
				setFiles(s.files);
				if (s.files[0]) void openFile(s.files[0]);
			},
			(error: Error) => say(error.message),
		);
	}, []);
}

/** The save's diff, Paste JSON, Open from n8n: one at a time. */
function StudioDialogs() {
	const dialog = useStudio((s) => s.dialog);
	const pending = useStudio((s) => s.pending);
	const source = useStudio((s) => s.source);
	const {
		closeDialog: onClose,
		say,
		change,
		select,
		load,
		startNew,
		openFile,
		saveAs,
	} = useStudio.getState();
	const draftId = useStudio((s) => s.history.present.id);
	if (pending)
		return (
			<SaveDialog
				file={pending.title}
				before={pending.before}
				after={pending.after}
				note={pending.note}
				confirm={source.kind === 'n8n' ? 'Save to n8n and publish' : 'Write the file'}
				onClose={onClose}
				onSave={() =>
					void pending.write().then(onClose, (e: Error) => {
						onClose();
						say(`Not saved: ${e.message}`);
					})
				}
			/>
		);
	if (dialog === 'paste')
		return (
			<PasteDialog
				onClose={onClose}
				onLoad={(next) => {
					change(next);
					select(undefined);
					onClose();
				}}
			/>
		);
	if (dialog === 'new')
		return (
			<NewDialog
				onClose={onClose}
				onPick={(template) => {
					startNew(structuredClone(template.draft));
					say(`New scenario from "${template.title}": Save asks where to write it`);
					onClose();
				}}
			/>
		);
	if (dialog === 'open' || dialog === 'saveAs')
		return (
			<PathDialog
				mode={dialog}
				initial={
					dialog === 'open'
						? ''
						: source.kind === 'file'
							? source.path
							: `${typeof draftId === 'string' && draftId ? draftId : 'my-bot'}.json`
				}
				onClose={onClose}
				onPick={(path) => {
					onClose();
					void (dialog === 'open' ? openFile(path) : saveAs(path)).catch((e: Error) =>
						say(e.message),
					);
				}}
			/>
		);
	if (dialog !== 'n8n') return null;
	return (
		<N8nDialog
			initial={source.kind === 'n8n' ? source : undefined}
			onClose={onClose}
			onOpen={(from, text) => {
				try {
					load(JSON.parse(text) as Draft, { kind: 'n8n', ...from });
					say(`Opened from n8n: ${from.workflowName} › ${from.nodeName}`);
				} catch (error) {
					say(`The node's Scenario field is not JSON: ${(error as Error).message}`);
				}
				onClose();
			}}
		/>
	);
}
