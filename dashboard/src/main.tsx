import { render } from 'preact';
import { App } from './app.js';
import { loadSession } from './session.js';
import './styles.css';

void loadSession();
render(<App />, document.getElementById('app')!);
