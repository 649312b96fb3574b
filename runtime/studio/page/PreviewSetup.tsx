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
			<Orders value={client.orders} onChange={(orders) => props.onChange({ ...client, orders })} />
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

/** The order fields the scenario's `findOrder` and `{{order.…}}` read (the service's client record). */
const ORDER_FIELDS = ['order_id', 'status', 'total', 'created_at'] as const;

/** The test client's orders as rows, one field a column; `findOrder` looks them up by `order_id`. */
function Orders(props: { value: Json | undefined; onChange(orders: Json | undefined): void }) {
	const rows = (Array.isArray(props.value) ? props.value : []).map((o) =>
		o && typeof o === 'object' && !Array.isArray(o) ? o : {},
	);
	const write = (next: Array<Record<string, Json>>) =>
		props.onChange(next.length ? next : undefined);
	return (
		<div className="orders" data-testid="client-orders">
			<div className="hint">orders (findOrder finds one by its order_id, or "latest")</div>
			<table>
				<thead>
					<tr>
						{ORDER_FIELDS.map((f) => (
							<th key={f}>{f}</th>
						))}
						<th />
					</tr>
				</thead>
				<tbody>
					{rows.map((order, i) => (
						<tr key={i}>
							{ORDER_FIELDS.map((f) => (
								<td key={f}>
									<input
										value={order[f] === undefined ? '' : String(order[f])}
										data-testid={`order-${i}-${f}`}
										placeholder={f === 'order_id' ? 'ord_1001' : f === 'status' ? 'shipped' : ''}
										onChange={(e) =>
											write(
												rows.map((o, j) =>
													j === i
														? {
																...o,
																[f]:
																	f === 'total' &&
																	e.target.value !== '' &&
																	!Number.isNaN(Number(e.target.value))
																		? Number(e.target.value)
																		: e.target.value,
															}
														: o,
												),
											)
										}
									/>
								</td>
							))}
							<td>
								<button onClick={() => write(rows.filter((_, j) => j !== i))}>✕</button>
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<button
				data-testid="add-order"
				onClick={() => write([...rows, { order_id: '', status: '' }])}
			>
				+ order
			</button>
		</div>
	);
}
