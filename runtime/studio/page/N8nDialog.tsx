import { useState } from 'react';

import { openN8n, type N8nTarget, type N8nWorkflow } from './api';
import { Dialog } from './Dialogs';

export interface N8nSource extends N8nTarget {
	workflowName: string;
	nodeName: string;
}

const OPERATIONS: Record<string, string> = {
	handleMessage: 'Handle Message',
	fireTimers: 'Run Due Work',
	testConversation: 'Test Conversation',
	getDiagram: 'Get Diagram',
	getConversation: 'Get Conversation',
	release: 'Release to Bot',
};

/**
 * Opens the Scenario node of a workflow in a running n8n, through its public API and an API key.
 * The key stays in this dialog's password field and the studio server's calls to n8n.
 */
export function N8nDialog(props: {
	initial?: N8nSource;
	onOpen(source: N8nSource, scenario: string): void;
	onClose(): void;
}) {
	const [target, setTarget] = useState<N8nTarget>(
		props.initial ?? { baseUrl: 'http://localhost:5678', apiKey: '', workflowId: '' },
	);
	const [found, setFound] = useState<N8nWorkflow>();
	const [error, setError] = useState('');
	const field = (key: keyof N8nTarget, label: string, type = 'text') => (
		<label className="row">
			<span className="row-label">{label}</span>
			<input
				type={type}
				value={target[key]}
				autoComplete="off"
				data-testid={`n8n-${key}`}
				onChange={(e) => setTarget({ ...target, [key]: e.target.value })}
			/>
		</label>
	);
	const find = () => {
		setError('');
		setFound(undefined);
		openN8n(target).then(setFound, (e: Error) => setError(e.message));
	};
	return (
		<Dialog title="Open from n8n" onClose={props.onClose} testId="n8n-dialog">
			{field('baseUrl', 'n8n URL (the address of your n8n)')}
			{field('apiKey', 'API key (n8n: Settings > n8n API)', 'password')}
			{field('workflowId', "Workflow ID, or the workflow's address in n8n")}
			<button data-testid="n8n-find" onClick={find}>
				Find its Scenario nodes
			</button>
			{error && (
				<div className="hint bad" data-testid="n8n-error">
					{error}
				</div>
			)}
			{found && <FoundNodes found={found} target={target} onOpen={props.onOpen} />}
		</Dialog>
	);
}

/** The workflow found, whether it is published, and a button for each of its Scenario nodes. */
function FoundNodes(props: {
	found: N8nWorkflow;
	target: N8nTarget;
	onOpen(source: N8nSource, scenario: string): void;
}) {
	const { found, target } = props;
	return (
		<>
			<p className="hint" data-testid="n8n-found">
				{found.name}
				{found.published
					? ': published; Save to n8n publishes the new scenario at once'
					: ': not published; Save to n8n saves it, you publish it in n8n'}
			</p>
			{found.nodes.length === 0 && (
				<div className="hint bad">"{found.name}" has no Messaging Bot Scenario node.</div>
			)}
			{found.nodes.map((node) => (
				<div key={node.name} className="inline">
					<button
						data-testid={`n8n-node-${node.name}`}
						disabled={node.scenario === undefined}
						onClick={() =>
							node.scenario !== undefined &&
							props.onOpen(
								{ ...target, workflowName: found.name, nodeName: node.name },
								node.scenario,
							)
						}
					>
						Open "{node.name}" ({OPERATIONS[node.operation] ?? node.operation})
					</button>
					{node.problem && <span className="hint bad">Cannot open: {node.problem}</span>}
				</div>
			))}
		</>
	);
}
