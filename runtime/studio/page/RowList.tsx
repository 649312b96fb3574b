import type { ReactNode } from 'react';

import { asArray, type Json, type JsonObject } from './draft';
import { JsonInput } from './fields';

/**
 * A list as rows (actions, conditions): each row with its remove button, a select below to add a
 * row of a kind. A value that is not a list is shown as typed JSON (validation lists it), never
 * dropped; an emptied list removes its field.
 */

export interface RowKind {
	label: string;
	make(): JsonObject;
}

export function RowList<K extends string>(props: {
	value: Json | undefined;
	onChange(value: Json | undefined): void;
	testId: string;
	className: string;
	kinds: Record<K, RowKind>;
	/** The add select's first option, given the number of rows. */
	addLabel(count: number): string;
	removeTitle: string;
	/** Shown before every row but the first ("and" between conditions). */
	between?: string;
	row(item: Json, change: (next: Json) => void, testId: string): ReactNode;
}) {
	if (props.value !== undefined && !Array.isArray(props.value))
		return <JsonInput value={props.value} onChange={props.onChange} testId={props.testId} />;
	const list = asArray(props.value);
	const update = (next: Json[]) => props.onChange(next.length ? next : undefined);
	const kinds = Object.keys(props.kinds) as K[];
	return (
		<div className={props.className} data-testid={props.testId}>
			{list.map((item, i) => (
				<div className="inline list-row" key={i} data-testid={`${props.testId}-${i}`}>
					{i > 0 && props.between && <span className="hint">{props.between}</span>}
					{props.row(
						item,
						(next) => update(list.map((x, j) => (j === i ? next : x))),
						`${props.testId}-${i}`,
					)}
					<button title={props.removeTitle} onClick={() => update(list.filter((_, j) => j !== i))}>
						✕
					</button>
				</div>
			))}
			<select
				value=""
				data-testid={`${props.testId}-add`}
				onChange={(e) =>
					e.target.value && update([...list, props.kinds[e.target.value as K].make()])
				}
			>
				<option value="">{props.addLabel(list.length)}</option>
				{kinds.map((k) => (
					<option key={k} value={k}>
						{props.kinds[k].label}
					</option>
				))}
			</select>
		</div>
	);
}
