import type { StateCreator } from 'zustand';

import * as api from './api';
import type { Draft } from './draft';
import { withVersionRaised } from './edits';
import { drawnPositions, loadPositions, savePositions } from './positions';
import { startHistory } from './history';
import { prepareSave, type Pending } from './saving';
import { isDirty } from './selectors';
import type { Studio } from './studio-types';
import { BLANK } from './templates';

/**
 * The studio's document actions (a slice of its zustand store, store.ts): opening a scenario from
 * a file or n8n, a new one, Save, Save As, Roll Back, where its boxes are placed, Copy.
 */

type SetStudio = Parameters<StateCreator<Studio>>[0];
type GetStudio = Parameters<StateCreator<Studio>>[1];
type DocumentActions = Pick<
	Studio,
	'load' | 'openFile' | 'startNew' | 'saveAs' | 'place' | 'save' | 'rollBack' | 'copy'
>;

export function documentActions(set: SetStudio, get: GetStudio): DocumentActions {
	return {
		load: (next, from, baseline = next) =>
			set((s) => ({
				history: startHistory(next),
				saved: baseline,
				source: from,
				selected: undefined,
				positions: {},
				opened: s.opened + 1,
			})),
		openFile: async (path) => await openFile(set, get, path),
		// Baseline {}: a new scenario is unsaved from the start, so Save is open.
		startNew: (draft) => get().load(draft, { kind: 'new' }, {}),
		saveAs: async (path) => {
			set({ source: { kind: 'file', path }, dialog: undefined });
			await get().save();
		},
		// Every box stays where it is drawn now, not only the one moved: dagre re-flows nothing after.
		place: (state, x, y) =>
			set((s) => ({ positions: { ...drawnPositions(), ...s.positions, [state]: { x, y } } })),
		save: async () => {
			const { source, saved } = get();
			if (source.kind === 'new') return set({ dialog: 'saveAs' });
			const draft = get().history.present;
			const next = withVersionRaised(draft, saved);
			await confirmSave(set, get, await prepareSave(source, next, saved, draft.version), next);
		},
		rollBack: async (version) => {
			const { source, saved } = get();
			if (source.kind === 'new')
				return get().say('Roll Back writes where the scenario is saved: save it first');
			const draft = get().history.present;
			const next = (await api.rolledBack(JSON.stringify(draft), version)) as Draft | undefined;
			if (!next) return;
			const saving = await prepareSave(source, next, saved, draft.version);
			const said = `version ${version}'s content as the store kept it, saved as version ${String(next.version)}`;
			const note = isDirty(get()) ? `${said}; the edits not saved are replaced` : said;
			await confirmSave(
				set,
				get,
				saving && { ...saving, title: `${saving.title}: Roll Back to v${version}`, note },
				next,
			);
		},
		copy: async () => {
			await navigator.clipboard.writeText(JSON.stringify(get().history.present, null, 2));
			get().say("Copied: paste it into the Scenario node's Scenario field");
		},
	};
}

/** Shows the save's diff; once confirmed, writes it and takes `next` as the draft saved. */
async function confirmSave(
	set: SetStudio,
	get: GetStudio,
	saving: (Pending & { done: string }) | undefined,
	next: Draft,
) {
	if (!saving) return;
	const write = async () => {
		const said = await saving.write();
		const { source: to, positions } = get();
		if (to.kind === 'file') await savePositions(to.path, positions, next);
		get().change(next);
		set({ saved: next, status: said || saving.done });
	};
	set({ pending: { ...saving, write } });
}

/** Opens a file of the studio's folder, or a blank scenario named after a path with no file yet. */
async function openFile(set: SetStudio, get: GetStudio, path: string): Promise<void> {
	const text = await api.readScenarioFile(path);
	if (text === undefined) {
		// A path with no file yet: a blank scenario, named after it, created on its first save.
		const id = (path.split(/[\\/]/).pop() ?? 'my-bot').replace(/\.json$/, '');
		get().load({ ...BLANK, id }, { kind: 'file', path }, {});
		return get().say(`${path} is new: it is created on the first save`);
	}
	try {
		get().load(JSON.parse(text) as Draft, { kind: 'file', path });
		set({ positions: await loadPositions(path) });
		get().say('');
	} catch (error) {
		get().say(`${path} is not JSON: ${(error as Error).message}`);
	}
}
