import type { Json } from './draft';
import { JsonInput, Row, TextInput } from './fields';

/** Beside the preview chat: the test client, the declared workflows' results, the export. */

export type TestClient = { first_name?: string; tags?: string; orders?: Json };
export type WorkflowAnswer = { outcome: 'success' | 'empty' | 'failure'; result?: Json };

export function TestClientForm(props: { client: TestClient; onChange(client: TestClient): void }) {
	const { client } = props;
	const field = <K extends keyof TestClient>(key: K, testId: string) => ({
		value: client[key],
		onChange: (value: TestClient[K] | undefined) => props.onChange({ ...client, [key]: value }),
		testId,
	});
	return (
		<fieldset>
			<legend>test client</legend>
			<Row label="first name">
				<TextInput {...field('first_name', 'client-first-name')} />
			</Row>
			<Row label="tags">
				<TextInput {...field('tags', 'client-tags')} />
			</Row>
			<Row label="orders (JSON list)">
				<JsonInput {...field('orders', 'client-orders')} rows={3} />
			</Row>
		</fieldset>
	);
}

export function WorkflowResults(props: {
	workflows: string[];
	answers: Record<string, WorkflowAnswer>;
	onChange(answers: Record<string, WorkflowAnswer>): void;
}) {
	if (props.workflows.length === 0) return null;
	const set = (name: string, answer: WorkflowAnswer) =>
		props.onChange({ ...props.answers, [name]: answer });
	return (
		<fieldset>
			<legend>workflow results</legend>
			{props.workflows.map((name) => {
				const answer = props.answers[name] ?? { outcome: 'empty' };
				return (
					<div key={name}>
						<Row label={name}>
							<select
								value={answer.outcome}
								onChange={(e) =>
									set(name, { ...answer, outcome: e.target.value as WorkflowAnswer['outcome'] })
								}
							>
								<option value="success">returns an item</option>
								<option value="empty">returns nothing</option>
								<option value="failure">fails</option>
							</select>
						</Row>
						{answer.outcome === 'success' && (
							<JsonInput
								value={answer.result}
								onChange={(v) => set(name, { ...answer, result: v })}
								testId={`workflow-${name}`}
							/>
						)}
					</div>
				);
			})}
		</fieldset>
	);
}

/** The client's messages, one a line, as Test Conversation's Client Messages takes them. */
export function TranscriptExport(props: { messages: string[] }) {
	const exported = props.messages.join('\n');
	return (
		<details>
			<summary>Transcript as a Test Conversation input (Client Messages)</summary>
			<textarea readOnly rows={4} value={exported} data-testid="transcript-export" />
			<button onClick={() => void navigator.clipboard.writeText(exported)}>Copy</button>
			<a
				download="client-messages.txt"
				href={`data:text/plain;charset=utf-8,${encodeURIComponent(exported)}`}
			>
				Download
			</a>
		</details>
	);
}
