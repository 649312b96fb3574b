import type { StateTraffic } from './runtime-bridge';

/** A box's traffic line: conversations that reached it and dropped off there (quiet past the quiet time), a red bar as long as the share. */
export function StateCounts({ name, traffic }: { name: string; traffic: StateTraffic }) {
	const share = Math.round(traffic.share * 100);
	return (
		<div className="state-traffic" data-testid={`traffic-${name}`}>
			<span>
				{traffic.entered} reached · {traffic.dropOff} dropped off ({share}%)
			</span>
			<div
				className="drop-bar"
				style={{ width: `${traffic.dropOff > 0 ? Math.max(3, share) : 0}%` }}
			/>
		</div>
	);
}

/** An arrow's count, before its label (which may be cut short), once per pair of boxes. */
export function EdgeCount({ id, count }: { id: string; count: number }) {
	return (
		<span className="edge-count" data-testid={`edge-count-${id}`}>
			×{count}{' '}
		</span>
	);
}
