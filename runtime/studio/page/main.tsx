import './zod-setup';
import '@xyflow/react/dist/style.css';
// The Scenario Studio: one screen, the graph on the left, forms, JSON and the chat on the right.
// Its styles in the order they cascade: a later file's rule wins over an earlier one's.
import './styles/page.css';
import './styles/forms.css';
import './styles/graph.css';
import './styles/preview-dialogs.css';
import './styles/traffic.css';
import './styles/file-dialogs.css';
import './styles/funnel.css';
import './styles/splits-versions.css';

import { createRoot } from 'react-dom/client';

import { App } from './App';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
