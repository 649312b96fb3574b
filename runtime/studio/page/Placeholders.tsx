import { asArray, asObject, states, type Draft } from './draft';
import { draftOf, useStudio } from './store';

/**
 * The `{{…}}` picker beside a text the bot sends: the client's fields, the scenario's variables
 * (declared, captured, stored by a call or a menu), the message and the order found. Picking one
 * appends it to the text.
 */

const FIXED = [
	'client.first_name|there',
	'client.last_name',
	'client.email',
	'client.phone',
	'client.tags',
	'message.text',
	'order.order_id',
	'order.status',
	'order.total',
];

export function variablesOf(draft: Draft): string[] {
	const found = new Set(asArray(draft.variables).filter((v): v is string => typeof v === 'string'));
	for (const value of Object.values(states(draft))) {
		const state = asObject(value);
		for (const part of [state.capture, state.menu]) {
			const into = asObject(part).into;
			if (typeof into === 'string' && into) found.add(into);
		}
		for (const key of Object.keys(asObject(asObject(state.call).store))) found.add(key);
	}
	return [...found];
}

export function PlaceholderPicker(props: { onPick(placeholder: string): void; testId?: string }) {
	const draft = useStudio(draftOf);
	const names = [...variablesOf(draft).map((v) => `vars.${v}`), ...FIXED];
	return (
		<select
			className="placeholder-picker"
			value=""
			title="Insert a placeholder"
			data-testid={props.testId}
			onChange={(e) => e.target.value && props.onPick(`{{${e.target.value}}}`)}
		>
			<option value="">{'{{…}}'}</option>
			{names.map((n) => (
				<option key={n} value={n}>
					{n}
				</option>
			))}
		</select>
	);
}
