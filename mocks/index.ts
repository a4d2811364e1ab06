export { anchors } from '../fixtures/anchors.ts'
export type { Persona, PersonaKey } from '../fixtures/personas.ts'
export { getPersona, personaIds, personas } from '../fixtures/personas.ts'
export type { Scenario } from '../fixtures/scenarios.ts'
export { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
export type { Exchange, Har, HarEntry } from '../recordings/har.ts'
export type { Recording, Recordings } from '../recordings/replay/recordings.ts'
export { RecordingsFormatError, readRecordings } from '../recordings/replay/recordings.ts'
export type { Replay, ReplayOptions, ReplayRequest } from '../recordings/replay/replay.ts'
export { createReplay } from '../recordings/replay/replay.ts'
export { toFetchResponse } from './adapters/sandbox-routes.ts'
export type {
  AnswerContext,
  AnyOperationDeclaration,
  ApiErrorBody,
  ErrorCode,
  JournalEntry,
  ListOptions,
  Operation,
  OperationContext,
  OperationDeclaration,
  OperationMethod,
  OperationOutcome,
  Page,
  ResponseDeclaration,
  SandboxRequest,
  SandboxResponse,
  Who,
} from './core/index.ts'
export {
  defineOperation,
  listPage,
  OperationDeclarationError,
  pageQuery,
  rulesOn,
  SandboxError,
} from './core/index.ts'
export type { CollectionName, DataSet, RecordOf } from './model/schemas.ts'
export { collectionNames } from './model/schemas.ts'
export type { Store } from './model/store.ts'
/** zod 4 (its `zod/mini` API), the one the sandbox's schemas are written with. */
export { z } from './model/zod.ts'
export type { OperationKit, OperationsExport } from './operation-kit.ts'
export { operationKit } from './operation-kit.ts'
export { operations } from './operations/table.ts'
export type { HandlerOptions } from './runtimes/node/handlers.ts'
export { createHandlers } from './runtimes/node/handlers.ts'
export type { ResetOptions, ResetResult, Sandbox, SandboxOptions } from './sandbox.ts'
export { CONTROL_PREFIX, createSandbox, SESSION_COOKIE, SESSION_HEADER } from './sandbox.ts'
export type { ScenarioSource } from './scenarios/compile-scenarios.ts'
export { ScenarioError } from './scenarios/compile-scenarios.ts'
export { parseScenarioText } from './scenarios/parse-text.ts'
export type { RecordChange, ScenarioFile } from './scenarios/scenario-file.ts'
export { defineScenario } from './scenarios/scenario-file.ts'
export type { ScenarioInput, ScenarioInputs } from './scenarios/scenario-inputs.ts'
