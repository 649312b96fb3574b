import * as api from './api';
import type { N8nSource } from './N8nDialog';
import type { Draft, Json } from './draft';
import { formatScenario } from './format';

/** Where the scenario came from, and so where Save writes it. */
export type Source =
	| { kind: 'new' }
	| { kind: 'file'; path: string }
	| ({ kind: 'n8n' } & N8nSource);

/** A save shown as a diff, written once the designer confirms. */
export interface Pending {
	title: string;
	before: string;
	after: string;
	note?: string;
	/** Writes; resolves with what was written where, when the destination says more than `done`. */
	write(): Promise<string | void>;
}

/**
 * What Save would write, and where: the file in Prettier's layout (the diff against the file as it
 * is now, in the same layout, so only the scenario's changes show), or the n8n node's field.
 */
export async function prepareSave(
	source: Source,
	next: Draft,
	saved: Draft,
	version: Json | undefined,
): Promise<(Pending & { done: string }) | undefined> {
	const raised = next.version !== version ? `version raised to ${String(next.version)}` : '';
	if (source.kind === 'file') {
		const after = await formatScenario(next);
		const original = (await api.readScenarioFile(source.path)) ?? '';
		const before = original
			? await formatScenario(JSON.parse(original) as Draft).catch(() => original)
			: '';
		const relaid =
			before !== original &&
			'the file is written in the standard layout (Prettier), so lines laid out by hand may move';
		return {
			title: source.path.split(/[\\/]/).pop() ?? source.path,
			before,
			after,
			note: [raised, relaid].filter(Boolean).join('; '),
			write: async () => {
				await api.writeScenarioFile(source.path, after);
			},
			done: original ? `Saved ${source.path}` : `Created ${source.path}`,
		};
	}
	if (source.kind === 'n8n') {
		const after = JSON.stringify(next, null, 2);
		const before = JSON.stringify(saved, null, 2);
		return {
			title: `node "${source.nodeName}" of the n8n workflow "${source.workflowName}"`,
			before,
			after,
			note: [
				raised,
				'Scenario nodes of the workflow holding the same scenario are written too; a published workflow is published again',
			]
				.filter(Boolean)
				.join('; '),
			write: async () =>
				await api.saveN8n(source, { nodeName: source.nodeName, scenario: after, baseline: before }),
			done: `Saved to n8n: ${source.workflowName} › ${source.nodeName}`,
		};
	}
	return undefined;
}
