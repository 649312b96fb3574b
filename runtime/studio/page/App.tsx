import { useEffect } from 'react';

import * as api from './api';
import { Canvas } from './Canvas';
import { useShortcuts } from './shortcuts';
import { SidePanel } from './SidePanel';
import { StudioDialogs } from './StudioDialogs';
import { isDirty, useStudio } from './store';
import { Toolbar } from './Toolbar';
import { useTraffic } from './Traffic';

/** The screen: toolbar, graph and problems, the side panel, the dialogs. */
export function App() {
	const historyStep = useStudio((s) => s.historyStep);
	const dirty = useStudio(isDirty);
	useShortcuts(historyStep, dirty);
	useOpenedFiles();
	useTraffic();
	return (
		<div className="studio">
			<Toolbar />
			<main>
				<Canvas />
				<SidePanel />
			</main>
			<StudioDialogs />
		</div>
	);
}

/** The files the studio was opened on, the first one opened at start. */
function useOpenedFiles() {
	useEffect(() => {
		const { say, setFiles, openFile } = useStudio.getState();
		if (!api.hasToken())
			return say('No token in the address: open the address the studio command printed.');
		api.session().then(
			(s) => {
				setFiles(s.files);
				if (s.files[0]) void openFile(s.files[0]);
			},
			(error: Error) => say(error.message),
		);
	}, []);
}
