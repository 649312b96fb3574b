import type { VariantRow } from './split-view';

/** A split step's variants in its box: name, weight, share of new clients. */
export function Variants({ state, rows }: { state: string; rows: VariantRow[] }) {
	return (
		<ul className="variants" data-testid={`variants-${state}`}>
			{rows.map((v) => (
				<li
					key={v.name}
					data-testid={`variant-${state}-${v.name}`}
					className={v.winner ? 'winner' : ''}
				>
					<span className="variant-name">{v.name}</span>
					<span className="variant-share">
						weight {v.weight} · {v.share}%{v.winner ? ' (winner)' : ''}
					</span>
				</li>
			))}
		</ul>
	);
}
