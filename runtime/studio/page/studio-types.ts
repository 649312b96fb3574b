import type { Draft } from './draft';
import type { History } from './history';
import type { Positions } from './positions';
import type { Traffic } from './runtime-bridge';
import type { Pending, Source } from './saving';

/**
 * The studio store's state and actions (store.ts): apart, so that its slices and selectors read
 * the types without importing the store (no import cycle).
 */

export type Tab = 'form' | 'json' | 'chat';
type Dialog = 'paste' | 'n8n' | 'new' | 'open' | 'saveAs';

export interface Period {
	from: string;
	to: string;
}

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
