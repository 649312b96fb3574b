import { useEffect, useRef, useState } from 'react';

import type { Draft } from './draft';
import type { JsonEditor } from './json-editor';

/**
 * The scenario as JSON, in sync with the forms and the graph both ways: the scenario's JSON Schema
 * completes fields and values and explains them on hover. The editor (CodeMirror with
 * codemirror-json-schema) is a chunk of its own, imported once the page is up.
 */
export function JsonView(props: {
	draft: Draft;
	schema: Record<string, unknown>;
	onChange(draft: Draft): void;
}) {
	const host = useRef<HTMLDivElement>(null);
	const [editor, setEditor] = useState<JsonEditor>();
	const [failed, setFailed] = useState('');
	/** The draft the editor's text stands for, as JSON: a change from elsewhere replaces the text. */
	const shown = useRef('');
	const onChange = useRef(props.onChange);
	onChange.current = props.onChange;
	const latest = useRef(props.draft);
	latest.current = props.draft;

	useEffect(() => {
		let made: JsonEditor | undefined;
		let cancelled = false;
		// After the first drawing: the graph does not wait for the editor's script.
		const idle = requestIdleCallback(() => void load(), { timeout: 1000 });
		const load = () =>
			import('./json-editor-codemirror').then(
				({ createJsonEditor: create }) => {
					if (cancelled || !host.current) return;
					shown.current = JSON.stringify(latest.current);
					made = create(host.current, {
						text: JSON.stringify(latest.current, null, 2),
						schema: props.schema,
						onText: (text) => {
							let parsed: unknown;
							try {
								parsed = JSON.parse(text);
							} catch {
								return; // the editor marks where; nothing changes until it parses
							}
							if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
							shown.current = JSON.stringify(parsed);
							onChange.current(parsed as Draft);
						},
					});
					setEditor(made);
				},
				(error: Error) => setFailed(error.message),
			);
		return () => {
			cancelled = true;
			cancelIdleCallback(idle);
			made?.destroy();
		};
	}, [props.schema]);

	useEffect(() => {
		const compact = JSON.stringify(props.draft);
		if (!editor || compact === shown.current) return;
		shown.current = compact;
		editor.setText(JSON.stringify(props.draft, null, 2));
	}, [props.draft, editor]);

	return (
		<div className="json-view" data-testid="json-view" ref={host}>
			{failed && <div className="hint bad">{failed}</div>}
		</div>
	);
}
