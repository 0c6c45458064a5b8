// A split timeline's worker started from sources (tests under tsx); the bundle starts it from cli.ts.
import { runTimelineWorker } from './timelineWorker';

runTimelineWorker();
