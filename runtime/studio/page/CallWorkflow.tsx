import { useState } from 'react';

import * as api from './api';
import { asObject, states, type Draft, type JsonObject } from './draft';
import { setState } from './edits';
import { withField } from './fields';
import { draftOf, useStudio } from './store';

/**
 * A call's workflow: a name typed (the declared ones offered), or, when the scenario was opened
 * from n8n, a workflow of that n8n picked from its list. Either way a name not yet under the top
 * level's `workflows` can be declared there in one click (picked, it is declared at once, its n8n
 * name and ID in the description, for the Scenario node's Workflows field).
 */

/**
 * A scenario name for an n8n workflow: its name up to a ":" or "(" (n8n names often explain
 * themselves after one), in lower case, a letter first, then letters, digits, "_" and "-".
 */
function workflowNameOf(n8nName: string): string {
	const slug = (n8nName.split(/[:(]/)[0] ?? '')
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9_-]+/g, '-')
		.replace(/^[^a-z]+/, '')
		.slice(0, 48)
		.replace(/-+$/, '');
	return slug || 'workflow';
}

/** The draft with the selected state's call naming `name`, declared at the top level. */
function named(draft: Draft, state: string, name: string, about?: JsonObject): Draft {
	const declared = asObject(draft.workflows);
	const top =
		name in declared || !name
			? draft
			: withField(draft, 'workflows', { ...declared, [name]: about ?? {} });
	const current = asObject(states(draft)[state]);
	const call = withField(asObject(current.call), 'workflow', name);
	return setState(top, state, withField(current, 'call', call));
}

export function CallWorkflow(props: { value: unknown; onChange(name: string): void }) {
	const draft = useStudio(draftOf);
	const selected = useStudio((s) => s.selected);
	const source = useStudio((s) => s.source);
	const declared = Object.keys(asObject(draft.workflows));
	const name = typeof props.value === 'string' ? props.value : '';
	const declare = (to: string, about?: JsonObject) =>
		selected && useStudio.getState().change(named(draft, selected, to, about), `${selected}.call`);
	return (
		<div className="inline call-workflow">
			<input
				list="declared-workflows"
				value={name}
				placeholder="its name in the scenario, such as lookup-order"
				data-testid="call-workflow"
				onChange={(e) => props.onChange(e.target.value)}
			/>
			<datalist id="declared-workflows">
				{declared.map((w) => (
					<option key={w} value={w} />
				))}
			</datalist>
			{name && !declared.includes(name) && (
				<button data-testid="call-declare" onClick={() => declare(name)}>
					Declare "{name}"
				</button>
			)}
			{source.kind === 'n8n' && (
				<FromN8n
					target={{ baseUrl: source.baseUrl, apiKey: source.apiKey }}
					onPick={(w) =>
						declare(workflowNameOf(w.name), {
							description: `n8n workflow "${w.name}" (ID ${w.id})`,
						})
					}
				/>
			)}
		</div>
	);
}

type Listed = Awaited<ReturnType<typeof api.n8nWorkflows>>[number];

/** The connected n8n's workflows, asked for when the designer opens the list. */
function FromN8n(props: {
	target: { baseUrl: string; apiKey: string };
	onPick(workflow: Listed): void;
}) {
	const [listed, setListed] = useState<Listed[]>();
	const [error, setError] = useState('');
	if (!listed)
		return (
			<>
				<button
					data-testid="call-from-n8n"
					onClick={() => {
						setError('');
						api.n8nWorkflows(props.target).then(setListed, (e: Error) => setError(e.message));
					}}
				>
					Pick from n8n…
				</button>
				{error && <span className="hint bad">{error}</span>}
			</>
		);
	return (
		<select
			value=""
			data-testid="call-n8n-workflow"
			onChange={(e) => {
				const picked = listed.find((w) => w.id === e.target.value);
				if (picked) props.onPick(picked);
			}}
		>
			<option value="">(a workflow of n8n)</option>
			{listed.map((w) => (
				<option key={w.id} value={w.id}>
					{w.name}
					{w.published ? '' : ' (not published)'}
				</option>
			))}
		</select>
	);
}
