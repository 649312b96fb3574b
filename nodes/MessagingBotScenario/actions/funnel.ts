import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { renderFunnel, type FunnelTraffic } from '../../../runtime/scenarios';

/** The main path's funnel over a period as a PNG, "<file>-funnel.png", for binary `funnel`. */
export async function funnelFile(
	ctx: IExecuteFunctions,
	traffic: FunnelTraffic,
	title: string,
	file = title,
): Promise<IBinaryData> {
	const png = Buffer.from(renderFunnel(traffic, title).png);
	return await ctx.helpers.prepareBinaryData(png, `${file}-funnel.png`, 'image/png');
}
