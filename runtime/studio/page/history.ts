import type { Draft } from './draft';

/**
 * Undo and redo over whole drafts. Keystrokes in one field within a second make one step, so undo
 * takes back a word typed, not a letter.
 */
export interface History {
	present: Draft;
	past: Draft[];
	future: Draft[];
	/** The field of the last change, and when: the next change to it joins that step. */
	lastKey?: string;
	lastAt: number;
}

export type HistoryAction =
	| { type: 'change'; draft: Draft; key?: string; at: number }
	| { type: 'reset'; draft: Draft }
	| { type: 'undo' }
	| { type: 'redo' };

const LIMIT = 200;

export function startHistory(draft: Draft): History {
	return { present: draft, past: [], future: [], lastAt: 0 };
}

export function historyReducer(state: History, action: HistoryAction): History {
	switch (action.type) {
		case 'reset':
			return startHistory(action.draft);
		case 'change': {
			if (JSON.stringify(action.draft) === JSON.stringify(state.present)) return state;
			const joins =
				action.key !== undefined && action.key === state.lastKey && action.at - state.lastAt < 1000;
			const past = joins ? state.past : [...state.past, state.present].slice(-LIMIT);
			return { present: action.draft, past, future: [], lastKey: action.key, lastAt: action.at };
		}
		case 'undo': {
			const previous = state.past[state.past.length - 1];
			if (!previous) return state;
			return {
				present: previous,
				past: state.past.slice(0, -1),
				future: [state.present, ...state.future],
				lastAt: 0,
			};
		}
		case 'redo': {
			const [next, ...future] = state.future;
			if (!next) return state;
			return { present: next, past: [...state.past, state.present], future, lastAt: 0 };
		}
	}
}
