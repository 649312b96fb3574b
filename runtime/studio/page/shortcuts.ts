import { useEffect } from 'react';

/**
 * Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) undo and redo the studio's history, including in the JSON
 * editor; a form's text box keeps the browser's own undo while typing. Leaving with unsaved
 * changes asks first.
 */
export function useShortcuts(step: (type: 'undo' | 'redo') => void, dirty: boolean): void {
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (!(event.ctrlKey || event.metaKey)) return;
			const target = event.target as HTMLElement | null;
			if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
			const key = event.key.toLowerCase();
			if (key === 'z' || key === 'y') {
				event.preventDefault();
				step(key === 'y' || event.shiftKey ? 'redo' : 'undo');
			}
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	}, [step]);

	useEffect(() => {
		if (!dirty) return;
		const onLeave = (event: BeforeUnloadEvent) => event.preventDefault();
		window.addEventListener('beforeunload', onLeave);
		return () => window.removeEventListener('beforeunload', onLeave);
	}, [dirty]);
}
