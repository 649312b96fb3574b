/** What the JSON editor's chunk (json-editor-codemirror.ts) hands the page. */
export interface JsonEditorOptions {
	text: string;
	schema: Record<string, unknown>;
	/** Every edit's whole text, as typed. */
	onText(text: string): void;
}

export interface JsonEditor {
	/** Replaces the text (a change from the forms, the graph or undo); not reported back. */
	setText(text: string): void;
	destroy(): void;
}
