import { autocompletion, closeBrackets } from '@codemirror/autocomplete';
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonLanguage, jsonParseLinter } from '@codemirror/lang-json';
import {
	bracketMatching,
	defaultHighlightStyle,
	foldGutter,
	indentOnInput,
	syntaxHighlighting,
} from '@codemirror/language';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import {
	EditorView,
	highlightActiveLine,
	hoverTooltip,
	keymap,
	lineNumbers,
} from '@codemirror/view';
import {
	jsonCompletion,
	jsonSchemaHover,
	jsonSchemaLinter,
	stateExtensions,
} from 'codemirror-json-schema';

import type { JsonEditor, JsonEditorOptions } from './json-editor';

/**
 * The JSON editor, in a chunk of its own that the page imports after the graph is
 * drawn: CodeMirror with the scenario's JSON Schema (completion, hover help, lint), a third of the
 * page's code that nothing needs before the JSON tab. It keeps no undo history: the studio's own
 * covers the forms and the JSON alike.
 */
export function createJsonEditor(parent: HTMLElement, options: JsonEditorOptions): JsonEditor {
	/** Set while the text is replaced from outside: that is no edit to report back. */
	let replacing = false;
	const view = new EditorView({
		parent,
		state: EditorState.create({
			doc: options.text,
			extensions: [
				lineNumbers(),
				foldGutter(),
				lintGutter(),
				highlightActiveLine(),
				indentOnInput(),
				bracketMatching(),
				closeBrackets(),
				syntaxHighlighting(defaultHighlightStyle),
				keymap.of([...defaultKeymap, indentWithTab]),
				json(),
				linter(jsonParseLinter()),
				linter(jsonSchemaLinter(), { delay: 300 }),
				autocompletion(),
				jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
				hoverTooltip(jsonSchemaHover()),
				stateExtensions(options.schema as never),
				EditorView.updateListener.of((update) => {
					if (update.docChanged && !replacing) options.onText(update.state.doc.toString());
				}),
			],
		}),
	});
	return {
		setText(text) {
			replacing = true;
			try {
				view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
			} finally {
				replacing = false;
			}
		},
		destroy: () => view.destroy(),
	};
}
