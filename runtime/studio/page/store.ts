import { create } from 'zustand';

import { NEW_SCENARIO } from './draft';
import { addState, connect, freeName } from './edits';
import { historyReducer, startHistory } from './history';
import { documentActions } from './store-document';
import type { Studio } from './studio-types';

/**
 * The studio's state, in one store (zustand: React Flow's own store library, so the page holds one
 * copy, and each part of the screen subscribes to what it draws): the draft and its history, where
 * it came from, what is selected and lit, the dialogs, the status line and the traffic.
 */

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type { Period, Studio, Tab } from './studio-types';

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

	...documentActions(set, get),
	setFiles: (files) => set({ files }),

	select: (name) => set(name ? { selected: name, tab: 'form' } : { selected: undefined }),
	setTab: (tab) => set({ tab }),
	light: (current, visited) => set({ lit: { current, visited: new Set(visited) } }),

	openDialog: (dialog) => set({ dialog }),
	closeDialog: () => set({ dialog: undefined, pending: undefined }),
	say: (status) => set({ status }),

	setTraffic: (traffic) => set((s) => ({ traffic: { ...s.traffic, ...traffic } })),
}));

export { draftOf, isDirty } from './selectors';
