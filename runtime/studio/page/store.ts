import { create } from 'zustand';

import * as api from './api';
import { NEW_SCENARIO, type Draft } from './draft';
import { drawnPositions, loadPositions, savePositions, type Positions } from './positions';
import { BLANK } from './templates';
import { addState, connect, freeName, withVersionRaised } from './edits';
import { historyReducer, startHistory, type History } from './history';
import { prepareSave, type Pending, type Source } from './saving';
import type { Traffic } from './runtime-bridge';

/**
 * The studio's state, in one store (zustand: React Flow's own store library, so the page holds one
 * copy, and each part of the screen subscribes to what it draws): the draft and its history, where
 * it came from, what is selected and lit, the dialogs, the status line and the traffic.
 */

export type Tab = 'form' | 'json' | 'chat';
type Dialog = 'paste' | 'n8n' | 'new' | 'open' | 'saveAs';

export interface Period {
	from: string;
	to: string;
}

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface StudioState {
	history: History;
	/** Where the draft came from, so where Save writes it. */
	source: Source;
	/** The draft as last opened or saved: the draft is unsaved while it differs. */
	saved: Draft;
	/** Counts scenarios opened, so the graph fits each one. */
	opened: number;
	files: string[];
	/** Where the designer put boxes, by state: kept beside the file (`bot.layout.json`). */
	positions: Positions;
	selected?: string;
	tab: Tab;
	/** The preview chat's states: where it is, where it has been. */
	lit: { current?: string; visited: Set<string> };
	dialog?: Dialog;
	pending?: Pending;
	status: string;
	traffic: {
		/** Whether the studio has a store to read (the session says). */
		available: boolean;
		/** Whether it lists the store's versions, rolls back and moves (the session says). */
		versions?: boolean;
		period: Period;
		/** With what it was asked for: an answer for another scenario or period is never shown. */
		found: { key: string; traffic?: Traffic };
		error?: string;
	};
}

interface StudioActions {
	/** The draft: an edit (`key` joins quick edits of one field into one undo step), undo, redo. */
	change(next: Draft, key?: string): void;
	historyStep(type: 'undo' | 'redo'): void;
	addState(): void;
	connect(from: string, to: string): void;
	/** The document: opened from somewhere, written, the files the studio was opened on. */
	load(next: Draft, from: Source, baseline?: Draft): void;
	openFile(path: string): Promise<void>;
	/** A new scenario, not saved anywhere yet (Save asks where). */
	startNew(draft: Draft): void;
	save(): Promise<void>;
	/** Roll Back: version N's content, as the store kept it, saved as a new version (diff first). */
	rollBack(version: number): Promise<void>;
	saveAs(path: string): Promise<void>;
	place(state: string, x: number, y: number): void;
	copy(): Promise<void>;
	setFiles(files: string[]): void;
	/** Selection and the side panel. */
	select(name: string | undefined): void;
	setTab(tab: Tab): void;
	light(current: string | undefined, visited: string[]): void;
	/** Dialogs and the status line. */
	openDialog(dialog: Dialog): void;
	closeDialog(): void;
	say(status: string): void;
	/** Traffic. */
	setTraffic(traffic: Partial<StudioState['traffic']>): void;
}

export type Studio = StudioState & StudioActions;

export const useStudio = create<Studio>()((set, get) => ({
	history: startHistory(NEW_SCENARIO),
	source: { kind: 'new' },
	saved: NEW_SCENARIO,
	opened: 0,
	files: [],
	positions: {},
	tab: 'form',
	lit: { visited: new Set() },
	status: '',
	traffic: {
		available: false,
		period: { from: dayOf(Date.now() - 6 * DAY), to: dayOf(Date.now()) },
		found: { key: '' },
	},

	change: (next, key) =>
		set((s) => ({
			history: historyReducer(s.history, { type: 'change', draft: next, key, at: Date.now() }),
		})),
	historyStep: (type) => set((s) => ({ history: historyReducer(s.history, { type }) })),
	addState: () => {
		const draft = get().history.present;
		const name = freeName(draft);
		get().change(addState(draft, name));
		get().select(name);
	},
	connect: (from, to) => {
		get().change(connect(get().history.present, from, to));
		get().select(from);
	},

	load: (next, from, baseline = next) =>
		set((s) => ({
			history: startHistory(next),
			saved: baseline,
			source: from,
			selected: undefined,
			positions: {},
			opened: s.opened + 1,
		})),
	openFile: async (path) => {
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
	},
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
		await confirmSave(await prepareSave(source, next, saved, draft.version), next);
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
			saving && { ...saving, title: `${saving.title}: Roll Back to v${version}`, note },
			next,
		);
	},
	copy: async () => {
		await navigator.clipboard.writeText(JSON.stringify(get().history.present, null, 2));
		get().say("Copied: paste it into the Scenario node's Scenario field");
	},
	setFiles: (files) => set({ files }),

	select: (name) => set(name ? { selected: name, tab: 'form' } : { selected: undefined }),
	setTab: (tab) => set({ tab }),
	light: (current, visited) => set({ lit: { current, visited: new Set(visited) } }),

	openDialog: (dialog) => set({ dialog }),
	closeDialog: () => set({ dialog: undefined, pending: undefined }),
	say: (status) => set({ status }),

	setTraffic: (traffic) => set((s) => ({ traffic: { ...s.traffic, ...traffic } })),
}));

/** Shows the save's diff; once confirmed, writes it and takes `next` as the draft saved. */
async function confirmSave(saving: (Pending & { done: string }) | undefined, next: Draft) {
	if (!saving) return;
	const { getState: get, setState: set } = useStudio;
	const write = async () => {
		const said = await saving.write();
		const { source: to, positions } = get();
		if (to.kind === 'file') await savePositions(to.path, positions, next);
		get().change(next);
		set({ saved: next, status: said || saving.done });
	};
	set({ pending: { ...saving, write } });
}

/** The draft being edited. */
export const draftOf = (s: Studio) => s.history.present;

/** Whether the draft differs from the one last opened or saved. */
export const isDirty = (s: Studio) => JSON.stringify(s.history.present) !== JSON.stringify(s.saved);
