import type { ReactNode } from 'react';

import { asObject, type Json } from './draft';

/**
 * An object as name/value rows (a `set`, a call's inputs and store, the workflows). An object
 * cannot hold two rows of one name (two left empty, say): the rows are then kept as a list of
 * [name, value] pairs, which validation lists with its path, until the names differ. So nothing
 * typed is dropped.
 */

type Pair = [name: string, value: Json];

function pairsOf(value: Json | undefined): Pair[] {
	if (Array.isArray(value))
		return value.flatMap((p): Pair[] =>
			Array.isArray(p) && typeof p[0] === 'string' ? [[p[0], p[1] ?? '']] : [],
		);
	return Object.entries(asObject(value));
}

/** The rows as an object when their names differ, as pairs when two share one. */
function fromPairs(rows: Pair[]): Json {
	const unique = new Set(rows.map(([name]) => name)).size === rows.length;
	return unique ? Object.fromEntries(rows) : rows.map(([name, value]) => [name, value]);
}

export function PairRows(props: {
	value: Json | undefined;
	/** `undefined` when the last row is removed, unless `emptyValue` says what is left. */
	onChange(value: Json | undefined): void;
	testId: string;
	/** The row added by "+": its name given how many rows there are. */
	newRow(count: number): Pair;
	addLabel: string;
	namePlaceholder?: string;
	/** Rows shown when there are none (a `set` always has one). */
	atLeastOne?: boolean;
	emptyValue?: Json;
	renderValue(value: Json, change: (value: Json) => void, testId: string): ReactNode;
}) {
	const stored = pairsOf(props.value);
	const rows: Pair[] = stored.length || !props.atLeastOne ? stored : [['', '']];
	const write = (next: Pair[]) => props.onChange(next.length ? fromPairs(next) : props.emptyValue);
	const duplicated = new Set(rows.map(([n]) => n)).size !== rows.length;
	return (
		<div className="kv-rows" data-testid={props.testId}>
			{rows.map(([name, value], i) => (
				<div className="inline" key={i}>
					<input
						value={name}
						placeholder={props.namePlaceholder ?? 'name'}
						data-testid={`${props.testId}-${i}-name`}
						onChange={(e) => write(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
					/>
					{props.renderValue(
						value,
						(v) => write(rows.map((r, j) => (j === i ? [r[0], v] : r))),
						`${props.testId}-${i}-value`,
					)}
					<button title="Remove this row" onClick={() => write(rows.filter((_, j) => j !== i))}>
						✕
					</button>
				</div>
			))}
			{duplicated && (
				<div className="hint bad" data-testid={`${props.testId}-duplicate`}>
					two rows have one name: name each differently
				</div>
			)}
			<button
				data-testid={`${props.testId}-add`}
				onClick={() => write([...rows, props.newRow(rows.length)])}
			>
				{props.addLabel}
			</button>
		</div>
	);
}
