/**
 * @module
 * The core's face: what the rest of the sandbox may use of `mocks/core`, by name. Outside the
 * core only this file is imported (`.dependency-cruiser.cjs`); what it does not list may change.
 */
export { quickChecksWith } from './answer-check.ts'
export { REFRESH_COOKIE, readBearer, refreshTokenOwner, sentRefreshToken } from './caller.ts'
export { CHANGES_HEADER, changeSummaries, decodeChanges } from './change-summary.ts'
export type { ControlOriginRule, ControlRoute } from './control.ts'
export {
  createControlOriginRule,
  refuseCrossSiteControl,
  refuseWithoutControlToken,
} from './control.ts'
export {
  clockBodySchema,
  journalSessionQuerySchema,
  resetBodySchema,
  saveSnapshotBodySchema,
} from './control-schemas.ts'
export { CONTROL_PREFIX, controlRoutes, isControlPath } from './control-table.ts'
export type { ApiErrorBody, ErrorCode, ErrorStatus } from './errors.ts'
export {
  badRequest,
  conflict,
  errorCodes,
  errorResponse,
  internalErrorResponse,
  notFound,
  SandboxError,
  unauthorized,
} from './errors.ts'
export type { JournalExport, SandboxEvents } from './events.ts'
export { createSandboxEvents } from './events.ts'
export {
  exampleNames,
  faultRuleSchema,
  faultStatuses,
  MAX_DELAY_MS,
  retryAfterStatuses,
} from './fault-rules.ts'
export type { ListedRule } from './faults.ts'
export { FAULT_HEADER } from './faults.ts'
export type { SandboxRequest, SandboxResponse } from './http.ts'
export { jsonResponse, parseCookies } from './http.ts'
export type { HarExportOptions, JournalEntry, JournalHarWriter, RequestJournal } from './journal.ts'
export { bounded, CLIENT_HEADER, SESSION_CREATED_HEADER } from './journal.ts'
export type { Operation, OperationContext, OperationOutcome } from './operation.ts'
export { defineBuiltInOperation } from './operation.ts'
export { createOriginMatcher, LOCAL_ORIGINS } from './origins.ts'
export type { Page } from './paging.ts'
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './paging.ts'
export type {
  DeclaredRules,
  Effect,
  EffectContext,
  Fields,
  Precondition,
  RuleInput,
} from './preconditions.ts'
export { applyEffect, statusOf, valueIn } from './preconditions.ts'
export { jsonErrorMessage, printable } from './printable.ts'
export { proposedDocument } from './proposed-document.ts'
export type { MatchedOperation } from './request-context.ts'
export { RequestContext } from './request-context.ts'
export type { CheckedInput } from './request-input.ts'
export { checkInput } from './request-input.ts'
export { createRouter } from './router.ts'
export { rulesOn } from './rules-on.ts'
export { assembleSandbox } from './sandbox.ts'
export type {
  OperationEvent,
  ResetOptions,
  ResetResult,
  SandboxContent,
  SandboxCore,
  SandboxCoreOptions,
} from './sandbox-types.ts'
export type {
  RecordChange,
  ScenarioFile,
  ScenarioInput,
  ScenarioInputs,
  ScenarioSource,
  SnapshotChanges,
} from './scenario-files.ts'
export { NAME_PATTERN, NAME_RULE, ScenarioError, snapshotChanges } from './scenario-files.ts'
export {
  DEFAULT_SESSION,
  isValidSessionId,
  namesSession,
  refuseInvalidSession,
  SESSION_COOKIE,
  SESSION_HEADER,
  SESSION_ID,
  SESSION_ID_RULE,
  sessionIdOf,
  viewedSession,
} from './session-id.ts'
export type { SandboxStage } from './stage.ts'
export type {
  Kept,
  KeptByName,
  LoggedChange,
  LoggedWrite,
  SavedSnapshotRecord,
  SessionLog,
  SharedJournal,
  StateStore,
} from './state-store.ts'
export { memoryStore, restoreKept, StaleCopyError } from './state-store.ts'
export { issueAccessToken } from './tokens.ts'
export type {
  AnswerContext,
  AnyOperationDeclaration,
  ListOptions,
  OperationDeclaration,
  OperationMethod,
  ResponseDeclaration,
  Schema,
  Who,
} from './user-operation.ts'
export { defineOperation, listPage, pageQuery } from './user-operation.ts'
export { OperationDeclarationError } from './user-operations.ts'
export { describeIssues } from './validation.ts'
