export { AI_THRESHOLD, runSimulation } from "./run";
export { simulationResultSchema, type SimulationResult } from "./result";
export { DEFAULT_TABLE_NAME, MAX_CALLS, MIN_CALLS, parseSimulateRequest } from "./request";
export { generateCalls } from "./generate";
