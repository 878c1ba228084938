export { AI_THRESHOLD, runSimulation, simulationResultSchema, type SimulationResult } from "./run";
export { DEFAULT_TABLE_NAME, MAX_CALLS, MIN_CALLS, parseSimulateRequest } from "./request";
export { generateCalls, type SimulatedCall } from "./generate";
