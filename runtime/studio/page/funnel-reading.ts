import { useEffect, useState } from 'react';

import * as api from './api';
import type { SplitTestReport, VersionFunnel } from './runtime-bridge';
import { draftOf, useStudio } from './store';

/**
 * The period's reading of the opened scenario (GET /api/funnel: each version's funnel and each
 * split test's verdict), asked again when the scenario or the period picked above the graph change.
 */

export interface FunnelReading {
	versions?: VersionFunnel[];
	splits?: SplitTestReport[];
	error?: string;
}

export function useFunnelReading(): FunnelReading {
	const scenario = useStudio((s) =>
		typeof draftOf(s).id === 'string' ? String(draftOf(s).id) : '',
	);
	const { from, to } = useStudio((s) => s.traffic.period);
	const [found, setFound] = useState<FunnelReading & { key: string }>({ key: '' });
	const key = `${scenario}|${from}|${to}`;
	useEffect(() => {
		if (!scenario) return;
		let current = true;
		api.funnel(scenario, from, to).then(
			(answer) =>
				current &&
				setFound({ key, versions: answer?.versions ?? [], splits: answer?.splits ?? [] }),
			(e: Error) => current && setFound({ key, error: e.message }),
		);
		return () => {
			current = false;
		};
	}, [key]);
	return found.key === key ? found : {};
}
