import { BURST_SECRET } from '../../helpers/delivery-burst';
import { signedDelivery } from '../../helpers/deliveries';
import { badHeaderAuth } from './attacks';

/** A signed delivery of 4 MiB: valid JSON (n8n parses bodies on its URL before the node). */
export function bigSigned(id: string) {
	return signedDelivery(
		BURST_SECRET,
		'order.created',
		{ order_id: 'o', note: 'x'.repeat(4 << 20) },
		id,
		'wh_big',
	);
}

/** The same 4 MiB body to n8n's Webhook node, with a wrong Header Auth value. */
export function bigHeaderAuth(i: number) {
	return { ...badHeaderAuth(i), body: bigSigned(`big_plain_${i}`).body };
}

/** An ordinary signed delivery with its own id. */
export function plainSigned(id: string) {
	const { body, headers } = signedDelivery(
		BURST_SECRET,
		'order.created',
		{ order_id: 'o', delivery_id: id },
		id,
		'wh_plain',
	);
	return { body, headers };
}
