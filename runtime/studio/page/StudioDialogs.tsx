import { PasteDialog, SaveDialog } from './Dialogs';
import type { Draft } from './draft';
import { NewDialog, PathDialog } from './FileDialogs';
import { N8nDialog } from './N8nDialog';
import type { Pending } from './saving';
import { useStudio } from './store';

/** The save's diff, Paste JSON, New, Open and Save As a file, Open from n8n: one at a time. */
export function StudioDialogs() {
	const dialog = useStudio((s) => s.dialog);
	const pending = useStudio((s) => s.pending);
	if (pending) return <PendingSave pending={pending} />;
	if (dialog === 'paste') return <PasteDraft />;
	if (dialog === 'new') return <NewFromTemplate />;
	if (dialog === 'open' || dialog === 'saveAs') return <FilePath mode={dialog} />;
	if (dialog === 'n8n') return <OpenFromN8n />;
	return null;
}

/** The diff of a save, written once confirmed. */
function PendingSave({ pending }: { pending: Pending }) {
	const source = useStudio((s) => s.source);
	const { closeDialog: onClose, say } = useStudio.getState();
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
}

/** Paste JSON: the pasted scenario becomes the draft (an undoable edit). */
function PasteDraft() {
	const { closeDialog: onClose, change, select } = useStudio.getState();
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
}

/** New: a scenario started from a template, not saved anywhere yet. */
function NewFromTemplate() {
	const { closeDialog: onClose, say, startNew } = useStudio.getState();
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
}

/** Open a file, or Save As one (offered the file's path, or the scenario's id). */
function FilePath({ mode }: { mode: 'open' | 'saveAs' }) {
	const source = useStudio((s) => s.source);
	const draftId = useStudio((s) => s.history.present.id);
	const { closeDialog: onClose, say, openFile, saveAs } = useStudio.getState();
	const named = `${typeof draftId === 'string' && draftId ? draftId : 'my-bot'}.json`;
	return (
		<PathDialog
			mode={mode}
			initial={mode === 'open' ? '' : source.kind === 'file' ? source.path : named}
			onClose={onClose}
			onPick={(path) => {
				onClose();
				void (mode === 'open' ? openFile(path) : saveAs(path)).catch((e: Error) => say(e.message));
			}}
		/>
	);
}

/** Open from n8n: a workflow's Scenario node, saved back there. */
function OpenFromN8n() {
	const source = useStudio((s) => s.source);
	const { closeDialog: onClose, say, load } = useStudio.getState();
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
