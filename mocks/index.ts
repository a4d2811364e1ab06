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
export type { ApiErrorBody, ErrorCode } from './core/errors.ts'
export { SandboxError } from './core/errors.ts'
export type { SandboxRequest, SandboxResponse } from './core/http.ts'
export type { JournalEntry } from './core/journal.ts'
export type { Operation, OperationContext, OperationOutcome } from './core/operation.ts'
export type { Page } from './core/paging.ts'
export { rulesOn } from './core/rules-on.ts'
export type {
  AnswerContext,
  AnyOperationDeclaration,
  ListOptions,
  OperationDeclaration,
  OperationMethod,
  ResponseDeclaration,
  Who,
} from './core/user-operation.ts'
export { defineOperation, listPage, pageQuery } from './core/user-operation.ts'
export { OperationDeclarationError } from './core/user-operations.ts'
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
